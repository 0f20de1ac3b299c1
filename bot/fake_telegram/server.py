"""FakeTelegram: the fake Bot API served over HTTP, with every test-facing part mixed in."""

from __future__ import annotations

from types import TracebackType

from aiohttp import web

from .calls import BotApiCalls
from .chat_changes import ChatChanges
from .fault_injection import FaultInjection
from .forum_actions import ForumActions
from .models import ApiError, JSONDict
from .parsing import read_request
from .waiting import Waiting

MAX_REQUEST_BYTES = 50 * 1024 * 1024


class FakeTelegram(ChatChanges, ForumActions, Waiting, FaultInjection):
    """An in-process Telegram Bot API on 127.0.0.1 that a real PTB Application can talk to.

    The state is the :class:`~.world.World`'s; the test-facing methods come from the parts
    mixed in: world building and user actions (``add_chat``, ``send_message``, ``press``, …),
    chat changes, forum topics (``create_topic``, ``close_topic``, …), inspection and waiting,
    and fault injection. This class only serves HTTP.
    """

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

    @property
    def late_answers(self) -> int:
        """Calls held back by ``delay_next`` whose answer has not gone out (nor been given up on)."""
        return self._calls.late_answers

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
        self.webhook.start()
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
        await self.webhook.stop()
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
