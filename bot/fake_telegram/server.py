"""The aiohttp server and the test-side API of the fake Telegram Bot API."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from types import TracebackType
from typing import Any

from aiohttp import web

from .calls import BotApiCalls
from .faults import Delay, Fault
from .methods import METHODS
from .methods.chats import chat_member
from .methods.commands import scope_key
from .models import (
    ApiError,
    CallbackAnswer,
    ChatRef,
    FakeChat,
    FakeUser,
    JSONDict,
    RecordedRequest,
    StoredMessage,
    UserRef,
    chat_id_of,
)
from .parsing import read_request, utf16_len
from .world import World

MAX_REQUEST_BYTES = 50 * 1024 * 1024
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    409: "Conflict", 500: "Internal Server Error", 502: "Bad Gateway",
}

BOT_STATUSES = frozenset({"member", "administrator", "restricted", "left", "kicked"})
# Telegram signs service messages posted on behalf of a group with this placeholder user.
GROUP_ANONYMOUS_BOT_ID = 1087968824


class FakeTelegram(World):
    """An in-process Telegram Bot API on 127.0.0.1 that a real PTB Application can talk to."""

    def __init__(
        self,
        token: str = "123:ABC",
        bot_username: str = "GameBot",
        *,
        bot_first_name: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        super().__init__(token, bot_username, bot_first_name)
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self._calls = BotApiCalls(self)

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        """Value for ``ApplicationBuilder().base_url(...)`` (PTB appends token and method)."""
        return f"http://{self.host}:{self.port}/bot"

    @property
    def file_url(self) -> str:
        """Value for ``ApplicationBuilder().base_file_url(...)``."""
        return f"http://{self.host}:{self.port}/file/bot"

    async def start(self) -> FakeTelegram:
        """Bind the HTTP server (port 0 picks a free port) and start serving."""
        if self._runner is not None:
            return self
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("*", "/{tail:.*}", self._handle_other)
        runner = web.AppRunner(app, handle_signals=False, access_log=None,
                               shutdown_timeout=1.0, handler_cancellation=True)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        return self

    async def close(self) -> None:
        """Stop serving; callback queries still unanswered are recorded as violations.

        Answers held back by ``delay_next`` go out at once, and calls still waiting to take
        effect are performed now, so closing never waits for a delay.
        """
        if self.changes.closing:
            return
        self.changes.closing = True
        for handle in self.unanswered_callbacks():
            self.violations.append(
                f"callback query {handle.query_id} (data={handle.data!r}, user {handle.user.id}) "
                f"was never answered"
            )
        await self.changes.notify()  # wakes long polls and delays: they all watch ``closing``
        await self._calls.finish()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ HTTP layer

    async def _handle_other(self, request: web.Request) -> web.Response:
        return web.json_response(ApiError(404, "Not Found").payload(), status=404)

    async def _handle_api(self, request: web.Request) -> web.Response:
        at = self.clock()
        name = request.match_info["method"]
        params: JSONDict = {}
        files: dict[str, bytes] = {}
        error: ApiError | None = None
        try:
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized", violation=False)
            params, files = await read_request(request)
        except ApiError as err:
            error = err
        except web.HTTPRequestEntityTooLarge:
            error = ApiError(413, "Request Entity Too Large", violation=False)
        record = await self._calls.answer(name, params, files, at, error)
        return web.json_response(record.response, status=record.http_status)

    # ------------------------------------------------------------------ world building

    def add_user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
        *,
        last_name: str | None = None,
    ) -> FakeUser:
        """Create (or replace) a human user."""
        user = FakeUser(id=user_id, first_name=first_name, username=username,
                        language_code=language_code, last_name=last_name)
        self.users[user_id] = user
        return user

    def add_chat(
        self,
        chat_id: int,
        type: str = "supergroup",
        title: str = "Test group",
        *,
        username: str | None = None,
        creator: int | None = None,
    ) -> FakeChat:
        """Create a group/supergroup (the bot is an administrator there)."""
        if type not in ("group", "supergroup"):
            raise ValueError("only group/supergroup; use private_chat() for private chats")
        chat = FakeChat(id=chat_id, type=type, title=title, username=username)
        if creator is not None:
            chat.set_creator(creator)
        self.chats[chat_id] = chat
        self.messages.setdefault(chat_id, {})
        return chat

    def add_bot_photo(self, chat: ChatRef, png: bytes, caption: str | None = None,
                      reply_markup: JSONDict | None = None) -> StoredMessage:
        """A photo message the bot posted before the test began (a table stored in its database)."""
        photo = self.store_photo(png)
        return self.new_message(self._chat(chat), self.bot, photo=photo.data, photo_sizes=photo.sizes,
                                 photo_hash=photo.sha256, caption=caption, reply_markup=reply_markup)

    def private_chat(self, user: UserRef) -> FakeChat:
        """Return (creating if needed) the private chat of a user with the bot."""
        u = self._user(user)
        chat = self.chats.get(u.id)
        if chat is None:
            chat = FakeChat(id=u.id, type="private", first_name=u.first_name, username=u.username,
                            bot_status="member")
            self.chats[u.id] = chat
            self.messages.setdefault(u.id, {})
        return chat

    def _user(self, user: UserRef) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        if user not in self.users:
            raise LookupError(f"unknown user {user}; call add_user() first")
        return self.users[user]

    def _chat(self, chat: ChatRef) -> FakeChat:
        chat_id = chat_id_of(chat)
        if chat_id not in self.chats:
            raise LookupError(f"unknown chat {chat_id}; call add_chat() first")
        return self.chats[chat_id]

    def _open_chat(self, chat: ChatRef) -> FakeChat:
        """The chat for a user action; a group upgraded to a supergroup is read-only."""
        c = self._chat(chat)
        if c.migrated_to is not None:
            raise ValueError(f"group {c.id} was upgraded to supergroup {c.migrated_to} and is "
                             f"read-only now; act in the supergroup")
        return c

    def _actor(self, chat: FakeChat, by: UserRef | None) -> FakeUser:
        """``by``, else the creator or an administrator of ``chat`` (who may change the group)."""
        if by is not None:
            return self._user(by)
        candidates = chat.managers
        if not candidates:
            raise ValueError(f"chat {chat.id} has no creator or administrator; pass by=")
        return self._user(candidates[0])

    # ------------------------------------------------------------------ pushing updates

    async def push_update(self, payload: JSONDict) -> JSONDict:
        """Queue a raw update body (e.g. ``{"my_chat_member": {...}}``); returns it with update_id."""
        update = self.updates.push(payload)
        await self.changes.notify()
        return update

    async def send_message(
        self, user: UserRef, chat: ChatRef, text: str, *, reply_to: int | None = None
    ) -> JSONDict:
        """A user writes ``text`` in ``chat``; returns the Message dict (queued if the bot sees it)."""
        u, c = self._user(user), self._open_chat(chat)
        if c.is_group:
            c.add_member(u.id)
        entities: list[JSONDict] = []
        command = re.match(r"/\S+", text)
        if command:
            entities.append({"type": "bot_command", "offset": 0,
                             "length": utf16_len(command.group())})
        target = None
        if reply_to is not None:
            target = self.message(c.id, reply_to)
        message = self.new_message(c, u, text=text, entities=entities, reply_to=target)
        data = message.to_dict()
        if self._bot_sees(c, text, target):
            self.updates.push({"message": data})
        await self.changes.notify()
        return data

    async def send_private(self, user: UserRef, text: str) -> JSONDict:
        """A user writes ``text`` to the bot in their private chat (chat id = user id)."""
        return await self.send_message(user, self.private_chat(user), text)

    def _bot_sees(self, chat: FakeChat, text: str, reply_to: StoredMessage | None) -> bool:
        if chat.type == "private":
            return True
        if not chat.has_bot:
            return False
        if chat.bot_status == "administrator" or not self.privacy_mode:
            return True
        if reply_to is not None and reply_to.from_bot:
            return True
        command = re.match(r"/[^\s@]+(?:@(\S+))?", text)
        if command is None:
            return False
        own = (self.bot.username or "").lower()
        return (command.group(1) or own).lower() == own

    async def press(
        self,
        user: UserRef,
        chat: ChatRef,
        message_id: int,
        data: str,
        *,
        check_buttons: bool = True,
    ) -> CallbackAnswer:
        """A user presses an inline button with callback ``data`` on a bot message."""
        u, c = self._user(user), self._open_chat(chat)
        if not c.has_bot:
            raise ValueError(f"the bot is {c.bot_status!r} in chat {c.id}: Telegram delivers no "
                             f"callback queries from a group the bot is not in")
        message = self.message(c.id, message_id)
        if message.deleted or not message.from_bot:
            raise ValueError(f"message {c.id}/{message_id} is deleted or not from the bot")
        if check_buttons and data not in [d for _, d in message.buttons]:
            raise ValueError(f"message {c.id}/{message_id} has no button with data {data!r}; "
                             f"buttons: {message.buttons}")
        query_id = str(next(self._query_ids))
        handle = CallbackAnswer(query_id=query_id, user=u, chat_id=c.id, message_id=message_id,
                                data=data)
        self.callbacks[query_id] = handle
        instance = int(hashlib.sha256(str(c.id).encode()).hexdigest()[:15], 16)
        handle.update_id = self.updates.push({"callback_query": {
            "id": query_id, "from": u.to_dict(), "message": message.to_dict(),
            "chat_instance": str(instance), "data": data,
        }})["update_id"]
        await self.changes.notify()
        return handle

    async def click(self, user: UserRef, message: StoredMessage, text: str) -> CallbackAnswer:
        """Press the button whose label equals/contains ``text`` on ``message``."""
        return await self.press(user, message.chat, message.message_id, message.button(text))

    # ------------------------------------------------------------------ chat changes

    async def migrate_to_supergroup(self, chat: ChatRef, *, by: UserRef | None = None) -> FakeChat:
        """Upgrade a group to a new supergroup, as Telegram does, and return the supergroup.

        The supergroup gets a fresh -100… id and the group's title, members, roles and bot
        status. The group stays in ``chats`` with ``migrated_to`` set: read-only for users,
        and every Bot API call naming it answers 400 with ``migrate_to_chat_id``. If the bot is
        in the group it receives two service messages: ``migrate_to_chat_id`` in the group from
        ``by`` (default: the creator or an administrator), then ``migrate_from_chat_id`` in the
        supergroup, posted on behalf of the supergroup (``sender_chat``) like Telegram does.
        """
        old = self._open_chat(chat)
        if old.type != "group":
            raise ValueError(f"only a basic group can be upgraded; chat {old.id} is a {old.type}")
        actor = self._actor(old, by)
        new_id = -int(f"100{abs(old.id):010d}")
        while new_id in self.chats:
            new_id -= 1
        new = FakeChat(id=new_id, type="supergroup", title=old.title, creator=old.creator,
                       admins=set(old.admins), members=set(old.members),
                       bot_status=old.bot_status, bot_can_send=old.bot_can_send)
        self.chats[new_id] = new
        self.messages.setdefault(new_id, {})
        old.migrated_to = new_id
        if new.has_bot:
            anonymous = FakeUser(id=GROUP_ANONYMOUS_BOT_ID, first_name="Group",
                                 username="GroupAnonymousBot", language_code=None, is_bot=True)
            self.updates.push({"message": self._service_message(old, actor, migrate_to_chat_id=new_id)})
            self.updates.push({"message": self._service_message(
                new, anonymous, sender_chat=new.to_dict(), migrate_from_chat_id=old.id)})
            await self.changes.notify()
        return new

    def _service_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> JSONDict:
        """A service Message object in ``chat`` (it takes a message id, like any message)."""
        return {"message_id": self.take_message_id(chat), "from": sender.to_dict(),
                "chat": chat.to_dict(), "date": self.now_date(), **fields}

    async def set_bot_status(self, chat: ChatRef, status: str, *, by: UserRef | None = None,
                             can_send: bool = True) -> JSONDict:
        """Change the bot's membership in a group and push the ``my_chat_member`` update.

        ``status`` is member, administrator, restricted, left or kicked; ``can_send`` only
        matters for restricted (False: sends and edits answer 400 «not enough rights»). ``by``
        defaults to the creator or an administrator. Returns the queued update.
        """
        c = self._open_chat(chat)
        if not c.is_group:
            raise ValueError("set_bot_status() is for groups; in a private chat set blocked_bot")
        if status not in BOT_STATUSES:
            raise ValueError(f"status must be one of {sorted(BOT_STATUSES)}, got {status!r}")
        actor = self._actor(c, by)
        old_member = chat_member(self, c, self.bot)
        c.bot_status = status
        c.bot_can_send = can_send or status != "restricted"
        return await self.push_update({"my_chat_member": {
            "chat": c.to_dict(), "from": actor.to_dict(), "date": self.now_date(),
            "old_chat_member": old_member, "new_chat_member": chat_member(self, c, self.bot),
        }})

    # ------------------------------------------------------------------ waiting

    async def wait_for(
        self, predicate: Callable[[FakeTelegram], bool], timeout: float = 5.0
    ) -> None:
        """Wait (woken on every bot request) until ``predicate(server)`` is true."""
        if not await self.wait_until(predicate, timeout):
            raise TimeoutError(
                f"condition {getattr(predicate, '__name__', predicate)!s} not met within "
                f"{timeout}s\n{self.dump()}"
            )

    async def wait_until(self, predicate: Callable[[FakeTelegram], bool], timeout: float) -> bool:
        """Like :meth:`wait_for`, but a timeout returns False (a watcher waiting for news)."""
        return await self.changes.wait_until(lambda: predicate(self), timeout)

    async def wait_answer(self, query: CallbackAnswer | str, timeout: float = 5.0) -> JSONDict:
        """Wait for the bot's answerCallbackQuery of a pressed button; returns its params."""
        handle = query if isinstance(query, CallbackAnswer) else self.callbacks[query]
        try:
            return await handle.wait(timeout)
        except TimeoutError as err:
            raise TimeoutError(f"{err}\n{self.dump()}") from None

    async def wait_idle(self, timeout: float = 5.0) -> None:
        """Wait until every pushed update was fetched and every pressed button answered."""
        def idle(server: FakeTelegram) -> bool:
            return not server.updates.undelivered() and not server.unanswered_callbacks()

        await self.wait_for(idle, timeout)

    # ------------------------------------------------------------------ inspection

    @property
    def polls_started(self) -> int:
        """getUpdates calls received so far, counted on arrival (``requests`` records them on return)."""
        return self.updates.polls_started

    @property
    def waiting_pollers(self) -> int:
        """Number of getUpdates calls currently blocked in long polling."""
        return self.updates.waiting_pollers

    @property
    def late_answers(self) -> int:
        """Calls held back by ``delay_next`` whose answer has not gone out (nor been given up on)."""
        return self._calls.late_answers

    @property
    def last_update_id(self) -> int:
        """update_id of the newest update queued for the bot (0 before the first)."""
        return self.updates.last_update_id

    @property
    def dropped_updates(self) -> list[JSONDict]:
        """Updates thrown away unseen: not in allowed_updates, or dropped with the webhook."""
        return self.updates.dropped

    @property
    def delivered_at(self) -> dict[int, float]:
        """update_id -> ``clock()`` when a getUpdates answer first carried it (benchmarks)."""
        return self.updates.delivered_at

    def pending_updates_count(self) -> int:
        """Updates queued and not yet confirmed by getUpdates (like getWebhookInfo)."""
        return len(self.updates.pending)

    def requests_for(self, method: str) -> list[RecordedRequest]:
        """Recorded calls of one method (name matched case-insensitively)."""
        return [r for r in self.requests if r.method.lower() == method.lower()]

    def failed_requests(self) -> list[RecordedRequest]:
        """Every recorded call that got an error answer."""
        return [r for r in self.requests if not r.ok]

    def message(self, chat: ChatRef, message_id: int) -> StoredMessage:
        """Stored message (also deleted ones) by chat and id."""
        chat_id = chat_id_of(chat)
        try:
            return self.messages[chat_id][message_id]
        except KeyError:
            raise LookupError(f"no message {chat_id}/{message_id}") from None

    def bot_messages(self, chat: ChatRef) -> list[StoredMessage]:
        """Live (not deleted) messages the bot sent in ``chat``, oldest first."""
        chat_id = chat_id_of(chat)
        return [m for m in self.messages.get(chat_id, {}).values()
                if m.from_bot and not m.deleted]

    def last_bot_message(self, chat: ChatRef) -> StoredMessage:
        """The newest live bot message in ``chat``."""
        messages = self.bot_messages(chat)
        if not messages:
            raise LookupError(f"the bot has no live messages in chat {chat}\n{self.dump()}")
        return messages[-1]

    def unanswered_callbacks(self) -> list[CallbackAnswer]:
        """Pressed buttons the bot has not answered yet."""
        return [h for h in self.callbacks.values() if not h.answered]

    def commands_for(self, scope: JSONDict | None = None, language_code: str = "") -> list[JSONDict]:
        """Commands stored by setMyCommands for a scope (default scope if None) and language."""
        return list(self.commands.get((scope_key(scope), language_code), []))

    # ------------------------------------------------------------------ fault injection

    def fail_next(
        self,
        method: str,
        error_code: int = 429,
        description: str | None = None,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with this error (429 adds retry_after)."""
        entry = METHODS.get(method.lower())
        if entry is None:
            raise ValueError(f"the fake server does not implement {method!r}")
        if error_code == 429 and retry_after is None:
            retry_after = 1
        if description is None:
            description = (f"Too Many Requests: retry after {retry_after}" if error_code == 429
                           else _DEFAULT_DESCRIPTIONS.get(error_code, f"Error {error_code}"))
        error = ApiError(error_code, description, retry_after=retry_after, violation=False)
        self.faults.add_fault(entry[0], Fault(error, times))

    def delay_next(self, method: str, seconds: float, times: int = 1, *,
                   applied: bool = True) -> None:
        """Answer the next ``times`` calls of ``method`` only after ``seconds``, as a slow Telegram.

        ``applied=True``: the call takes effect at once and only the answer is late.
        ``applied=False``: the call waits, then takes effect, like a request stuck before
        Telegram processed it; it is performed even if the client gave up and hung up, because
        Telegram performs every request it received. Other calls are answered meanwhile;
        ``close()`` ends every wait at once. Delayed calls are recorded with ``delayed=seconds``.
        """
        entry = METHODS.get(method.lower())
        if entry is None:
            raise ValueError(f"the fake server does not implement {method!r}")
        if seconds < 0 or times < 1:
            raise ValueError("seconds must be >= 0 and times >= 1")
        self.faults.add_delay(entry[0], Delay(seconds, times, applied))

    def enforce_group_rate(self, per_minute: int | None = 20, period: float = 60.0) -> None:
        """Answer 429 once the bot sends/edits more than ``per_minute`` times in any ``period``
        seconds in a group (tests shrink the minute to keep the suite fast)."""
        self.rate_limit.configure(per_minute, period)

    # ------------------------------------------------------------------ diagnostics

    def dump(self, last_requests: int = 25) -> str:
        """Human-readable state: recent requests, chats, pending updates, violations."""
        lines = [f"--- last {last_requests} of {len(self.requests)} requests:"]
        lines += [f"  {r.summary()}" for r in self.requests[-last_requests:]]
        for chat_id, messages in self.messages.items():
            if messages:
                lines.append(f"--- chat {chat_id}:")
                lines += [f"  {m.summary()}" for m in messages.values()]
        updates = self.updates
        lines.append(f"--- pending updates: {len(updates.pending)}, undelivered: "
                     f"{len(updates.undelivered())}, waiting pollers: {updates.waiting_pollers}")
        lines += [f"  unanswered callback {h.query_id} data={h.data!r}"
                  for h in self.unanswered_callbacks()]
        lines.append(f"--- violations: {self.violations or 'none'}")
        return "\n".join(lines)
