"""Golden playthroughs: seeded games written out as readable transcripts.

A transcript has a header (game, options, seats, seed and its SHA-256), the events of
the new game, one line per action::

    <version> s<seat> <code> [dice] <events as compact JSON>

then the final state and the outcome. The files under ``tests/golden/`` are compared
with freshly played games by ``tests/test_golden.py``; after an intended rules change
regenerate them and review the diff::

    python -m tests.golden --regenerate        # rewrite every file
    python -m tests.golden                     # only check, exit 1 on a difference

The generator is generic: any engine satisfying engines/base.py can add a game to
:data:`GOLDENS`. Where a game offers a choice, the action taken is picked
deterministically (see :func:`default_choice`; a golden may name its own chooser, as the
lions games do with :func:`lions_choice`).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.games import GAMES
from engines.base import Action, Engine, Event, seed_digest
from engines.lions import LIONS, OFFER, PASS, LionsState, pushed, sides
from engines.lions_ai import LionsAI, codes_of, evaluate, whole_turns
from engines.playout import Choose, playout

GOLDEN_DIR = Path(__file__).with_name("golden")
REGENERATE = "python -m tests.golden --regenerate"
MAX_ACTIONS = 5000


@dataclass(frozen=True)
class Golden:
    """One golden game: which engine, options (as JSON), seat count and seed, and how the
    actions are chosen (default: :func:`default_choice`)."""

    game: str
    seats: int
    seed: str
    options: Mapping[str, Any] = field(default_factory=dict)
    choose: Choose[Any] | None = None


def _seed(label: str) -> str:
    """A fixed 64-hex seed named by a label (readable in this file, stable forever)."""
    return seed_digest(f"golden:{label}")


# «Охота на львов» has no dice and offers «Сдаться» on every action, so the generic chooser
# would end a game at once: its goldens use :func:`lions_choice` (seat 0 the AI).
_LIONS_AI = LionsAI(width=4, budget=2000, deep_below=0)  # quick: the goldens are replayed by every test run


def lions_choice(state: LionsState, actions: Sequence[Action]) -> Action:
    """«Охота на львов»: seat 0 plays engines/lions_ai.py; seat 1 plays whole turns picked at
    random or greedily by the AI's static score (a coin seeded by the position decides), and
    offers a draw once, the first time it is a piece behind (the AI answers).

    Each turn is planned whole from the position at its start (the codes already applied in
    the turn are counted off the plan), so every action of a turn follows one plan."""
    if state.draw_offer is not None:
        code = _LIONS_AI.plan(state)[0]
    else:
        mine, theirs = sides(state)
        if state.turn == 1 and not state.segments and state.offered_turn < 0 and mine.bit_count() < theirs.bit_count():
            code = OFFER
        else:
            done = sum(len(path) for path in state.segments)  # per piece: its pick and its steps
            start = replace(state, segments=(), version=state.version - done)
            plan = _LIONS_AI.plan(start) if state.turn == 0 else _lions_by_chance(start)
            code = plan[done]
    return next(a for a in actions if a.code == code)


def _lions_by_chance(state: LionsState) -> list[str]:
    """Seat 1's whole turn in a lions golden: the codes, «Готово» last."""
    mover, opp = sides(state)
    first = pushed(mover, opp) if state.push_on else 0
    turns = whole_turns(mover, opp, state.push_on, state.side == LIONS, first)
    if not turns:
        return [PASS]
    rng = random.Random(f"{state.seed}:{state.version}")
    if rng.random() < 0.5:
        chosen = max(turns, key=lambda t: (evaluate(t.mover, t.opp), rng.random()))
    else:
        chosen = rng.choice(turns)
    return codes_of(chosen.paths)


# Labels were picked so each game shows its special cases: a void throw in every sosedi
# game, and in the tower game also a throw that ends phase 1 and puts coasters back; in
# every spichki game a double while setting the target, a double hit, and an exact hit
# followed by re-setting the target (a double there too), the 2p game ending in a draw
# when the pile runs out and the 8p game won on the most matches when the pile runs out;
# in both tishe games a choice between entering and moving, a bump on a 5-circle by a
# checker entering with 6-6 (12 → 15), double circles with the missed turns skipped and
# a lost extra throw, and bounces near 100; in the both_home game also 77 → 74 with two
# missed turns, bounces onto 91 → 94 and 97 → 94, and the first checker home staying
# there while the throws go to the other; in both ludo games a capture, a third six in a
# row that is not played, and pieces entering the centre, and in the 3p bonuses game also
# bonus throws for a capture and for the centre and a block on a start cell that leaves
# an opponent without a move (action 144); in both parchis games a capture with its +20, a
# piece reaching the centre with its +10, a 6 counted as 7, a third six sending a piece
# home, a barrier that a 6 had to open (4p: actions 51, 69 and, as a 7, 133; 2p: 198 and,
# as a 7, 91), a capture on coming out with its +20 and a bonus lost; in the 4p game also
# a bonus move that captures and earns another +20 (action 167) and coming out onto two
# opponents, the later one captured (action 149); in both shishbesh games captures, pieces
# going into a shelter's hut, corner jumps and the «срез», a jump back from the first corner
# to the last (4p: 6 → 42 at action 148, a diagonal 30 → 6 at 144; 3p long: 7 → 49 at 192),
# and in the 3p long game also fast-charge throws (actions 1 and 2, then a third that works);
# in both lions games (seat 0 the AI) captures by both sides and a draw offer declined; in
# lions-ai-lions the sides isolate themselves (the push rule turns on mid-game), and the AI's
# lions lose one lion, take five hunters and draw by 60 quiet turns against the last; in
# lions-quiet-draw the AI's hunters take five lions, lose one hunter and draw by 60 quiet
# turns against the last lion (seeds chosen on the second board).
GOLDENS: dict[str, Golden] = {
    "sosedi-classic-3p": Golden("sosedi", 3, _seed("sosedi-classic-3p#11"), {"mode": "classic"}),
    "sosedi-reverse-4p-immune": Golden(
        "sosedi", 4, _seed("sosedi-reverse-4p-immune#3"),
        {"mode": "reverse", "roller_immune": True},
    ),
    "sosedi-tower-5p": Golden("sosedi", 5, _seed("sosedi-tower-5p#12"), {"mode": "tower"}),
    "spichki-4p": Golden("spichki", 4, _seed("spichki-4p#27")),
    "spichki-2p-double1-goal15": Golden(
        "spichki", 2, _seed("spichki-2p-double1-goal15#362"), {"double_hit": 1, "goal": 15},
    ),
    "spichki-8p-per8": Golden("spichki", 8, _seed("spichki-8p-per8#1"), {"per_player": 8}),
    "tishe-3p": Golden("tishe", 3, _seed("tishe-3p#23")),
    "tishe-2p-both-home": Golden("tishe", 2, _seed("tishe-2p-both-home#495"), {"both_home": True}),
    "ludo-4p": Golden("ludo", 4, _seed("ludo-4p#36")),
    "ludo-3p-bonuses": Golden("ludo", 3, _seed("ludo-3p-bonuses#106"), {"bonuses": True}),
    "parchis-4p": Golden("parchis", 4, _seed("parchis-4p#143")),
    "parchis-2p": Golden("parchis", 2, _seed("parchis-2p#329")),
    "shishbesh-4p": Golden("shishbesh", 4, _seed("shishbesh-4p#1")),
    "shishbesh-3p-long-staggered": Golden(
        "shishbesh", 3, _seed("shishbesh-3p-long-staggered#10"),
        {"board": "long", "shelters": "staggered", "start": "six_or_double", "fast_charge": True},
    ),
    "lions-ai-lions": Golden("lions", 2, _seed("lions-ai-lions#22"), {"lions_seat": 0}, lions_choice),
    "lions-quiet-draw": Golden("lions", 2, _seed("lions-quiet-draw#2"), {"lions_seat": 1}, lions_choice),
}


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _events(events: Sequence[Event]) -> str:
    return _compact([e.to_json() for e in events])


def default_choice(state: Any, actions: Sequence[Action]) -> Action:
    """Deterministic but not always the first action, so choices get exercised."""
    return actions[state.version % len(actions)]


def transcript(
    engine: Engine[Any, Any],
    options: Any,
    seats: int,
    seed: str,
    choose: Choose[Any] = default_choice,
    max_actions: int = MAX_ACTIONS,
) -> str:
    """Play one seeded game with ``engine`` and return its transcript text."""
    start, events = engine.new_game(options, seats, seed)
    lines = [
        f"# game: {engine.code}",
        f"# options: {_compact(options.to_json())}",
        f"# seats: {seats}",
        f"# seed: {seed}",
        f"# sha256(seed): {seed_digest(seed)}",
        f"start {_events(events)}",
    ]
    state = start
    for _, state, events, entry in playout(engine, start, choose, max_actions):
        dice = _compact(list(entry.dice)) if entry.dice else "-"
        lines.append(f"{state.version} s{entry.seat} {entry.code} {dice} {_events(events)}")
    if not state.finished:
        raise RuntimeError(f"{engine.code}: game not over after {max_actions} actions")
    lines.append(f"final {_compact(state.to_json())}")
    outcome = engine.outcome(state)
    lines.append(f"outcome {_compact(outcome.to_json() if outcome else None)}")
    return "\n".join(lines) + "\n"


def render_golden(name: str) -> str:
    """The transcript of ``GOLDENS[name]``, played now."""
    spec = GOLDENS[name]
    if spec.game not in GAMES:
        raise KeyError(f"unknown game {spec.game!r}")
    engine = GAMES[spec.game].engine
    options = engine.options_from_json(spec.options)
    return transcript(engine, options, spec.seats, spec.seed, spec.choose or default_choice)


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.txt"


def regenerate(names: Sequence[str] | None = None) -> list[Path]:
    """Rewrite the golden files (all, or ``names``); returns the paths written."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    written = []
    for name in names or GOLDENS:
        path = golden_path(name)
        path.write_text(render_golden(name), encoding="utf-8")
        written.append(path)
    return written


def diff(name: str) -> str:
    """A unified diff from the stored file to a fresh playthrough ('' when equal)."""
    path = golden_path(name)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    new = render_golden(name)
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True),
            fromfile=str(path), tofile=f"{name} (played now)",
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--regenerate", action="store_true", help="rewrite the golden files")
    parser.add_argument("names", nargs="*", help=f"golden names (default all: {', '.join(GOLDENS)})")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in GOLDENS]
    if unknown:
        parser.error(f"unknown golden(s): {', '.join(unknown)}")
    if args.regenerate:
        for path in regenerate(args.names):
            print(f"wrote {path}")
        return 0
    status = 0
    for name in args.names or GOLDENS:
        text = diff(name)
        if text:
            status = 1
            sys.stdout.write(text)
        else:
            print(f"ok {name}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
