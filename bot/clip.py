"""A finished game's replay as a short MP4 clip: H.264, no sound, as Telegram's
``sendAnimation`` wants it, encoded by PyAV (whose wheels bring FFmpeg with libx264).

Each shot is one board picture held for a number of ticks; the clip runs at ``FPS`` ticks a second,
and a held picture is the same frame repeated, which H.264 stores in a few bytes. The pictures are
scaled to ``WIDTH`` (the board's 1024 px are more than a phone shows) and encoded at ``CRF``; a
clip over ``max_bytes`` is encoded again, smaller and coarser, until it fits.

It lives in bot/, not render/: render/ draws pictures with Pillow alone (docs/architecture.md, «Layers»); this
takes the game's own ``render_board`` and turns its pictures into a video.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import av
from PIL import Image

FPS = 4  # ticks a second: a hold is a whole number of quarter seconds
WIDTH = 720
CRF = 26
# tried in turn while a clip is too big: (width, crf)
SMALLER = ((WIDTH, CRF), (WIDTH, 32), (540, 34), (432, 38))
MAX_BYTES = 3_000_000  # at most 3 MB


class Shot(NamedTuple):
    """One picture of the clip: the board after an action, with that action's events, held ``ticks``."""

    state: Any
    events: Sequence[Any]
    ticks: int


class ClipTooBig(RuntimeError):
    """Even the smallest encoding is over the size limit."""


def render_clip(render_board: Callable[..., bytes], shots: Sequence[Shot], names: Sequence[str],
                labels: Mapping[str, str], max_bytes: int = MAX_BYTES) -> bytes:
    """The clip of ``shots``, each board drawn by the game's own ``render_board``: MP4 bytes."""
    pictures = [(Image.open(io.BytesIO(render_board(s.state, names, labels, s.events))).convert("RGB"), s.ticks)
                for s in shots]
    return encode_clip(pictures, max_bytes)


def encode_clip(pictures: Sequence[tuple[Image.Image, int]], max_bytes: int = MAX_BYTES) -> bytes:
    """Pictures held for their ticks, as an H.264 MP4 of at most ``max_bytes``."""
    for width, crf in SMALLER:
        clip = _encode(pictures, width, crf)
        if len(clip) <= max_bytes:
            return clip
    raise ClipTooBig(f"{len(clip)} bytes at {width} px")


def _encode(pictures: Sequence[tuple[Image.Image, int]], width: int, crf: int) -> bytes:
    first = pictures[0][0]
    height = round(first.height * width / first.width / 2) * 2  # yuv420p wants even sides
    out = io.BytesIO()
    with av.open(out, mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        # a board changes little between frames: «stillimage» keeps its lines and letters sharp
        stream.options = {"crf": str(crf), "preset": "veryfast", "tune": "stillimage"}
        # one encoding thread: x264 would take every core, and the bot's event loop shares them
        stream.codec_context.thread_count = 1
        tick = 0
        for picture, ticks in pictures:
            frame = av.VideoFrame.from_image(picture.resize((width, height), Image.Resampling.LANCZOS))  # type: ignore[no-untyped-call]  # PyAV leaves it untyped
            for _ in range(max(ticks, 1)):
                frame.pts = tick
                tick += 1
                for packet in stream.encode(frame):
                    container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return out.getvalue()
