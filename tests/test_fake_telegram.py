"""Tests of the fake Telegram Bot API server itself, driven by PTB's Bot and raw HTTP."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
import warnings
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from PIL import Image
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram.error import BadRequest, ChatMigrated, Conflict, Forbidden, RetryAfter, TimedOut
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.fake_telegram import NOT_MODIFIED, FakeChat, FakeTelegram, FakeUser
from bot.fake_telegram.parsing import format_text

TOKEN = "123:ABC"
GROUP = -1001234567890


pytestmark = pytest.mark.tg(token=TOKEN, bot_username="GameBot")  # FakeTelegram's arguments (tests/conftest.py)


@pytest.fixture
def group(tg: FakeTelegram) -> FakeChat:
    return tg.add_chat(GROUP, title="Dice night")


@pytest.fixture
def alice(tg: FakeTelegram) -> FakeUser:
    return tg.add_user(1001, "Alice", username="alice")


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=tg.base_url, base_file_url=tg.file_url) as ptb_bot:
        yield ptb_bot


@pytest.fixture
async def http(tg: FakeTelegram) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=f"http://127.0.0.1:{tg.port}") as session:
        yield session


def png(width: int = 200, height: int = 100, color: str = "red", mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, (width, height), color if mode != "1" else 1).save(buffer, format="PNG")
    return buffer.getvalue()


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


def retry_seconds(err: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value: Any = err.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


# ----------------------------------------------------------------------------- basics


async def test_get_me_through_ptb(bot: Bot, tg: FakeTelegram) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot, me.first_name) == (123, "GameBot", True, "GameBot")
    assert tg.requests_for("getMe")[-1].ok


async def test_wrong_token_is_401_and_unknown_method_is_404(
    http: aiohttp.ClientSession, tg: FakeTelegram
) -> None:
    async with http.post("/bot123:WRONG/getMe") as resp:
        assert resp.status == 401
        assert await resp.json() == {"ok": False, "error_code": 401, "description": "Unauthorized"}
    async with http.post(f"/bot{TOKEN}/sendSticker") as resp:
        assert resp.status == 404
        assert await resp.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    assert tg.violations == ["unknown Bot API method 'sendSticker'"]


async def test_all_request_encodings_are_understood(
    http: aiohttp.ClientSession, tg: FakeTelegram, group: FakeChat
) -> None:
    markup = {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}
    async with http.get(f"/bot{TOKEN}/sendMessage",
                        params={"chat_id": str(GROUP), "text": "via GET"}) as resp:
        assert (await resp.json())["result"]["text"] == "via GET"
    async with http.post(f"/bot{TOKEN}/sendMessage",
                         json={"chat_id": GROUP, "text": "via JSON", "reply_markup": markup}):
        pass
    form = {"chat_id": str(GROUP), "text": "via form", "reply_markup": json.dumps(markup)}
    async with http.post(f"/bot{TOKEN}/SENDMESSAGE", data=form) as resp:
        body = await resp.json()
    assert body["ok"] and body["result"]["reply_markup"] == markup
    texts = [m.text for m in tg.bot_messages(GROUP)]
    assert texts == ["via GET", "via JSON", "via form"]
    assert tg.requests[-1].method == "sendMessage"
    assert tg.requests[-1].params["reply_markup"] == markup
    assert tg.requests[-1].params["chat_id"] == GROUP


async def test_raw_multipart_edit_message_media_with_attach(
    http: aiohttp.ClientSession, tg: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    sent = await bot.send_message(GROUP, "board")
    form = aiohttp.FormData()
    form.add_field("chat_id", str(GROUP))
    form.add_field("message_id", str(sent.message_id))
    form.add_field("media", json.dumps({"type": "photo", "media": "attach://board_png",
                                        "caption": "<i>turn 2</i>", "parse_mode": "HTML"}))
    form.add_field("board_png", png(64, 32), filename="board.png", content_type="image/png")
    async with http.post(f"/bot{TOKEN}/editMessageMedia", data=form) as resp:
        body = await resp.json()
    assert body["ok"], body
    assert body["result"]["caption"] == "turn 2"
    assert body["result"]["caption_entities"] == [{"type": "italic", "offset": 0, "length": 6}]
    assert body["result"]["photo"][-1]["width"] == 64
    stored = tg.message(GROUP, sent.message_id)
    assert stored.photo == png(64, 32) and stored.text is None and stored.edit_count == 1
    assert tg.requests[-1].files == {"board_png": png(64, 32)}


# ----------------------------------------------------------------------------- limits


async def test_edit_with_same_text_is_not_modified(bot: Bot, tg: FakeTelegram,
                                                   group: FakeChat) -> None:
    msg = await bot.send_message(GROUP, "score 1")
    edited = await bot.edit_message_text("score 2", GROUP, msg.message_id)
    assert isinstance(edited, Message) and edited.text == "score 2"
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text("score 2", GROUP, msg.message_id)
    failed = tg.failed_requests()[-1]
    assert failed.http_status == 400 and failed.description == f"Bad Request: {NOT_MODIFIED}"
    assert tg.message(GROUP, msg.message_id).edit_count == 1
    assert tg.violations == []  # a not-modified answer is an error, not a broken limit


async def test_edit_without_markup_removes_keyboard(bot: Bot, tg: FakeTelegram,
                                                    group: FakeChat) -> None:
    msg = await bot.send_message(GROUP, "pick", reply_markup=keyboard([("A", "a")]))
    await bot.edit_message_text("pick", GROUP, msg.message_id)
    assert tg.message(GROUP, msg.message_id).buttons == []
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_reply_markup(GROUP, msg.message_id)


async def test_text_length_limits(bot: Bot, tg: FakeTelegram, group: FakeChat) -> None:
    msg = await bot.send_message(GROUP, "я" * 4096)
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(GROUP, "x" * 4097)
    with pytest.raises(BadRequest, match=r"(?i)MESSAGE_TOO_LONG"):
        await bot.edit_message_text("y" * 4097, GROUP, msg.message_id)
    with pytest.raises(BadRequest, match=r"(?i)text is empty"):
        await bot.send_message(GROUP, "   \n ")
    # HTML tags do not count; an astral emoji counts as two UTF-16 units
    await bot.send_message(GROUP, "<b>" + "z" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)too long"):
        await bot.send_message(GROUP, "🎲" * 2049)
    assert len(tg.violations) == 4


async def test_caption_limit_counts_after_html_parsing(bot: Bot, tg: FakeTelegram,
                                                       group: FakeChat) -> None:
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await bot.send_photo(GROUP, png(), caption="c" * 1025)
    ok = await bot.send_photo(GROUP, png(), caption="c" * 1024)
    assert ok.caption == "c" * 1024
    html_caption = "<b>" + "&lt;" * 1000 + "</b><i>" + "d" * 24 + "</i>"
    fancy = await bot.send_photo(GROUP, png(), caption=html_caption, parse_mode="HTML")
    assert fancy.caption == "<" * 1000 + "d" * 24
    assert [(e.type, e.offset, e.length) for e in fancy.caption_entities] == [
        ("bold", 0, 1000), ("italic", 1000, 24)]
    with pytest.raises(BadRequest, match=r"(?i)MEDIA_CAPTION_TOO_LONG"):
        await bot.edit_message_caption(GROUP, ok.message_id, caption="e" * 1025)
    assert len(tg.violations) == 2 and "caption is too long" in tg.violations[0]


async def test_bad_html_is_rejected_like_telegram(bot: Bot, group: FakeChat) -> None:
    with pytest.raises(BadRequest, match=r'(?i)unsupported start tag "br"'):
        await bot.send_message(GROUP, "a<br>b", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)can't find end tag"):
        await bot.send_message(GROUP, "<b>open", parse_mode="HTML")


def test_html_and_markdown_parsing_helpers() -> None:
    parsed = format_text(
        ' <b>bold <i>both</i></b> &amp; <a href="https://t.me/x">link</a>\n'
        '<pre><code class="language-python">x = 1</code></pre> ',
        "HTML", None,
    )
    assert parsed.text == "bold both & link\nx = 1"
    assert parsed.entity_dicts() == [
        {"type": "bold", "offset": 0, "length": 9},
        {"type": "italic", "offset": 5, "length": 4},
        {"type": "text_link", "offset": 12, "length": 4, "url": "https://t.me/x"},
        {"type": "pre", "offset": 17, "length": 5, "language": "python"},
    ]
    assert format_text(r"*Ход* игрока \_Алиса\_ [профиль](tg://user?id=1)", "MarkdownV2",
                       None).text == "Ход игрока _Алиса_ профиль"


async def test_callback_data_limited_to_64_bytes(bot: Bot, tg: FakeTelegram,
                                                 group: FakeChat) -> None:
    await bot.send_message(GROUP, "ok", reply_markup=keyboard([("A", "x" * 64)]))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "too long", reply_markup=keyboard([("A", "x" * 65)]))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):  # 33 Cyrillic letters = 66 bytes
        await bot.send_message(GROUP, "too long", reply_markup=keyboard([("A", "я" * 33)]))
    assert len(tg.violations) == 2 and all("BUTTON_DATA_INVALID" in v for v in tg.violations)
    assert len(tg.bot_messages(GROUP)) == 1


async def test_at_most_8_buttons_per_row_and_100_in_total(bot: Bot, tg: FakeTelegram,
                                                          group: FakeChat) -> None:
    eight = [(str(i), f"d{i}") for i in range(8)]
    await bot.send_message(GROUP, "8 in a row", reply_markup=keyboard(eight))
    with pytest.raises(BadRequest, match=r"(?i)reply markup is too long"):
        await bot.send_message(GROUP, "9 in a row", reply_markup=keyboard([*eight, ("8", "d8")]))
    rows = [[(f"{r}{c}", f"d{r}_{c}") for c in range(5)] for r in range(21)]
    with pytest.raises(BadRequest, match=r"(?i)reply markup is too long"):
        await bot.send_message(GROUP, "105 buttons", reply_markup=keyboard(*rows))
    await bot.send_message(GROUP, "100 buttons", reply_markup=keyboard(*rows[:20]))
    assert len(tg.violations) == 2


async def test_send_photo_and_edit_message_media(bot: Bot, tg: FakeTelegram,
                                                 group: FakeChat) -> None:
    first = png(300, 150, "red")
    msg = await bot.send_photo(GROUP, first, caption="round 1",
                               reply_markup=keyboard([("Roll", "roll")]))
    assert msg.from_user is not None and msg.from_user.is_bot
    biggest = msg.photo[-1]
    assert (biggest.width, biggest.height) == (300, 150)
    assert [p.width for p in msg.photo] == [90, 300]
    assert biggest.file_id and biggest.file_unique_id
    assert tg.message(GROUP, msg.message_id).photo == first

    second = png(300, 150, "blue")
    edited = await bot.edit_message_media(InputMediaPhoto(second, caption="round 2"), GROUP,
                                          msg.message_id, reply_markup=keyboard([("Roll", "roll")]))
    assert isinstance(edited, Message) and edited.caption == "round 2"
    stored = tg.message(GROUP, msg.message_id)
    assert stored.photo == second and stored.caption == "round 2" and stored.edit_count == 1
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_media(InputMediaPhoto(second, caption="round 2"), GROUP,
                                     msg.message_id, reply_markup=keyboard([("Roll", "roll")]))
    # re-using the file_id of the current photo with a new caption is a modification
    await bot.edit_message_media(InputMediaPhoto(edited.photo[-1].file_id, caption="round 3"),
                                 GROUP, msg.message_id)
    assert tg.message(GROUP, msg.message_id).photo == second
    assert tg.violations == []


async def test_jpeg_is_accepted_and_bad_images_rejected(bot: Bot, tg: FakeTelegram,
                                                        group: FakeChat) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (320, 240), "green").save(buffer, format="JPEG")
    msg = await bot.send_photo(GROUP, buffer.getvalue())
    assert (msg.photo[-1].width, msg.photo[-1].height) == (320, 240)
    with pytest.raises(BadRequest, match=r"(?i)PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(GROUP, png(2100, 100))  # ratio 21 > 20
    with pytest.raises(BadRequest, match=r"(?i)PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(GROUP, png(5001, 5000, mode="1"))  # sum > 10000
    with pytest.raises(BadRequest, match=r"(?i)IMAGE_PROCESS_FAILED"):
        await bot.send_photo(GROUP, b"GIF89a not a png")
    with pytest.raises(BadRequest, match=r"(?i)PHOTO_SAVE_FILE_INVALID"):
        await bot.send_photo(GROUP, png() + b"\0" * (10 * 1024 * 1024))
    assert len(tg.violations) == 4


async def test_edit_of_deleted_or_foreign_message(bot: Bot, tg: FakeTelegram, group: FakeChat,
                                                  alice: FakeUser) -> None:
    msg = await bot.send_message(GROUP, "bye")
    assert await bot.delete_message(GROUP, msg.message_id)
    assert tg.bot_messages(GROUP) == []
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("again", GROUP, msg.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(GROUP, msg.message_id)
    user_msg = await tg.send_message(alice, group, "hello bot")
    assert user_msg["message_id"] == msg.message_id + 1  # one id counter per chat
    with pytest.raises(BadRequest, match=r"(?i)message can't be edited"):
        await bot.edit_message_text("hijack", GROUP, user_msg["message_id"])
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-42, "nobody here")
    assert tg.violations[0] == f"edit of deleted message {GROUP}/{msg.message_id}"
    assert len(tg.violations) == 4


# ----------------------------------------------------------------------------- fault injection

IGNORE_RETRY_AFTER_DEPRECATION = pytest.mark.filterwarnings("ignore:.*retry_after.*")


@IGNORE_RETRY_AFTER_DEPRECATION

async def test_injected_429_becomes_retry_after(bot: Bot, tg: FakeTelegram,
                                                group: FakeChat) -> None:
    tg.fail_next("sendMessage", error_code=429, retry_after=7)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(GROUP, "hi")
    assert retry_seconds(caught.value) == 7
    failed = tg.requests_for("sendMessage")[-1]
    assert failed.http_status == 429
    assert failed.response == {"ok": False, "error_code": 429,
                               "description": "Too Many Requests: retry after 7",
                               "parameters": {"retry_after": 7}}
    await bot.send_message(GROUP, "hi")  # only the next call fails
    tg.fail_next("sendmessage", 403, "Forbidden: bot was blocked by the user", times=2)
    for _ in range(2):
        with pytest.raises(Forbidden):
            await bot.send_message(GROUP, "hi")
    assert (await bot.send_message(GROUP, "hi")).text == "hi"
    assert tg.violations == []


@IGNORE_RETRY_AFTER_DEPRECATION
async def test_group_rate_limit_with_fake_clock(bot: Bot, tg: FakeTelegram,
                                                group: FakeChat) -> None:
    now = [1000.0]
    tg.clock = lambda: now[0]
    tg.enforce_group_rate(per_minute=20)
    msg = await bot.send_message(GROUP, "v0")
    now[0] += 61  # the send leaves the 60 s window
    for i in range(1, 21):
        await bot.edit_message_text(f"v{i}", GROUP, msg.message_id)
        now[0] += 1
    with pytest.raises(RetryAfter) as caught:
        await bot.edit_message_text("v21", GROUP, msg.message_id)
    # first edit at t=1061, now t=1081 -> 40 s until it leaves the window
    assert retry_seconds(caught.value) == 40
    assert tg.message(GROUP, msg.message_id).text == "v20"
    private = tg.add_user(5, "Pat")
    await tg.send_private(private, "/start")
    await bot.send_message(5, "private chats are not limited by this mode")
    now[0] += 40
    edited = await bot.edit_message_text("v21", GROUP, msg.message_id)
    assert isinstance(edited, Message) and edited.text == "v21"


# ----------------------------------------------------------------------------- slow answers


def no_server_complaints(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_slow_answer_times_out_in_the_client_but_the_call_took_effect(
    bot: Bot, tg: FakeTelegram, group: FakeChat, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    tg.delay_next("sendMessage", 30)
    with pytest.raises(TimedOut):
        await bot.send_message(GROUP, "slow", read_timeout=0.2)
    assert [m.text for m in tg.bot_messages(GROUP)] == ["slow"]  # applied: stored at once
    held = tg.requests_for("sendMessage")[-1]
    assert held.ok and held.delayed == 30
    # the client hung up, so the server drops the 30 s wait instead of answering nobody
    await tg.wait_for(lambda s: s.late_answers == 0, timeout=2)
    fast = await bot.send_message(GROUP, "fast", read_timeout=1)  # only the next call was slow
    assert fast.message_id == 2 and tg.requests_for("sendMessage")[-1].delayed == 0
    assert tg.violations == [] and no_server_complaints(caplog) == []


async def test_not_applied_delay_performs_the_call_late_even_after_the_client_gave_up(
    bot: Bot, tg: FakeTelegram, group: FakeChat, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    tg.delay_next("sendMessage", 0.5, applied=False)
    started = time.monotonic()
    with pytest.raises(TimedOut):
        await bot.send_message(GROUP, "stuck", read_timeout=0.1)
    assert tg.bot_messages(GROUP) == [] and tg.requests_for("sendMessage") == []
    await tg.wait_for(lambda s: bool(s.bot_messages(GROUP)), timeout=3)
    assert time.monotonic() - started >= 0.5
    assert tg.last_bot_message(GROUP).text == "stuck"
    assert tg.requests_for("sendMessage")[-1].delayed == 0.5
    assert tg.violations == [] and no_server_complaints(caplog) == []


async def test_other_calls_are_answered_while_one_is_delayed(bot: Bot, tg: FakeTelegram,
                                                             group: FakeChat) -> None:
    tg.delay_next("sendMessage", 1.0, applied=False)
    slow = asyncio.create_task(bot.send_message(GROUP, "slow"))
    await tg.wait_for(lambda s: s.late_answers == 1)
    fast = await bot.send_message(GROUP, "fast")
    assert (await bot.get_me()).username == "GameBot"
    assert not slow.done() and fast.message_id == 1
    assert (await slow).message_id == 2  # not applied: it took effect after the wait
    assert [r.delayed for r in tg.requests_for("sendMessage")] == [0, 1.0]


async def test_close_does_not_wait_for_delayed_answers(group: FakeChat) -> None:
    server = await FakeTelegram().start()
    server.chats[group.id] = group
    async with Bot(server.token, base_url=server.base_url) as ptb_bot:  # its getMe is not delayed
        server.delay_next("sendMessage", 30, applied=False)
        server.delay_next("getMe", 30)
        sent = asyncio.create_task(ptb_bot.send_message(group.id, "late", read_timeout=60))
        me = asyncio.create_task(ptb_bot.get_me(read_timeout=60))
        await server.wait_for(lambda s: s.late_answers == 2)
        started = time.monotonic()
        await server.close()
        assert time.monotonic() - started < 0.5  # well under aiohttp's 1 s shutdown_timeout
        assert (await sent).text == "late" and (await me).username == "GameBot"
    assert [m.text for m in server.bot_messages(group)] == ["late"]  # a received call is performed


# ----------------------------------------------------------------------------- updates


async def test_long_poll_returns_as_soon_as_update_arrives(bot: Bot, tg: FakeTelegram,
                                                           group: FakeChat,
                                                           alice: FakeUser) -> None:
    polls = tg.polls_started
    poll = asyncio.create_task(bot.get_updates(timeout=30))
    await tg.wait_for(lambda s: s.waiting_pollers == 1)
    assert tg.polls_started == polls + 1  # counted on arrival, while ``requests`` has no trace of it yet
    assert not any(r.method == "getUpdates" for r in tg.requests[-1:])
    sent = await tg.send_message(alice, group, "/roll@GameBot 2d6")
    updates = await asyncio.wait_for(poll, timeout=5)
    assert len(updates) == 1
    message = updates[0].message
    assert message is not None and message.text == "/roll@GameBot 2d6"
    assert message.from_user is not None and message.from_user.id == alice.id
    assert [(e.type, e.offset, e.length) for e in message.entities] == [("bot_command", 0, 13)]
    assert message.message_id == sent["message_id"]
    assert updates[0].update_id == tg.last_update_id
    assert tg.pending_updates_count() == 1  # delivered but not yet confirmed
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()
    assert tg.pending_updates_count() == 0


async def test_get_updates_offset_limit_and_allowed_updates(bot: Bot, tg: FakeTelegram,
                                                            group: FakeChat,
                                                            alice: FakeUser) -> None:
    for i in range(3):
        await tg.send_message(alice, group, f"m{i}")
    first = await bot.get_updates(limit=2)
    assert [u.message.text for u in first if u.message] == ["m0", "m1"]
    rest = await bot.get_updates(offset=first[-1].update_id + 1)
    assert [u.message.text for u in rest if u.message] == ["m2"]
    assert (await bot.get_updates(offset=-1))[0].update_id == rest[0].update_id
    await bot.get_updates(offset=rest[0].update_id + 1)
    msg = await bot.send_message(GROUP, "q", reply_markup=keyboard([("A", "a")]))
    await tg.send_message(alice, group, "ignored")
    await tg.press(alice, group, msg.message_id, "a")
    only = await bot.get_updates(allowed_updates=["callback_query"])
    assert len(only) == 1 and only[0].callback_query is not None
    assert tg.dropped_updates[0]["message"]["text"] == "ignored"


async def test_concurrent_get_updates_conflict(bot: Bot, tg: FakeTelegram) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=30))
    await tg.wait_for(lambda s: s.waiting_pollers == 1)
    async with Bot(TOKEN, base_url=tg.base_url) as second_instance:
        assert await second_instance.get_updates(timeout=0) == ()
    with pytest.raises(Conflict, match="terminated by other getUpdates"):
        await asyncio.wait_for(first, timeout=5)


async def test_privacy_mode_hides_plain_group_messages_from_member_bot(
    bot: Bot, tg: FakeTelegram, group: FakeChat, alice: FakeUser
) -> None:
    group.bot_status = "member"
    await tg.send_message(alice, group, "just chatting")
    await tg.send_message(alice, group, "/start")
    await tg.send_message(alice, group, "/start@OtherBot")
    updates = await bot.get_updates()
    assert [u.message.text for u in updates if u.message] == ["/start"]


# ----------------------------------------------------------------------------- callback queries


async def test_press_and_answer_callback_query(bot: Bot, tg: FakeTelegram, group: FakeChat,
                                               alice: FakeUser) -> None:
    msg = await bot.send_message(GROUP, "Your move",
                                 reply_markup=keyboard([("Roll 🎲", "roll:1"), ("Pass", "pass")]))
    stored = tg.last_bot_message(GROUP)
    assert stored.buttons == [("Roll 🎲", "roll:1"), ("Pass", "pass")]
    assert stored.button("Roll") == "roll:1"
    with pytest.raises(ValueError, match="no button"):
        await tg.press(alice, group, msg.message_id, "cheat")
    handle = await tg.press(alice, group, msg.message_id, "roll:1")
    (update,) = await bot.get_updates()
    query = update.callback_query
    assert query is not None and query.id == handle.query_id and query.data == "roll:1"
    assert query.message is not None and query.message.message_id == msg.message_id
    assert query.from_user.id == alice.id and query.chat_instance
    assert not handle.answered
    assert await bot.answer_callback_query(query.id, text="Rolled 6", show_alert=True)
    answer = await tg.wait_answer(handle)
    assert answer["text"] == "Rolled 6" and answer["show_alert"] is True
    assert await handle == answer  # the handle itself is awaitable
    assert handle.text == "Rolled 6" and handle.show_alert
    assert tg.requests_for("answerCallbackQuery")[-1].params["callback_query_id"] == query.id
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query.id)
    with pytest.raises(BadRequest, match=r"(?i)query ID is invalid"):
        await bot.answer_callback_query("12345")
    assert tg.violations == [
        f"callback query {query.id} (data='roll:1') answered twice",
        "answerCallbackQuery for unknown query id '12345'",
    ]


async def test_unanswered_callback_is_a_violation_at_close(group: FakeChat) -> None:
    server = FakeTelegram()
    await server.start()
    server.chats[group.id] = group
    user = server.add_user(7, "Bob")
    async with Bot(server.token, base_url=server.base_url) as ptb_bot:
        msg = await ptb_bot.send_message(group.id, "x", reply_markup=keyboard([("A", "a")]))
    handle = await server.press(user, group.id, msg.message_id, "a")
    with pytest.raises(TimeoutError, match="was not answered"):
        await server.wait_answer(handle, timeout=0.01)
    await server.close()
    assert server.violations == [f"callback query {handle.query_id} (data='a', user 7) was "
                                 f"never answered"]


# ----------------------------------------------------------------------------- chats and commands


async def test_chat_members_and_admins(bot: Bot, tg: FakeTelegram, group: FakeChat,
                                       alice: FakeUser) -> None:
    bob = tg.add_user(1002, "Bob")
    carol = tg.add_user(1003, "Carol")
    group.set_creator(alice.id)
    group.set_admin(bob.id)
    group.add_member(carol.id)
    dave = tg.add_user(1004, "Dave")
    statuses = {uid: (await bot.get_chat_member(GROUP, uid)).status
                for uid in (alice.id, bob.id, carol.id, dave.id, 123)}
    assert statuses == {alice.id: "creator", bob.id: "administrator", carol.id: "member",
                        dave.id: "left", 123: "administrator"}
    admins = await bot.get_chat_administrators(GROUP)
    assert [a.user.id for a in admins] == [alice.id, bob.id, 123]
    chat = await bot.get_chat(GROUP)
    assert (chat.id, chat.title, chat.type) == (GROUP, "Dice night", "supergroup")
    with pytest.raises(BadRequest, match=r"(?i)user not found"):
        await bot.get_chat_member(GROUP, 999)


async def test_private_chat_rules(bot: Bot, tg: FakeTelegram, alice: FakeUser) -> None:
    with pytest.raises(Forbidden, match=r"(?i)can't initiate conversation"):
        await bot.send_message(alice.id, "hi")
    sent = await tg.send_private(alice, "/start")
    assert sent["chat"] == {"id": alice.id, "type": "private", "first_name": "Alice",
                            "username": "alice"}
    assert (await bot.send_message(alice.id, "hello")).chat.type == "private"
    alice.blocked_bot = True
    with pytest.raises(Forbidden, match=r"(?i)blocked by the user"):
        await bot.send_message(alice.id, "hello again")


async def test_commands_stored_per_scope_and_language(bot: Bot, tg: FakeTelegram) -> None:
    await bot.set_my_commands([BotCommand("play", "Играть")], language_code="ru")
    await bot.set_my_commands([BotCommand("play", "Play"), BotCommand("help", "Help")])
    await bot.set_my_commands([BotCommand("stop", "Stop game")],
                              scope=BotCommandScopeAllGroupChats())
    assert [c.description for c in await bot.get_my_commands(language_code="ru")] == ["Играть"]
    assert [c.command for c in await bot.get_my_commands()] == ["play", "help"]
    group_cmds = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())
    assert [c.command for c in group_cmds] == ["stop"]
    assert tg.commands_for({"type": "all_group_chats"}) == [
        {"command": "stop", "description": "Stop game"}]
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("Bad-Name", "x")])


async def test_wait_for_timeout_explains_state(tg: FakeTelegram, group: FakeChat) -> None:
    with pytest.raises(TimeoutError, match=r"(?s)not met within 0\.01s.*violations: none"):
        await tg.wait_for(lambda s: bool(s.bot_messages(GROUP)), timeout=0.01)


# ----------------------------------------------------------------------------- group upgrade


async def test_group_upgrade_to_supergroup(bot: Bot, tg: FakeTelegram, alice: FakeUser) -> None:
    old = tg.add_chat(-4001, "group", "Dice night", creator=alice.id)
    bob = tg.add_user(1002, "Bob")
    old.add_member(bob.id)
    table = await bot.send_photo(old.id, png(), caption="table",
                                 reply_markup=keyboard([("Roll", "roll")]))
    with pytest.raises(ValueError, match="only a basic group"):
        await tg.migrate_to_supergroup(tg.add_chat(GROUP))
    new = await tg.migrate_to_supergroup(old)
    assert str(new.id).startswith("-100") and new.id not in (old.id, GROUP)
    assert (new.type, new.title, new.creator, new.members) == (
        "supergroup", "Dice night", alice.id, {alice.id, bob.id})
    assert old.migrated_to == new.id and tg.chats[old.id] is old

    gone, moved = [u.message for u in await bot.get_updates()]
    assert gone is not None and moved is not None
    assert (gone.chat.id, gone.migrate_to_chat_id, gone.from_user.id) == (old.id, new.id, alice.id)
    assert (moved.chat.id, moved.migrate_from_chat_id) == (new.id, old.id)
    assert moved.sender_chat is not None and moved.sender_chat.id == new.id

    calls = [
        bot.send_message(old.id, "hi"),
        bot.send_photo(old.id, png()),
        bot.edit_message_caption(old.id, table.message_id, caption="x"),
        bot.edit_message_media(InputMediaPhoto(png(color="blue")), old.id, table.message_id),
        bot.edit_message_reply_markup(old.id, table.message_id),
        bot.edit_message_text("x", old.id, table.message_id),
        bot.delete_message(old.id, table.message_id),
        bot.get_chat_member(old.id, alice.id),
        bot.get_chat(old.id),
    ]
    for call in calls:
        with pytest.raises(ChatMigrated) as caught:
            await call
        assert caught.value.new_chat_id == new.id
    assert tg.requests[-1].response == {
        "ok": False, "error_code": 400,
        "description": "Bad Request: group chat was upgraded to a supergroup chat",
        "parameters": {"migrate_to_chat_id": new.id}}
    assert tg.violations == []

    assert tg.message(old, table.message_id).caption == "table"  # history stays readable
    with pytest.raises(ValueError, match="upgraded"):
        await tg.press(alice, old, table.message_id, "roll")
    with pytest.raises(ValueError, match="upgraded"):
        await tg.send_message(alice, old, "/start")
    await tg.send_message(bob, new, "/start")
    (update,) = await bot.get_updates(offset=tg.last_update_id)
    assert update.message is not None and update.message.chat.id == new.id
    assert (await bot.send_message(new.id, "moved")).chat.type == "supergroup"


# ----------------------------------------------------------------------------- bot membership


async def test_kicked_bot_gets_my_chat_member_and_forbidden(bot: Bot, tg: FakeTelegram,
                                                            group: FakeChat,
                                                            alice: FakeUser) -> None:
    group.set_creator(alice.id)
    msg = await bot.send_message(GROUP, "pick", reply_markup=keyboard([("A", "a")]))
    await tg.set_bot_status(group, "kicked")
    (update,) = await bot.get_updates()
    change = update.my_chat_member
    assert change is not None and change.chat.id == GROUP and change.from_user.id == alice.id
    assert isinstance(change.old_chat_member, ChatMemberAdministrator)
    assert isinstance(change.new_chat_member, ChatMemberBanned)
    assert change.new_chat_member.user.id == bot.id

    calls = [
        bot.send_message(GROUP, "hi"),
        bot.send_photo(GROUP, png()),
        bot.edit_message_text("x", GROUP, msg.message_id),
        bot.edit_message_reply_markup(GROUP, msg.message_id),
        bot.delete_message(GROUP, msg.message_id),
        bot.get_chat(GROUP),
        bot.get_chat_member(GROUP, alice.id),
    ]
    for call in calls:
        with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
            await call
    await tg.send_message(alice, group, "/start")
    assert await bot.get_updates(offset=update.update_id + 1) == ()
    with pytest.raises(ValueError, match="no callback queries"):
        await tg.press(alice, group, msg.message_id, "a")
    assert tg.message(GROUP, msg.message_id).text == "pick" and tg.violations == []

    basic = tg.add_chat(-4002, "group", creator=alice.id)
    await tg.set_bot_status(basic, "left", by=alice)
    with pytest.raises(Forbidden, match="bot is not a member of the group chat"):
        await bot.edit_message_text("x", basic.id, 1)


async def test_restricted_bot_cannot_send_but_answers_callbacks(bot: Bot, tg: FakeTelegram,
                                                                group: FakeChat,
                                                                alice: FakeUser) -> None:
    text = await bot.send_message(GROUP, "pick", reply_markup=keyboard([("A", "a")]))
    photo = await bot.send_photo(GROUP, png(), caption="table")
    await tg.set_bot_status(group, "restricted", by=alice, can_send=False)
    (update,) = await bot.get_updates()
    assert update.my_chat_member is not None
    member = update.my_chat_member.new_chat_member
    assert isinstance(member, ChatMemberRestricted) and member.is_member
    assert not member.can_send_messages and not member.can_send_photos

    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send text messages to the chat"):
        await bot.send_message(GROUP, "hi")
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send photos to the chat"):
        await bot.send_photo(GROUP, png())
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send photos to the chat"):
        await bot.edit_message_media(InputMediaPhoto(png(color="blue")), GROUP, photo.message_id)
    with pytest.raises(BadRequest, match=r"(?i)have no rights to send a message"):
        await bot.edit_message_text("x", GROUP, text.message_id)
    with pytest.raises(BadRequest, match=r"(?i)have no rights to send a message"):
        await bot.edit_message_caption(GROUP, photo.message_id, caption="x")
    assert [r.description for r in tg.failed_requests()][:2] == [
        "Bad Request: not enough rights to send text messages to the chat",
        "Bad Request: not enough rights to send photos to the chat"]
    handle = await tg.press(alice, group, text.message_id, "a")  # presses still arrive
    assert await bot.answer_callback_query(handle.query_id, text="muted")
    assert (await bot.get_chat_member(GROUP, bot.id)).status == "restricted"
    assert tg.violations == [] and tg.message(GROUP, text.message_id).edit_count == 0

    await tg.set_bot_status(group, "restricted", by=alice, can_send=True)
    assert (await bot.send_message(GROUP, "allowed again")).text == "allowed again"
    await tg.set_bot_status(group, "member", by=alice)
    await bot.edit_message_text("x", GROUP, text.message_id)
    assert tg.message(GROUP, text.message_id).text == "x"


# ----------------------------------------------------------------------------- real Application


async def test_real_ptb_application_round_trip(tg: FakeTelegram, group: FakeChat,
                                               alice: FakeUser) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(
            "<b>Ready?</b>", parse_mode="HTML", reply_markup=keyboard([("Yes", "yes")]))

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("Let's go")
        await query.edit_message_text(f"{query.from_user.first_name} is ready")

    app: Application[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder().token(tg.token).base_url(tg.base_url)
        .base_file_url(tg.file_url).build()
    )
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(pressed))
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(timeout=10)
        await tg.send_message(alice, group, "/start")
        await tg.wait_for(lambda s: bool(s.bot_messages(GROUP)))
        prompt = tg.last_bot_message(GROUP)
        assert prompt.text == "Ready?" and prompt.reply_to is not None
        answer = await tg.click(alice, prompt, "Yes")
        assert (await tg.wait_answer(answer))["text"] == "Let's go"
        await tg.wait_for(lambda s: s.message(GROUP, prompt.message_id).edit_count == 1)
        await tg.wait_idle()
        await app.updater.stop()
        await app.stop()
    assert tg.message(GROUP, prompt.message_id).text == "Alice is ready"
    assert tg.message(GROUP, prompt.message_id).buttons == []
    assert tg.violations == []


async def test_a_photo_posted_before_the_test_can_be_pressed_and_edited(bot: Bot, tg: FakeTelegram,
                                                                       group: FakeChat, alice: FakeUser) -> None:
    png = io.BytesIO()
    Image.new("RGB", (64, 48), "white").save(png, "PNG")
    keyboard = {"inline_keyboard": [[{"text": "🎲", "callback_data": "g:1:0:r"}]]}
    table = tg.add_bot_photo(group, png.getvalue(), "Ходит: Alice", keyboard)
    assert table.from_bot and table.caption == "Ходит: Alice" and table.buttons == [("🎲", "g:1:0:r")]
    assert table.photo_sizes and table.photo_sizes[-1]["width"] == 64
    handle = await tg.press(alice, group, table.message_id, "g:1:0:r")
    assert handle.update_id == tg.last_update_id  # the press's own update
    updates = await bot.get_updates(timeout=0)
    assert updates[-1].update_id == handle.update_id and updates[-1].callback_query.data == "g:1:0:r"
    await bot.answer_callback_query(handle.query_id)


async def test_advancing_the_clock_many_times_keeps_both_clocks_right(bot: Bot, tg: FakeTelegram,
                                                                      group: FakeChat) -> None:
    """A long game on a virtual clock (bench.pings) advances it thousands of times: each advance
    adds to one offset (nesting a lambda per advance overflowed the stack after about a thousand)."""
    start_date, start = tg.now_date(), tg.clock()
    for _ in range(5000):
        tg.advance_clock(60)
    assert tg.clock() - start >= 300_000
    assert tg.now_date() - start_date >= 300_000
    sent = await bot.send_message(GROUP, "five thousand minutes later")
    assert sent.date.timestamp() - start_date >= 300_000
