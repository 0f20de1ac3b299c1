"""The memory a chat leaves behind: the real `python -m bot` process, with the settings a README reader
gets (nothing lifted), against the fake Bot API server (in this process).

100,000 different group chats each send /help once (it reads the chat's row, as every command and
press does, and answers with one sendMessage, well within the group's window). The RSS of the bot
and its drawing processes (VmRSS summed, as bench/load.py reads it) is taken once the first 1,000
have been answered and again once all have; the target is that all of them cost at most 50 MB more
than the first 1,000: every per-chat memory of the bot is bounded (bot/bounded.py).

The chats write a window of at most :data:`IN_FLIGHT` unanswered commands at a time, so the bot is
driven as fast as it answers and the fake server's update queue stays short. With an overall cap on
the bot's sends (``OVERALL_MAX_RATE``, 30 a second) that is about 30 chats a second, so 100,000 take
about 55 minutes; ``--chats N`` measures fewer.
`python -m bench.chat_memory [--quick] [--chats N]`; a full run writes its figures to
bench/results.json under "chat_memory".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bot_process import default_env, running_bot
from bench.load import _proc
from bot.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
TOKEN = "778:MEMORY-bench-token-0000000000000000"
CHATS, FIRST = 100_000, 1_000  # chats in all, and the ones measured as the base
QUICK_CHATS, QUICK_FIRST = 600, 100
IN_FLIGHT = 500  # commands sent and not yet answered, at most
FIRST_CHAT, FIRST_USER = -1_000_000_000_000, 10_000_000
TARGET_MB = 50.0
SETTLE_S = 2.0  # after the last answer, before reading the memory: the handlers' last frames are gone


class Chats:
    """Groups that each send /help once, at most IN_FLIGHT unanswered at a time; counts the answers."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg, self.sent, self.answered = tg, 0, 0

    async def send_upto(self, total: int) -> None:
        """Keep sending until ``total`` chats have written and been answered."""
        while self.answered < total:
            while self.sent < total and self.sent - self.answered < IN_FLIGHT:
                chat_id, user_id = FIRST_CHAT - self.sent, FIRST_USER + self.sent
                user = self.tg.add_user(user_id, f"Игрок{self.sent}")
                self.tg.add_chat(chat_id, title=f"Группа {self.sent}", creator=user_id)
                await self.tg.send_message(user, chat_id, "/help")
                self.sent += 1
            await self.tg.wait_for(lambda s: bool(s.requests), timeout=60)
            self._count()

    def _count(self) -> None:
        """Count the answers among the calls recorded since, and let the server forget those calls
        (100,000 of them would take this process's memory, not the bot's)."""
        requests = self.tg.requests
        self.answered += sum(r.method == "sendMessage" and r.ok for r in requests)
        requests.clear()


async def _measure(pid: int) -> dict[str, float]:
    await asyncio.sleep(SETTLE_S)
    figures = _proc(pid)
    status = Path(f"/proc/{pid}/status").read_text()
    main = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return {"rss_mb": figures["rss_mb"], "pss_mb": figures["pss_mb"], "bot_process_rss_mb": round(main / 1024, 1)}


async def _run(chats: int, first: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with (FakeTelegram(token=TOKEN, bot_username="MemoryBot") as tg,
                    running_bot(tg, default_env(tg, TOKEN, folder / "bot.sqlite3"), folder / "bot.log") as (pid, _)):
            driver, t0 = Chats(tg), time.monotonic()
            await driver.send_upto(first)
            base, base_s = await _measure(pid), time.monotonic() - t0
            await driver.send_upto(chats)
            seconds = time.monotonic() - t0 - SETTLE_S
            after = await _measure(pid)
            violations = len(tg.violations)
        log = (Path(tmp) / "bot.log").read_text(errors="replace")
    growth = round(after["rss_mb"] - base["rss_mb"], 1)
    rest = chats - first
    return {
        "chats": chats, "first": first, "answered": driver.answered,
        f"after_{first}": base, f"after_{chats}": after,
        "rss_growth_mb": growth, "bot_process_growth_mb": round(after["bot_process_rss_mb"]
                                                                - base["bot_process_rss_mb"], 1),
        "bytes_per_chat_after_first": round(growth * 1024 * 1024 / rest) if rest else None,
        "seconds": round(seconds, 1), "first_seconds": round(base_s - SETTLE_S, 1),
        "chats_per_s": round(chats / seconds, 1),
        "target_mb": TARGET_MB, "met": growth <= TARGET_MB,
        "bot_log_tracebacks": log.count("Traceback"), "fake_server_violations": violations,
    }


def run(quick: bool = False, chats: int | None = None) -> dict[str, Any]:
    """The measurement (``quick``: 600 chats measured against the first 100)."""
    total = chats or (QUICK_CHATS if quick else CHATS)
    first = min(QUICK_FIRST if quick else FIRST, total)
    figures = asyncio.run(_run(total, first))
    print(f"chat memory: {figures['chats']:,} chats answered in {figures['seconds']} s "
          f"({figures['chats_per_s']}/s); RSS after {first:,}: {figures[f'after_{first}']['rss_mb']} MB, "
          f"after {total:,}: {figures[f'after_{total}']['rss_mb']} MB, growth {figures['rss_growth_mb']} MB "
          f"(target ≤ {TARGET_MB:g} MB: {'met' if figures['met'] else 'NOT met'})")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chat_memory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_CHATS} chats against the first "
                        f"{QUICK_FIRST} (a smoke run; bench/results.json is left alone)")
    parser.add_argument("--chats", type=int, default=None, help=f"how many chats (default {CHATS:,})")
    args = parser.parse_args(argv)
    if args.chats is not None and args.chats < 1:
        parser.error("--chats must be at least 1")
    figures = run(args.quick, args.chats)
    if not args.quick:
        write(figures)
        print(f"written to {RESULTS} under chat_memory")
    return 0


def write(figures: dict[str, Any]) -> None:
    """``figures`` into bench/results.json under "chat_memory"; the other benches' text is left as it is."""
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "{}\n"
    results = json.loads(text)
    if results and "chat_memory" not in results:  # appended: the file's other lines stay byte for byte
        block = json.dumps({"chat_memory": figures}, indent=2, ensure_ascii=False)[1:-1].strip("\n")
        RESULTS.write_text(text.rstrip()[:-1].rstrip() + ",\n" + block + "\n}\n", encoding="utf-8")
        return
    results["chat_memory"] = figures
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
