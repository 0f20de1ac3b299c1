"""Where pictures are drawn: in worker processes, or on threads of the bot's own process.

Drawing a board is 5–10 ms of Pillow and pure Python. On threads it competes for the GIL
with the event loop, and every press waits longer for its answer and its edit (bench/load.py,
100 chats: the loop lagged 76 ms at p50 with four drawing threads, 24 ms with two drawing
processes). So the bot draws in ``processes`` workers (`python -m bot.drawing`); 0 keeps
the threads, as the in-process tests do.

A worker reads jobs from its stdin and writes pictures to its stdout, both through the
event loop's own pipes: no helper threads in the bot and nothing inherited from it (a
``ProcessPoolExecutor`` adds two threads per call and re-imports the bot's ``__main__``
in every worker). A job is a pickled ``(render, args)``, so ``render`` must be a
module-level function or a method of a module-level object; engine states and events
pickle. A worker that dies (killed, out of memory) is started again and its pictures are
drawn again, so a press is never lost to it; one that hangs (30 s) is killed. If workers keep
dying (a broken install), the bot draws on threads instead of starting new ones forever.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import os
import pickle
import struct
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO

log = logging.getLogger(__name__)

HEADER = struct.Struct("!BI")  # status (0 picture, 1 error), payload length
OK, FAILED = 0, 1
ROOT = Path(__file__).resolve().parent.parent  # so `-m bot.drawing` resolves from any working directory
DEATHS_PER_WORKER = 5  # more deaths than this per worker within a minute: draw on threads from then on


class DrawingError(RuntimeError):
    """The renderer raised in a worker; the message is its traceback's last line."""


class WorkerDied(RuntimeError):
    """A worker exited with pictures still to draw."""


class _Worker:
    """One `python -m bot.drawing` process; it answers jobs in the order they were sent."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.killed = False
        self.waiting: collections.deque[asyncio.Future[bytes]] = collections.deque()
        # per job waiting, set when the worker begins it (the one before it answered): a job's timeout
        # counts its own drawing, never its wait behind the others
        self.begun: dict[asyncio.Future[bytes], asyncio.Event] = {}
        self.reading = asyncio.get_running_loop().create_task(self._read())

    @property
    def alive(self) -> bool:
        return not self.killed and self.process.returncode is None and not self.reading.done()

    def kill(self) -> None:
        """Stop a stuck worker now; the pictures it still owes fail with WorkerDied."""
        self.killed = True
        self.process.kill()

    def send(self, job: bytes) -> asyncio.Future[bytes]:
        assert self.process.stdin is not None
        self.process.stdin.write(struct.pack("!I", len(job)) + job)
        done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.begun[done] = asyncio.Event()
        if not self.waiting:
            self.begun[done].set()
        self.waiting.append(done)
        done.add_done_callback(lambda future: self.begun.pop(future, None))
        return done

    async def answer(self, done: asyncio.Future[bytes], timeout_s: float) -> bytes:
        """The picture of the job ``done``, once the worker has begun it and within ``timeout_s`` of that."""
        begun = self.begun.get(done)
        if begun is not None and not begun.is_set():
            waiter = asyncio.ensure_future(begun.wait())
            either: set[asyncio.Future[Any]] = {waiter, done}  # the job may fail (its worker died) before it begins
            try:
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
        return await asyncio.wait_for(done, timeout_s)

    async def _read(self) -> None:
        assert self.process.stdout is not None
        try:
            while True:
                status, size = HEADER.unpack(await self.process.stdout.readexactly(HEADER.size))
                payload = await self.process.stdout.readexactly(size)
                done = self.waiting.popleft()
                if self.waiting and (following := self.begun.get(self.waiting[0])) is not None:
                    following.set()  # the worker goes on to the next job now
                if done.done():  # its caller was cancelled
                    continue
                if status == OK:
                    done.set_result(payload)
                else:
                    done.set_exception(DrawingError(payload.decode("utf-8", "replace")))
        except (asyncio.IncompleteReadError, ConnectionError):  # the worker is gone
            pass
        finally:
            while self.waiting:
                done = self.waiting.popleft()
                if not done.done():
                    done.set_exception(WorkerDied(f"drawing process {self.process.pid} exited"))

    async def stop(self) -> None:
        if self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.close()  # the worker exits at the end of its input
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self.reading


class Drawing:
    """Runs ``render(*args) -> bytes`` off the event loop, in worker processes or on threads."""

    def __init__(self, processes: int = 0, timeout_s: float = 30.0) -> None:
        self.processes, self.timeout_s = processes, timeout_s
        self._workers: list[_Worker | None] = [None] * processes
        self._starting: dict[int, asyncio.Task[_Worker]] = {}
        self._threads: ThreadPoolExecutor | None = None
        self._deaths: collections.deque[float] = collections.deque()
        self.on_drawn: Callable[[str, float], None] = lambda picture, seconds: None  # bot/metrics.py

    async def draw(self, render: Callable[..., bytes], *args: Any) -> bytes:
        """``render(*args)``: in the least busy worker, or on a thread when there are none."""
        started = time.perf_counter()
        try:
            return await self._draw(render, *args)
        finally:  # the picture's name: its renderer's module (render.sosedi → sosedi, render.cover → cover)
            self.on_drawn(str(getattr(render, "__module__", "")).rpartition(".")[2], time.perf_counter() - started)

    async def _draw(self, render: Callable[..., bytes], *args: Any) -> bytes:
        if not self.processes:
            if self._threads is None:
                # twice as many threads as cores: more only fight over the GIL and hold more
                # half-drawn images at once (the default six peaked at 298 MB with 100 busy chats)
                self._threads = ThreadPoolExecutor(2 * (os.cpu_count() or 2), thread_name_prefix="draw")
            return await asyncio.get_running_loop().run_in_executor(self._threads, functools.partial(render, *args))
        job = pickle.dumps((render, args), protocol=pickle.HIGHEST_PROTOCOL)
        for attempt in (1, 2):
            worker = await self._least_busy()
            try:
                return await worker.answer(worker.send(job), self.timeout_s)
            except WorkerDied as exc:
                if self._keeps_dying():
                    return await self._draw(render, *args)  # now on threads
                if attempt == 2:
                    raise
                log.warning("%s; drawing the picture again in another one", exc)
            except TimeoutError:  # a renderer stuck in a loop: that worker goes, the pictures behind it move
                if worker.killed and attempt == 1:  # this one only waited behind the stuck one
                    continue
                worker.kill()
                raise DrawingError(f"no picture within {self.timeout_s} s; drawing process restarted") from None
        raise AssertionError("unreachable")

    def _keeps_dying(self) -> bool:
        """Count a death; past the limit (a broken install, say) stop starting workers: every
        picture would start new ones otherwise, and none would be drawn."""
        now = time.monotonic()
        self._deaths.append(now)
        while self._deaths[0] < now - 60:
            self._deaths.popleft()
        if self.processes and len(self._deaths) > DEATHS_PER_WORKER * self.processes:
            log.error("drawing processes keep dying (%d in a minute); drawing on threads from now on",
                      len(self._deaths))
            self.processes = 0
        return not self.processes

    async def warm(self) -> None:
        """Start every worker now (after start-up), not on the first press."""
        missing = [self._ensure(slot) for slot, w in enumerate(self._workers) if w is None or not w.alive]
        await asyncio.gather(*(asyncio.shield(start) for start in missing))

    async def _least_busy(self) -> _Worker:
        """The running worker with the fewest pictures waiting; missing ones are started meanwhile."""
        alive = []
        for slot, worker in enumerate(self._workers):
            if worker is not None and worker.alive:
                alive.append((len(worker.waiting), slot, worker))
            else:
                self._ensure(slot)  # not yet started, or died: (re)start it, not waiting for it
        if alive:
            return min(alive, key=lambda each: each[:2])[2]
        return await asyncio.shield(self._ensure(0))

    def _ensure(self, slot: int) -> asyncio.Task[_Worker]:
        """The start of ``slot``'s worker: the one under way, or one begun now."""
        task = self._starting.get(slot)
        if task is None:
            task = self._starting[slot] = asyncio.get_running_loop().create_task(self._start(slot))
        return task

    async def _start(self, slot: int) -> _Worker:
        try:
            env = {**os.environ,
                   "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.drawing", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                env=env)  # stderr: the bot's own, so a worker's traceback lands in the bot's log
            worker = self._workers[slot] = _Worker(process)
            return worker
        finally:
            del self._starting[slot]

    async def close(self) -> None:
        """Let the workers and threads go (at shutdown, after the last update)."""
        starting = list(self._starting.values())
        await asyncio.gather(*starting, return_exceptions=True)
        workers, self._workers = [w for w in self._workers if w is not None], [None] * self.processes
        await asyncio.gather(*(w.stop() for w in workers))
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


def serve(jobs: BinaryIO, pictures: BinaryIO) -> bool:
    """A worker: read ``(render, args)`` jobs until the input ends, write each picture or error.
    False if the bot went away while a picture was being drawn (killed: nobody reads any more)."""
    import traceback

    while size := jobs.read(4):
        render, args = pickle.loads(jobs.read(struct.unpack("!I", size)[0]))
        try:
            status, payload = OK, render(*args)
        except Exception as exc:  # the bot raises it for this picture; the worker goes on
            traceback.print_exc()
            status, payload = FAILED, f"{type(exc).__name__}: {exc}".encode()
        try:
            pictures.write(HEADER.pack(status, len(payload)) + payload)
            pictures.flush()
        except BrokenPipeError:
            return False
    return True


if __name__ == "__main__":
    import bot.games  # noqa: F401 - the renderers and their caches, before the first job

    # the pictures get the real stdout to themselves: a stray print() goes to stderr instead
    pictures = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    if not serve(sys.stdin.buffer, pictures):
        os._exit(0)  # the bot is gone: no traceback for flushing into its closed pipe at exit
