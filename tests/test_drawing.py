"""Boards drawn in worker processes: the same pictures as on threads, and a dead worker loses nothing."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
from pathlib import Path

import pytest

from bot.drawing import Drawing, DrawingError, WorkerDied
from bot.games import GAMES
from tests.bot_harness import CHAT_ID, group_world
from tests.sosedi_steps import open_lobby, play_to_end

LABELS = {key: key for spec in GAMES.values() for key in spec.label_keys}


def _die_once(flag: str) -> bytes:
    """Kills the worker that runs it the first time (as an OOM kill would); draws nothing after."""
    if not os.path.exists(flag):
        Path(flag).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return b"drawn"


@pytest.fixture
async def processes():
    drawing = Drawing(processes=2)
    yield drawing
    await drawing.close()


async def test_every_board_is_the_same_drawn_in_a_process_or_on_a_thread(processes: Drawing) -> None:
    threads = Drawing()
    try:
        for code, spec in GAMES.items():
            engine = spec.engine
            state, events = engine.new_game(engine.options_from_json(None), 2, "ab" * 32)
            state, events, _ = engine.apply(state, engine.legal_actions(state)[0].code)
            args = (state, ["Аня", "Борис"], {k: LABELS[k] for k in spec.label_keys}, events)
            in_process = await processes.draw(spec.render_board, *args)
            assert in_process.startswith(b"\x89PNG")
            assert in_process == await threads.draw(spec.render_board, *args), code
    finally:
        await threads.close()


def _pid() -> bytes:
    return str(os.getpid()).encode()


async def test_warm_starts_the_workers_before_the_first_picture(processes: Drawing) -> None:
    await processes.warm()
    pids = {w.process.pid for w in processes._workers if w is not None and w.alive}
    assert len(pids) == 2 and os.getpid() not in pids
    await processes.warm()  # running workers are kept, not started twice
    assert {w.process.pid for w in processes._workers if w is not None and w.alive} == pids
    drawn_in = {int(await processes.draw(_pid)) for _ in range(2)}
    assert drawn_in <= pids


async def test_pictures_go_to_the_least_busy_worker(processes: Drawing) -> None:
    await processes.warm()
    drawn_in = await asyncio.gather(*(processes.draw(_pid) for _ in range(8)))
    assert len(set(drawn_in)) == 2  # eight at once: both workers draw


async def test_a_renderer_error_reaches_the_caller_and_the_worker_goes_on(processes: Drawing) -> None:
    with pytest.raises(DrawingError, match="ZeroDivisionError"):
        await processes.draw(divmod, 1, 0)
    assert await processes.draw(bytes, 3) == b"\0\0\0"


async def test_a_killed_worker_costs_no_picture(processes: Drawing, tmp_path: Path) -> None:
    await processes.warm()
    before = {w.process.pid for w in processes._workers if w is not None}
    assert await processes.draw(_die_once, str(tmp_path / "died")) == b"drawn"
    assert (tmp_path / "died").exists()  # it did die once, and the picture came from another worker
    await processes.warm()  # the dead one is being started again; wait for it
    after = {w.process.pid for w in processes._workers if w is not None and w.alive}
    assert len(after) == 2 and after != before
    assert await processes.draw(_die_once, str(tmp_path / "died")) == b"drawn"


async def test_close_stops_the_workers(tmp_path: Path) -> None:
    drawing = Drawing(processes=1)
    await drawing.warm()
    worker = drawing._workers[0]
    assert worker is not None
    await drawing.close()
    assert worker.process.returncode == 0  # it read the end of its input and left


async def test_a_game_drawn_in_worker_processes_shows_the_same_pictures(tmp_path: Path) -> None:
    pictures: dict[int, list[str]] = {}
    for processes in (0, 1):
        async with group_world(tmp_path / str(processes), first_seed=7, draw_processes=processes) as world:
            tg, runner, users = world
            lobby = await open_lobby(runner, users)
            await runner.press(users["anya"], lobby, "Начать")
            rolls = await play_to_end(runner, users, runner.table())
            edits = [r for r in tg.requests if r.method == "editMessageMedia" and r.ok
                     and r.params.get("chat_id") == CHAT_ID]
            assert len(edits) == rolls + 1 and all(len(r.files) == 1 for r in edits)
            pictures[processes] = [hashlib.sha256(*r.files.values()).hexdigest() for r in edits]
    assert pictures[0] == pictures[1]
    assert len(set(pictures[1])) > 1


def _stuck() -> bytes:
    import time

    time.sleep(60)
    return b""


async def test_a_stuck_renderer_times_out_and_its_worker_is_replaced() -> None:
    drawing = Drawing(processes=1, timeout_s=2.0)
    try:
        await drawing.warm()
        stuck = drawing._workers[0]
        assert stuck is not None
        waiting = asyncio.create_task(drawing.draw(_pid))  # queued behind the stuck picture
        with pytest.raises(DrawingError, match=r"no picture within 2\.0 s"):
            await drawing.draw(_stuck)
        assert int(await waiting) != stuck.process.pid  # drawn again by the fresh worker
        assert int(await drawing.draw(_pid)) != stuck.process.pid
    finally:
        await drawing.close()


def _slow(seconds: float) -> bytes:
    import os
    import time

    time.sleep(seconds)
    return str(os.getpid()).encode()


async def test_the_timeout_counts_a_pictures_own_drawing_not_its_wait_in_the_queue() -> None:
    """Five clips asked for at once in one worker, each drawn well within the timeout on its own
    (0.8 s of 2 s) but the last waiting 3.2 s behind the others: all arrive, from the one worker."""
    drawing = Drawing(processes=1, timeout_s=2.0)
    try:
        await drawing.warm()
        worker = drawing._workers[0]
        assert worker is not None
        pids = await asyncio.gather(*(drawing.draw(_slow, 0.8) for _ in range(5)))
        assert {int(pid) for pid in pids} == {worker.process.pid} and worker.alive  # never killed
        assert not worker.begun  # nothing left behind per job
    finally:
        await drawing.close()


def _dies_in_a_worker(bot_pid: int) -> bytes:
    """A renderer that kills any worker that runs it (a broken install); on a thread it draws."""
    if os.getpid() != bot_pid:
        os.kill(os.getpid(), signal.SIGKILL)
    return b"on a thread"


async def test_workers_that_keep_dying_give_way_to_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.drawing

    monkeypatch.setattr(bot.drawing, "DEATHS_PER_WORKER", 2)
    drawing = Drawing(processes=1)
    try:
        with pytest.raises(WorkerDied):  # two deaths: within the limit, the picture is lost
            await drawing.draw(_dies_in_a_worker, os.getpid())
        assert await drawing.draw(_dies_in_a_worker, os.getpid()) == b"on a thread"  # the third: threads
        assert drawing.processes == 0
        assert await drawing.draw(_pid) == str(os.getpid()).encode()
    finally:
        await drawing.close()


def test_a_worker_whose_bot_is_gone_stops_quietly() -> None:
    import io
    import pickle
    import struct

    from bot.drawing import HEADER, serve

    job = pickle.dumps((bytes, (3,)))
    jobs = io.BytesIO(struct.pack("!I", len(job)) + job + struct.pack("!I", len(job)) + job)
    read, write = os.pipe()
    os.close(read)  # the bot was killed: nobody reads its pictures
    with os.fdopen(write, "wb", buffering=0) as pictures:  # unbuffered: nothing left to flush at close
        assert serve(jobs, pictures) is False
        assert jobs.tell() < len(jobs.getvalue())  # it stopped at the first picture nobody could take
    done = io.BytesIO()
    jobs.seek(0)
    assert serve(jobs, done) is True and done.getvalue() == (HEADER.pack(0, 3) + b"\0\0\0") * 2
