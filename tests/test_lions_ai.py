"""The «Охота на львов» AI (engines/lions_ai.py) against the engine (engines/lions.py).

Whole turns are checked against the engine's own step-level moves (a search over engine
states), the AI's turns are applied action by action through the engine, and the AI plays
short matches against a random player. The full counts (100 games a side, 200 self-play
games, think times) are in bench/lions_ai.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bench.lions_ai import random_turn  # the random player: never offers, resigns or takes back
from engines import lions_ai
from engines.base import DEFAULT_LEVEL
from engines.base import LEVELS as LEVEL_NAMES
from engines.lions import (
    ACCEPT,
    DECLINE,
    DONE,
    ENGINE,
    HUNTERS,
    LIONS,
    OFFER,
    LionsOptions,
    LionsState,
    bits,
    isolated,
    mask_of,
    pushed,
    sides,
)
from engines.lions_ai import (
    AI,
    FEW,
    LEVELS,
    PIECE,
    WIN,
    LionsAI,
    Turn,
    codes_of,
    hanging,
    settled,
    territory,
    turn_results,
    whole_turns,
)
from engines.lions_board import INDEX, NEIGHBOUR_MASKS, NEIGHBOURS, PUSH_LINES, SIZE, label

SEED = "0" * 63 + "7"
TURN_CAP = 300

Position = tuple[int, int, bool]  # lions, hunters (masks), push rule on


def at(labels: str) -> tuple[int, ...]:
    return tuple(sorted(INDEX[c] for c in labels.split()))


def position(lions: str, hunters: str, side: str, push_on: bool = False, lions_seat: int = 0) -> LionsState:
    """A position by circle labels, ``side`` to move, built on a real new game."""
    state, _ = ENGINE.new_game(LionsOptions(lions_seat=lions_seat), 2, SEED)
    state = replace(state, lions=at(lions), hunters=at(hunters), push_on=push_on)
    return replace(state, turn=state.seat_of(side))


def engine_turns(state: LionsState) -> dict[Position, LionsState]:
    """Every position one whole turn can reach, by trying every pick, step and «Готово» the
    engine offers from ``state`` (engine states deduplicated by the turn built so far)."""
    results: dict[Position, LionsState] = {}
    seen: set[tuple[tuple[int, ...], ...]] = set()
    stack = [state]
    while stack:
        here = stack.pop()
        if here.segments in seen:
            continue
        seen.add(here.segments)
        for action in ENGINE.legal_actions(here):
            if action.kind not in ("pick", "step", "done"):
                continue
            after, _, _ = ENGINE.apply(here, action.code)
            if action.kind == "done":
                results.setdefault((mask_of(after.lions), mask_of(after.hunters), after.push_on), after)
            else:
                stack.append(after)
    return results


def ai_turns(state: LionsState) -> dict[Position, tuple[tuple[int, ...], ...]]:
    """The positions :func:`whole_turns` predicts for ``state``, with the paths of each."""
    mover, opp = sides(state)
    first = pushed(mover, opp) if state.push_on else 0
    lions_move = state.side == LIONS
    out = {}
    for turn in whole_turns(mover, opp, state.push_on, lions_move, first):
        lions, hunters = (turn.mover, turn.opp) if lions_move else (turn.opp, turn.mover)
        out[(lions, hunters, turn.push_on)] = turn.paths
    return out


def play_codes(state: LionsState, codes: list[str]) -> LionsState:
    """Apply codes one by one, each checked against the engine's legal actions first."""
    for code in codes:
        assert code in {a.code for a in ENGINE.legal_actions(state)}, (code, state.segments)
        state, _, _ = ENGINE.apply(state, code)
    return state


def ai_turn(state: LionsState, ai: LionsAI = AI, seed: int = 0) -> LionsState:
    seat = state.current_player
    state = play_codes(state, ai.plan(state, seed))
    assert state.finished or state.current_player != seat  # a whole turn: «Готово» was sent
    return state


def random_game_positions(seed: int, turns: tuple[int, ...], ai_side: str | None = None) -> list[LionsState]:
    """Positions at the start of the given turns of a seeded game (random against random, or the AI)."""
    rng = random.Random(seed)
    state, _ = ENGINE.new_game(LionsOptions(), 2, f"{seed:064x}")
    out = []
    while not state.finished and state.turns <= max(turns):
        if state.turns in turns:
            out.append(state)
        state = ai_turn(state, seed=seed) if state.side == ai_side else random_turn(state, rng)
    assert len(out) == len(turns), "the game ended before the wanted turns"
    return out


def hand_made_positions() -> list[tuple[str, LionsState]]:
    return [
        ("start, lions move", position("1 2 3 4 5 6", "А Б В Г Д Е", LIONS)),
        ("start, hunters move", position("1 2 3 4 5 6", "А Б В Г Д Е", HUNTERS)),
        # example 3: a hunter on «+1» takes lions 5 and 6 at once
        ("double capture", position("5 6 +2 9", "+4 12 Г", HUNTERS)),
        # the lion from В to Г, then the lion from Б to В: the first is walled in between the hunters
        # on Д and Е (example 2's circle) and falls (rule 4: the mover's own pieces are checked too)
        ("own piece falls", position("В Б 2", "Д Е", LIONS)),
        *push_positions(),
        # a hunter stepping onto «Д» seals the lions in the refuge behind it: rule 5 turns on mid-turn
        ("isolation", position("19 +7 5", "Г Б Е 22", HUNTERS)),
        # not reachable in play (lions 5 and 6 would have fallen): every part checks the whole board
        ("unsettled", position("5 6 9 +6", "+1 Б Г", LIONS)),
    ]


def push_positions() -> list[tuple[str, LionsState]]:
    """The push rule (on): three hunters in a straight line push the lion next in it, which must
    go first; and the same with that lion walled in by its own side, so any piece may go."""
    a, b, c, target = PUSH_LINES[0]
    others = [n for n in NEIGHBOURS[target] if n != c]
    near = mask_of([a, b, c, target, *others])
    spare = next(x for x in range(SIZE) if not (1 << x | NEIGHBOUR_MASKS[x]) & near)
    hunters = " ".join(label(x) for x in (a, b, c))
    stuck = " ".join(label(x) for x in (target, spare, *others))
    return [
        ("pushed piece", position(f"{label(target)} {label(spare)}", hunters, LIONS, push_on=True)),
        ("pushed piece cannot move", position(stuck, hunters, LIONS, push_on=True)),
    ]


def sampled_positions() -> list[tuple[str, LionsState]]:
    out = hand_made_positions()
    for seed in (3, 11):
        out += [(f"random game {seed}, turn {s.turns}", s) for s in random_game_positions(seed, (9, 24, 60))]
    for seed, side in ((5, LIONS), (8, HUNTERS)):
        out += [(f"AI as {side} game {seed}, turn {s.turns}", s)
                for s in random_game_positions(seed, (6, 13), ai_side=side)]
    return out


POSITIONS = sampled_positions()


def test_hand_made_positions_are_what_they_claim() -> None:
    named = dict(hand_made_positions())
    iso = named["isolation"]
    assert not isolated(mask_of(iso.lions), mask_of(iso.hunters))
    assert any(push_on for _, _, push_on in engine_turns(iso))
    target = PUSH_LINES[0][3]
    push = named["pushed piece"]
    assert pushed(*sides(push)) == 1 << target
    assert {a.code for a in ENGINE.legal_actions(push) if a.kind == "pick"} == {f"p{target}"}
    stuck = named["pushed piece cannot move"]
    assert pushed(*sides(stuck)) == 1 << target
    assert len([a for a in ENGINE.legal_actions(stuck) if a.kind == "pick"]) > 1
    own = named["own piece falls"]
    assert any(bin(lions).count("1") == 2 for lions, _, _ in engine_turns(own))  # 3 lions → 2
    assert not settled(*sides(named["unsettled"]))
    double = named["double capture"]
    assert any(bin(lions).count("1") == 2 for lions, _, _ in engine_turns(double))  # 4 lions → 2


@pytest.mark.parametrize(("name", "state"), POSITIONS, ids=[n for n, _ in POSITIONS])
def test_whole_turns_match_the_engine(name: str, state: LionsState) -> None:
    reached = engine_turns(state)
    predicted = ai_turns(state)
    assert set(predicted) == set(reached)
    for key, paths in predicted.items():
        after = play_codes(state, codes_of(paths))
        assert (mask_of(after.lions), mask_of(after.hunters), after.push_on) == key


@pytest.mark.parametrize(("name", "state"), POSITIONS, ids=[n for n, _ in POSITIONS])
def test_turn_results_are_the_positions_whole_turns_reach(name: str, state: LionsState) -> None:
    """The search's replies (positions only, grown ring by ring) are exactly the positions of every
    whole turn, the push rule and a pushed piece going first included; the budget pays for them."""
    mover, opp = sides(state)
    first = pushed(mover, opp) if state.push_on else 0
    lions_move = state.side == LIONS
    budget = [10**9]
    positions = turn_results(mover, opp, state.push_on, lions_move, first, budget)
    turns = whole_turns(mover, opp, state.push_on, lions_move, first)
    assert positions == {(t.mover, t.opp, t.push_on) for t in turns}
    engine = {(lion, h, on) if lions_move else (h, lion, on) for lion, h, on in engine_turns(state)}
    assert positions == engine
    assert 10**9 - budget[0] >= len(positions)


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_plan_is_deterministic_and_legal(level: str) -> None:
    ai = LEVELS[level]
    for name, state in POSITIONS[::2]:
        codes = ai.plan(state, seed=4)
        # the answer does not depend on what was asked before
        for cache in (lions_ai.evaluate, lions_ai.closing_in, lions_ai.isolated, lions_ai.hanging, lions_ai.territory):
            cache.cache_clear()
        assert codes == LionsAI(**vars(ai)).plan(state, seed=4) == ai.plan(state, seed=4), name
        ai_turn(state, ai, seed=4)
    # the tie-breaking seed matters somewhere: in some position several turns score the same
    assert any(len({tuple(AI.plan(state, seed=s)) for s in range(6)}) > 1 for _, state in POSITIONS[:6])


@pytest.mark.parametrize("side", [LIONS, HUNTERS])
def test_takes_an_immediate_win(side: str) -> None:
    # the last enemy piece on the dead end «+7» (example 1): a piece stepping onto «+4» takes it
    state = {
        LIONS: position("+8 1 3 13", "+7", LIONS),
        HUNTERS: position("+7", "+8 9 А Б", HUNTERS),
    }[side]
    after = ai_turn(state)
    assert after.finished and after.winner == state.seat_of(side)


@pytest.mark.parametrize("side", [LIONS, HUNTERS])
def test_avoids_losing_a_piece_when_it_can(side: str) -> None:
    # a piece on the dead end «+7» (example 1): an enemy stepping from «+5» onto «+4» would take it;
    # two of three whole turns here lose a piece to the reply, the AI must pick a safe one
    state = {
        LIONS: position("+7 13 19 9", "+5 А Е", LIONS),
        HUNTERS: position("+5 3 13", "+7 21 А Б", HUNTERS),
    }[side]
    mine = len(getattr(state, side))
    threat = replace(state, turn=1 - state.turn)  # were it the opponent's turn, a piece would fall
    assert min(len(getattr(s, side)) for s in engine_turns(threat).values()) < mine
    after = ai_turn(state)
    assert len(getattr(after, side)) == mine
    assert min(len(getattr(s, side)) for s in engine_turns(after).values()) == mine


@pytest.mark.parametrize("side", [LIONS, HUNTERS])
def test_answers_a_draw_offer(side: str) -> None:
    ahead = {LIONS: ("1 2 3 4 5 6", "А Б"), HUNTERS: ("1 2", "А Б В Г Д Е")}[side]
    behind = {LIONS: ("1 2", "А Б В Г Д Е"), HUNTERS: ("1 2 3 4 5 6", "А Б")}[side]
    other = HUNTERS if side == LIONS else LIONS
    for (lions, hunters), answer in ((ahead, DECLINE), (behind, ACCEPT)):
        offered = play_codes(position(lions, hunters, other), [OFFER])
        assert offered.current_player == offered.seat_of(side)
        assert AI.plan(offered) == [answer]
        play_codes(offered, [answer])


def test_codes_of_ends_with_done() -> None:
    assert codes_of(((1, 6), (3, 7, 10))) == ["p1", "s6", "p3", "s7", "s10", DONE]


def match(ai_side: str, game: int, ai: LionsAI | None = None) -> str:
    """One game, the AI (or a random whole-turn player when ``ai`` is None) against the random
    player: "win", "loss", "draw" or "cap" for the AI's side."""
    state, _ = ENGINE.new_game(LionsOptions(lions_seat=game % 2), 2, f"{game:064x}")
    rng = random.Random(f"random player {game}")
    weak = random.Random(f"weak player {game}")
    while not state.finished and state.turns < TURN_CAP:
        if state.side != ai_side:
            state = random_turn(state, rng)
        elif ai is not None:
            state = ai_turn(state, ai, seed=game)
        else:
            turns = ai_turns(state)
            state = play_codes(state, codes_of(turns[weak.choice(sorted(turns))]) if turns else [DONE])
    if not state.finished:
        return "cap"
    if state.winner is None:
        return "draw"
    return "win" if state.side_of(state.winner) == ai_side else "loss"


# The AI wins every one of these games (and ≥ 95 of 100 a side in the bench). The same test with
# ``ai=None`` (a player of uniformly random whole turns) fails clearly: checked by hand, it wins
# none of games 0–19 from either side against this random player (they hit the turn cap or the
# quiet-turns draw). So 5 wins of 6 tells a real AI from a weak one.
GAMES_A_SIDE = 6
MIN_WINS = 5


@pytest.mark.parametrize("side", [LIONS, HUNTERS])
def test_beats_a_random_player(side: str) -> None:
    results = [match(side, game, AI) for game in range(GAMES_A_SIDE)]
    assert results.count("win") >= MIN_WINS, results


# ====================================================================== levels


def free_captures(state: LionsState) -> list[Position]:
    """The positions after a whole turn that takes a piece and leaves no reply taking one back."""
    mover, opp = sides(state)
    lions_move = state.side == LIONS
    first = pushed(mover, opp) if state.push_on else 0
    out = []
    for turn in whole_turns(mover, opp, state.push_on, lions_move, first):
        if turn.opp.bit_count() >= opp.bit_count() or turn.mover.bit_count() < mover.bit_count():
            continue
        back = pushed(turn.opp, turn.mover) if turn.push_on else 0
        replies = whole_turns(turn.opp, turn.mover, turn.push_on, not lions_move, back)
        if all(reply.opp.bit_count() == turn.mover.bit_count() for reply in replies):
            out.append((turn.mover, turn.opp, turn.push_on))
    return out


def test_levels_are_named_as_the_lobby_names_them() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES == ("easy", "medium", "strong") and LEVELS[DEFAULT_LEVEL] is AI
    assert len({id(ai) for ai in LEVELS.values()}) == 3


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_every_level_takes_a_free_capture(level: str) -> None:
    """«Лёгкий» still captures when a capture is free (and so do the others): in every sampled position
    with a free capture, the level's turn takes a piece."""
    ai = LEVELS[level]
    tried = 0
    for name, state in [*POSITIONS, ("example 1", position("+7 1 2", "+5 А Б", HUNTERS)),
                        ("example 3", position("5 6 1", "+4 А Б", HUNTERS))]:
        if state.finished or state.draw_offer is not None or not free_captures(state):
            continue
        tried += 1
        opp = sides(state)[1]
        after = ai_turn(state, ai, seed=1)
        taken = opp.bit_count() - (len(after.hunters) if state.side == LIONS else len(after.lions))
        assert taken > 0, (level, name)
    assert tried >= 3


def test_easy_looks_one_ply_ahead_only() -> None:
    """«Лёгкий» plays the turn that looks best now; somewhere in the sample that turn lets the reply take
    a piece where «Средний», which looks at every reply, keeps its pieces safe."""
    def exposed(after: LionsState, side: str) -> bool:
        mine = len(getattr(after, side))
        return not after.finished and min(len(getattr(s, side)) for s in engine_turns(after).values()) < mine

    careless = 0
    for _, state in POSITIONS:
        if state.finished or state.draw_offer is not None:
            continue
        side = state.side
        easy, medium = ai_turn(state, LEVELS["easy"], seed=2), ai_turn(state, LEVELS["medium"], seed=2)
        careless += exposed(easy, side) and not exposed(medium, side)
    assert careless >= 1


def test_hanging_counts_the_pieces_the_side_to_move_could_take_at_once() -> None:
    """«Сильный» looks past its last ply at the captures waiting there (LionsAI.judge): a piece with
    one free neighbour that an enemy piece can reach within three steps, and checks it by the engine."""
    lions, hunters = mask_of(at("+7 1")), mask_of(at("+5 А"))
    assert hanging(hunters, lions) == 1  # +5 → +4 walls in the lion on the dead end +7 (example 1)
    assert hanging(lions, hunters) == 0
    assert hanging(mask_of(at("А")), lions) == 0  # too far: А is more than three circles from +4
    # the lion on 29 has one free neighbour, 28: a hunter from 25 takes it; the hunter beside it on А
    # cannot, for stepping away would leave А free
    victim = mask_of(at("29"))
    assert hanging(mask_of(at("А 25")), victim) == 1
    assert hanging(mask_of(at("А")), victim) == 0
    for attacker, prey in ((hunters, lions), (mask_of(at("А 25")), victim)):
        state = position(" ".join(label(c) for c in range(SIZE) if prey >> c & 1),
                         " ".join(label(c) for c in range(SIZE) if attacker >> c & 1), HUNTERS)
        assert min(len(s.lions) for s in engine_turns(state).values()) == prey.bit_count() - 1


def territory_by_rings(me: int, opp: int) -> int:
    """:func:`territory` by another road, on lists of circles: both sides take the free circles next to
    what they hold, ring after ring; a circle both reach in the same ring is no one's and stops both."""
    owner: dict[int, str] = {c: "me" for c in bits(me)}
    owner.update({c: "opp" for c in bits(opp)})
    fronts = {"me": [c for c in owner if owner[c] == "me"], "opp": [c for c in owner if owner[c] == "opp"]}
    while fronts["me"] or fronts["opp"]:
        reached: dict[int, set[str]] = {}
        for side, front in fronts.items():
            for here in front:
                for there in NEIGHBOURS[here]:
                    if there not in owner:
                        reached.setdefault(there, set()).add(side)
        fronts = {"me": [], "opp": []}
        for circle, sides_there in reached.items():
            owner[circle] = sides_there.pop() if len(sides_there) == 1 else "no one"
            if owner[circle] != "no one":
                fronts[owner[circle]].append(circle)
    free = [c for c in owner if not (me | opp) >> c & 1]
    return sum(1 for c in free if owner[c] == "me") - sum(1 for c in free if owner[c] == "opp")


def test_territory_counts_the_free_circles_a_side_reaches_first() -> None:
    """«Сильный»'s room to run: a lone lion on «+8» with a hunter on «Д» (the isolation example's region of
    eight circles behind the gate «Д») owns six of the region's circles, «19» beside both is no one's,
    and the hunter owns everything outside; checked against a count on lists on every sampled
    position, both ways round."""
    lion, hunter = mask_of(at("+8")), mask_of(at("Д"))
    outside = SIZE - 8 - 1  # every circle but the region's eight and «Д»
    assert territory(lion, hunter) == 6 - outside
    assert territory(lion | mask_of(at("19")), hunter) == 6 - outside  # 19 taken: the same split
    checked = 0
    for _, state in POSITIONS:
        mover, opp = sides(state)
        if mover and opp:
            assert territory(mover, opp) == territory_by_rings(mover, opp) == -territory(opp, mover)
            checked += 1
    assert checked >= 15


def test_strong_counts_room_to_run_only_for_the_last_pieces() -> None:
    """«Сильный» adds SPACE per circle of territory once either side has FEW pieces or fewer, and
    «Средний» never does."""
    strong, medium = LEVELS["strong"], LEVELS["medium"]
    assert strong.space > 0 and medium.space == 0
    few, many = mask_of(at("+8 1")), mask_of(at("А Б В Г"))
    plain = LionsAI(hunt=strong.hunt)
    assert strong.score(few, many) - plain.score(few, many) == strong.space * territory(few, many) != 0
    assert strong.score(many, few) - plain.score(many, few) == strong.space * territory(many, few)
    crowd = mask_of(at("1 2 3 4 5 6"))
    assert few.bit_count() <= FEW < min(crowd.bit_count(), many.bit_count())
    assert strong.score(crowd, many) == plain.score(crowd, many)


def first_turns(positions: list[tuple[str, LionsState]], count: int) -> Iterator[tuple[str, LionsState, Turn]]:
    """The first ``count`` whole turns of each position where both sides still have pieces."""
    for name, state in positions:
        mover, opp = sides(state)
        if not state.finished and mover and opp:
            first = pushed(mover, opp) if state.push_on else 0
            for turn in whole_turns(mover, opp, state.push_on, state.side == LIONS, first)[:count]:
                yield name, state, turn


def test_strong_weighs_the_average_reply_beside_the_best() -> None:
    """«Сильный» scores a turn as (1 - trap) times the opponent's best reply plus trap times its
    average reply (material after it, and the captures it leaves us), the replies found by the
    engine's own moves here."""
    strong = LEVELS["strong"]
    assert 0 < strong.trap < 0.5
    tried = 0
    for name, state, turn in first_turns(POSITIONS[::3], 3):
        lions_move = state.side == LIONS
        if turn.opp:
            lions, hunters = (turn.mover, turn.opp) if lions_move else (turn.opp, turn.mover)
            reply_state = replace(state, lions=tuple(bits(lions)), hunters=tuple(bits(hunters)), push_on=turn.push_on,
                                  turn=state.seat_of(HUNTERS if lions_move else LIONS))
            replies = [(h, lion) if lions_move else (lion, h) for lion, h, _ in engine_turns(reply_state)]
            best = max(strong.judge(theirs, ours) for theirs, ours in replies)
            average = sum(PIECE * (ours.bit_count() - theirs.bit_count()) + strong.tactics * hanging(ours, theirs)
                          for theirs, ours in replies) / len(replies)
            expected = round((1 - strong.trap) * -best + strong.trap * average)
            assert strong._reply_score(turn, lions_move, [10**9]) == expected, name
            tried += 1
    assert tried >= 10


def test_a_turn_cut_short_by_the_best_so_far_is_never_chosen_over_it() -> None:
    """The cut in «Сильный»'s search (a turn whose best reply already holds it below the best turn
    found so far is not judged further) gives the exact score whenever that reaches the floor, and a
    score below the floor otherwise, so the turn chosen is the one the full search chooses."""
    strong = LEVELS["strong"]
    cut = tried = 0
    for name, state, turn in first_turns(POSITIONS, 4):
        lions_move = state.side == LIONS
        exact = strong._reply_score(turn, lions_move, [10**9])
        for floor in (exact - PIECE, exact - 1, exact, exact + 1, exact + PIECE, WIN):
            bounded = strong._reply_score(turn, lions_move, [10**9], floor)
            assert bounded == exact if exact >= floor else bounded < floor, (name, floor)
            cut += bounded != exact
            tried += 1
    assert tried >= 100 and cut >= 10
