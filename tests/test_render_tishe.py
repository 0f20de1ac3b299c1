"""The «тише едешь» board renderer."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from PIL import ImageChops

from engines.base import Event
from engines.tishe import ENGINE, HOME, OFF, TisheOptions, TisheState, land
from render import tishe as board
from render.dice import die_image
from render.marks import dashed_ring
from render.pieces import marker_image, numbered_token, standing_piece
from render.theme import GOLD, RED
from render.tishe import LABEL_KEYS, centre, render_board
from render.typeset import font, wrap_text
from tests.render_helpers import (
    PNG_SIGNATURE,
    Pixel,
    close,
    count_close,
    diff_bbox,
    find_state,
    gold_share,
    ignores_label,
    inside,
    play_game,
    png_size,
    render_all,
    renderer,
    rgb,
    ring_points,
    seat_colour,
    seed,
    shows_label,
)

LABELS = {
    "cell_zero": "0 — снять с поля",
    "cell_one": "1 — на 3 вперёд",
    "cell_seven": "7 — на 3 назад",
    "cell_five": "5 — двоим не стоять",
    "cell_double": "11, 22… — пропуск 2 ходов",
    "off_board": "Вне поля",
    "finish": "Финиш",
    "missed": "пропуск",
    "turn": "Ходит",
    "winner": "Победитель",
}
NAMES = ["Аня", "Борис", "Вика", "Григорий", "Даша", "Евгений"]


def play(seats: int, k: int = 1, **opts) -> list[tuple[TisheState, list[Event]]]:
    """Every (state, events of the action that made it) of one game, choices drawn at random (seeded)."""
    return play_game(ENGINE, TisheOptions(**opts), seats, k)


def find(seats: int, pred, **opts) -> tuple[TisheState, list[Event]]:
    return find_state(lambda k: play(seats, k, **opts), pred, 200)


def blank(seats: int, **changes) -> TisheState:
    """A fresh game with ``changes`` applied: no throw, no move, everybody off the board."""
    state = ENGINE.new_game(TisheOptions(), seats, seed(1))[0]
    return replace(state, **changes)


def at(seats: int, where: dict[tuple[int, int], int], **changes) -> TisheState:
    """A fresh game with checker (seat, i) on circle ``where[seat, i]``."""
    checkers = [OFF] * (2 * seats)
    for (seat, i), pos in where.items():
        checkers[2 * seat + i] = pos
    return blank(seats, checkers=tuple(checkers), **changes)


render = renderer(render_board, LABELS, NAMES)
count = count_close


def around(n: int, r: int) -> tuple[int, int, int, int]:
    x, y = centre(n)
    return (x - r, y - r, x + r, y + r)


def is_gold(px: Pixel) -> bool:
    """Whether ``px`` is the gold of a ring (turn, winner)."""
    return close(px, GOLD, 30)


def header(seat: int, seats: int) -> tuple[int, int, int, int]:
    x0, y0, x1, _y1 = board._layout(seats).panels[seat]
    return (x0, y0, x1, y0 + board.HEADER_H)


# ---------------------------------------------------------------- format, determinism, labels


@pytest.mark.parametrize("seats", range(2, 7))
def test_png_is_1024_wide_palette_and_fits_a_phone(seats):
    game = play(seats, k=seats)
    state, events = game[len(game) // 2]
    png = render(state, events=events)
    width, height = png_size(png)
    # the board with the players' column beside it, the dice and the legend below both: a phone shows it
    # whole above the buttons without scrolling, and it stays small to send
    assert width == 1024 and height <= 1280
    assert len(png) <= 100_000


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state, events = play(4, k=3)[40]
    first = render(state, events=events)
    assert render(state, events=events) == first
    for cached in (board._base, board._palette, board._layout, board._circle, numbered_token,
                   standing_piece, dashed_ring, die_image, marker_image, font):
        cached.cache_clear()
    assert render_board(state, list(NAMES[:4]), dict(LABELS), list(events)) == first


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    labels = {k: v for k, v in LABELS.items() if k != key}
    with pytest.raises(KeyError, match=key):
        render(blank(2), labels=labels)


def test_label_keys_are_the_agreed_tuple():
    assert LABEL_KEYS == ("cell_zero", "cell_one", "cell_seven", "cell_five", "cell_double", "off_board", "finish",
                          "missed", "turn", "winner")


def test_every_label_key_is_drawn_and_hidden_ones_change_nothing():
    start = blank(3)
    missing = at(3, {(0, 0): 22}, missed=(2, 0, 0), turn=1)
    won = at(3, {(1, 0): HOME, (1, 1): 40}, finished=True, winner=1, turn=1)
    where = {"missed": missing, "winner": won}
    for key in LABEL_KEYS:
        assert shows_label(render, where.get(key, start), LABELS, key), key
    for key in ("missed", "winner"):  # not on a fresh board
        assert ignores_label(render, start, LABELS, key), key
    assert ignores_label(render, won, LABELS, "turn")


# ---------------------------------------------------------------- the board


def test_the_path_is_a_serpentine_from_bottom_left_to_top_left():
    xs = {centre(n)[0] for n in range(1, 101)}
    ys = {centre(n)[1] for n in range(1, 101)}
    assert len(xs) == len(ys) == 10
    assert centre(1) == (min(xs), max(ys)) and centre(10) == (max(xs), max(ys))
    assert centre(11) == (max(xs), sorted(ys)[-2]) and centre(100) == (min(xs), min(ys))
    for a, b in pairwise(range(1, 101)):
        (ax, ay), (bx, by) = centre(a), centre(b)
        assert abs(ax - bx) + abs(ay - by) == board.CELL  # neighbours on the path are neighbours on the board
    x0, y0, x1, y1 = board.BOARD
    assert all(x0 < centre(n)[0] < x1 and y0 < centre(n)[1] < y1 for n in range(1, 101))


def test_circle_kinds_follow_the_engine_rules():
    assert board._kind(10) == ("zero", False) and board._kind(50) == ("zero", False)
    assert board._kind(21) == ("one", False) and board._kind(11) == ("one", True)
    assert board._kind(27) == ("seven", False) and board._kind(77) == ("seven", True)
    assert board._kind(17)[0] == board._kind(71)[0] == "seventeen"
    assert board._kind(25) == ("five", False) and board._kind(55) == ("five", True)
    assert board._kind(22) == ("plain", True) and board._kind(23) == ("plain", False)
    assert board._kind(HOME) == ("finish", False)
    for n in range(1, HOME):  # the circle's look is what a direct landing does
        kind, double = board._kind(n)
        assert double == land(OFF, n).double
        assert (kind in ("zero", "one", "seven", "seventeen")) == (land(OFF, n).rule is not None)


def test_special_circles_are_coloured_by_kind_and_differ_in_shape_too():
    k = board.DOT / 80  # the radii and pixel counts below were set for circles 80 px across
    img = rgb(render(blank(2)))
    probe = round(board.DOT / 3)  # left of the centre, between the number and the ring
    fills = {n: img.getpixel((centre(n)[0] - probe, centre(n)[1])) for n in (23, 30, 21, 27, 25)}
    assert len({tuple(v // 24 for v in px) for px in fills.values()}) == 5  # five different fills

    def tally(n: int, col, r0: float = 0, r1: float = 99) -> int:
        sprite = board._circle(n).convert("RGB")
        c = sprite.width / 2
        return sum(close(sprite.getpixel((x, y)), col, 24) for x in range(sprite.width) for y in range(sprite.height)
                   if r0 * k <= ((x + 0.5 - c) ** 2 + (y + 0.5 - c) ** 2) ** 0.5 < r1 * k)

    violet, gold = board.VIOLET, board._STYLE["five"][1]
    for n in (11, 22, 55, 77):  # doubles: a violet ring and violet pause bars over the number
        assert tally(n, violet, 34) > 250 * k * k and tally(n, violet, 0, 32) > 16 * k * k
    assert tally(23, violet) == tally(21, violet) == 0
    for n in (25, 15, 75):  # circles with a 5: an inner ring (also where a rule moves the checker on)
        assert tally(n, gold, 29, 35) > 150 * k * k
    assert tally(23, gold) == tally(50, gold) == 0
    glyphs = [board._circle(n).convert("L").tobytes() for n in (21, 31)]  # same look, other number
    assert glyphs[0] != glyphs[1]


# ---------------------------------------------------------------- checkers


@pytest.mark.parametrize("seat", range(6))
def test_a_checker_shows_in_its_colour_on_its_circle_and_leaves_with_it(seat):
    here = render(at(6, {(seat, 0): 23}))
    there = render(at(6, {(seat, 0): 68}))
    img_here, img_there = rgb(here), rgb(there)
    c = seat_colour(seat)
    assert count(img_here, around(23, 12), c) > 80
    assert count(img_there, around(23, 12), c) == 0
    assert count(img_there, around(68, 12), c) > 80
    assert count(img_here, around(68, 12), c) == 0
    diff = ImageChops.difference(img_here, img_there)
    assert diff.crop((0, board.BOARD[3], 1024, board.LEGEND_CARD[3])).getbbox() is None  # dice and legend stay
    assert diff.crop(board.BAND).getbbox() is None  # the checker was on the board both times


def test_a_checker_off_the_board_sits_in_the_band():
    lay = board._layout(3)
    x, y = lay.slots[2 * 1 + 1]
    slot = (x, y, x + board.SLOT, y + board.SLOT)
    off, on = rgb(render(blank(3))), rgb(render(at(3, {(1, 1): 23})))
    assert count(off, slot, seat_colour(1)) > 200
    assert count(on, slot, seat_colour(1)) == 0
    assert count(on, around(23, 12), seat_colour(1)) > 150


def test_checkers_sharing_a_circle_are_all_visible():
    img = rgb(render(at(4, {(0, 0): 34, (2, 1): 34})))
    x, y = centre(34)
    assert count(img, (x - 26, y - 26, x, y), seat_colour(0)) > 60  # one up-left
    assert count(img, (x, y, x + 26, y + 26), seat_colour(2)) > 60  # the other down-right
    crowd = at(6, {(s, i): 64 for s in range(6) for i in range(2)})  # all twelve: never crashes
    img = rgb(render(crowd))
    seen = [count(img, around(64, 30), seat_colour(s)) > 20 for s in range(6)]
    assert sum(seen) >= 4


def test_own_checkers_on_one_circle_show_both_numbers():
    one = rgb(render(at(2, {(0, 0): 46})))
    two = rgb(render(at(2, {(0, 0): 46, (0, 1): 46})))
    assert ImageChops.difference(one.crop(around(46, 30)), two.crop(around(46, 30))).getbbox()
    x, y = centre(46)
    for corner in ((x - 28, y - 28, x - 22, y - 22), (x + 22, y + 22, x + 28, y + 28)):  # offset both ways
        assert count(two, corner, seat_colour(0)) > 20
        assert count(one, corner, seat_colour(0)) == 0


# ---------------------------------------------------------------- the last move


def _arrow_mid(a: int, b: int) -> tuple[int, int]:
    path = board._bezier(centre(a), centre(b), 0.2)
    x, y = path[len(path) // 2]
    return round(x), round(y)


def test_the_last_move_is_an_arrow_from_where_it_started():
    moved = at(2, {(0, 0): 36}, last_move=(0, 0, 28, 36, 36), last_dice=(3, 5), last_seat=0, turn=1)
    still = replace(moved, last_move=())
    a, b = rgb(render(moved)), rgb(render(still))
    x, y = _arrow_mid(28, 36)
    assert count(a, (x - 3, y - 3, x + 4, y + 4), seat_colour(0)) >= 10
    assert count(b, (x - 3, y - 3, x + 4, y + 4), seat_colour(0)) == 0
    # with the action's events, an arrow is drawn only when that action moved a checker
    moved_events = [Event("roll", 0, {"dice": [3, 5]}), Event("move", 0, {"checker": 0, "from": 28, "to": 36})]
    assert render(moved, events=moved_events) == render(moved)
    no_move = [Event("roll", 1, {"dice": [1, 2]}), Event("no_move", 1)]
    assert render(moved, events=no_move) == render(still, events=no_move)


def test_a_rule_move_gets_a_second_arrow_and_a_taken_off_checker_a_cross():
    plain = at(2, {(0, 0): 21}, last_move=(0, 0, 9, 18, 18), last_seat=0, last_dice=(4, 5), turn=1)
    ruled = at(2, {(0, 0): 21}, last_move=(0, 0, 9, 18, 21), last_seat=0, last_dice=(4, 5), turn=1)
    assert render(plain) != render(ruled)
    diff = diff_bbox(render(plain), render(ruled))
    (x18, _), (x21, _) = centre(18), centre(21)
    assert diff[0] < max(x18, x21) and diff[2] > min(x18, x21)
    off = at(2, {}, last_move=(0, 0, 32, 40, OFF), last_seat=0, last_dice=(4, 4), turn=0)
    img = rgb(render(off))
    assert count(img, around(40, 18), RED, 40) > 40
    assert count(rgb(render(replace(off, last_move=()))), around(40, 18), RED, 40) == 0
    lay = board._layout(2)  # and its slot in the band is ringed
    x, y = lay.slots[0]
    assert count(img, (x - 5, y - 5, x + board.SLOT + 5, y + board.SLOT + 5), RED, 40) > 30


def test_a_bumped_checker_is_ringed_in_the_band():
    state, events = find(3, lambda s, e: any(ev.kind == "bump" for ev in e))
    bump = next(e for e in events if e.kind == "bump")
    x, y = board._layout(3).slots[2 * bump.seat + bump.data["checker"]]
    box = (x - 5, y - 5, x + board.SLOT + 5, y + board.SLOT + 5)
    assert count(rgb(render(state, events=events)), box, RED, 40) > 30
    quiet = [e for e in events if e.kind != "bump"]
    assert count(rgb(render(state, events=quiet)), box, RED, 40) == 0


def test_choosing_shows_the_reachable_circles_and_the_waiting_dice():
    state = at(3, {(2, 0): 24}, turn=2, phase="choose", dice=(6, 2), last_dice=(6, 2), last_seat=2)
    # enter: 0 + 8 -> 8; move: 24 + 8 -> 32
    img = rgb(render(state))
    rolled = rgb(render(replace(state, phase="roll", dice=())))
    for n in (8, 32):
        ring = around(n, 35)
        assert count(img, ring, seat_colour(2)) > 60 + count(rolled, ring, seat_colour(2))
    off = rgb(render(replace(state, dice=(6, 4), last_dice=(6, 4))))  # enter: 10 takes it off; move: 24 -> 34
    for n in (10, 34):
        assert count(off, around(n, 35), seat_colour(2)) > 60 + count(rolled, around(n, 35), seat_colour(2))
    x0, y0, x1, _y1 = board.DICE_CARD
    assert count(img, (x0, y0 + 50, x1, y0 + 150), GOLD, 30) > 300 + count(rolled, (x0, y0 + 50, x1, y0 + 150),
                                                                            GOLD, 30)


def test_the_dice_show_the_last_throw():
    a = render(at(2, {}, last_dice=(1, 2), last_seat=0))
    b = render(at(2, {}, last_dice=(6, 5), last_seat=0))
    bbox = diff_bbox(a, b)
    assert bbox is not None and inside(bbox, board.DICE_CARD)


# ---------------------------------------------------------------- panels


def test_the_turn_ring_moves_with_the_turn():
    lay = board._layout(4)
    for turn in range(4):
        img = rgb(render(blank(4, turn=turn)))
        for seat, box in enumerate(lay.panels):
            share = gold_share(img, ring_points(box), is_gold)
            assert (share > 0.9) if seat == turn else (share < 0.1), (turn, seat, share)


def test_the_winner_is_ringed_and_the_others_recede():
    state = at(3, {(2, 0): HOME, (0, 0): 40}, finished=True, winner=2, turn=2)
    img = rgb(render(state))
    for seat, box in enumerate(board._layout(3).panels):
        assert (gold_share(img, ring_points(box), is_gold) > 0.9) == (seat == 2)
    assert count(img, around(HOME, 12), seat_colour(2)) > 100  # the checker stands on 100


def test_missed_turns_show_a_badge_in_that_players_header():
    violet = board.VIOLET
    for seat in range(3):
        missed = tuple(2 if s == seat else 0 for s in range(3))
        img = rgb(render(blank(3, missed=missed, turn=(seat + 1) % 3)))
        for s in range(3):
            n = count(img, header(s, 3), violet, 24)
            assert (n > 200) if s == seat else (n == 0), (seat, s, n)
    one, two = (render(blank(3, missed=(m, 0, 0), turn=1)) for m in (1, 2))
    assert one != two


def test_positions_are_written_in_the_panel():
    a, b = render(at(2, {(1, 0): 23})), render(at(2, {(1, 0): 24}))
    lay = board._layout(2)
    x0, y0, x1, y1 = lay.panels[1]
    body = (x0, y0 + board.HEADER_H, x1, y1)
    diff = ImageChops.difference(rgb(a), rgb(b))
    assert diff.crop(body).getbbox() is not None
    assert diff.crop(lay.panels[0]).getbbox() is None


def test_long_names_are_cut_and_stay_inside_their_cards():
    state = at(6, {(0, 0): 12}, missed=(0, 2, 0, 0, 0, 0), last_dice=(3, 4), last_seat=0)
    long = ["Константин Константинопольский-Щ", "W" * 32, "Ж" * 32, "Ёжик в тумане и ещё кто-то", "Щ" * 32,
            "\ue000\ue001"]
    png = render(state, names=long)
    assert png == render(state, names=[n + "ЖЖ" if len(n) >= 32 else n for n in long])
    short = render(state, names=["Я"] * 6)
    img_long, img_short = rgb(png), rgb(short)
    for seat, (_x0, y0, x1, _y1) in enumerate(board._layout(6).panels):
        assert ImageChops.difference(img_long.crop(header(seat, 6)), img_short.crop(header(seat, 6))).getbbox()
        edge = (x1 - 8, y0, x1 + 12, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None
    _x0, y0, x1, y1 = board.DICE_CARD
    edge = (x1 - 10, y0, x1 + 16, y1)
    assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None


def test_fewer_names_than_seats_fall_back_to_letters():
    state = blank(4)
    assert render(state, names=["Аня"]).startswith(PNG_SIGNATURE)
    assert render(state, names=["Аня"]) != render(state, names=["Аня", "Б", "В", "Г"])


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize(("seats", "k", "every", "opts"),
                         [(2, 1, 1, {}), (6, 5, 1, {}), (3, 3, 3, {"both_home": True})])
def test_every_step_of_a_random_game_renders_at_one_size(seats, k, every, opts):
    whole = play(seats, k, **opts)
    game = [*whole[:-1:every], whole[-1]]
    assert {s.phase for s, _e in game} == {"roll", "choose"} and game[-1][0].finished
    sizes, pngs = render_all(render, game)
    assert len(sizes) == 1  # one picture size for the whole game: no jumping message
    assert len(pngs) > len(game) // 2


def test_wrap_text_breaks_at_spaces_and_cuts_the_last_line():
    fnt = font(20)
    assert wrap_text("11, 22… — пропуск 2 ходов", fnt, 1000) == ["11, 22… — пропуск 2 ходов"]
    lines = wrap_text("11, 22… — пропуск 2 ходов", fnt, 130, 3)
    assert len(lines) >= 2 and " ".join(lines) == "11, 22… — пропуск 2 ходов"
    assert all(fnt.getlength(line) <= 130 for line in lines)
    cut = wrap_text("один два три четыре пять шесть семь", fnt, 90, 2)
    assert len(cut) == 2 and cut[-1].endswith("…") and all(fnt.getlength(line) <= 90 for line in cut)
    assert wrap_text("   ", fnt, 100) == []
