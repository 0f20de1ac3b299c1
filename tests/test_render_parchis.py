"""The «Парчис» board renderer."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import pairwise

import pytest
from PIL import Image, ImageChops

from engines.base import Event
from engines.parchis import CENTRE, ENGINE, HOME, ParchisOptions, ParchisState, cell_number, exit_cell
from locales import Translator
from render import parchis as board
from render import parchis_geometry as geometry
from render.dice import die_image
from render.marks import red_cross
from render.parchis import LABEL_KEYS, render_board
from render.parchis_geometry import cell_box, cell_centre, corridor_box, corridor_centre, home_spot
from render.pieces import marker_image, numbered_token, standing_piece
from render.theme import GOLD, INK, RED, tint
from render.typeset import font
from tests.drawn_words import drawn_words
from tests.render_helpers import (
    PNG_SIGNATURE,
    Pixel,
    assert_ring_only_on,
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
    "turn": "Ходит",
    "winner": "Победитель",
    "seguro": "сегуро — здесь не рубят",
    "home": "Дом",
    "barrier": "барьер — не пройти",
    "corridor": "к3 — клетка 3 коридора",
    "centre": "в центре — фишка дошла",
}
NAMES = ["Аня", "Борис", "Вика", "Григорий"]
Box = tuple[int, int, int, int]


def play(seats: int, k: int = 1) -> list[tuple[ParchisState, list[Event]]]:
    """Every (state, events of the action that made it) of one game, choices drawn at random (seeded)."""
    return play_game(ENGINE, ParchisOptions(), seats, k)


def find(seats: int, pred) -> tuple[ParchisState, list[Event]]:
    return find_state(lambda k: play(seats, k), pred, 50)


def at(seats: int, where: dict[tuple[int, int], int], **changes) -> ParchisState:
    """A fresh game (seat 0 to roll, no throw yet) with piece (seat, i) at progress ``where[seat, i]``."""
    pieces = [HOME] * (4 * seats)
    for (seat, i), progress in where.items():
        pieces[4 * seat + i] = progress
    state = ENGINE.new_game(ParchisOptions(), seats, seed(1))[0]
    return replace(state, pieces=tuple(pieces), **{"turn": 0, **changes})


def on(state: ParchisState, seat: int, number: int) -> int:
    """The progress of ``seat``'s piece standing on circuit cell ``number``."""
    progress = (number - exit_cell(state.colour(seat))) % 68
    assert cell_number(state.colour(seat), progress) == number
    return progress


render = renderer(render_board, LABELS, NAMES)
count = count_close


def around(xy: tuple[int, int], r: int) -> Box:
    return (xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r)


def grow(box: Box, m: int) -> Box:
    return (box[0] - m, box[1] - m, box[2] + m, box[3] + m)


def border(img: Image.Image, box: Box, col: Pixel, width: int = 3, tol: int = 36) -> int:
    """Pixels of ``col`` in the strip ``width`` px wide just inside ``box``'s edges."""
    x0, y0, x1, y1 = box
    strips = [(x0, y0, x1, y0 + width), (x0, y1 - width, x1, y1), (x0, y0 + width, x0 + width, y1 - width),
              (x1 - width, y0 + width, x1, y1 - width)]
    return sum(count(img, s, col, tol) for s in strips)


def outside(img: Image.Image, box: Box, col: Pixel, tol: int = 36) -> int:
    """Pixels of ``col`` within 2 px of ``box``'s edges (where a mark rings a cell)."""
    return border(img, grow(box, 2), col, 4, tol)


def gained(a: Image.Image, b: Image.Image, box: Box, col: Pixel) -> int:
    """Pixels within 2 px of ``box``'s edges that are ``col`` in ``a`` but not in ``b``."""
    x0, y0, x1, y1 = grow(box, 2)
    points = [(x, y) for x in range(x0, x1) for y in range(y0, y1) if min(x - x0, x1 - 1 - x, y - y0, y1 - 1 - y) < 4]
    return sum(close(a.getpixel(p), col) and not close(b.getpixel(p), col) for p in points)


def touch(a: Box, b: Box) -> bool:
    """Boxes that share an edge or a corner and do not overlap."""
    gap_x = max(a[0], b[0]) - min(a[2], b[2])
    gap_y = max(a[1], b[1]) - min(a[3], b[3])
    return max(gap_x, gap_y) == 0


def overlap(a: Box, b: Box) -> bool:
    return max(a[0], b[0]) < min(a[2], b[2]) and max(a[1], b[1]) < min(a[3], b[3])


# ---------------------------------------------------------------- format, determinism, labels


def busy(seats: int, k: int) -> tuple[ParchisState, list[Event]]:
    """The busiest position of game ``k``'s middle half: the most pieces out on the board, then the most
    moves on offer (every card lists four pieces, the dice card its choices)."""
    game = play(seats, k)
    middle = game[len(game) // 4: 3 * len(game) // 4]
    return max(middle, key=lambda step: (sum(p not in (HOME, CENTRE) for p in step[0].pieces), len(step[0].moves)))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_png_is_1024_wide_palette_small_and_fits_a_phone_screen(seats):
    """A phone shows the whole picture above the buttons: 1024 × at most 1280 (it was 1408–1526, the
    panels under the board), the same for every seat count, and at most 100 KB however busy the board."""
    for k in (seats, seats + 10):
        state, events = busy(seats, k)
        png = render(state, events=events)
        width, height = png_size(png)
        assert width == 1024 and height <= 1280, (seats, k, height)
        assert height == board._panels(seats)[1] == board.HEIGHT
        assert len(png) <= 100_000, (seats, k, len(png))


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state, events = play(4, k=3)[150]
    first = render(state, events=events)
    assert render(state, events=events) == first
    for cached in (board._base, board._palette, numbered_token, standing_piece, board._ring,
                   red_cross, board._centre_icon, die_image, marker_image, font):
        cached.cache_clear()
    assert render_board(state, list(NAMES), dict(LABELS), list(events)) == first


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    labels = {k: v for k, v in LABELS.items() if k != key}
    with pytest.raises(KeyError, match=key):
        render(at(2, {}), labels=labels)


def test_every_label_is_drawn_and_the_hidden_ones_change_nothing():
    playing = at(3, {(0, 0): 4})
    won = at(3, {(1, i): CENTRE for i in range(4)}, finished=True, winner=1, turn=1)
    for key in LABEL_KEYS:
        assert shows_label(render, won if key == "winner" else playing, LABELS, key), key
    assert ignores_label(render, playing, LABELS, "winner")
    assert ignores_label(render, won, LABELS, "turn")


# ---------------------------------------------------------------- geometry


def test_the_68_cells_are_distinct_and_each_touches_the_next():
    boxes = {n: cell_box(n) for n in range(1, 69)}
    assert len(set(boxes.values())) == 68
    for a, b in pairwise([*range(1, 69), 1]):
        assert touch(boxes[a], boxes[b]), (a, b)
    for a in range(1, 69):
        assert not any(overlap(boxes[a], boxes[b]) for b in range(a + 1, 69)), a
    x0, y0, x1, y1 = geometry.BOARD
    assert all(x0 < cell_centre(n)[0] < x1 and y0 < cell_centre(n)[1] < y1 for n in boxes)
    with pytest.raises(ValueError):
        cell_box(69)


def test_the_numbers_run_counter_clockwise_once_round():
    turned = 0.0
    for a, b in pairwise([*range(1, 69), 1]):
        (ax, ay), (bx, by) = cell_centre(a), cell_centre(b)
        angle_a = math.atan2(geometry.CY - ay, ax - geometry.CX)  # y up, as seen
        angle_b = math.atan2(geometry.CY - by, bx - geometry.CX)
        step = (angle_b - angle_a + math.pi) % (2 * math.pi) - math.pi
        assert step > -0.05, (a, b)  # never backwards
        turned += step
    assert turned == pytest.approx(2 * math.pi)


def test_turn_offs_are_the_arm_tips_and_exits_sit_in_their_colours_arm_beside_its_home():
    xs = [cell_centre(n)[0] for n in range(1, 69)]
    ys = [cell_centre(n)[1] for n in range(1, 69)]
    # colour 0's arm points down, 1 right, 2 up, 3 left; its turn-off cell is the arm's tip
    assert cell_centre(68) == (geometry.CX, max(ys)) and cell_centre(17) == (max(xs), geometry.CY)
    assert cell_centre(34) == (geometry.CX, min(ys)) and cell_centre(51) == (min(xs), geometry.CY)
    for c in range(4):
        tip = 68 if c == 0 else 17 * c
        arm = [cell_box(n) for n in range(tip - 8, tip + 9) if n != 0] if c else \
            [cell_box(n) for n in (*range(60, 69), *range(1, 9))]
        ax0, ay0 = min(b[0] for b in arm), min(b[1] for b in arm)
        ax1, ay1 = max(b[2] for b in arm), max(b[3] for b in arm)
        assert inside(cell_box(exit_cell(c)), (ax0, ay0, ax1, ay1))
        assert touch(cell_box(exit_cell(c)), geometry.home_box(c))  # the exit is beside the home
        assert all(inside(around(home_spot(c, i), 20), geometry.home_box(c)) for i in range(4))
        # the corridor: from the tip, seven cells in a row to the centre square, in the same arm
        assert touch(cell_box(tip), corridor_box(c, 1))
        for k in range(1, 7):
            assert touch(corridor_box(c, k), corridor_box(c, k + 1))
        assert inside(corridor_box(c, 1), (ax0, ay0, ax1, ay1))
        assert math.dist(corridor_centre(c, 7), (geometry.CX, geometry.CY)) < geometry.ARM
    spots = {home_spot(c, i) for c in range(4) for i in range(4)}
    assert len(spots) == 16


def test_every_position_of_every_colour_has_its_own_place():
    for c in range(4):
        boxes = [geometry.track_cell(c, p)[1] for p in range(0, CENTRE)]
        assert len(set(boxes)) == 71
        assert [geometry.track_cell(c, p)[1] for p in range(64, 71)] == [corridor_box(c, k) for k in range(1, 8)]
        assert geometry.track_cell(c, HOME) is None and geometry.track_cell(c, CENTRE) is None


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize("seat", range(4))
def test_a_piece_shows_in_its_colour_on_its_cell_and_leaves_with_it(seat):
    blank = at(4, {})
    here = at(4, {(seat, 0): on(blank, seat, 30)})
    there = at(4, {(seat, 0): on(blank, seat, 44)})
    img_here, img_there = rgb(render(here)), rgb(render(there))
    c = seat_colour(seat)
    assert count(img_here, around(cell_centre(30), 10), c) > 100
    assert count(img_there, around(cell_centre(30), 10), c) == 0
    assert count(img_there, around(cell_centre(44), 10), c) > 100
    assert count(img_here, around(cell_centre(44), 10), c) == 0
    home = around(home_spot(blank.colour(seat), 0), 12)  # it left home
    assert count(rgb(render(blank)), home, c) > 200 and count(img_here, home, c) == 0


def test_corridor_centre_and_home_pieces_stand_in_their_places():
    state = at(2, {(1, 0): 66, (1, 1): CENTRE, (1, 2): CENTRE})
    img = rgb(render(state))
    c, col = seat_colour(1), state.colour(1)
    assert count(img, around(corridor_centre(col, 3), 10), c) > 100
    for i in (1, 2):
        assert count(img, around(geometry.centre_spot(col, i), 7), c) > 40
    assert count(img, around(geometry.centre_spot(col, 0), 7), c) == 0
    assert count(img, around(home_spot(col, 3), 12), c) > 200
    assert count(img, around(home_spot(col, 0), 12), c) == 0


def test_the_centre_shows_how_many_arrived():
    one = at(4, {(2, 0): CENTRE})
    two = at(4, {(2, 0): CENTRE, (2, 3): CENTRE})
    three = at(4, {(2, 0): CENTRE, (2, 3): CENTRE, (2, 1): CENTRE})
    centre = (geometry.CX - geometry.HALF, geometry.CY - geometry.HALF, geometry.CX + geometry.HALF,
              geometry.CY + geometry.HALF)
    count_box = around((geometry.CX, geometry.CY - geometry.HALF + 56), 12)  # colour 2 sits at the top
    for a, b in ((one, two), (two, three)):
        bbox = diff_bbox(render(a), render(b))
        assert bbox is not None
        diff = ImageChops.difference(rgb(render(a)), rgb(render(b)))
        assert diff.crop(count_box).getbbox() is not None  # the number changed
        assert diff.crop(geometry.BOARD).getbbox() is not None and inside(diff.crop(geometry.BOARD).getbbox(),
                                                                          (0, 0, *geometry.BOARD[2:]))
    img = rgb(render(three))
    assert count(img, count_box, INK, 30) > 30
    assert count(rgb(render(at(4, {}))), count_box, INK, 30) == 0
    assert inside(around(geometry.centre_spot(2, 3), 13), centre)


def test_two_pieces_on_one_cell_are_both_visible():
    blank = at(4, {})
    for number in (12, 29):  # seguros (two colours share them): upright in the side arms, lying in the others
        state = at(4, {(0, 1): on(blank, 0, number), (3, 2): on(blank, 3, number)})
        img = rgb(render(state))
        x, y = cell_centre(number)
        x0, y0, x1, y1 = cell_box(number)
        first, second = ((x0, y - 12, x - 4, y + 12), (x + 4, y - 12, x1, y + 12)) if x1 - x0 > y1 - y0 else \
            ((x - 12, y0, x + 12, y - 4), (x - 12, y + 4, x + 12, y1))
        assert count(img, first, seat_colour(0)) > 80 and count(img, second, seat_colour(3)) > 80, number
        assert count(img, first, seat_colour(3)) == 0 and count(img, second, seat_colour(0)) == 0, number


def test_a_barrier_is_framed_only_when_two_pieces_of_one_colour_share_a_cell():
    blank = at(4, {})
    box = cell_box(29)
    barrier = at(4, {(1, 0): on(blank, 1, 29), (1, 3): on(blank, 1, 29)})
    mixed = at(4, {(1, 0): on(blank, 1, 29), (2, 3): on(blank, 2, 29)})
    single = at(4, {(1, 0): on(blank, 1, 29)})
    frames = [border(rgb(render(s)), box, INK, 3, 30) for s in (barrier, mixed, single)]
    assert frames[0] > 350 and frames[1] < 60 and frames[2] < 60, frames
    plain = at(4, {(3, 0): on(blank, 3, 44), (3, 1): on(blank, 3, 44)})  # a barrier off the seguros too
    assert border(rgb(render(plain)), cell_box(44), INK, 3, 30) > 350


# ---------------------------------------------------------------- marks


def test_the_last_move_is_ringed_gold_on_its_new_cell_and_faintly_on_its_old():
    blank = at(2, {})
    start, end = on(blank, 0, 30), on(blank, 0, 34)
    moved = at(2, {(0, 0): end}, last_move=(0, 0, start, end), last_dice=(4,), last_seat=0, turn=1)
    still = replace(moved, last_move=())
    a, b = rgb(render(moved)), rgb(render(still))
    assert outside(a, cell_box(34), GOLD, 30) > 150 and outside(b, cell_box(34), GOLD, 30) == 0
    faint = outside(a, cell_box(30), GOLD, 60)
    assert faint > 60 and outside(a, cell_box(30), GOLD, 20) < outside(a, cell_box(34), GOLD, 20)
    events = [Event("roll", 0, {"die": 4}), Event("move", 0, {"piece": 0, "from": start, "to": end, "count": 4,
                                                               "bonus": False})]
    assert render(moved, events=events) == render(moved)  # the events name the same move
    no_move = [Event("roll", 1, {"die": 2}), Event("no_move", 1, {"count": 2})]
    assert render(moved, events=no_move) == render(still, events=no_move)


def test_a_capture_gets_a_red_cross_and_the_captured_piece_a_red_ring_at_home():
    state, events = find(4, lambda s, e: any(ev.kind == "capture" for ev in e))
    capture = next(e for e in events if e.kind == "capture")
    move = [e for e in events[: events.index(capture)] if e.kind in ("exit", "move")][-1]
    box = grow(geometry.spot_box(state.colour(move.seat), move.data["to"], 0), 12)
    home = around(home_spot(state.colour(capture.seat), capture.data["piece"]), 34)
    quiet = [e for e in events if e.kind != "capture"]
    loud, calm = rgb(render(state, events=events)), rgb(render(state, events=quiet))
    assert count(loud, box, RED, 40) > 40 and count(calm, box, RED, 40) == 0
    assert count(loud, home, RED, 40) > 60 and count(calm, home, RED, 40) == 0


def test_offered_moves_are_marked_with_the_piece_number_in_phase_move():
    state, _events = find(4, lambda s, e: s.phase == "move" and len(s.moves) >= 2 and not s.bonus
                          and all(m[3] < 64 for m in s.moves))
    rolled = replace(state, phase="roll", moves=())
    a, b = rgb(render(state)), rgb(render(rolled))
    c = seat_colour(state.turn)
    for _code, _piece, _start, end, _effect in state.moves:
        box = geometry.spot_box(state.colour(state.turn), end, 0)
        assert gained(a, b, box, c) > 40
    x0, y0, x1, y1 = board.DICE_CARD  # the choices are listed right of the die, which is ringed gold
    rows = (x0 + 140, y1 - 62, x1, y1 - 22)
    assert count(a, rows, c) > 100 * len(state.moves) // 2 and count(b, rows, c) == 0
    die = (x0, y0, x0 + 140, y1)
    assert count(a, die, GOLD, 30) > 300 + count(b, die, GOLD, 30)


def test_a_pending_bonus_shows_its_count_under_the_die():
    state, _events = find(4, lambda s, e: s.phase == "move" and s.bonus)
    x0, _y0, _x1, y1 = board.DICE_CARD
    badge = (x0 + 140, y1 - 62, x0 + 280, y1 - 22)
    assert count(rgb(render(state)), badge, GOLD, 30) > 600
    assert count(rgb(render(replace(state, bonus=False, count=state.last_dice[0]))), badge, GOLD, 30) == 0
    assert render(state) != render(replace(state, count=30 - state.count))  # +20 and +10 differ


def test_the_die_shows_the_last_throw():
    a = render(at(2, {}, last_dice=(1,), last_seat=0))
    b = render(at(2, {}, last_dice=(6,), last_seat=0))
    bbox = diff_bbox(a, b)
    assert bbox is not None and inside(bbox, board.DICE_CARD)


# ---------------------------------------------------------------- panels


def is_gold(px: Pixel) -> bool:
    return close(px, GOLD, 30)


def test_the_turn_ring_follows_the_turn():
    panels = board._panels(4)[0]
    for turn in range(4):
        assert_ring_only_on(rgb(render(at(4, {}, turn=turn))), panels, turn, is_gold)


def test_the_winner_is_ringed_and_the_others_recede():
    state = at(3, {(2, i): CENTRE for i in range(4)} | {(0, 0): 20}, finished=True, winner=2, turn=2)
    img = rgb(render(state))
    for seat, box in enumerate(board._panels(3)[0]):
        assert (gold_share(img, ring_points(box), is_gold) > 0.9) == (seat == 2)


def test_each_card_sits_in_its_players_home():
    for seats in (2, 3, 4):
        cards = board._panels(seats)[0]
        blank = at(seats, {})
        assert len(cards) == seats
        for seat, card in enumerate(cards):
            home = geometry.home_box(blank.colour(seat))
            assert inside(grow(card, 6), home)  # the turn's gold ring too
            assert all(inside(around(home_spot(blank.colour(seat), i), 40), card) for i in range(4))


def test_the_card_shows_home_and_centre_and_lists_the_cells():
    panels = board._panels(2)[0]
    x0, y0, x1, y1 = panels[1]
    home = (x0, y0 + board.HEADER_H, x0 + board.LIST_X - 8, y1)  # the spots under the home's word
    centre = (x0 + board.LIST_X, y0 + board.HEADER_H, x1, y0 + board.LIST_Y[0] - 24)
    cells = (x0 + board.LIST_X, y0 + board.LIST_Y[0] - 22, x1, y1)

    def changed(a: dict, b: dict, box: Box) -> bool:
        diff = ImageChops.difference(rgb(render(at(2, a))), rgb(render(at(2, b))))
        assert diff.crop(panels[0]).getbbox() is None  # the other player's card stays
        return diff.crop(box).getbbox() is not None

    base = {(1, 0): CENTRE, (1, 1): 10}
    assert changed(base, base | {(1, 0): CENTRE, (1, 1): CENTRE}, centre)  # one more in the centre
    assert changed(base, base | {(1, 2): 20}, home)  # one fewer at home ...
    assert changed(base, base | {(1, 2): 20}, cells)  # ... and one more listed with its cell
    move = base | {(1, 1): 11}
    assert not changed(base, move, home) and not changed(base, move, centre)  # a move on the board ...
    assert changed(base, move, cells)  # ... changes the cell written after the piece
    assert changed(base, base | {(1, 1): 66}, cells)  # a corridor cell


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_legend_explains_the_corridor_tab_and_the_centre(lang):
    """The buttons write a corridor cell «к3» and the picture a tab with a 3, a piece in the centre a
    square with its triangle: the legend shows both with words from the locale, and the corridor's words
    name the mark the buttons write."""
    tr = Translator.load()
    labels = {key: tr.t(lang, f"board-{key}") for key in LABEL_KEYS}
    assert labels["corridor"].startswith(tr.t(lang, "parchis-pos-corridor", n=3) + " ")
    state = at(2, {(0, 0): 66, (1, 0): CENTRE})
    board._base.cache_clear()
    with drawn_words() as words:
        png = render(state, labels=labels)
    legend = board.LEGEND_CARD
    texts = {w.text: w for w in words if inside((*map(round, w.xy), *map(round, w.xy)), legend)}
    for key in ("seguro", "barrier", "corridor", "centre"):
        assert labels[key] in texts, (key, list(texts))
        assert texts[labels[key]].cap_height >= 18
    img = rgb(png)
    corridor = texts[labels["corridor"]].xy
    tab = (legend[0], round(corridor[1]) - 14, round(corridor[0]), round(corridor[1]) + 14)
    assert count(img, tab, tint(seat_colour(0), 0.5), 6) > 300  # the tab, left of its words
    centre = texts[labels["centre"]].xy
    icon = (round(centre[0]) - 100, round(centre[1]) - 14, round(centre[0]), round(centre[1]) + 14)
    assert count(img, icon, seat_colour(0), 30) > 60  # the centre's square with its triangle


def test_long_names_are_cut_and_stay_inside_their_cards():
    state = at(4, {(0, 0): 12, (1, 1): 3, (2, 2): 40, (3, 3): 60}, last_dice=(3,), last_seat=1, turn=1)
    long = ["Константин Константинопольский-Щ", "W" * 32, "Ж" * 32, "\ue000\ue001"]
    png = render(state, names=long)
    assert png == render(state, names=[n + "ЖЖ" if n[0] in "WЖ" else n for n in long])  # cut with "…" anyway
    img_long, img_short = rgb(png), rgb(render(state, names=["Я"] * 4))
    for seat, (x0, y0, x1, _y1) in enumerate(board._panels(4)[0]):
        header = (x0, y0, x1, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(header), img_short.crop(header)).getbbox(), seat
        edge = (x1 - 8, y0, x1 + 12, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None
    _x0, y0, x1, y1 = board.DICE_CARD
    edge = (x1 - 10, y0, x1 + 16, y1)
    assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None


def test_fewer_names_than_seats_fall_back_to_letters():
    state = at(4, {})
    assert render(state, names=["Аня"]).startswith(PNG_SIGNATURE)
    assert render(state, names=["Аня"]) != render(state, names=["Аня", "Б", "В", "Г"])


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize(("seats", "k"), [(2, 101), (4, 1005)])  # short games that hold every kind of event
def test_every_step_of_a_random_game_renders_at_one_size(seats, k):
    game = play(seats, k)
    assert {s.phase for s, _e in game} == {"roll", "move"} and game[-1][0].finished
    kinds = {e.kind for _s, events in game for e in events}
    assert {"capture", "centre", "win", "bonus_lost", "third_six", "six_as_seven", "choose"} <= kinds
    sizes, pngs = render_all(render, game)
    assert len(sizes) == 1  # one picture size for the whole game: no jumping message
    assert len(pngs) > len(game) // 2
