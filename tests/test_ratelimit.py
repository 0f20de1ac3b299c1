"""bot.ratelimit.ChatLimiter: Telegram's limits per chat, and nothing more."""

from __future__ import annotations

import asyncio
import datetime as dtm
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.ratelimit import ChatLimiter

GROUP, OTHER_GROUP, PRIVATE = -100, -200, 42


class Calls:
    """A Bot API double: records calls, and answers 429 for a chat while told to."""

    def __init__(self) -> None:
        self.made: list[tuple[str, Any]] = []
        self.flooded: dict[Any, int] = {}  # chat → how many more calls get a 429 (retry_after 1)

    def call(self, limiter: ChatLimiter, endpoint: str, chat: Any) -> Any:
        async def send() -> str:
            if self.flooded.get(chat, 0) > 0:
                self.flooded[chat] -= 1
                raise RetryAfter(dtm.timedelta(seconds=1))
            self.made.append((endpoint, chat))
            return "ok"
        return limiter.process_request(send, (), {}, endpoint, {"chat_id": chat}, None)


def limiter(**kw: Any) -> ChatLimiter:
    return ChatLimiter(**{"group_max_rate": 20, "group_time_period": 60, "max_retries": 2, **kw})


async def test_no_overall_cap_by_default_only_each_chats_own() -> None:
    limits, calls = limiter(), Calls()
    # 300 groups, one edit each, and 1,000 answers: nothing waits (an overall 30 a second would)
    await asyncio.wait_for(asyncio.gather(*(calls.call(limits, "editMessageMedia", -1000 - i) for i in range(300)),
                                          *(calls.call(limits, "answerCallbackQuery", None) for _ in range(1000))),
                           timeout=2)
    assert len(calls.made) == 1300


async def test_an_overall_cap_is_there_when_an_operator_asks_for_one() -> None:
    now = [0.0]
    limits, calls = limiter(overall_max_rate=5, clock=lambda: now[0]), Calls()
    for i in range(5):
        await calls.call(limits, "sendMessage", -1000 - i)
    assert limits.wait_s(-2000) == pytest.approx(1.0)  # a sixth chat waits for the second to pass
    now[0] = 1.01
    assert limits.wait_s(-2000) == 0


async def test_a_private_chat_gets_about_one_a_second() -> None:
    now = [0.0]
    limits, calls = limiter(clock=lambda: now[0]), Calls()
    await calls.call(limits, "sendMessage", PRIVATE)
    assert limits.wait_s(PRIVATE) == pytest.approx(1.0) and limits.wait_s(PRIVATE + 1) == 0
    assert limits.free(PRIVATE) is None  # the outbox's group accounting does not apply
    now[0] = 1.0
    assert limits.wait_s(PRIVATE) == 0


async def test_a_429_pauses_only_its_own_chat() -> None:
    limits, calls = limiter(), Calls()
    calls.flooded[GROUP] = 1
    flooded = asyncio.create_task(calls.call(limits, "editMessageMedia", GROUP))
    await asyncio.sleep(0.05)
    assert limits.wait_s(GROUP) > 0.5  # Telegram said one second: this chat holds its calls
    # meanwhile the other chats' calls go out at once
    await asyncio.wait_for(asyncio.gather(calls.call(limits, "sendMessage", OTHER_GROUP),
                                          calls.call(limits, "sendMessage", PRIVATE)), timeout=0.2)
    assert not flooded.done()
    assert calls.made == [("sendMessage", OTHER_GROUP), ("sendMessage", PRIVATE)]
    assert await asyncio.wait_for(flooded, timeout=3) == "ok"  # and then it is tried again
    assert calls.made[-1] == ("editMessageMedia", GROUP)


async def test_a_429_past_the_retries_reaches_the_caller() -> None:
    limits, calls = limiter(max_retries=0), Calls()
    calls.flooded[GROUP] = 1
    with pytest.raises(RetryAfter):
        await calls.call(limits, "sendMessage", GROUP)


async def test_slow_mode_spaces_new_messages_but_not_edits() -> None:
    now = [0.0]
    asked: list[int] = []
    limits, calls = limiter(clock=lambda: now[0]), Calls()

    async def slow_mode_of(chat_id: int) -> int:
        asked.append(chat_id)
        return 10

    limits.slow_mode_of = slow_mode_of
    await calls.call(limits, "sendMessage", GROUP)
    await asyncio.sleep(0)  # getChat, beside the first post
    assert asked == [GROUP]
    assert limits.wait_s(GROUP) == pytest.approx(11.0)  # the next message 10 s after, and the margin
    assert limits.wait_s(GROUP, new_message=False) == 0  # an edit is not a message
    now[0] = 11.0
    assert limits.wait_s(GROUP) == 0
    await calls.call(limits, "sendMessage", GROUP)
    await asyncio.sleep(0)
    assert asked == [GROUP]  # asked once, not per message
    limits.pause(GROUP, 0)  # a 429 (slow mode switched on since?): asked again at the next post
    await calls.call(limits, "sendMessage", GROUP)
    await asyncio.sleep(0)
    assert asked == [GROUP, GROUP]


async def test_what_a_chat_remembers_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.ratelimit.CHATS_KEPT", 50)
    limits, calls = limiter(), Calls()
    for i in range(500):
        limits.pause(-1000 - i, 1)
        await calls.call(limits, "editMessageText", 5000 + i)
    assert len(limits._paused_until) == 50 and len(limits._last_post) == 0


async def test_a_429_on_an_answer_is_waited_out_by_that_call_alone() -> None:
    limits, calls = limiter(), Calls()
    calls.flooded[None] = 1  # a fault: Telegram does not limit answerCallbackQuery
    assert await asyncio.wait_for(calls.call(limits, "answerCallbackQuery", None), timeout=3) == "ok"
    assert limits.wait_s(GROUP) == 0


async def test_a_slow_answer_holds_its_slot_from_when_it_came_back() -> None:
    now = [0.0]
    limits = limiter(group_max_rate=2, clock=lambda: now[0])

    async def slow() -> str:  # Telegram may have counted it as late as its answer
        now[0] += 5.0
        return "ok"

    ticking = [0.0]

    def tick() -> float:  # a clock that moves on at every reading, as a real one does
        ticking[0] += 1e-6
        return now[0] + ticking[0]

    limits.clock = tick

    async def quick() -> str:
        return "ok"

    await limits.process_request(slow, (), {}, "editMessageMedia", {"chat_id": GROUP}, None)
    await limits.process_request(quick, (), {}, "editMessageMedia", {"chat_id": GROUP}, None)
    # the slow call left at 0 and came back at 5: its slot frees 60 s (and the margin) after 5, not after 0
    assert limits.wait_s(GROUP, new_message=False) == pytest.approx(61.0, abs=1e-3)
