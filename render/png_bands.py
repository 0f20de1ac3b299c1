"""A board's PNG written band by band, most bands copied from its backdrop's.

A board is drawn on a copy of its static picture (the backdrop: board, legend, empty cards), and a
quarter to a half of its rows come out as they are in the backdrop. So the backdrop is mapped to the
palette and deflated once, in bands of :data:`BAND_ROWS` rows, and every picture drawn on it takes
the deflate of each band whose indices are the backdrop's; only the runs of other bands are deflated
again, at the renderer's zlib level. Deflating was most of a board's time, and the backdrop's bands,
deflated once, can afford zlib's smallest (level 9).

The file is an ordinary PNG (8-bit palette indices, filter type 0 on every row, one zlib stream) and
decodes to the very pixels, palette and indices of Pillow's own PNG of the picture mapped to the same
palette (tests/test_png_bands.py). Its bytes depend only on the picture and its backdrop.

The deflate pieces join end to end: each is raw deflate ended by a sync flush (an empty stored block,
so it ends on a byte boundary and is never the final block), and may refer back only into what the
decoder has written just before it, which is what it was deflated after (a preset dictionary to
zlib, never one to the decoder). An empty final block, then the Adler-32 of all scanlines (combined
from each piece's, RFC 1950), close the stream.
"""

from __future__ import annotations

import struct
import threading
import weakref
import zlib
from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image

BAND_ROWS = 16  # rows of a backdrop's band: a band something is drawn over is deflated again, the rest copied
BACKDROP_LEVEL = 9  # a backdrop's bands are deflated once, so as small as zlib makes them
BACKDROPS = 8  # backdrops kept with their bands: the scanlines (a byte a pixel) and two deflates of each band
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KB window, no preset dictionary
LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes)
WINDOW = 32768  # how far back deflate may refer
ADLER_BASE = 65521


@dataclass(frozen=True, slots=True)
class Bands:
    """A backdrop mapped to a palette: its scanlines and, for each band of them, its deflate after the
    band above (the decoder has written that band just before), its deflate alone, and its Adler-32.
    ``backdrop`` is only referred to, so the cache never keeps a picture its renderer let go."""

    backdrop: weakref.ref[Image.Image]
    palette: Image.Image
    scanlines: bytes
    after_above: tuple[bytes, ...]
    alone: tuple[bytes, ...]
    adler: tuple[int, ...]


_kept: OrderedDict[tuple[int, int], Bands] = OrderedDict()
_kept_lock = threading.Lock()  # the bot may draw on threads


def encode(image: Image.Image, palette: Image.Image, level: int, backdrop: Image.Image) -> bytes:
    """``image``, drawn on a copy of ``backdrop`` (both RGB, one size), as a PNG in ``palette`` (a "P"
    image of more than 16 colours: Pillow packs fewer into less than a byte a pixel).

    A band mapped to the same indices as the backdrop's is copied from the backdrop's bands (its deflate
    after the band above when that band is copied too, else alone); each run of other bands is deflated
    at ``level`` after the band above it.
    """
    known = backdrop_bands(backdrop, palette)
    lines = scanlines(image.quantize(palette=palette, dither=Image.Dither.NONE))
    size = BAND_ROWS * (image.width + 1)  # scanline bytes in a band: a filter byte, then a byte a pixel
    pieces, adler = [ZLIB_HEADER], 1
    run_from: int | None = None  # where the run of bands drawn on under way starts in ``lines``
    above_copied = False
    for k, start in enumerate(range(0, len(lines) + size, size)):
        band = lines[start:start + size]
        copied = bool(band) and band == known.scanlines[start:start + size]
        if run_from is not None and (copied or not band):
            run = lines[run_from:start]
            pieces.append(deflate_piece(run, lines[max(0, run_from - size):run_from], level))
            adler = adler32_combine(adler, zlib.adler32(run), len(run))
            run_from = None
        if not band:
            break
        if copied:
            pieces.append(known.after_above[k] if above_copied else known.alone[k])
            adler = adler32_combine(adler, known.adler[k], len(band))
        elif run_from is None:
            run_from = start
        above_copied = copied
    pieces += [LAST_BLOCK, struct.pack(">I", adler)]
    return png_file(image.size, plte(palette), b"".join(pieces))


def backdrop_bands(backdrop: Image.Image, palette: Image.Image) -> Bands:
    """The :class:`Bands` of ``backdrop`` in ``palette``: made once, kept while among the last
    :data:`BACKDROPS` used (by the ids of both: their objects are checked, as an id outlives nothing)."""
    key = (id(backdrop), id(palette))
    with _kept_lock:
        kept = _kept.get(key)
        if kept is not None and kept.backdrop() is backdrop and kept.palette is palette:
            _kept.move_to_end(key)
            return kept
    lines = scanlines(backdrop.quantize(palette=palette, dither=Image.Dither.NONE))
    size = BAND_ROWS * (backdrop.width + 1)
    tops = range(0, len(lines), size)
    made = Bands(weakref.ref(backdrop), palette, lines,
                 tuple(deflate_piece(lines[t:t + size], lines[max(0, t - size):t], BACKDROP_LEVEL) for t in tops),
                 tuple(deflate_piece(lines[t:t + size], b"", BACKDROP_LEVEL) for t in tops),
                 tuple(zlib.adler32(lines[t:t + size]) for t in tops))
    with _kept_lock:
        _kept[key] = made
        while len(_kept) > BACKDROPS:
            _kept.popitem(last=False)
    return made


def scanlines(indexed: Image.Image) -> bytes:
    """The PNG scanlines of a "P" image: each row's indices after filter type 0 (none: the filter the
    PNG specification advises for palette images, and the one Pillow writes for them), made as the
    bytes of the image one pixel wider with index 0 in its first column."""
    width, height = indexed.size
    lines = Image.new("P", (width + 1, height), 0)
    lines.paste(indexed, (1, 0))
    return lines.tobytes()


def deflate_piece(data: bytes, before: bytes, level: int) -> bytes:
    """``data`` as raw deflate that may refer back into ``before`` (what the decoder wrote just before
    it), ended by a sync flush: on a byte boundary and not final, so pieces join end to end."""
    packer = (zlib.compressobj(level, zlib.DEFLATED, -15, zdict=before[-WINDOW:]) if before
              else zlib.compressobj(level, zlib.DEFLATED, -15))
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings end to end, from each one's and the second's length (as zlib's
    adler32_combine: the first's sums carried over ``second_length`` more bytes, modulo 65521)."""
    low = ((first & 0xFFFF) + (second & 0xFFFF) + ADLER_BASE - 1) % ADLER_BASE
    high = ((second_length % ADLER_BASE) * (first & 0xFFFF) + (first >> 16) + (second >> 16)
            + ADLER_BASE - second_length % ADLER_BASE) % ADLER_BASE
    return low | high << 16


def plte(palette: Image.Image) -> bytes:
    """The PLTE chunk of a "P" image's palette as Pillow writes it: every entry it holds, 256 at most."""
    rgb = palette.getpalette() or []
    return bytes(rgb[:3 * max(1, min(len(rgb) // 3, 256))])


def png_file(size: tuple[int, int], palette: bytes, idat: bytes) -> bytes:
    """A PNG of 8-bit palette indices, no interlace: ``palette`` its PLTE, ``idat`` its zlib stream."""
    header = struct.pack(">IIBBBBB", *size, 8, 3, 0, 0, 0)  # bit depth 8, colour type 3 (palette)
    return b"".join((SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette), _chunk(b"IDAT", idat),
                     _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
