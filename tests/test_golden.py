"""Golden playthroughs: fresh seeded games must match the reviewed transcripts."""

from __future__ import annotations

import json

import pytest

from bot.games import GAMES
from engines.base import LogEntry, replay
from tests.golden import GOLDEN_DIR, GOLDENS, REGENERATE, diff, golden_path, render_golden


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_transcript_unchanged(name):
    path = golden_path(name)
    assert path.exists(), f"{path} is missing: run `{REGENERATE}` and commit the file"
    changes = diff(name)
    assert not changes, (
        f"{path.name} differs from a fresh playthrough. If the change is intended, run "
        f"`{REGENERATE}` and review the diff before committing:\n{changes}"
    )


def test_every_golden_file_is_registered():
    stored = {p.stem for p in GOLDEN_DIR.glob("*.txt")}
    assert stored == set(GOLDENS), "golden files without an entry in GOLDENS (or vice versa)"


def test_golden_generation_is_deterministic():
    name = sorted(GOLDENS)[0]
    assert render_golden(name) == render_golden(name)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_transcript_replays(name):
    """The action lines are a faithful log: replaying them gives the final state line."""
    spec = GOLDENS[name]
    engine = GAMES[spec.game].engine
    options = engine.options_from_json(spec.options)
    lines = golden_path(name).read_text(encoding="utf-8").splitlines()
    log = []
    for line in lines:
        if not line[:1].isdigit():
            continue
        version, seat, code, dice, _events = line.split(" ", 4)
        assert int(version) == len(log) + 1
        log.append(LogEntry(int(seat[1:]), code, tuple(json.loads(dice)) if dice != "-" else ()))
    final = json.loads(next(line for line in lines if line.startswith("final "))[6:])
    state = replay(engine, options, spec.seats, spec.seed, log)
    assert state == engine.state_from_json(final)
    outcome = json.loads(lines[-1].removeprefix("outcome "))
    assert outcome == engine.outcome(state).to_json()
