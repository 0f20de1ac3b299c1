"""The «Людо» board renderer."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from PIL import Image, ImageChops

from engines.base import Event
from engines.ludo import CENTRE, ENGINE, SAFE_CELLS, YARD, LudoOptions, LudoState, cell_of, find_moves
from render import ludo as board
from render.canvas import rounded_mask
from render.dice import die_image
from render.ludo import LABEL_KEYS, card_box, cell_centre, centre_slot, grid_cell, home_dot, render_board, yard_spot
from render.marks import dashed_ring
from render.pieces import marker_image, numbered_token, standing_piece
from render.theme import CARD, GOLD, INK, IVORY, RED
from render.typeset import font
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

LABELS = {"turn": "Ходит", "winner": "Победитель", "safe_cells": "★ и старт — здесь не рубят", "yard": "Двор"}
NAMES = ["Аня", "Борис", "Вика", "Григорий"]


def play(seats: int, k: int = 1, **opts) -> list[tuple[LudoState, list[Event]]]:
    """Every (state, events of the action that made it) of one game, choices drawn at random (seeded)."""
    return play_game(ENGINE, LudoOptions(**opts), seats, k)


def at(seats: int, where: dict[tuple[int, int], int] | None = None, bonuses: bool = False, **changes) -> LudoState:
    """A fresh game (turn 0, no throw yet) with piece (seat, i) at progress ``where[seat, i]``, others in the yard."""
    state = ENGINE.new_game(LudoOptions(bonuses=bonuses), seats, seed(1))[0]
    pieces = [YARD] * (4 * seats)
    for (seat, i), progress in (where or {}).items():
        pieces[4 * seat + i] = progress
    return replace(state, pieces=tuple(pieces), **{"turn": 0, **changes})


def choosing(state: LudoState, die: int) -> LudoState:
    """``state`` with the player to move holding ``die`` and its legal moves waiting."""
    moves = tuple(find_moves(state, state.turn, die))
    assert len(moves) >= 2
    return replace(state, phase="move", die=die, moves=moves, last_dice=(die,), last_seat=state.turn)


render = renderer(render_board, LABELS, NAMES)


def count(img: Image.Image, box: tuple[int, int, int, int], col: Pixel, tol: int = 30) -> int:
    return count_close(img, box, col, tol)


def around(xy: tuple[int, int], r: int) -> tuple[int, int, int, int]:
    return (xy[0] - r, xy[1] - r, xy[0] + r + 1, xy[1] + r + 1)


def is_gold(px: Pixel) -> bool:
    return close(px, GOLD, 24)


# ---------------------------------------------------------------- format, determinism, labels


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_png_is_1024_wide_palette_small_and_one_size(seats):
    game = play(seats, k=seats)
    state, events = game[len(game) // 2]
    png = render(state, events=events)
    width, height = png_size(png)
    assert (width, height) == (1024, board.HEIGHT) and height <= 1250
    assert len(png) <= 150_000


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state, events = play(4, k=3)[120]
    first = render(state, events=events)
    assert render(state, events=events) == first
    for cached in (board._base, board._palette, numbered_token, standing_piece, dashed_ring,
                   die_image, marker_image, font, rounded_mask):
        cached.cache_clear()
    assert render_board(state, list(NAMES), dict(LABELS), list(events)) == first


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    labels = {k: v for k, v in LABELS.items() if k != key}
    with pytest.raises(KeyError, match=key):
        render(at(2), labels=labels)


def test_label_keys_are_the_agreed_tuple():
    assert LABEL_KEYS == ("turn", "winner", "safe_cells", "yard")


def test_every_label_is_drawn_and_a_hidden_one_changes_nothing():
    start = at(3, turn=1)
    won = at(2, {(1, i): CENTRE for i in range(4)}, finished=True, winner=1, turn=1)
    for key in LABEL_KEYS:
        assert shows_label(render, won if key == "winner" else start, LABELS, key), key
    assert ignores_label(render, start, LABELS, "winner")
    assert ignores_label(render, won, LABELS, "turn")


# ---------------------------------------------------------------- the board


def test_the_circuit_is_a_closed_clockwise_loop_of_52_neighbouring_cells():
    cells = [grid_cell(0, p) for p in range(51)] + [grid_cell(1, 38)]  # colour 1's progress 38 is cell 51
    assert cells == [board.CIRCUIT[i] for i in range(52)] and len(set(cells)) == 52
    for (ac, ar), (bc, br) in pairwise([*cells, cells[0]]):
        assert max(abs(ac - bc), abs(ar - br)) == 1  # every step goes to a touching cell
    area = sum(ac * br - bc * ar for (ac, ar), (bc, br) in pairwise([*cells, cells[0]]))
    assert area > 0  # clockwise on the screen (y grows downwards)
    for col, row in cells:
        assert (6 <= col <= 8) != (6 <= row <= 8)  # on an arm: never a yard, never the centre


def test_each_colour_starts_just_out_of_its_yard_and_its_lane_runs_into_the_centre():
    corners = [(0, 0), (1, 0), (1, 1), (0, 1)]  # yards clockwise: top-left, top-right, bottom-right, bottom-left
    lanes: set[tuple[int, int]] = set()
    for c, (qx, qy) in enumerate(corners):
        x0, y0, x1, y1 = board.yard_box(c)
        assert (x0 < 512) != bool(qx) and (y0 < 512) != bool(qy) and x1 - x0 == y1 - y0 == 6 * board.C
        col, row = grid_cell(c, 0)
        assert cell_of(c, 0) == 13 * c
        yard = {(x, y) for x in range(6) for y in range(6)}
        yard = {(14 - x if qx else x, 14 - y if qy else y) for x, y in yard}
        assert any(abs(col - x) + abs(row - y) == 1 for x, y in yard)  # touches its own yard
        prev = grid_cell(c, 50)  # the arm's end-middle cell, where the lane turns off
        assert 7 in prev and ({0, 14} & set(prev))
        lane = [grid_cell(c, p) for p in range(51, 56)]
        assert all(max(abs(a - c_), abs(b - d)) == 1 for (a, b), (c_, d) in pairwise([prev, *lane]))
        assert all(6 <= v <= 8 for v in (lane[-1][0] + (lane[-1][0] - lane[-2][0]), lane[-1][1] +
                                         (lane[-1][1] - lane[-2][1])))  # one more step is the centre
        lanes.update(lane)
    assert len(lanes) == 20 and not lanes & set(board.CIRCUIT)


def test_start_cells_stars_and_quadrants_are_coloured_by_owner():
    img = rgb(render(at(2)))  # two players: colours 0 and 2; 1 and 3 are nobody's
    for c, seat in ((0, 0), (1, None), (2, 1), (3, None)):
        want = board.NEUTRAL if seat is None else seat_colour(seat)
        x, y = cell_centre(c, 0)
        assert count(img, (x - 30, y - 30, x - 22, y - 22), want, 12) > 40  # the start cell's corner
        x0, y0, _x1, _y1 = board.yard_box(c)
        assert close(img.getpixel((x0 + 8, y0 + 8)), want, 12)  # the yard's rim
        x, y = cell_centre(c, 53)
        assert close(img.getpixel((x - 20, y - 20)), want, 12)  # the lane
    for cell in SAFE_CELLS - {0, 13, 26, 39}:  # stars: a star-coloured polygon in the middle
        x, y = cell_centre(0, cell)
        assert count(img, around((x, y), 6), board.STAR, 10) > 60
    x, y = cell_centre(0, 3)
    assert count(img, around((x, y), 6), board.STAR, 10) == 0


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize(("seats", "seat"), [(4, 0), (4, 1), (4, 2), (4, 3), (2, 1), (3, 2)])
def test_a_piece_shows_on_its_cell_and_leaves_with_it(seats, seat):
    state = at(seats, {(seat, 2): 20})
    moved = replace(state, pieces=at(seats, {(seat, 2): 33}).pieces)
    c = state.colour(seat)
    here, there = rgb(render(state)), rgb(render(moved))
    assert count(here, around(cell_centre(c, 20), 12), seat_colour(seat)) > 150
    assert count(there, around(cell_centre(c, 20), 12), seat_colour(seat)) == 0
    assert count(there, around(cell_centre(c, 33), 12), seat_colour(seat)) > 150
    assert count(here, around(cell_centre(c, 33), 12), seat_colour(seat)) == 0
    spot = around(yard_spot(c, 2), 12)  # its yard spot is empty both times; a yard piece fills its spot
    assert count(here, spot, seat_colour(seat)) == count(there, spot, seat_colour(seat)) == 0
    assert count(here, around(yard_spot(c, 1), 12), seat_colour(seat)) > 150


def test_pieces_in_the_lane_and_the_centre_are_drawn_there():
    base = rgb(render(at(4, {(3, 0): 30})))
    for progress, where in ((53, cell_centre(3, 53)), (CENTRE, centre_slot(3, 1))):
        img = rgb(render(at(4, {(3, 0): 30, (3, 1): progress})))
        diff = ImageChops.difference(base, img).crop(board.BOARD).getbbox()
        assert diff is not None
        x0, y0, x1, y1 = diff
        box = (x0 + board.BOARD[0], y0 + board.BOARD[1], x1 + board.BOARD[0], y1 + board.BOARD[1])
        yard = board.yard_box(3)  # the piece left its yard spot and shows up at ``where`` (nothing else moves)
        assert inside(box, (min(yard[0], where[0] - 40), min(where[1] - 40, yard[1]), max(yard[2], where[0] + 40),
                            max(yard[3], where[1] + 40)))
        assert ImageChops.difference(base, img).crop(around(where, 10)).getbbox() is not None


@pytest.mark.parametrize("home", range(5))
def test_pieces_in_the_centre_are_counted_on_the_card(home):
    state = at(4, {(2, i): CENTRE for i in range(home)}, turn=0)
    img = rgb(render(state))
    filled = [close(img.getpixel(home_dot(2, i)), seat_colour(2), 20) for i in range(4)]
    assert filled == [i < home for i in range(4)]
    for i in range(4):  # and each stands in its slot of the triangle (a light halo round it)
        halo = count(img, around(centre_slot(2, i), 16), IVORY, 12)
        assert (halo > 30) == (i < home), (i, halo)


def test_pieces_sharing_a_cell_are_all_visible():
    star = 8  # a safe cell: everybody may stand there
    where = {(s, 0): (star - 13 * s) % 52 for s in range(4)}
    assert {cell_of(s, p) for (s, _i), p in where.items()} == {star}
    two = rgb(render(at(4, {k: v for k, v in where.items() if k[0] in (0, 2)})))
    x, y = cell_centre(0, star)
    assert count(two, (x - 26, y - 24, x, y), seat_colour(0)) > 60  # one up-left
    assert count(two, (x, y, x + 26, y + 24), seat_colour(2)) > 60  # the other down-right
    four = rgb(render(at(4, where)))
    quads = [(x - 28, y - 28, x, y), (x, y - 28, x + 28, y), (x - 28, y, x, y + 28), (x, y, x + 28, y + 28)]
    for seat, quad in enumerate(quads):
        assert count(four, quad, seat_colour(seat)) > 40, seat
    crowd = at(4, {(s, i): (star - 13 * s) % 52 for s in range(4) for i in range(3)})  # twelve: never crashes
    img = rgb(render(crowd))
    assert sum(count(img, around((x, y), 30), seat_colour(s)) > 20 for s in range(4)) == 4


def test_two_own_pieces_make_a_visible_block_only_with_bonuses():
    pair = {(1, 0): 20, (1, 3): 20}
    c = 1
    x, y = cell_centre(c, 20)
    edge = [(x + dx, y + dy) for dx in range(-20, 21, 4) for dy in (-25, 25)]  # the wall's top and bottom
    for bonuses in (True, False):
        img = rgb(render(at(4, pair, bonuses=bonuses)))
        walled = sum(close(img.getpixel(p), seat_colour(1), 30) for p in edge)
        assert (walled > len(edge) * 0.8) if bonuses else walled == 0, (bonuses, walled)
        assert count(img, (x - 28, y - 20, x - 4, y + 20), seat_colour(1)) > 60  # both pieces show
        assert count(img, (x + 4, y - 20, x + 28, y + 20), seat_colour(1)) > 60


# ---------------------------------------------------------------- the last move, captures, choices


def test_the_last_move_rings_both_ends_and_draws_its_way():
    moved = at(2, {(0, 1): 15}, last_move=(0, 1, 10, 15), last_dice=(5,), last_seat=0, turn=1)
    still = replace(moved, last_move=())
    a, b = rgb(render(moved)), rgb(render(still))
    new, old, mid = cell_centre(0, 15), cell_centre(0, 10), cell_centre(0, 12)
    assert count(a, around(new, 34), GOLD, 24) > 150 and count(b, around(new, 34), GOLD, 24) == 0
    assert ImageChops.difference(a, b).crop(around(old, 28)).getbbox() is not None  # a pale ring where it was
    assert count(a, around(mid, 3), seat_colour(0)) > 20 and count(b, around(mid, 3), seat_colour(0)) == 0  # its way
    events = [Event("roll", 0, {"die": 5}), Event("move", 0, {"piece": 1, "from": 10, "to": 15})]
    assert render(moved, events=events) == render(moved)
    no_move = [Event("roll", 1, {"die": 3}), Event("no_move", 1)]  # the action did not move: no highlight
    assert render(moved, events=no_move) == render(still, events=no_move)


def test_an_exit_is_drawn_from_the_yard_spot():
    moved = at(4, {(3, 2): 0}, last_move=(3, 2, YARD, 0), last_dice=(6,), last_seat=3, turn=3)
    img = rgb(render(moved))
    assert count(img, around(cell_centre(3, 0), 34), GOLD, 24) > 150
    assert ImageChops.difference(img, rgb(render(replace(moved, last_move=())))).crop(
        around(yard_spot(3, 2), 44)).getbbox() is not None


def test_a_capture_is_marked_with_a_red_cross_and_a_red_ring_in_the_yard():
    state, events = find_state(lambda k: play(4, k), lambda s, e: any(x.kind == "capture" for x in e), 40)
    capture = next(e for e in events if e.kind == "capture")
    mover, _piece, _start, end = state.last_move
    x, y = cell_centre(state.colour(mover), end)
    corner = (x + 8, y - 40, x + 40, y - 8)
    spot = around(yard_spot(state.colour(capture.seat), capture.data["piece"]), 46)
    img = rgb(render(state, events=events))
    assert count(img, corner, RED, 30) > 25 and count(img, spot, RED, 30) > 150
    quiet = rgb(render(state, events=[e for e in events if e.kind != "capture"]))
    assert count(quiet, corner, RED, 30) == 0 and count(quiet, spot, RED, 30) == 0


def test_choosing_marks_where_each_offered_move_would_land():
    state = choosing(at(4, {(2, 0): 10, (2, 1): 30}, turn=2), 6)  # exit, 10 -> 16, 30 -> 36
    assert {m[3] for m in state.moves} == {0, 16, 36}
    img, rolled = rgb(render(state)), rgb(render(replace(state, phase="roll", die=0, moves=())))
    for end in (0, 16, 36):
        x, y = cell_centre(2, end)
        ring = [(x - 30, y - 31, x + 31, y - 24), (x - 30, y + 25, x + 31, y + 32)]  # the dashed ring's top and bottom
        dashes = sum(count(img, b, seat_colour(2)) - count(rolled, b, seat_colour(2)) for b in ring)
        ink = sum(count(img, b, INK, 20) - count(rolled, b, INK, 20) for b in ring)
        assert dashes > 40 or (end == 0 and ink > 30), (end, dashes, ink)  # (the start cell is green already)
        badge = (x + 8, y - 40, x + 40, y - 8)  # and the piece's number at its corner
        assert end == 0 or count(img, badge, seat_colour(2)) > 40 + count(rolled, badge, seat_colour(2)), end
    x0, y0, _x1, y1 = board.STRIP  # the die waits in a gold ring
    die_box = (x0 + 10, y0 + 5, x0 + 30 + board.DIE, y1 - 5)
    assert count(img, die_box, GOLD, 24) > 200 + count(rolled, die_box, GOLD, 24)


def test_the_die_shows_the_last_throw_and_a_burnt_third_six():
    a = render(at(2, last_dice=(1,), last_seat=0))
    b = render(at(2, last_dice=(6,), last_seat=0))
    bbox = diff_bbox(a, b)
    assert bbox is not None and inside(bbox, board.STRIP)
    burnt = rgb(render(at(2, last_dice=(6,), last_seat=0, turn=1), events=[Event("roll", 0, {"die": 6}),
                                                                            Event("third_six", 0)]))
    assert count(burnt, board.STRIP, RED, 30) > 20 and count(rgb(b), board.STRIP, RED, 30) == 0


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize("seats", [2, 4])
def test_the_turn_ring_follows_the_turn(seats):
    state = at(seats)
    for turn in range(seats):
        cards = [card_box(state.colour(seat)) for seat in range(seats)]
        assert_ring_only_on(rgb(render(replace(state, turn=turn))), cards, turn, is_gold)


def test_the_winner_is_ringed_and_the_others_recede():
    state = at(3, {**{(1, i): CENTRE for i in range(4)}, (0, 0): 40}, finished=True, winner=1, turn=1)
    img = rgb(render(state))
    for seat in range(3):
        box = card_box(state.colour(seat))
        assert (gold_share(img, ring_points(box), is_gold) > 0.9) == (seat == 1)
        (ax, ay), (bx, by) = yard_spot(state.colour(seat), 0), yard_spot(state.colour(seat), 3)
        shade = img.getpixel(((ax + bx) // 2, (ay + by) // 2))  # the card's blank middle, between the spots
        assert (shade == CARD) == (seat == 1), (seat, shade)


def test_long_names_are_cut_and_stay_inside_their_cards():
    state = at(4, {(0, 0): 12}, last_dice=(3,), last_seat=1, turn=1)
    long = ["Константин Константинопольский-Щ", "W" * 32, "Ж" * 32, "Ёжик в тумане и ещё кто-то там"]
    png = render(state, names=long)
    assert png == render(state, names=[n + "ЖЖ" if len(n) >= 32 else n for n in long])
    img_long, img_short = rgb(png), rgb(render(state, names=["Я"] * 4))
    for c in range(4):
        x0, y0, x1, _y1 = card_box(c)
        header = (x0, y0, x1, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(header), img_short.crop(header)).getbbox()
        edge = (x1 - 10, y0 - 12, x1 + 12, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None
    x0, y0, x1, y1 = board.STRIP
    edge = (x1 - 24, y0, x1, y1)  # the strip's names stop short of its end, and the legend is below
    for box in (edge, board.LEGEND):
        assert ImageChops.difference(img_long.crop(box), img_short.crop(box)).getbbox() is None
    assert ImageChops.difference(img_long.crop(board.STRIP), img_short.crop(board.STRIP)).getbbox()


def test_fewer_names_than_seats_fall_back_to_letters():
    state = at(4)
    assert render(state, names=["Аня"]).startswith(PNG_SIGNATURE)
    assert render(state, names=["Аня"]) != render(state, names=["Аня", "Б", "В", "Г"])


# ---------------------------------------------------------------- whole games


# short seeded games (159 and 298 steps): every step is rendered, at ~8 ms a picture
@pytest.mark.parametrize(("seats", "k", "opts"), [(2, 30, {"bonuses": True}), (4, 29, {})])
def test_every_step_of_a_random_game_renders_at_one_size(seats, k, opts):
    game = play(seats, k, **opts)
    assert {s.phase for s, _e in game} == {"roll", "move"} and game[-1][0].finished
    sizes, pngs = render_all(render, game)
    assert sizes == {(1024, board.HEIGHT)}  # one picture size for the whole game: no jumping message
    assert len(pngs) > len(game) // 2
