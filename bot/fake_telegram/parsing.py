"""Decoding requests and checking content the way the Bot API does (text, markup, images)."""

from __future__ import annotations

import json
import re
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .models import JSONDict, bad_request

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_BUTTONS = 100
MAX_ROW_BUTTONS = 8
MAX_PHOTO_BYTES = 10 * 1024 * 1024

INT_PARAMS = frozenset({
    "chat_id", "message_id", "user_id", "offset", "limit", "timeout", "cache_time",
    "message_thread_id", "reply_to_message_id", "icon_color", "max_connections",
})
BOOL_PARAMS = frozenset({
    "show_alert", "disable_notification", "protect_content", "has_spoiler",
    "drop_pending_updates", "show_caption_above_media", "allow_sending_without_reply",
    "disable_web_page_preview", "allow_paid_broadcast",
})
JSON_PARAMS = frozenset({
    "reply_markup", "media", "entities", "caption_entities", "commands", "scope",
    "allowed_updates", "link_preview_options", "reply_parameters",
})
_JSON_LABELS = {"reply_markup": "reply keyboard markup", "media": "InputMedia"}
_INT_RE = re.compile(r"-?\d+")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit Telegram counts text and entity offsets in."""
    return len(text.encode("utf-16-le")) // 2


# --------------------------------------------------------------------------- request decoding


async def read_request(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Collect raw params (query + body) and uploaded files from any Bot API request encoding."""
    raw: dict[str, Any] = dict(request.query)
    files: dict[str, bytes] = {}
    if not request.body_exists:
        return raw, files
    ctype = request.content_type
    if ctype == "application/json":
        body = await request.read()
        if body.strip():
            try:
                decoded = json.loads(body)
            except ValueError:
                raise bad_request("can't parse JSON encoded request body") from None
            if not isinstance(decoded, dict):
                raise bad_request("JSON request body must be an object")
            raw.update(decoded)
    elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form = await request.post()
        for name, value in form.items():
            if isinstance(value, web.FileField):
                files[name] = value.file.read()
            elif isinstance(value, bytes | bytearray):
                files[name] = bytes(value)
            else:
                raw[name] = value
    return raw, files


def coerce_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Turn form strings into typed values: JSON objects decoded, integers and booleans parsed."""
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if name in JSON_PARAMS and isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                label = _JSON_LABELS.get(name, name)
                raise bad_request(f"can't parse {label} JSON object") from None
        elif name in INT_PARAMS and isinstance(value, str):
            stripped = value.strip()
            if _INT_RE.fullmatch(stripped):
                value = int(stripped)
            elif name != "chat_id":
                raise bad_request(f"invalid {name} specified")
        elif name in BOOL_PARAMS and isinstance(value, str):
            lowered = value.strip().lower()
            if lowered not in {"true", "false", "1", "0", ""}:
                raise bad_request(f"invalid {name} specified")
            value = lowered in {"true", "1"}
        params[name] = value
    return params


# --------------------------------------------------------------------------- formatted text


@dataclass(frozen=True)
class Formatted:
    """Text after entity parsing: what the user sees plus the entities."""

    text: str
    entities: tuple[tuple[str, int, int, str], ...] = ()

    @property
    def length(self) -> int:
        """Length in UTF-16 code units."""
        return utf16_len(self.text)

    def entity_dicts(self) -> list[JSONDict]:
        """Entities as Bot API ``MessageEntity`` objects."""
        out: list[JSONDict] = []
        for etype, offset, length, extra in self.entities:
            entity: JSONDict = {"type": etype, "offset": offset, "length": length}
            if etype == "text_link":
                entity["url"] = extra
            elif etype == "pre" and extra:
                entity["language"] = extra
            elif etype == "custom_emoji":
                entity["custom_emoji_id"] = extra
            out.append(entity)
        return out


_SIMPLE_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "tg-spoiler": "spoiler", "code": "code", "pre": "pre",
}
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)?([^<>]*)(>?)")
_ATTR_RE = re.compile(r"""([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_CHARREF_RE = re.compile(r"&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def _unescape(chunk: str) -> str:
    def repl(match: re.Match[str]) -> str:
        ref = match.group(1)
        if ref.startswith("#x"):
            return chr(int(ref[2:], 16))
        if ref.startswith("#"):
            return chr(int(ref[1:]))
        return _NAMED[ref]

    return _CHARREF_RE.sub(repl, chunk)


def _tag_entity(name: str, attrs: dict[str, str], pos: str) -> tuple[str, str]:
    if name in _SIMPLE_TAGS:
        lang = attrs.get("class", "")
        return _SIMPLE_TAGS[name], lang.removeprefix("language-") if name == "code" else ""
    if name == "span" and attrs.get("class") == "tg-spoiler":
        return "spoiler", ""
    if name == "a":
        return "text_link", attrs.get("href", "")
    if name == "blockquote":
        return ("expandable_blockquote" if "expandable" in attrs else "blockquote"), ""
    if name == "tg-emoji" and "emoji-id" in attrs:
        return "custom_emoji", attrs["emoji-id"]
    raise bad_request(f'can\'t parse entities: Unsupported start tag "{name}" at byte offset {pos}')


class _HtmlReader:
    """Telegram-flavoured HTML read left to right: the text so far, the open tags, the entities."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.text: list[str] = []
        self.length = 0  # of the text so far, in UTF-16 code units like entity offsets
        self.open_tags: list[tuple[str, str, int, str]] = []  # (tag, entity type, start, extra)
        self.entities: list[tuple[str, int, int, str]] = []

    def read(self) -> Formatted:
        """The whole source as plain text and entities."""
        pos = 0
        while True:
            lt = self.source.find("<", pos)
            chunk = _unescape(self.source[pos:] if lt < 0 else self.source[pos:lt])
            self.text.append(chunk)
            self.length += utf16_len(chunk)
            if lt < 0:
                break
            pos = self._tag(lt)
        if self.open_tags:
            raise bad_request(
                "can't parse entities: Can't find end tag corresponding to start tag "
                f'"{self.open_tags[-1][0]}"'
            )
        self.entities.sort(key=lambda e: (e[1], -e[2]))
        return Formatted("".join(self.text), tuple(self.entities))

    def _tag(self, lt: int) -> int:
        """Read the tag that starts at ``lt``; returns where the text after it starts."""
        byte_offset = str(len(self.source[:lt].encode()))
        match = _TAG_RE.match(self.source, lt)
        assert match is not None
        closing, name, rest, gt = match.groups()
        name = (name or "").lower()
        if not gt or not name:
            raise bad_request(
                f'can\'t parse entities: Unsupported start tag "{name}" at byte offset '
                f"{byte_offset}"
            )
        if closing:
            self._close(name, byte_offset)
        else:
            attrs = {m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or ""
                     for m in _ATTR_RE.finditer(rest)}
            etype, extra = _tag_entity(name, attrs, byte_offset)
            self.open_tags.append((name, etype, self.length, extra))
        return match.end()

    def _close(self, name: str, byte_offset: str) -> None:
        """An end tag: it closes the innermost open tag, which becomes an entity unless empty."""
        if not self.open_tags:
            raise bad_request(f"can't parse entities: Unexpected end tag at byte offset {byte_offset}")
        open_name, etype, start, extra = self.open_tags.pop()
        if open_name != name:
            raise bad_request(
                f"can't parse entities: Unmatched end tag at byte offset {byte_offset}, "
                f'expected "</{open_name}>", found "</{name}>"'
            )
        outer = self.open_tags[-1] if self.open_tags else None
        if etype == "code" and outer is not None and outer[1] == "pre" and outer[2] == start:
            self.open_tags[-1] = (*outer[:3], extra)  # <pre><code class="language-x">
        elif self.length > start:
            self.entities.append((etype, start, self.length - start, extra))


def parse_html(source: str) -> Formatted:
    """Parse Telegram-flavoured HTML into plain text and entities (raises like Telegram)."""
    return _HtmlReader(source).read()


_MD_LINK_RE = re.compile(r"\[((?:\\.|[^\]\\])*)\]\((?:\\.|[^)\\])*\)")


def parse_markdown(source: str) -> Formatted:
    """Approximate Markdown/MarkdownV2: drop markup characters and escapes (no entities kept)."""
    text = _MD_LINK_RE.sub(lambda m: m.group(1), source)
    text = re.sub(r"```[^\n`]*\n?", "", text)
    text = re.sub(r"(?m)^>|^\*\*>", "", text)
    out: list[str] = []
    escaped = False
    for char in text:
        if escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char not in "*_~|`":
            out.append(char)
    return Formatted("".join(out))


def format_text(text: str, parse_mode: Any, entities: Any) -> Formatted:
    """Apply ``parse_mode``/``entities`` and Telegram's whitespace trimming to ``text``."""
    mode = (parse_mode or "").lower() if isinstance(parse_mode, str) else ""
    if mode == "html":
        formatted = parse_html(text)
    elif mode in ("markdown", "markdownv2"):
        formatted = parse_markdown(text)
    elif mode:
        raise bad_request("unsupported parse_mode")
    else:
        given = tuple(
            (str(e.get("type")), int(e.get("offset", 0)), int(e.get("length", 0)),
             str(e.get("url") or e.get("language") or e.get("custom_emoji_id") or ""))
            for e in entities or [] if isinstance(e, dict)
        )
        formatted = Formatted(text, given)
    return _strip(formatted)


def _strip(formatted: Formatted) -> Formatted:
    stripped = formatted.text.strip()
    if stripped == formatted.text:
        return formatted
    lead = utf16_len(formatted.text) - utf16_len(formatted.text.lstrip())
    total = utf16_len(stripped)
    entities = []
    for etype, offset, length, extra in formatted.entities:
        start = max(0, offset - lead)
        end = min(total, offset - lead + length)
        if end > start:
            entities.append((etype, start, end - start, extra))
    return Formatted(stripped, tuple(entities))


# --------------------------------------------------------------------------- reply markup

_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
)


def check_markup(markup: Any, *, inline_only: bool) -> JSONDict | None:
    """Validate reply_markup like Telegram; return the normalised markup (None if empty)."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if inline_only:
            raise bad_request("inline keyboard expected")
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    total = 0
    for row in rows:
        if len(row) > MAX_ROW_BUTTONS:
            raise bad_request("reply markup is too long")
        total += len(row)
        for button in row:
            _check_button(button)
    if total > MAX_BUTTONS:
        raise bad_request("reply markup is too long")
    rows = [row for row in rows if row]
    return {"inline_keyboard": rows} if rows else None


def _check_button(button: Any) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request('can\'t parse inline keyboard button: Field "text" must be of type String')
    actions = [key for key in _BUTTON_ACTIONS if key in button]
    if len(actions) != 1:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not re.match(r"(https?|tg)://\S+$", url):
            raise bad_request(f'inline keyboard button URL "{url}" is invalid: Wrong HTTP URL')


# --------------------------------------------------------------------------- images

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_JPEG_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE,
                       0xCF})


@dataclass(frozen=True)
class ImageInfo:
    """Format and pixel size of an uploaded image."""

    format: str
    width: int
    height: int


def inspect_image(data: bytes) -> ImageInfo | None:
    """Read PNG (IHDR, CRC checked) or JPEG (SOF marker) dimensions; None if neither."""
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 33 or data[12:16] != b"IHDR":
            return None
        length = struct.unpack(">I", data[8:12])[0]
        chunk = data[12:16 + length]
        if length != 13 or struct.unpack(">I", data[29:33])[0] != zlib.crc32(chunk):
            return None
        width, height = struct.unpack(">II", data[16:24])
        return ImageInfo("png", width, height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> ImageInfo | None:
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xDA)):
            pos += 2
            continue
        seg_len = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker in _JPEG_SOF:
            if pos + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            return ImageInfo("jpeg", width, height)
        pos += 2 + seg_len
    return None


def check_photo(data: bytes) -> ImageInfo:
    """Apply Telegram's photo limits: ≤10 MB, PNG/JPEG, w+h ≤ 10000, aspect ratio ≤ 20."""
    if len(data) > MAX_PHOTO_BYTES:
        raise bad_request("PHOTO_SAVE_FILE_INVALID")
    info = inspect_image(data)
    if info is None:
        raise bad_request("IMAGE_PROCESS_FAILED")
    small, big = sorted((info.width, info.height))
    if small == 0 or info.width + info.height > 10000 or big / small > 20:
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    return info


def photo_size_ladder(width: int, height: int) -> list[tuple[int, int]]:
    """Sizes Telegram would generate for a photo (thumbnails up to the stored original)."""
    sizes: list[tuple[int, int]] = []
    side = max(width, height)
    for limit in (90, 320, 800, 1280, 2560):
        if side > limit:
            scale = limit / side
            sizes.append((max(1, round(width * scale)), max(1, round(height * scale))))
    if side <= 2560:
        sizes.append((width, height))
    return sizes


# ---------------------------------------------------------------------------- animations

MAX_ANIMATION_BYTES = 50 * 1024 * 1024  # a bot's upload limit
_CONTAINERS = frozenset({b"moov", b"trak", b"mdia", b"minf", b"stbl"})


@dataclass(frozen=True)
class VideoInfo:
    """What Telegram reads from an uploaded MP4 animation: its codec, size and length."""

    codec: str
    width: int
    height: int
    duration: float
    has_sound: bool


def _boxes(data: bytes, start: int, end: int) -> list[tuple[bytes, int, int]]:
    """The ISO-BMFF boxes between ``start`` and ``end``: (type, payload start, payload end)."""
    found, at = [], start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        head = 8
        if size == 1 and at + 16 <= end:
            size, head = struct.unpack(">Q", data[at + 8:at + 16])[0], 16
        elif size == 0:
            size = end - at
        if size < head or at + size > end:
            raise ValueError("a box runs past its parent")
        found.append((kind, at + head, at + size))
        at += size
    return found


def _tree(data: bytes, start: int, end: int, into: dict[bytes, list[tuple[int, int]]]) -> None:
    for kind, lo, hi in _boxes(data, start, end):
        into.setdefault(kind, []).append((lo, hi))
        if kind in _CONTAINERS:
            _tree(data, lo, hi, into)


def inspect_mp4(data: bytes) -> VideoInfo | None:
    """An MP4's first video track's codec (its sample entry: «avc1» is H.264), size and duration; None if
    the bytes are not an MP4 with a movie header and a video track."""
    try:
        top = _boxes(data, 0, len(data))
        if not top or top[0][0] != b"ftyp":
            return None
        boxes: dict[bytes, list[tuple[int, int]]] = {}
        for kind, lo, hi in top:
            if kind == b"moov":
                _tree(data, lo, hi, boxes)
        mvhd = boxes[b"mvhd"][0][0]
        version = data[mvhd]
        scale_at = mvhd + (20 if version == 1 else 12)
        timescale = struct.unpack(">I", data[scale_at:scale_at + 4])[0]
        raw = data[scale_at + 4:scale_at + (12 if version == 1 else 8)]
        duration = int.from_bytes(raw, "big") / timescale if timescale else 0.0
        handlers = [data[lo + 8:lo + 12] for lo, _ in boxes.get(b"hdlr", [])]
        if b"vide" not in handlers:
            return None
        stsd_lo, _ = boxes[b"stsd"][handlers.index(b"vide")]
        codec = data[stsd_lo + 12:stsd_lo + 16].decode("ascii", "replace")
        _, tkhd_hi = boxes[b"tkhd"][handlers.index(b"vide")]
        width, height = struct.unpack(">II", data[tkhd_hi - 8:tkhd_hi])
        return VideoInfo(codec, width >> 16, height >> 16, duration, b"soun" in handlers)
    except (ValueError, KeyError, IndexError, struct.error):
        return None


def check_animation(data: bytes) -> VideoInfo:
    """Apply Telegram's animation rules: ≤ 50 MB, a GIF or an H.264 MP4 without sound."""
    if len(data) > MAX_ANIMATION_BYTES:
        raise bad_request("file is too big")
    if data.startswith((b"GIF87a", b"GIF89a")) and (info := inspect_image_gif(data)) is not None:
        return info
    info = inspect_mp4(data)
    if info is None or info.codec != "avc1" or info.has_sound:
        raise bad_request("wrong type of the web page content")  # what Telegram says of a bad animation
    return info


def inspect_image_gif(data: bytes) -> VideoInfo | None:
    """A GIF's logical screen size (its length is not read: reported as 0)."""
    if len(data) < 10:
        return None
    width, height = struct.unpack("<HH", data[6:10])
    return VideoInfo("gif", width, height, 0.0, False)
