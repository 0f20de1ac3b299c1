"""Tests of the fake Bot API server's forum topics and delete rights, through PTB's Bot and raw HTTP."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from PIL import Image
from telegram import Bot, ChatMemberAdministrator, ReplyParameters
from telegram.error import BadRequest

from bot.fake_telegram import ICON_COLORS, FakeChat, FakeTelegram, FakeUser

TOKEN = "123:ABC"
FORUM = -1001000000001
GROUP = -1001000000002


pytestmark = pytest.mark.tg(token=TOKEN, bot_username="GameBot")  # FakeTelegram's arguments (tests/conftest.py)


@pytest.fixture
def alice(tg: FakeTelegram) -> FakeUser:
    return tg.add_user(1001, "Alice", username="alice")


@pytest.fixture
def bob(tg: FakeTelegram) -> FakeUser:
    return tg.add_user(1002, "Bob")


@pytest.fixture
def forum(tg: FakeTelegram, alice: FakeUser) -> FakeChat:
    return tg.add_chat(FORUM, title="Game forum", creator=alice.id, is_forum=True)


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=tg.base_url, base_file_url=tg.file_url) as ptb_bot:
        yield ptb_bot


@pytest.fixture
async def http(tg: FakeTelegram) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=f"http://127.0.0.1:{tg.port}") as session:
        yield session


async def call(http: aiohttp.ClientSession, method: str, **params: Any) -> dict[str, Any]:
    """One raw Bot API call; the whole JSON answer, as it goes over the wire."""
    async with http.post(f"/bot{TOKEN}/{method}", json=params) as resp:
        body: dict[str, Any] = await resp.json()
    return body


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 40), "red").save(buffer, format="PNG")
    return buffer.getvalue()


def last_error(tg: FakeTelegram) -> str | None:
    """The description of the last refused call, as it went over the wire (PTB recapitalises it)."""
    return tg.failed_requests()[-1].description


async def updates_of(bot: Bot, tg: FakeTelegram) -> list[dict[str, Any]]:
    """The message updates queued so far (raw, as delivered), confirmed after reading."""
    raw = [u["message"] for u in tg.updates.pending if "message" in u]
    await bot.get_updates(offset=tg.last_update_id + 1)
    return raw


# ----------------------------------------------------------------------------- forum chats, General


async def test_forum_flag_in_get_chat_and_updates_and_general_has_no_thread(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, alice: FakeUser, http: aiohttp.ClientSession) -> None:
    assert (await bot.get_chat(FORUM)).is_forum is True
    plain = tg.add_chat(GROUP)
    assert not (await bot.get_chat(GROUP)).is_forum and "is_forum" not in plain.to_dict()
    sent = await tg.send_message(alice, forum, "/newgame")
    (update,) = await bot.get_updates()
    assert update.message is not None and update.message.chat.is_forum is True
    for wire in (sent, (await call(http, "sendMessage", chat_id=FORUM, text="in General"))["result"]):
        assert wire["chat"]["is_forum"] is True
        assert "message_thread_id" not in wire and "is_topic_message" not in wire
        assert "reply_to_message" not in wire
    assert [m.thread_id for m in tg.messages_in(FORUM, None)] == [None, None]
    assert sent["message_id"] == 2  # 1 is the forum's own (General's thread id): never a message


# ----------------------------------------------------------------------------- creating topics


async def test_bot_creates_a_topic_only_with_the_right(bot: Bot, tg: FakeTelegram, forum: FakeChat,
                                                       http: aiohttp.ClientSession) -> None:
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to create a topic"):
        await bot.create_forum_topic(FORUM, "Ludo")
    assert last_error(tg) == "Bad Request: not enough rights to create a topic"
    forum.bot_can_manage_topics = True
    member = await bot.get_chat_member(FORUM, bot.id)
    assert isinstance(member, ChatMemberAdministrator) and member.can_manage_topics
    answer = await call(http, "createForumTopic", chat_id=FORUM, name="  Ludo night  ")
    assert answer == {"ok": True, "result": {"message_thread_id": 2, "name": "Ludo night",
                                             "icon_color": 7322096}}
    topic = await bot.create_forum_topic(FORUM, "Parchís", icon_color=ICON_COLORS[3])
    assert (topic.message_thread_id, topic.icon_color) == (3, 9367192)
    root = tg.message(FORUM, 2)
    assert root.from_bot and root.thread_id == 2 and root.text is None
    created = [u for u in await updates_of(bot, tg)]  # the bot's own service messages do come
    assert [(m["message_id"], m["message_thread_id"], m["is_topic_message"], m["forum_topic_created"])
            for m in created] == [(2, 2, True, {"name": "Ludo night", "icon_color": 7322096}),
                                  (3, 3, True, {"name": "Parchís", "icon_color": 9367192})]
    assert "reply_to_message" not in created[0]  # the topic's first message replies to nothing
    assert tg.topic(FORUM, 2).name == "Ludo night" and tg.topic(FORUM, 3).creator == bot.id


async def test_create_topic_refusals(bot: Bot, tg: FakeTelegram, forum: FakeChat) -> None:
    forum.bot_can_manage_topics = True
    tg.add_chat(GROUP).bot_can_manage_topics = True
    with pytest.raises(BadRequest, match=r"(?i)the chat is not a forum"):
        await bot.create_forum_topic(GROUP, "Ludo")
    assert last_error(tg) == "Bad Request: the chat is not a forum"
    with pytest.raises(BadRequest, match=r"(?i)name must be non-empty"):
        await bot.create_forum_topic(FORUM, "   ")
    with pytest.raises(BadRequest, match=r"(?i)icon_color must be one of"):
        await bot.create_forum_topic(FORUM, "Ludo", icon_color=0x123456)
    assert (await bot.create_forum_topic(FORUM, "x" * 130)).name == "x" * 128  # cut, like TDLib
    assert len(tg.violations) == 3 and tg.topics[FORUM].keys() == {2}


async def test_user_creates_a_topic_and_the_bot_gets_its_service_message(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, bob: FakeUser) -> None:
    topic = await tg.create_topic(forum, "Shishbesh", by=bob, icon_color=ICON_COLORS[1])
    assert (topic.thread_id, topic.creator, topic.closed) == (2, bob.id, False)
    (update,) = await bot.get_updates()
    message = update.message
    assert message is not None and message.from_user is not None and message.from_user.id == bob.id
    assert message.forum_topic_created is not None
    assert (message.forum_topic_created.name, message.forum_topic_created.icon_color) == ("Shishbesh", 16766590)
    assert (message.message_thread_id, message.is_topic_message) == (2, True)
    assert bob.id in forum.members
    with pytest.raises(ValueError, match="not a forum"):
        await tg.create_topic(tg.add_chat(GROUP), "x", by=bob)


# ----------------------------------------------------------------------------- messages in topics


async def test_messages_in_a_topic_carry_its_thread_and_reply_to_its_start(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, alice: FakeUser, http: aiohttp.ClientSession) -> None:
    topic = await tg.create_topic(forum, "Ludo", by=alice)
    said = await tg.send_message(alice, forum, "/newgame ludo", thread=topic.thread_id)
    assert (said["message_thread_id"], said["is_topic_message"]) == (2, True)
    assert said["reply_to_message"]["forum_topic_created"] == {"name": "Ludo", "icon_color": 7322096}
    text = (await call(http, "sendMessage", chat_id=FORUM, text="lobby", message_thread_id=2))["result"]
    form = aiohttp.FormData({"chat_id": str(FORUM), "message_thread_id": "2"})
    form.add_field("photo", png(), filename="board.png", content_type="image/png")
    async with http.post(f"/bot{TOKEN}/sendPhoto", data=form) as resp:
        photo = (await resp.json())["result"]
    for wire in (text, photo):
        assert (wire["message_thread_id"], wire["is_topic_message"]) == (2, True)
        assert wire["reply_to_message"]["message_id"] == 2
    assert [m.message_id for m in tg.messages_in(FORUM, 2)] == [2, 3, 4, 5]
    assert tg.messages_in(FORUM, None) == []
    ptb = await bot.send_message(FORUM, "via PTB", message_thread_id=2)
    assert ptb.is_topic_message and ptb.message_thread_id == 2
    assert await bot.send_chat_action(FORUM, "upload_photo", message_thread_id=2)
    assert tg.violations == []


async def test_replies_land_in_the_topic_of_the_message_they_reply_to(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, alice: FakeUser, bob: FakeUser) -> None:
    ludo = await tg.create_topic(forum, "Ludo", by=alice)
    lions = await tg.create_topic(forum, "Lions", by=alice)
    said = await tg.send_message(bob, forum, "/newgame", thread=ludo.thread_id)
    await bot.get_updates()
    (update,) = await bot.get_updates(offset=tg.last_update_id)
    assert update.message is not None
    reply = await update.message.reply_text("lobby")  # PTB passes the topic on by itself
    assert tg.requests_for("sendMessage")[-1].params["message_thread_id"] == ludo.thread_id
    assert reply.message_thread_id == ludo.thread_id and reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == said["message_id"]
    bare = await bot.send_message(FORUM, "no thread given", reply_parameters=ReplyParameters(said["message_id"]))
    assert bare.message_thread_id == ludo.thread_id and bare.is_topic_message
    answered = await tg.send_message(bob, forum, "me too", reply_to=bare.message_id)
    assert answered["message_thread_id"] == ludo.thread_id
    general = await tg.send_message(bob, forum, "hello")
    in_general = await bot.send_message(FORUM, "hi", reply_parameters=ReplyParameters(general["message_id"]))
    assert in_general.message_thread_id is None and in_general.reply_to_message is not None
    # a reply to another topic's message, sent to a named topic, is an external reply there
    across = await bot.send_message(FORUM, "moved", message_thread_id=lions.thread_id,
                                    reply_parameters=ReplyParameters(said["message_id"]))
    assert across.message_thread_id == lions.thread_id and across.external_reply is not None
    assert across.external_reply.message_id == said["message_id"]
    assert across.reply_to_message is not None and across.reply_to_message.message_id == lions.thread_id
    assert tg.message(FORUM, across.message_id).external_reply is tg.message(FORUM, said["message_id"])
    assert tg.violations == []


async def test_thread_not_found_and_closed_topics(bot: Bot, tg: FakeTelegram, forum: FakeChat,
                                                  alice: FakeUser, bob: FakeUser) -> None:
    topic = await tg.create_topic(forum, "Ludo", by=alice)
    for thread in (99, 1):  # no topic; 1 is General, which a send never names
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_message(FORUM, "x", message_thread_id=thread)
        assert last_error(tg) == "Bad Request: message thread not found"
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_chat_action(FORUM, "typing", message_thread_id=99)
    assert len(tg.violations) == 3  # the bot never saw those threads: its mistake
    table = await bot.send_message(FORUM, "table", message_thread_id=topic.thread_id)
    closed = await tg.close_topic(forum, topic.thread_id, by=alice)
    assert closed["forum_topic_closed"] == {} and closed["message_thread_id"] == topic.thread_id
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_CLOSED"):
        await bot.send_message(FORUM, "x", message_thread_id=topic.thread_id)
    assert last_error(tg) == "Bad Request: TOPIC_CLOSED"
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_CLOSED"):  # a reply lands there too
        await bot.send_photo(FORUM, png(), reply_parameters=ReplyParameters(table.message_id))
    edited = await bot.edit_message_text("still editable", FORUM, table.message_id)
    assert not isinstance(edited, bool) and edited.text == "still editable"
    with pytest.raises(ValueError, match="closed"):
        await tg.send_message(bob, forum, "let me in", thread=topic.thread_id)
    await tg.send_message(alice, forum, "admins may", thread=topic.thread_id)
    forum.bot_can_manage_topics = True
    assert (await bot.send_message(FORUM, "bot manages topics", message_thread_id=topic.thread_id)).text
    assert len(tg.violations) == 3  # a closed topic is news the bot may not have had yet


async def test_thread_ids_outside_forums(bot: Bot, tg: FakeTelegram, alice: FakeUser) -> None:
    group = tg.add_chat(GROUP)
    sent = await bot.send_message(GROUP, "Bot API 10 ignores it", message_thread_id=77)
    assert sent.message_thread_id is None and tg.message(GROUP, sent.message_id).thread_id is None
    await tg.send_private(alice, "/start")
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(alice.id, "no topics here", message_thread_id=5)
    with pytest.raises(ValueError, match="not a forum"):
        await tg.send_message(alice, group, "x", thread=1)


async def test_replies_in_a_plain_supergroup_carry_the_thread_root_but_are_no_topic(
        bot: Bot, tg: FakeTelegram, alice: FakeUser, bob: FakeUser) -> None:
    group = tg.add_chat(GROUP)
    root = await tg.send_message(alice, group, "/newgame")
    first = await tg.send_message(bob, group, "me", reply_to=root["message_id"])
    second = await tg.send_message(alice, group, "me too", reply_to=first["message_id"])
    assert "message_thread_id" not in root
    for wire in (first, second):
        assert wire["message_thread_id"] == root["message_id"] and "is_topic_message" not in wire
    *_, update = await bot.get_updates()
    assert update.message is not None and update.message.message_thread_id == root["message_id"]
    assert not update.message.is_topic_message
    reply = await update.message.reply_text("lobby")  # PTB does not take it for a topic
    assert "message_thread_id" not in tg.requests_for("sendMessage")[-1].params
    assert reply.message_thread_id == root["message_id"] and not reply.is_topic_message
    basic = tg.add_chat(-4001, "group")
    start = await tg.send_message(alice, basic, "hi")
    assert "message_thread_id" not in await tg.send_message(bob, basic, "yo", reply_to=start["message_id"])
    assert tg.messages_in(GROUP, None)[-1].message_id == reply.message_id


# ----------------------------------------------------------------------------- managing topics


async def test_bot_closes_reopens_and_renames_with_service_messages(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, alice: FakeUser) -> None:
    topic = await tg.create_topic(forum, "Ludo", by=alice)
    thread = topic.thread_id
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to close or open the topic"):
        await bot.close_forum_topic(FORUM, thread)
    assert last_error(tg) == "Bad Request: not enough rights to close or open the topic"
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to edit the topic"):
        await bot.edit_forum_topic(FORUM, thread, name="Mine")
    await tg.set_bot_status(forum, "administrator", can_manage_topics=True)
    (change,) = await bot.get_updates(offset=tg.last_update_id)
    assert change.my_chat_member is not None
    rights = change.my_chat_member.new_chat_member
    assert isinstance(rights, ChatMemberAdministrator) and rights.can_manage_topics
    await bot.get_updates(offset=tg.last_update_id + 1)
    assert await bot.close_forum_topic(FORUM, thread) and topic.closed
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_NOT_MODIFIED"):
        await bot.close_forum_topic(FORUM, thread)
    assert await bot.reopen_forum_topic(FORUM, thread) and not topic.closed
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_NOT_MODIFIED"):
        await bot.reopen_forum_topic(FORUM, thread)
    assert await bot.edit_forum_topic(FORUM, thread, name="Ludo #2") and topic.name == "Ludo #2"
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_NOT_MODIFIED"):
        await bot.edit_forum_topic(FORUM, thread, name="Ludo #2")
    assert await bot.edit_forum_topic(FORUM, thread)  # nothing asked: True, and nothing posted
    services = await updates_of(bot, tg)
    assert [{k: m[k] for k in m if k.startswith("forum_topic")} for m in services] == [
        {"forum_topic_closed": {}}, {"forum_topic_reopened": {}}, {"forum_topic_edited": {"name": "Ludo #2"}}]
    assert all(m["message_thread_id"] == thread and m["from"]["id"] == bot.id for m in services)
    assert all(m["reply_to_message"]["message_id"] == thread for m in services)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_ID_INVALID"):
        await bot.close_forum_topic(FORUM, 99)
    assert last_error(tg) == "Bad Request: TOPIC_ID_INVALID"
    with pytest.raises(BadRequest, match=r"(?i)the chat is not a forum"):
        await bot.close_forum_topic(tg.add_chat(GROUP).id, thread)
    assert len(tg.violations) == 4  # the rights (2), the unknown topic, the plain group


async def test_the_bot_manages_its_own_topic_without_the_right(bot: Bot, tg: FakeTelegram,
                                                               forum: FakeChat) -> None:
    forum.bot_can_manage_topics = True
    mine = await bot.create_forum_topic(FORUM, "Mine")
    forum.bot_can_manage_topics = forum.bot_can_delete = False
    assert await bot.close_forum_topic(FORUM, mine.message_thread_id)
    # in a topic it created the bot may still write once it is closed
    assert (await bot.send_message(FORUM, "still here", message_thread_id=mine.message_thread_id)).text
    assert await bot.delete_forum_topic(FORUM, mine.message_thread_id)
    assert tg.violations == []


async def test_users_manage_topics_and_the_bot_hears_of_all_but_deletion(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, alice: FakeUser, bob: FakeUser) -> None:
    topic = await tg.create_topic(forum, "Bob's", by=bob)
    with pytest.raises(ValueError, match="neither created"):
        await tg.close_topic(forum, topic.thread_id, by=tg.add_user(1003, "Carol"))
    await tg.close_topic(forum, topic.thread_id, by=bob)
    with pytest.raises(ValueError, match="already closed"):
        await tg.close_topic(forum, topic.thread_id, by=alice)
    await tg.reopen_topic(forum, topic.thread_id)  # by the chat's creator
    edited = await tg.edit_topic(forum, topic.thread_id, "Bob's table", by=bob)
    assert edited["forum_topic_edited"] == {"name": "Bob's table"}
    kinds = [next(k for k in m if k.startswith("forum_topic")) for m in await updates_of(bot, tg)]
    assert kinds == ["forum_topic_created", "forum_topic_closed", "forum_topic_reopened", "forum_topic_edited"]
    await tg.delete_topic(forum, topic.thread_id, by=bob)
    assert tg.pending_updates_count() == 0 and tg.topic(forum, topic.thread_id).deleted
    with pytest.raises(ValueError, match="message thread not found"):
        await tg.send_message(bob, forum, "x", thread=topic.thread_id)
    with pytest.raises(ValueError, match="was deleted"):
        await tg.send_message(bob, forum, "x", reply_to=edited["message_id"])


async def test_deleting_a_topic_deletes_its_messages_silently(
        bot: Bot, tg: FakeTelegram, forum: FakeChat, alice: FakeUser) -> None:
    forum.bot_can_manage_topics = True
    ludo = await bot.create_forum_topic(FORUM, "Ludo")
    keep = await tg.create_topic(forum, "Keep", by=alice)
    table = await bot.send_photo(FORUM, png(), caption="table", message_thread_id=ludo.message_thread_id)
    await tg.send_message(alice, forum, "nice", thread=ludo.message_thread_id)
    other = await bot.send_message(FORUM, "other", message_thread_id=keep.thread_id)
    await bot.get_updates(offset=tg.last_update_id + 1)
    forum.bot_can_delete = False
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to delete the topic"):
        await bot.delete_forum_topic(FORUM, keep.thread_id)
    assert last_error(tg) == "Bad Request: not enough rights to delete the topic"
    forum.bot_can_delete = True
    assert await bot.delete_forum_topic(FORUM, ludo.message_thread_id)
    assert tg.pending_updates_count() == 0  # Telegram sends bots nothing about it
    assert tg.messages_in(FORUM, ludo.message_thread_id) == []
    assert all(m.deleted for m in tg.messages[FORUM].values() if m.thread_id == ludo.message_thread_id)
    assert tg.bot_messages(FORUM, keep.thread_id) == [tg.message(FORUM, other.message_id)]
    assert tg.last_bot_message(FORUM, keep.thread_id).text == "other"
    assert tg.bot_messages(FORUM, None) == [] and len(tg.bot_messages(FORUM)) == 1
    with pytest.raises(LookupError, match="thread 2"):
        tg.last_bot_message(FORUM, ludo.message_thread_id)
    violations = len(tg.violations)
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(FORUM, "x", message_thread_id=ludo.message_thread_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_caption(FORUM, table.message_id, caption="gone")
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(FORUM, table.message_id)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_ID_INVALID"):
        await bot.close_forum_topic(FORUM, ludo.message_thread_id)
    assert len(tg.violations) == violations  # none of it was the bot's to know


# ----------------------------------------------------------------------------- delete rights


async def test_delete_rights_and_the_48_hour_limit(bot: Bot, tg: FakeTelegram, forum: FakeChat,
                                                   alice: FakeUser) -> None:
    own = await bot.send_message(FORUM, "mine")
    theirs = await tg.send_message(alice, forum, "hers")
    forum.bot_can_delete = False
    member = await bot.get_chat_member(FORUM, bot.id)
    assert isinstance(member, ChatMemberAdministrator) and not member.can_delete_messages
    with pytest.raises(BadRequest, match=r"(?i)^message can't be deleted$"):
        await bot.delete_message(FORUM, theirs["message_id"])
    assert last_error(tg) == "Bad Request: message can't be deleted"
    assert await bot.delete_message(FORUM, own.message_id)
    forum.bot_can_delete = True
    assert await bot.delete_message(FORUM, theirs["message_id"])
    forum.bot_can_manage_topics = True
    topic = await bot.create_forum_topic(FORUM, "Ludo")
    with pytest.raises(BadRequest, match=r"(?i)^message can't be deleted$"):  # a topic's start stays
        await bot.delete_message(FORUM, topic.message_thread_id)
    old = await bot.send_message(FORUM, "old")
    tg.advance_clock(48 * 3600 - 1)
    young = await bot.send_message(FORUM, "young")
    tg.advance_clock(1)
    assert tg.now_date() - tg.message(FORUM, old.message_id).date == 48 * 3600
    with pytest.raises(BadRequest, match=r"(?i)^message can't be deleted$"):
        await bot.delete_message(FORUM, old.message_id)
    assert await bot.delete_message(FORUM, young.message_id)
    assert len(tg.violations) == 2  # the rights and the topic's start; age is no broken rule


async def test_delete_rules_in_a_group_and_a_private_chat(bot: Bot, tg: FakeTelegram, alice: FakeUser) -> None:
    basic = tg.add_chat(-4001, "group", creator=alice.id)
    theirs = await tg.send_message(alice, basic, "hers")
    own = await bot.send_message(basic.id, "mine")
    await tg.set_bot_status(basic, "member")
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted for everyone"):
        await bot.delete_message(basic.id, theirs["message_id"])
    assert last_error(tg) == "Bad Request: message can't be deleted for everyone"
    assert await bot.delete_message(basic.id, own.message_id)
    incoming = await tg.send_private(alice, "/start")
    reply = await bot.send_message(alice.id, "hi")
    assert await bot.delete_message(alice.id, incoming["message_id"])  # both sides' in private
    tg.advance_clock(2 * 86400 + 1)
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted for everyone"):
        await bot.delete_message(alice.id, reply.message_id)
    assert len(tg.violations) == 1
