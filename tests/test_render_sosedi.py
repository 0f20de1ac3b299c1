"""The «соседи» board renderer and the shared drawing kit (render/theme, canvas, typeset, dice, pieces, marks,
cards, png and cover)."""

from __future__ import annotations

import ast
import sys
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from engines.sosedi import ENGINE, SosediOptions, SosediState, owner_of
from render import sosedi as board
from render.cover import render_cover
from render.dice import die_extent, die_image, draw_die
from render.marks import _ring_parts, frame_ring, paste_ring
from render.pieces import marker_image, stack_image
from render.png import to_png
from render.sosedi import LABEL_KEYS, render_board
from render.theme import CARD, FELT, GOLD, PLAYERS
from render.typeset import TextDraw, _text_mask, clean_text, ellipsize, fit_name, font, has_glyph
from tests.render_helpers import (
    PNG_SIGNATURE,
    decode,
    diff_bbox,
    find_state,
    ignores_label,
    play_game,
    png_size,
    render_all,
    renderer,
    shows_label,
)

LABELS = {
    "bowl": "Миска",
    "tower": "Башня",
    "phase1": "Берём",
    "phase2": "Отдаём",
    "turn": "Ходит",
    "safe": "Спасён",
    "dead": "ничьи",
    "immune": "своё",
    "void": "Не в счёт — ещё раз",
    "winner": "Победил!",
    "loser": "Проставляется",
}
NAMES = ["Аня", "Борис", "Вика", "Григорий", "Даша", "Евгений"]


render = renderer(render_board, LABELS, NAMES)


def play(mode: str, seats: int, k: int = 1, **opts) -> list[tuple[SosediState, list]]:
    """Every (state, events of the throw that made it) of one whole game."""
    return play_game(ENGINE, SosediOptions(mode=mode, **opts), seats, k)


def find_with_events(mode: str, seats: int, pred, **opts) -> tuple[SosediState, list]:
    """The first engine state (over seeds 0, 1, …) for which ``pred(state, events)`` holds."""
    return find_state(lambda k: play(mode, seats, k, **opts), pred, 400)


def find(mode: str, seats: int, pred, **opts) -> SosediState:
    return find_with_events(mode, seats, pred, **opts)[0]


def mid(mode: str, seats: int, **opts) -> SosediState:
    game = play(mode, seats, **opts)
    return game[len(game) // 2][0]


# ---------------------------------------------------------------- format and determinism


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state = mid("tower", 5)
    first = render_board(state, NAMES[:5], LABELS)
    assert render_board(state, NAMES[:5], LABELS) == first
    for cached in (board._base, board._palette, board._layout, board._die_patch, die_image, marker_image,
                   stack_image, font, fit_name, _text_mask, _ring_parts):
        cached.cache_clear()
    assert render_board(state, list(NAMES[:5]), dict(LABELS)) == first


@pytest.mark.parametrize("mode", ["classic", "reverse", "tower"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_png_signature_size_and_palette_mode(mode, seats):
    png = render_board(mid(mode, seats), NAMES[:seats], LABELS)
    width, height = png_size(png)
    assert width == 1024
    assert 400 <= height <= 1024 and width + height <= 10000
    assert decode(png).mode == "P"


@pytest.mark.parametrize("mode", ["classic", "reverse", "tower"])
def test_six_players_mid_game_fit_in_100_kb(mode):
    png = render_board(mid(mode, 6, chips=30, tower=60), NAMES, LABELS)
    assert len(png) <= 100_000


@pytest.mark.parametrize("mode", ["classic", "reverse", "tower"])
@pytest.mark.parametrize("seats", [2, 3, 6])
def test_every_state_of_a_whole_game_renders(mode, seats):
    game = play(mode, seats, k=7, roller_immune=mode != "classic")
    sizes, _pngs = render_all(lambda state, events: render(state), game)  # pictures without the events
    assert len(sizes) == 1  # one picture size for the whole game: no jumping message


def test_picture_is_not_blank_and_uses_several_colours():
    img = decode(render_board(mid("classic", 6), NAMES, LABELS)).convert("RGB")
    assert len(img.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 50


# ---------------------------------------------------------------- text: Cyrillic and labels


def test_font_draws_cyrillic_not_notdef():
    fnt = font(40, bold=True)
    zhe, notdef = fnt.getmask("Ж"), fnt.getmask("\uffff")
    assert bytes(zhe) != bytes(notdef)
    assert max(bytes(zhe)) > 200  # real ink
    assert has_glyph("Ж") and has_glyph("ё", bold=True)
    assert not has_glyph("\ue000")


def test_cyrillic_names_are_drawn_into_the_panels():
    state = play("classic", 6)[0][0]  # no throw yet: no badges in the headers
    cyr = render_board(state, ["Жанна", "Щука", "Юля", "Ёжик", "Фёкла", "Эдуард"], LABELS)
    blank = render_board(state, ["   "] * 6, LABELS)
    assert cyr != blank

    # in every panel's header the Cyrillic name puts real ink (dark pixels) where the
    # blank name leaves only its fallback letter
    def ink(png: bytes, seat: int) -> int:
        img = decode(png).convert("L")
        x0, y0, x1, _ = board._layout(6).panels[seat]
        header = img.crop((x0 + 58, y0 + 8, x1 - 12, y0 + board.HEADER_H - 8))
        return sum(1 for v in header.tobytes() if v < 90)

    for seat in range(6):
        assert ink(cyr, seat) > 400
        assert ink(cyr, seat) > 2 * ink(blank, seat)


def test_long_names_are_cut_with_an_ellipsis():
    fnt = font(28, True)
    text = ellipsize("Константин Константинопольский", fnt, 200)
    assert text.endswith("…") and fnt.getlength(text) <= 200
    assert ellipsize("Аня", fnt, 200) == "Аня"
    assert clean_text(" Аня\u200b\n  Б\x00 ") == "Аня Б"
    name, used = fit_name("\ue000\ue001", 200, 28, fallback="C")
    assert name == "C" and used.size <= 28
    state = mid("classic", 2)
    long_png = render_board(state, ["Я" * 80, "Б" * 80], LABELS)
    # cut to the same visible text whatever the length beyond the cut
    assert long_png == render_board(state, ["Я" * 81, "Б" * 81], LABELS)
    assert long_png != render_board(state, ["Я" * 3, "Б" * 3], LABELS)


def _label_states() -> dict[str, SosediState]:
    """For every label key, a state whose picture shows that label."""
    def void(state, events):
        return any(e.kind == "void" for e in events)

    def immune(state, events):
        return (state.last_seat is not None and not void(state, events)
                and any(owner_of(d, state.seats) == state.last_seat for d in state.last_dice))

    return {
        "bowl": mid("classic", 3),
        "tower": mid("tower", 3),
        "phase1": play("tower", 3)[0][0],
        "phase2": find("tower", 3, lambda s, e: s.phase == 2 and not s.finished),
        "turn": play("classic", 3)[0][0],
        "safe": find("tower", 4, lambda s, e: any(s.safe) and not s.finished),
        "dead": mid("classic", 4),
        "immune": find("reverse", 3, immune, roller_immune=True),
        "void": find("classic", 3, void),
        "winner": play("classic", 3)[-1][0],
        "loser": play("reverse", 3)[-1][0],
    }


def test_every_label_key_is_drawn():
    states = _label_states()
    assert set(states) == set(LABEL_KEYS)
    for key, state in states.items():
        assert shows_label(render, state, LABELS, key), f"label {key!r} does not appear"


def test_labels_not_shown_do_not_change_the_picture():
    state = play("classic", 3)[0][0]  # classic start: no tower, no phase, no winner
    for key in ("tower", "phase1", "phase2", "winner", "loser", "void"):
        assert ignores_label(render, state, LABELS, key), key


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    labels = {k: v for k, v in LABELS.items() if k != key}
    with pytest.raises(KeyError, match=key):
        render_board(mid("classic", 2), NAMES[:2], labels)


def test_label_keys_are_a_small_tuple_of_unique_strings():
    assert isinstance(LABEL_KEYS, tuple)
    assert len(set(LABEL_KEYS)) == len(LABEL_KEYS) <= 12
    assert all(isinstance(k, str) and k.isidentifier() for k in LABEL_KEYS)


# ---------------------------------------------------------------- the picture follows the state


def test_different_dice_give_a_different_picture():
    state = mid("classic", 4)
    a = replace(state, last_dice=(1, 2, 3))
    b = replace(state, last_dice=(6, 5, 4))
    pa, pb = render_board(a, NAMES[:4], LABELS), render_board(b, NAMES[:4], LABELS)
    assert pa != pb
    bbox = diff_bbox(pa, pb)
    dice = board._layout(4).dice
    assert bbox[1] <= dice[0][3] and bbox[0] <= dice[2][2]  # the dice area changed


def test_start_shows_blank_dice_and_first_throw_shows_faces():
    game = play("classic", 3)
    start, first = game[0][0], game[1][0]
    assert start.last_dice == ()
    assert render_board(start, NAMES[:3], LABELS) != render_board(first, NAMES[:3], LABELS)


def test_tower_and_classic_differ():
    classic = play("classic", 4, k=3)[0][0]
    tower = play("tower", 4, k=3)[0][0]
    assert render_board(classic, NAMES[:4], LABELS) != render_board(tower, NAMES[:4], LABELS)


def test_chip_counts_turn_and_bowl_change_the_picture():
    state = mid("classic", 3)
    base = render_board(state, NAMES[:3], LABELS)
    more = replace(state, chips=(state.chips[0] + 1, *state.chips[1:]))
    assert render_board(more, NAMES[:3], LABELS) != base
    assert render_board(replace(state, bowl=state.bowl + 1), NAMES[:3], LABELS) != base
    turned = replace(state, turn=(state.turn + 1) % 3)
    assert render_board(turned, NAMES[:3], LABELS) != base


def test_throw_badges_match_what_the_engine_did():
    for mode, seats, opts in (("classic", 3, {}), ("reverse", 4, {"roller_immune": True}),
                              ("tower", 5, {}), ("tower", 2, {"tower": 60})):
        game = play(mode, seats, k=11, **opts)
        for (prev, _), (state, events) in pairwise(game):
            throw = board._throw(state, events)
            assert throw is not None and throw.dice == state.last_dice
            assert throw.void == any(e.kind == "void" for e in events)
            expected = tuple(a - b for a, b in zip(state.chips, prev.chips, strict=True))
            assert throw.delta == expected


def test_tower_die_of_an_already_safe_player_is_not_counted():
    def skipped(state, events):
        if state.phase != 2 or not state.last_dice:
            return False
        return any(kind == "skip" for kind, _seat in board._throw(state, events).links)

    state, events = find_with_events("tower", 4, skipped)
    throw = board._throw(state, events)
    for kind, seat in throw.links:
        if kind == "skip":
            assert state.safe[seat]


def test_hand_made_state_falls_back_to_reading_the_dice():
    state = replace(mid("classic", 3), last_dice=(1, 1, 6), seed="not-the-real-seed")
    throw = board._throw(state, ())
    owners = [owner_of(d, 3) for d in (1, 1, 6)]
    assert [seat for _kind, seat in throw.links] == owners
    assert sum(throw.delta) == -3
    assert render_board(state, NAMES[:3], LABELS).startswith(PNG_SIGNATURE)


def test_missing_names_fall_back_to_letters():
    state = mid("classic", 4)
    png = render_board(state, ["Аня"], LABELS)  # fewer names than seats
    assert png.startswith(PNG_SIGNATURE)
    assert png != render_board(state, ["Аня", "Б", "В", "Г"], LABELS)


# ---------------------------------------------------------------- the drawing kit


def test_player_styles_differ_by_colour_and_shape():
    assert len(PLAYERS) == 8  # «Спички» seats up to 8
    assert len({p.colour for p in PLAYERS}) == 8
    assert len({p.shape for p in PLAYERS}) == 8
    assert len({p.letter for p in PLAYERS}) == 8
    masks = {bytes(marker_image(seat, 40).getchannel("A").tobytes()) for seat in range(6)}
    assert len(masks) == 6  # the shapes themselves differ, not only the colours


def test_die_faces_are_antialiased_and_distinct():
    faces = [die_image(v, 64) for v in range(1, 7)]
    assert len({f.tobytes() for f in faces}) == 6
    alpha = faces[0].getchannel("A")
    assert alpha.size == (64, 64)
    assert any(0 < a < 255 for a in alpha.tobytes())  # soft edges
    dark = [sum(1 for px in f.convert("L").tobytes() if px < 80) for f in faces]
    assert dark == sorted(dark)  # more pips, more ink
    canvas = Image.new("RGB", (100, 100), (0, 128, 0))
    draw_die(canvas, (10, 10, 90, 90), 5)
    assert canvas.getpixel((50, 50))[0] < 80  # the centre pip of a five


def test_to_png_is_palette_and_deterministic():
    img = Image.new("RGB", (64, 32), (10, 200, 30))
    a, b = to_png(img), to_png(img.copy())
    assert a == b and a.startswith(PNG_SIGNATURE)
    assert decode(a).mode == "P"


@pytest.mark.parametrize("anchor", [None, "la", "lm", "mm", "rm", "ls", "ms"])
def test_cached_text_draws_the_pixels_pillow_draws(anchor):
    for xy in ((40, 30), (40.5, 30.5), (33.25, 47.75)):
        for size, bold, text in ((22, False, "ничьи"), (26, True, "Ёлкина gj"), (76, True, "\u221212")):
            fnt = font(size, bold)
            ours, pillow = Image.new("RGB", (320, 120), FELT), Image.new("RGB", (320, 120), FELT)
            TextDraw(ours).text(xy, text, font=fnt, fill=GOLD, anchor=anchor)
            ImageDraw.Draw(pillow).text(xy, text, font=fnt, fill=GOLD, anchor=anchor)
            assert ImageChops.difference(ours, pillow).getbbox() is None, (xy, size, text)


def test_a_ring_pasted_band_by_band_is_the_whole_ring():
    for width, height, radius, thick in ((329, 196, 18, 6), (104, 104, 21, 5), (60, 40, 30, 9)):
        ring = frame_ring(width, height, radius, thick, GOLD)
        ours, whole = Image.new("RGB", (400, 260), CARD), Image.new("RGB", (400, 260), CARD)
        paste_ring(ours, width, height, radius, thick, GOLD, (20, 30))
        whole.paste(ring, (20, 30), ring)
        assert ImageChops.difference(ours, whole).getbbox() is None, (width, height)


@pytest.mark.parametrize("seats", [2, 6])
def test_die_patches_are_the_dice_drawn_on_the_table(seats):
    extents = [die_extent(box) for box in board._layout(seats).dice]
    assert all(a[2] <= b[0] for a, b in pairwise(extents))  # one patch never covers its neighbour's die
    for value in (0, 1, 6):
        ours, drawn = (board._base(seats, "chips").copy() for _ in range(2))
        for slot, box in enumerate(board._layout(seats).dice):
            patch, xy = board._die_patch(seats, "chips", slot, value)
            ours.paste(patch, xy)
            draw_die(drawn, box, value or None)
        assert ImageChops.difference(ours, drawn).getbbox() is None, value


def test_cover():
    a = render_cover("Помоги своему соседу", "три кубика и миска")
    assert a.startswith(PNG_SIGNATURE)
    img = decode(a)
    assert img.size == (1024, 576) and img.mode == "P"
    render_cover.cache_clear()
    assert render_cover("Помоги своему соседу", "три кубика и миска") == a
    assert render_cover("Другая игра", "три кубика и миска") != a
    assert len(a) <= 100_000


def test_render_imports_only_pil_stdlib_engines_and_render():
    allowed_roots = {"PIL", "engines", "render", "__future__"}
    stdlib = set(sys.stdlib_module_names)
    root = Path(board.__file__).resolve().parent
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                mods = [node.module or ""]
            else:
                continue
            for mod in mods:
                top = mod.split(".")[0]
                assert top in allowed_roots or top in stdlib, f"{path.name} imports {mod}"
