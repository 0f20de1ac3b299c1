"""The lobby's title card: three dice on felt, the game's name large and a line under it."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.cards import felt
from render.dice import die_image, shadow_image
from render.png import to_png
from render.theme import BG, WOOD
from render.typeset import clean_text, ellipsize, fit_font


@lru_cache(maxsize=16)
def render_cover(title: str, subtitle: str) -> bytes:
    """A 1024×576 title card: three dice on felt, the title large and the subtitle small."""
    w, h = 1024, 576
    img = Image.new("RGB", (w, h), BG)
    table = felt((w - 40, h - 40), (40, 116, 88), (18, 60, 46))
    mask = Image.new("L", (table.width * 2, table.height * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), 60, fill=255)
    mask = mask.resize(table.size, Image.Resampling.LANCZOS)
    rim = Image.new("L", (w * 2, h * 2), 0)
    ImageDraw.Draw(rim).rounded_rectangle((12, 12, w * 2 - 13, h * 2 - 13), 72, fill=255)
    img.paste(WOOD, (0, 0, w, h), rim.resize((w, h), Image.Resampling.LANCZOS))
    img.paste(table, (20, 20), mask)

    size = 150
    for i, (value, angle) in enumerate(((5, 14), (3, -8), (6, 22))):
        die = die_image(value, size).rotate(angle, Image.Resampling.BICUBIC, expand=True)
        sh = shadow_image(size).rotate(angle, Image.Resampling.BICUBIC, expand=True)
        cx, cy = w // 2 + (i - 1) * 190, 178 + (i % 2) * 18
        img.paste(sh, (cx - sh.width // 2 + 5, cy - sh.height // 2 + 10), sh)
        img.paste(die, (cx - die.width // 2, cy - die.height // 2), die)

    d = ImageDraw.Draw(img)
    title = clean_text(title, True)
    fnt = fit_font(title, w - 120, 84, 36, bold=True)
    title = ellipsize(title, fnt, w - 120)
    d.text((w // 2 + 3, 388 + 4), title, font=fnt, fill=(8, 30, 22), anchor="mm")
    d.text((w // 2, 388), title, font=fnt, fill=(255, 252, 240), anchor="mm")
    sub = clean_text(subtitle)
    sfnt = fit_font(sub, w - 160, 34, 20)
    d.text((w // 2, 470), ellipsize(sub, sfnt, w - 160), font=sfnt, fill=(214, 232, 220),
           anchor="mm")
    return to_png(img)
