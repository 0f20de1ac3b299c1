"""The outbox: order kept, waiting edits coalesced, callers never held back by the budget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.outbox import REPLIES_WAITING, Job, Outbox
from bot.ratelimit import ChatLimiter, counted, group_of
from tests.outbox_steps import GateBudget, held

CHAT = -100


def recorder(done: list[str]) -> Callable[[str], Job]:
    def job(name: str) -> Job:
        async def run() -> None:
            done.append(name)
        return run
    return job


async def test_with_room_a_job_runs_before_the_call_returns() -> None:
    done: list[str] = []
    job = recorder(done)
    outbox = Outbox(GateBudget())
    await outbox.edit(CHAT, 1, job("edit 1"))
    assert done == ["edit 1"]
    await outbox.send(CHAT, job("result"))
    assert done == ["edit 1", "result"]
    assert outbox._chats == {}  # an idle chat is forgotten


async def test_without_room_edits_of_one_message_coalesce_and_order_is_kept() -> None:
    done: list[str] = []
    job = recorder(done)
    outbox, budget = held()
    await outbox.edit(CHAT, 1, job("table v1"))
    await outbox.edit(CHAT, 2, job("other message"))
    await outbox.edit(CHAT, 1, job("table v2"))
    await outbox.send(CHAT, job("result"))
    await outbox.edit(CHAT, 1, job("table v3"))  # replaces v2 in its place, before the result
    assert done == [] and outbox.waiting(CHAT) == 3  # the callers were not held back
    budget.room.set()
    await outbox.idle()
    assert done == ["table v3", "other message", "result"]
    assert outbox._chats == {}


async def test_a_chat_the_bot_may_not_post_in_forgets_its_waiting_jobs() -> None:
    done: list[str] = []
    job = recorder(done)
    outbox, budget = held()
    await outbox.edit(CHAT, 1, job("table"))
    await outbox.send(CHAT, job("result"))
    await outbox.send(CHAT - 1, job("another chat"))
    assert outbox.drop(CHAT) == 2 and outbox.drop(CHAT) == 0 and outbox.waiting(CHAT - 1) == 1
    budget.room.set()
    await outbox.idle()
    assert done == ["another chat"]
    await outbox.send(CHAT, job("later"))  # the chat's queue works again afterwards
    assert done == ["another chat", "later"]


async def test_a_new_job_waits_behind_queued_ones_even_with_room() -> None:
    done: list[str] = []
    job = recorder(done)
    outbox, budget = held()
    await outbox.edit(CHAT, 1, job("first"))
    budget.room.set()
    await outbox.send(CHAT, job("second"))  # room now, but "first" was asked for earlier
    await outbox.idle()
    assert done == ["first", "second"]


async def test_an_edit_being_sent_is_not_replaced() -> None:
    done: list[str] = []
    started, release = asyncio.Event(), asyncio.Event()

    async def slow() -> None:
        started.set()
        await release.wait()
        done.append("v1")

    outbox = Outbox(GateBudget())
    first = asyncio.create_task(outbox.edit(CHAT, 1, slow))
    await started.wait()
    await outbox.edit(CHAT, 1, recorder(done)("v2"))  # v1 is on the wire: v2 queues after it
    assert done == [] and outbox.waiting(CHAT) == 1
    release.set()
    await first
    await outbox.idle()
    assert done == ["v1", "v2"]


async def test_a_failing_job_does_not_stop_the_chat(caplog: pytest.LogCaptureFixture) -> None:
    done: list[str] = []
    budget = GateBudget()
    budget.room.clear()
    outbox = Outbox(budget)

    async def broken() -> None:
        raise RuntimeError("boom")

    await outbox.edit(CHAT, 1, broken)
    await outbox.send(CHAT, recorder(done)("after"))
    budget.room.set()
    await outbox.idle()
    assert done == ["after"] and "outbox job failed" in caplog.text
    await outbox.edit(CHAT, 1, broken)  # inline too: logged, not raised
    assert outbox._chats == {}


async def test_chats_do_not_wait_for_each_other() -> None:
    done: list[str] = []
    job = recorder(done)

    class OneChatFull(GateBudget):
        def wait_s(self, chat_id: int, new_message: bool = True) -> float:
            return 0.0 if chat_id != CHAT or self.room.is_set() else 0.01

    budget = OneChatFull()
    budget.room.clear()
    outbox = Outbox(budget)
    await outbox.edit(CHAT, 1, job("busy chat"))
    await outbox.edit(-200, 1, job("quiet chat"))
    assert done == ["quiet chat"]
    budget.room.set()
    await outbox.idle()
    assert done == ["quiet chat", "busy chat"]


def test_what_counts_against_a_group() -> None:
    assert counted("sendMessage") and counted("sendPhoto") and counted("editMessageMedia")
    assert counted("editMessageCaption") and counted("copyMessage") and counted("forwardMessage")
    assert not counted("answerCallbackQuery") and not counted("getChatMember") and not counted("sendChatAction")
    assert group_of({"chat_id": -1001}) == "-1001" and group_of({"chat_id": "-5"}) == "-5"
    assert group_of({"chat_id": "@club"}) == "@club"
    assert group_of({"chat_id": 42}) is None and group_of({}) is None and group_of({"chat_id": "junk"}) is None


async def test_the_window_holds_any_period_not_a_leaky_bucket() -> None:
    limiter = ChatLimiter(group_max_rate=3, group_time_period=60, max_retries=0)
    calls: list[str] = []

    async def call(name: str) -> str:
        calls.append(name)
        return name

    for i in range(3):
        await limiter.process_request(call, (f"edit {i}",), {}, "editMessageMedia", {"chat_id": CHAT}, None)
    assert limiter.wait_s(CHAT, new_message=False) > 59 and limiter.free(CHAT) == 0
    assert limiter.wait_s(-200) == 0 and limiter.wait_s(7) == 0  # other groups, private chats
    # answering presses and reading members never use the group's slots
    await limiter.process_request(call, ("answer",), {}, "answerCallbackQuery", {"callback_query_id": "1"}, None)
    await limiter.process_request(call, ("member",), {}, "getChatMember", {"chat_id": CHAT, "user_id": 1}, None)
    # a fourth edit in the same minute waits for the window (here: forever)
    fourth = asyncio.create_task(
        limiter.process_request(call, ("edit 3",), {}, "editMessageMedia", {"chat_id": CHAT}, None))
    done, _ = await asyncio.wait({fourth}, timeout=0.3)
    assert not done and calls == ["edit 0", "edit 1", "edit 2", "answer", "member"]
    fourth.cancel()


def test_moving_window_allows_at_most_limit_in_any_period() -> None:
    from bot.ratelimit import MovingWindow

    now = [100.0]
    window = MovingWindow(3, 60, clock=lambda: now[0])
    for at in (0, 10, 20):
        now[0] = 100 + at
        assert window.hit("-1")
    now[0] = 159.9  # the first hit is 59.9 s old: still inside
    assert not window.test("-1") and not window.hit("-1")
    assert window.wait_s("-1") == pytest.approx(0.1)
    assert window.hit("-2") and window.test("-2")  # another group has its own window
    now[0] = 160.0  # it falls out: exactly one slot frees, not a whole bucket
    assert window.wait_s("-1") == 0 and window.hit("-1") and not window.hit("-1")
    assert window.wait_s("-1") == pytest.approx(10)
    now[0] = 500.0  # all old: the group is forgotten, not kept forever
    assert window.test("-1") and "-1" not in window._hits
    assert "-2" in window._hits  # a group nobody looks at goes with the next sweep
    window._until_sweep = 1
    assert window.hit("-3") and set(window._hits) == {"-3"}


async def test_a_courtesy_reply_merges_with_the_same_one_waiting_and_expires_unsent() -> None:
    done: list[str] = []
    job = recorder(done)
    now = [0.0]
    dropped: list[int] = []
    budget = GateBudget()
    budget.room.clear()
    outbox = Outbox(budget, clock=lambda: now[0], on_drop=lambda: dropped.append(1))
    for _ in range(300):  # one member's /help three hundred times: one answer waits
        await outbox.reply(CHAT, "help", job("help"))
    await outbox.reply(CHAT, "rules", job("rules"))
    await outbox.send(CHAT, job("result"))  # a message that matters is never dropped
    assert outbox.waiting(CHAT) == 3
    now[0] = 31.0  # the window stayed full past REPLY_EXPIRES_S
    await asyncio.sleep(0.05)
    budget.room.set()
    await outbox.idle()
    assert done == ["result"] and len(dropped) == 2


async def test_too_many_different_replies_waiting_drop_the_newest() -> None:
    dropped: list[int] = []
    budget = GateBudget()
    budget.room.clear()
    outbox = Outbox(budget, on_drop=lambda: dropped.append(1))
    done: list[str] = []
    job = recorder(done)
    for i in range(REPLIES_WAITING + 5):
        await outbox.reply(CHAT, f"usage {i}", job(f"usage {i}"))
    assert outbox.waiting(CHAT) == REPLIES_WAITING and len(dropped) == 5
    budget.room.set()
    await outbox.idle()
    assert done == [f"usage {i}" for i in range(REPLIES_WAITING)]
