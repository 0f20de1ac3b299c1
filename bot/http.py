"""PTB's HTTP transport on aiohttp instead of httpx.

Under load the bot's main thread spent half its time in httpx, httpcore and anyio (each
request scans the pool and checks every connection's socket; bench/load.py, py-spy), and
that thread is what caps presses per second. aiohttp's C parser and connector do the same
work for a fraction. This is PTB's own extension point (``BaseRequest``), the way
ptbcontrib's ``aiohttp_request`` does it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

if TYPE_CHECKING:  # PTB's own type of a timeout parameter (a value, or «not given»)
    from telegram._utils.types import ODVInput


class AiohttpRequest(BaseRequest):
    """Bot API calls over one aiohttp session with at most ``connections`` open at once."""

    __slots__ = ("_connections", "_on_call", "_read_timeout", "_session")

    def __init__(self, connections: int = 1, read_timeout: float = 5.0,
                 on_call: Callable[[str, str], None] | None = None) -> None:
        self._connections = connections
        self._read_timeout = read_timeout
        self._on_call = on_call  # (method, result) of every call, for the metrics: see call_result
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float:
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (in the running loop: aiohttp binds to it)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=self._connections))

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One call: parameters as form fields, files as multipart parts; (status, body)."""
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        form = aiohttp.FormData(request_data.json_parameters if request_data else {})
        for name, (filename, content, mimetype) in _parts(request_data):
            form.add_field(name, content, filename=filename, content_type=mimetype)
        body = _Body()
        payload = form()
        await payload.write(body)  # type: ignore[arg-type]
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=_given(pool_timeout, None),  # waiting for a free connection, and connecting
            sock_connect=_given(connect_timeout, 5.0),
            sock_read=_given(read_timeout, self._read_timeout),
        )
        result = None  # a call cancelled (polling stopped) is no call's result
        try:
            async with self._session.request(method, url, data=b"".join(body.chunks), timeout=timeout,
                                             headers={"User-Agent": self.USER_AGENT,
                                                      "Content-Type": payload.content_type}) as response:
                answer = response.status, await response.read()
                result = call_result(response.status)
                return answer
        except TimeoutError as exc:
            result = "timeout"
            raise TimedOut from exc
        except aiohttp.ClientError as exc:
            result = "network"
            # aiohttp may name the URL, and a Bot API URL holds the token: say what failed without
            # it, and do not chain the original (a logged traceback would print its message)
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {_without_token(str(exc))}") from None
        finally:
            if self._on_call is not None and result is not None:
                self._on_call(url.rpartition("/")[2], result)  # the Bot API method ends the URL


def call_result(status: int) -> str:
    """A Bot API answer's HTTP status as the metrics count it: ok, 429, 4xx or 5xx."""
    if status < 300:
        return "ok"
    return "429" if status == 429 else f"{status // 100}xx"


class _Body:
    """A request body gathered in memory: aiohttp writes a multipart form part by part, four
    socket sends a field, each a packet the server wakes up for (bench/load.py, py-spy: a tenth of
    the bot's loop); gathered, the request leaves in one or two."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    async def write(self, chunk: bytes) -> None:
        self.chunks.append(bytes(chunk))


def _without_token(text: str) -> str:
    """``text`` with every Bot API path (``/bot<token>/…``) cut to ``/bot…``."""
    return re.sub(r"/(file/)?bot[^/\s]*", r"/\1bot…", text)


def _given(value: ODVInput[float], default: float | None) -> float | None:
    """A timeout PTB passed, or ``default`` where it passed none."""
    return default if value is BaseRequest.DEFAULT_NONE else cast("float | None", value)


def _parts(request_data: RequestData | None) -> list[tuple[str, tuple[str, Any, str]]]:
    """The files to upload: (field, (file name, content, MIME type))."""
    return list(request_data.multipart_data.items()) if request_data is not None else []
