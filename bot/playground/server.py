"""The playground's web side: one group chat of the fake Bot API server as JSON, and the page.

The page (``static/``) long-polls ``GET /api/chat`` and acts through ``POST /api/send`` and
``POST /api/press`` as one of the chat's members; the fake server turns those into updates
for the real bot exactly as Telegram would. With no members the view is read-only: a test
run being watched.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.fake_telegram.parsing import inspect_image
from locales import SUPPORTED, Translator

LONG_POLL_S = 20.0  # a chat with no news answers after this; the page asks again at once
ANSWER_WAIT_S = 10.0  # how long a press waits for the bot's answerCallbackQuery
SHOWN_MESSAGES = 200  # the newest messages the page gets
MAX_TEXT = 4096  # Telegram's limit on a message's text
MAX_CALLBACK_DATA = 64  # bytes; Telegram's limit on a button's callback data
MAX_BODY = 64 * 1024  # 4096 characters, each escaped as \uXXXX, fit
QUOTED_CHARS = 200  # of a replied-to message's first line: more than a quote's one line ever shows
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css", "icon.svg": "image/svg+xml"}


class BadInput(Exception):
    """A request the page (or anyone on 127.0.0.1) got wrong: a 400 with this text and the page's locale key."""

    def __init__(self, text: str, key: str = "pg-error-bad-request") -> None:
        super().__init__(text)
        self.key = key


def _sender_name(user: FakeUser) -> str:
    return f"{user.first_name} {user.last_name}" if user.last_name else user.first_name


def _buttons(message: StoredMessage) -> list[list[dict[str, Any]]]:
    return [[{"text": b.get("text", ""), "data": b.get("callback_data"), "url": b.get("url")} for b in row]
            for row in message.inline_keyboard]


def _first_line(message: StoredMessage) -> str:
    """What a reply quotes of ``message``: the first line of its text or caption, cut like a quote is."""
    line = (message.text or message.caption or "").split("\n", 1)[0]
    return line[:QUOTED_CHARS]


def _media(message: StoredMessage) -> str | None:
    """What a message without words shows in a reply's quote (the page names it in its language)."""
    return "video" if message.animation is not None else "photo" if message.photo is not None else None


def _reply_json(message: StoredMessage) -> dict[str, Any] | None:
    """The message ``message`` replies to, as its quote shows it (Telegram's «author / first line»); None
    when it replies to nothing, or only to a service message (a forum topic's start, which no quote shows)."""
    target = message.reply_to
    if target is None or target.service:
        return None
    return {"id": target.message_id, "from": {"id": target.sender.id, "name": _sender_name(target.sender)},
            "text": _first_line(target), "media": _media(target), "deleted": target.deleted}


def _video_json(message: StoredMessage) -> dict[str, Any] | None:
    """A clip (sendAnimation: an MP4, or a GIF) as the page plays it; the URL changes with the file."""
    clip = message.animation
    if clip is None:
        return None
    return {"url": f"/api/video/{message.message_id}?f={clip.file_unique_id}", "mime_type": clip.mime_type,
            "width": clip.width, "height": clip.height}


def message_json(message: StoredMessage) -> dict[str, Any]:
    """One message as the page shows it (with its clip, and the quote of what it replies to); the photo
    and clip URLs change whenever the picture or clip does."""
    photo = f"/api/photo/{message.message_id}?h={message.photo_hash}" if message.photo is not None else None
    return {
        "id": message.message_id,
        "from": {"id": message.sender.id, "name": _sender_name(message.sender), "is_bot": message.from_bot},
        "date": message.date, "edited": message.edit_count > 0,
        "text": message.text, "entities": message.entities,
        "caption": message.caption, "caption_entities": message.caption_entities,
        "photo": photo, "video": _video_json(message), "reply_to": _reply_json(message),
        "buttons": _buttons(message),
    }


@dataclass
class ChatView:
    """One chat of a fake server, seen by the page; ``revision`` grows with every visible change."""

    tg: FakeTelegram
    chat_id: int
    members: Sequence[FakeUser] = ()
    revision: int = 0
    _seen: tuple[tuple[int, int, bool], ...] | None = field(default=None, repr=False)  # None: not looked yet

    def _stored(self) -> dict[int, StoredMessage]:
        """The chat's messages by id, deleted ones included (as the fake server keeps them)."""
        return self.tg.messages.get(self.chat_id, {})

    def _messages(self) -> list[StoredMessage]:
        return [m for m in self._stored().values() if not m.deleted]

    def refresh(self) -> int:
        """Note what changed since the last look (new, edited or deleted messages); the revision."""
        seen = tuple((m.message_id, m.edit_count, m.deleted) for m in self._stored().values())
        if seen != self._seen:
            self._seen = seen
            self.revision += 1
        return self.revision

    async def news_after(self, revision: int, timeout: float = LONG_POLL_S) -> dict[str, Any]:
        """The chat as soon as it differs from ``revision`` (or as it is after ``timeout``)."""
        if revision <= self.refresh():  # a page that knew a newer revision knew an earlier server: answer now
            await self.tg.wait_until(lambda _tg: self.refresh() > revision, timeout)
        return self.snapshot()

    def snapshot(self) -> dict[str, Any]:
        chat = self.tg.chats[self.chat_id]
        return {
            "revision": self.refresh(), "title": chat.title or "", "read_only": not self.members,
            "bot": {"name": self.tg.bot.first_name, "username": self.tg.bot.username},
            "members": [{"id": u.id, "name": _sender_name(u), "role": chat.status_of(u.id)} for u in self.members],
            "messages": [message_json(m) for m in self._messages()[-SHOWN_MESSAGES:]],
        }

    def member(self, value: Any) -> FakeUser:
        """The member a request acts as; anyone else is bad input."""
        for user in self.members:
            if type(value) is int and value == user.id:  # not True, which equals 1
                return user
        if not self.members:
            raise BadInput("this view is read-only", "pg-error-read-only")
        raise BadInput("unknown member: pick one of the chat's members", "pg-error-unknown-member")

    async def send(self, body: dict[str, Any]) -> dict[str, Any]:
        """A member writes a message in the chat."""
        user, text = self.member(body.get("user")), body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadInput("the message is empty", "pg-error-empty")
        if len(text) > MAX_TEXT:
            raise BadInput(f"the message is longer than {MAX_TEXT} characters", "pg-error-too-long")
        await self.tg.send_message(user, self.chat_id, text)
        return {"ok": True}

    async def press(self, body: dict[str, Any]) -> dict[str, Any]:
        """A member presses an inline button of a bot message; the bot's answer (a toast or an alert)."""
        user, message_id, data = self.member(body.get("user")), body.get("message_id"), body.get("data")
        if type(message_id) is not int:  # not True either
            raise BadInput("message_id must be a number")
        if not isinstance(data, str) or not data or len(data.encode()) > MAX_CALLBACK_DATA:
            raise BadInput("data must be a button's callback data")
        try:
            handle = await self.tg.press(user, self.chat_id, message_id, data)
        except (LookupError, ValueError):  # no such message, not the bot's, or no such button on it
            raise BadInput("that message has no such button (any more)", "pg-error-no-button") from None
        answer = await self.tg.wait_answer(handle, ANSWER_WAIT_S)
        return {"ok": True, "answer": {"text": answer.get("text"), "show_alert": bool(answer.get("show_alert"))}}

    def photo(self, message_id: int) -> tuple[bytes, str]:
        message = self._shown(message_id)
        data = message.photo if message is not None else None
        image = inspect_image(data) if data is not None else None
        if data is None or image is None:
            raise BadInput("no such photo")
        return data, f"image/{image.format}"  # the fake server stored only what it could read

    def video(self, message_id: int) -> tuple[bytes, str]:
        """A clip's bytes as the fake server stored them, and their type (it checked them like Telegram)."""
        message = self._shown(message_id)
        if message is None or message.animation is None:
            raise BadInput("no such video")
        return message.animation.data, message.animation.mime_type

    def _shown(self, message_id: int) -> StoredMessage | None:
        """The message ``message_id`` if the chat still shows it (a deleted one's files are gone too)."""
        message = self._stored().get(message_id)
        return message if message is not None and not message.deleted else None


def _static(name: str) -> bytes:
    return resources.files("bot.playground").joinpath("static", name).read_bytes()


def page_texts(translator: Translator, lang: str) -> dict[str, Any]:
    """The page's own words (``pg-*`` in ``locales/<lang>/playground.ftl``)."""
    lang = lang if lang in SUPPORTED else translator.default
    keys = sorted(k for k in translator.keys[lang] if k.startswith("pg-"))
    return {"lang": lang, "texts": {key: translator.t(lang, key) for key in keys}}


class _PageRoutes:
    """The page's GET handlers for one chat view: the page, its files, the chat, its words, photos and clips."""

    def __init__(self, view: ChatView, translator: Translator) -> None:
        self.view = view
        self.translator = translator

    async def page(self, _request: web.Request) -> web.Response:
        return web.Response(body=_static("index.html"), content_type="text/html", charset="utf-8")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        return web.Response(body=_static(name), content_type=STATIC_FILES[name], charset="utf-8")

    async def chat(self, request: web.Request) -> web.Response:
        try:
            after = int(request.query.get("after", "0"))
        except ValueError:
            return _error(BadInput("after must be a number"))
        return web.json_response(await self.view.news_after(after))

    async def texts(self, request: web.Request) -> web.Response:
        return web.json_response(page_texts(self.translator, request.query.get("lang", "")))

    async def photo(self, request: web.Request) -> web.Response:
        return _file(request, self.view.photo)

    async def video(self, request: web.Request) -> web.Response:
        return _file(request, self.view.video)


def _file(request: web.Request, find: Callable[[int], tuple[bytes, str]]) -> web.Response:
    """A message's picture or clip (``find`` by the message id in the path); 404 for anything else. Its URL
    names the very file (a hash or file id in the query), so the browser may keep it."""
    try:
        data, kind = find(int(request.match_info["message_id"]))
    except (ValueError, BadInput):
        raise web.HTTPNotFound() from None
    return _ranged(request, data, kind, {"Cache-Control": "max-age=3600", "Accept-Ranges": "bytes"})


def _ranged(request: web.Request, data: bytes, kind: str, headers: dict[str, str]) -> web.Response:
    """``data``, or the part of it the request's ``Range`` asks for: a browser seeks in a clip only where
    the server serves parts of it."""
    try:
        part = request.http_range
    except ValueError:  # a Range it cannot read is ignored, as HTTP allows: the whole file
        part = slice(None)
    if part.start is None and part.stop is None:  # no Range
        return web.Response(body=data, content_type=kind, headers=headers)
    start, stop, _ = part.indices(len(data))
    if start >= stop:
        raise web.HTTPRequestRangeNotSatisfiable(headers={"Content-Range": f"bytes */{len(data)}"})
    headers = {**headers, "Content-Range": f"bytes {start}-{stop - 1}/{len(data)}"}
    return web.Response(status=206, body=data[start:stop], content_type=kind, headers=headers)


MemberAction = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def _acting(action: MemberAction) -> Callable[[web.Request], Awaitable[web.Response]]:
    """A POST handler that reads the JSON body, lets a member act with it and answers in JSON."""

    async def handle(request: web.Request) -> web.Response:
        try:
            # a web page elsewhere can post text/plain here without asking; application/json it must ask for
            if request.content_type != "application/json":
                raise BadInput("the body must be JSON, sent as application/json")
            body = json.loads(await request.read())
            if not isinstance(body, dict):
                raise BadInput("the body must be a JSON object")
            return web.json_response(await action(body))
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error(BadInput("the body must be JSON"))
        except BadInput as exc:
            return _error(exc)
        except TimeoutError:
            return _error(BadInput("the bot did not answer the press", "pg-error-no-answer"), status=504)

    return handle


@web.middleware
async def _local_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    # a site whose name someone points at 127.0.0.1 (DNS rebinding) must not reach the chat
    if (request.host or "").rsplit(":", 1)[0].lower() not in LOCAL_HOSTS:
        return _error(BadInput("the playground answers on 127.0.0.1 or localhost only"), status=403)
    return await handler(request)


def build_web_app(view: ChatView, translator: Translator | None = None) -> web.Application:
    """The page and its JSON API for ``view``."""
    routes = _PageRoutes(view, translator or Translator.load())
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_local_only])
    app.router.add_get("/", routes.page)
    app.router.add_get("/static/{name}", routes.static)
    app.router.add_get("/api/chat", routes.chat)
    app.router.add_get("/api/texts", routes.texts)
    app.router.add_get("/api/photo/{message_id}", routes.photo)
    app.router.add_get("/api/video/{message_id}", routes.video)
    app.router.add_post("/api/send", _acting(view.send))
    app.router.add_post("/api/press", _acting(view.press))
    return app


def _error(problem: BadInput, status: int = 400) -> web.Response:
    return web.json_response({"ok": False, "error": str(problem), "error_key": problem.key}, status=status)


@asynccontextmanager
async def serve_view(tg: FakeTelegram, chat_id: int, *, port: int, host: str = "127.0.0.1",
                     members: Sequence[FakeUser] = ()) -> AsyncIterator[str]:
    """Serve the page for one chat of ``tg`` on ``host:port`` (0: a free port); yields its URL."""
    runner = web.AppRunner(build_web_app(ChatView(tg, chat_id, members)), handle_signals=False,
                           access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound_port = runner.addresses[0][1]
        yield f"http://{host}:{bound_port}/"
    finally:
        await runner.cleanup()
