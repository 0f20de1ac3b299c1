"""The «Шиш-беш» board renderer."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import pairwise

import pytest
from PIL import ImageChops

from engines.base import Event
from engines.shishbesh import ENGINE, GEOMETRY, PARK, ShishbeshOptions, ShishbeshState
from render import shishbesh as board
from render import shishbesh_geometry as geometry
from render.dice import die_image
from render.marks import red_cross, round_ring
from render.pieces import marker_image, numbered_token, standing_piece
from render.shishbesh import LABEL_KEYS, render_board
from render.shishbesh_geometry import cell_centre, home_centre, hut_centre, park_spot, pitch
from render.shishbesh_targets import offered
from render.theme import GOLD, RED
from render.typeset import font
from tests.render_helpers import (
    assert_ring_only_on,
    close,
    count_close,
    decode,
    diff_bbox,
    find_state,
    gold_share,
    ignores_label,
    inside,
    play_game,
    png_size,
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
    "park": "Парк",
    "hut": "избушка — не рубят",
    "jump": "углы: 1 — к соседнему, 3 — по диагонали",
    "targets": "А Б В Г Д Е И К Л М Н П Р С Т У Ф Х Ц Ч",
}
NAMES = ["Аня", "Борис", "Вика", "Григорий"]
BOARDS = ("standard", "long")
Box = tuple[int, int, int, int]
render = renderer(render_board, LABELS, NAMES)
count = count_close


def play(seats: int, k: int = 1, board_: str = "standard", **opts) -> list[tuple[ShishbeshState, list[Event]]]:
    return play_game(ENGINE, ShishbeshOptions(board=board_, **opts), seats, k)


def find(seats: int, pred, board_: str = "standard") -> tuple[ShishbeshState, list[Event]]:
    return find_state(lambda k: play(seats, k, board_), pred, 40)


def at(seats: int, where: dict[tuple[int, int], int], board_: str = "standard", huts: tuple[int, ...] = (),
       **changes) -> ShishbeshState:
    """A fresh game (seat 0 to roll) with piece (seat, i) at position ``where[seat, i]``, the rest parked;
    the flat pieces ``huts`` sit inside their huts."""
    state = ENGINE.new_game(ShishbeshOptions(board=board_), seats, seed(1))[0]
    pieces = [PARK] * (4 * seats)
    for (seat, i), pos in where.items():
        pieces[4 * seat + i] = pos
    in_hut = tuple(k in huts for k in range(4 * seats))
    return replace(state, pieces=tuple(pieces), huts=in_hut, **{"turn": 0, **changes})


def around(xy: tuple[int, int], r: int) -> Box:
    return (xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r)


def cell_of(state: ShishbeshState, seat: int, pos: int) -> tuple[int, int]:
    return cell_centre(state.options.board, state.options.geometry.cell(state.arm(seat), pos))


# ---------------------------------------------------------------- format, determinism, labels


def busy(seats: int, k: int, board_: str) -> tuple[ShishbeshState, list[Event]]:
    """The busiest position of game ``k``'s middle half: the most pieces on the circuit, then the most
    places on offer (every card lists its pieces, the board carries the letters)."""
    game = play(seats, k, board_)
    middle = game[len(game) // 4: 3 * len(game) // 4]
    end = GEOMETRY[board_].end
    return max(middle, key=lambda step: (sum(0 <= p <= end for p in step[0].pieces), len(offered(step[0]).targets)))


@pytest.mark.parametrize("board_", BOARDS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_png_is_1024_wide_palette_small_and_fits_a_phone_screen(seats, board_):
    """The board takes the whole width and a phone shows the whole picture above the
    buttons: 1024 × at most 1280 (it was 1422–1540, the panels under the board), the same for every seat
    count and board, and at most 100 KB however busy the board."""
    for k in (seats, seats + 10):
        state, events = busy(seats, k, board_)
        png = render(state, events=events)
        width, height = png_size(png)
        assert width == 1024 and height <= 1280, (seats, board_, k, height)
        assert height == board._panels(seats)[1] == board.HEIGHT
        assert len(png) <= 100_000, (seats, board_, k, len(png))


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state, events = play(4, 3, "long")[120]
    first = render(state, events=events)
    assert render(state, events=events) == first
    for cached in (board._base, board._palette, board._hut_piece, board._jump_arrow, round_ring, red_cross,
                   numbered_token, standing_piece, die_image, marker_image, font):
        cached.cache_clear()
    assert render_board(state, list(NAMES), dict(LABELS), list(events)) == first


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    with pytest.raises(KeyError, match=key):
        render(at(2, {}), labels={k: v for k, v in LABELS.items() if k != key})


def test_every_label_is_drawn_and_the_hidden_ones_change_nothing():
    playing = at(3, {(0, 0): 4})
    won = at(3, {(1, i): 49 + i for i in range(4)}, finished=True, winner=1, turn=1)
    for key in LABEL_KEYS:
        if key != "targets":
            assert shows_label(render, won if key == "winner" else playing, LABELS, key), key
    assert ignores_label(render, playing, LABELS, "winner")
    assert ignores_label(render, won, LABELS, "turn")
    # the targets' letters: drawn while a move is chosen, not while the player is to throw
    choosing = replace(playing, phase="move", dice=(2, 5), rolled=(2, 5))
    assert not ignores_label(render, choosing, LABELS, "targets")
    assert ignores_label(render, playing, LABELS, "targets")


# ---------------------------------------------------------------- geometry


@pytest.mark.parametrize("board_", BOARDS)
def test_the_circuit_is_a_closed_chain_of_distinct_neighbouring_cells(board_):
    geo, p = GEOMETRY[board_], pitch(board_)
    centres = [cell_centre(board_, c) for c in range(geo.circuit)]
    assert len(set(centres)) == geo.circuit
    for a, b in pairwise([*centres, centres[0]]):
        assert math.dist(a, b) == pytest.approx(p, abs=1.5), (a, b)
    x0, y0, x1, y1 = geometry.BOARD
    assert all(x0 + p / 2 < x < x1 - p / 2 and y0 + p / 2 < y < y1 - p / 2 for x, y in centres)
    # counter-clockwise as seen: the angle round the centre only grows
    turned = 0.0
    for (ax, ay), (bx, by) in pairwise([*centres, centres[0]]):
        step = math.atan2(geometry.CY - by, bx - geometry.CX) - math.atan2(geometry.CY - ay, ax - geometry.CX)
        turned += (step + math.pi) % (2 * math.pi) - math.pi
    assert turned == pytest.approx(2 * math.pi)


@pytest.mark.parametrize("board_", BOARDS)
def test_start_is_the_arm_end_corners_the_inner_corners_and_homes_the_middle_lane(board_):
    geo, p = GEOMETRY[board_], pitch(board_)
    reach = (geo.quarter // 2) * p  # from the centre to an arm's end cell
    ends = [(geometry.CX, geometry.CY + reach), (geometry.CX + reach, geometry.CY), (geometry.CX, geometry.CY - reach),
            (geometry.CX - reach, geometry.CY)]
    for arm in range(4):
        assert math.dist(cell_centre(board_, geo.cell(arm, 0)), ends[arm]) < 1.5
        assert geo.cell(arm, geo.end) == geo.cell(arm, 0)
        corners = {cell_centre(board_, geo.cell(arm, c)) for c in geo.corners}
        assert {(round((x - geometry.CX) / p), round((y - geometry.CY) / p)) for x, y in corners} == \
            {(1, 1), (1, -1), (-1, -1), (-1, 1)}
        homes = [home_centre(board_, arm, k) for k in range(1, geo.home_cells + 1)]
        for a, b in pairwise([ends[arm], *homes]):  # from the end cell straight in, one cell at a time
            assert math.dist(a, b) == pytest.approx(p, abs=1.5)
        assert math.dist(homes[-1], (geometry.CX, geometry.CY)) == pytest.approx(2 * p, abs=1.5)
    spots = {park_spot(board_, arm, i) for arm in range(4) for i in range(4)}
    assert len(spots) == 16
    cells = [cell_centre(board_, c) for c in range(geo.circuit)]
    assert all(min(math.dist(s, c) for c in cells) > p for s in spots)


@pytest.mark.parametrize("board_", BOARDS)
@pytest.mark.parametrize("staggered", [False, True])
def test_shelters_sit_on_the_third_cell_of_each_outer_lane(board_, staggered):
    geo, p = GEOMETRY[board_], pitch(board_)
    end = geo.quarter // 2  # an arm end cell's distance from the centre, in cells
    shelters = geo.shelters(staggered)
    found = []
    for cell in shelters:
        x, y = cell_centre(board_, cell)
        dx, dy = abs(round((x - geometry.CX) / p)), abs(round((y - geometry.CY) / p))
        assert min(dx, dy) == 1  # an outer lane
        found.append(end - max(dx, dy) + 1)  # 1: the lane's outer end cell
        hx, hy = hut_centre(board_, cell)
        assert p * 0.5 < math.dist((x, y), (hx, hy)) < p  # the hut stands beside it, off the cross
        assert min(abs(hx - geometry.CX), abs(hy - geometry.CY)) > 1.5 * p
    assert sorted(found) == ([3] * 4 + [4] * 4 if staggered else [3] * 8)


def marks_round(board_: str) -> list[Box]:
    """Every box something may be drawn in round a cell or a hut: a piece, a ring, a target's letter on its
    badge (top-left of its ring), a capture's cross (top-right of the cell)."""
    geo, p = GEOMETRY[board_], pitch(board_)
    places = [(cell_centre(board_, c), 0.96) for c in range(geo.circuit)]
    places += [(hut_centre(board_, c), 0.86) for c in geo.shelters(False) | geo.shelters(True)]
    places += [(home_centre(board_, arm, k), 0.96) for arm in range(4) for k in range(1, geo.home_cells + 1)]
    boxes = []
    for (x, y), ring in places:
        size, r = round(p * ring), round(p * 0.42)
        bx, by = x - size // 2 + board.BADGE // 5, y - size // 2 + board.BADGE // 5
        boxes += [around((x, y), size // 2 + 3), around((bx, by), board.BADGE // 2),
                  (x + r - 20, y - r - 14, x + r + 14, y - r + 20)]
    return boxes


@pytest.mark.parametrize("board_", BOARDS)
def test_the_cards_sit_in_the_corners_clear_of_every_cell_hut_and_mark(board_):
    marks = marks_round(board_)
    x0, y0, x1, y1 = geometry.BOARD
    inner = (x0 + geometry.FRAME, y0 + geometry.FRAME, x1 - geometry.FRAME, y1 - geometry.FRAME)
    for seats in (2, 3, 4):
        blank = at(seats, {}, board_)
        cards = board._panels(seats)[0]
        assert len(set(cards)) == seats
        for seat, card in enumerate(cards):
            ringed = (card[0] - 6, card[1] - 6, card[2] + 6, card[3] + 6)  # the turn's gold ring
            assert inside(ringed, inner)
            assert not [m for m in marks if max(m[0], ringed[0]) < min(m[2], ringed[2])
                        and max(m[1], ringed[1]) < min(m[3], ringed[3])], (seats, seat)
            spots = [park_spot(board_, blank.arm(seat), i) for i in range(4)]
            ring = round(pitch(board_) * 0.8) // 2  # a park spot's gold ring
            assert all(inside(around(xy, ring + 3), card) for xy in spots)


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize("board_", BOARDS)
@pytest.mark.parametrize("seat", range(4))
def test_a_piece_shows_in_its_colour_on_its_cell_and_leaves_with_it(seat, board_):
    here = at(4, {(seat, 1): 9}, board_)
    there = at(4, {(seat, 1): 16}, board_)
    home = at(4, {(seat, 1): GEOMETRY[board_].home[1]}, board_)
    img_here, img_there, img_home = rgb(render(here)), rgb(render(there)), rgb(render(home))
    c = seat_colour(seat)
    a, b = around(cell_of(here, seat, 9), 8), around(cell_of(here, seat, 16), 8)
    assert count(img_here, a, c) > 80 and count(img_there, a, c) == 0
    assert count(img_there, b, c) > 80 and count(img_here, b, c) == 0
    assert count(img_home, around(home_centre(board_, here.arm(seat), 2), 8), c) > 80
    spot = around(park_spot(board_, here.arm(seat), 1), 8)
    assert count(rgb(render(at(4, {}, board_))), spot, c) > 80 and count(img_here, spot, c) == 0


def test_a_piece_in_its_hut_looks_different_from_one_on_the_open_cell():
    open_, hut = at(2, {(1, 2): 3}), at(2, {(1, 2): 3}, huts=(6,))
    cell = cell_of(open_, 1, 3)
    hx, hy = hut_centre("standard", open_.options.geometry.cell(open_.arm(1), 3))
    a, b = rgb(render(open_)), rgb(render(hut))
    c = seat_colour(1)
    assert count(a, around(cell, 9), c) > 100 and count(b, around(cell, 9), c) == 0
    assert count(b, around((hx, hy + 4), 8), c) > 40 and count(a, around((hx, hy + 4), 8), c) == 0
    both = at(2, {(1, 2): 3, (0, 0): 27}, huts=(6,))  # an opponent on the open cell too: both show
    img = rgb(render(both))
    assert count(img, around(cell, 9), seat_colour(0)) > 80 and count(img, around((hx, hy + 4), 8), c) > 40


# ---------------------------------------------------------------- marks


def test_the_last_move_is_ringed_gold_on_its_new_cell_and_faintly_on_its_old():
    moved = at(2, {(0, 0): 10}, last_move=(0, 0, 8, 10), last_dice=(2, 5), last_seat=0, turn=1)
    still = replace(moved, last_move=())
    a, b = rgb(render(moved)), rgb(render(still))
    r = round(pitch("standard") * 0.45)
    ring = around(cell_of(moved, 0, 10), r + 3)
    assert count(a, ring, GOLD, 30) > 150 and count(b, ring, GOLD, 30) == 0
    faint = around(cell_of(moved, 0, 8), r + 3)
    assert count(a, faint, GOLD, 90) > 40 and count(a, faint, GOLD, 25) < count(a, ring, GOLD, 25)
    events = [Event("step", 0, {"piece": 0, "from": 8, "to": 10, "die": 2})]
    assert render(moved, events=events) == render(moved)


@pytest.mark.parametrize("kind,start,end", [("jump_forward", 6, 18), ("jump_back", 6, 42), ("jump_diagonal", 18, 42)])
def test_a_jump_lights_up_its_arrow(kind, start, end):
    state = at(4, {(2, 0): end}, last_move=(2, 0, start, end), last_dice=(1, 4), last_seat=2)
    events = [Event(kind, 2, {"piece": 0, "from": start, "to": end, "die": 1})]
    step = replace(state, last_move=())
    a, b = rgb(render(state, events=events)), rgb(render(step))
    (ax, ay), (bx, by) = cell_of(state, 2, start), cell_of(state, 2, end)
    mid = around(((ax + bx) // 2, (ay + by) // 2), 10)
    if kind == "jump_diagonal":  # the middle of the board, where the diagonals cross
        mid = around(((3 * ax + bx) // 4, (3 * ay + by) // 4), 8)
    assert count(a, mid, GOLD, 30) > 30 and count(b, mid, GOLD, 30) == 0
    assert render(state, events=events) == render(state)  # corner to corner: known as a jump without events


def test_a_capture_gets_a_red_cross_on_its_cell():
    state, events = find(4, lambda s, e: any(ev.kind == "capture" for ev in e))
    capture = next(e for e in events if e.kind == "capture")
    move = [e for e in events[: events.index(capture)] if e.kind in board._MOVES][-1]
    box = around(cell_of(state, move.seat, move.data["to"]), round(pitch("standard")))
    quiet = [e for e in events if e.kind != "capture"]
    loud, calm = rgb(render(state, events=events)), rgb(render(state, events=quiet))
    assert count(loud, box, RED, 40) > 40 and count(calm, box, RED, 40) == 0


@pytest.mark.parametrize("board_", BOARDS)
def test_offered_moves_are_marked_in_the_movers_colour_in_phase_move(board_):
    state, _ = find(4, lambda s, e: s.phase == "move" and len(ENGINE.legal_actions(s)) >= 3, board_)
    rolled = replace(state, phase="roll", dice=())
    a, b = rgb(render(state)), rgb(render(rolled))
    c = seat_colour(state.turn)
    start = cell_of(state, state.turn, 0)
    for target in offered(state).targets:
        xy, size = target.centre, target.size
        diff = ImageChops.difference(a.crop(around(xy, size // 2 + 4)), b.crop(around(xy, size // 2 + 4)))
        assert diff.getbbox() is not None
        if xy == start:  # the start field is the mover's colour already: its letter's badge marks it
            continue
        gained = count(a, around(xy, size // 2 + 4), c) - count(b, around(xy, size // 2 + 4), c)
        assert gained > 40, target


def test_the_dice_still_to_play_are_ringed_gold():
    base = at(2, {(0, 0): 10}, last_dice=(2, 5), last_seat=0, rolled=(2, 5))
    both, one, none = (replace(base, phase="move", dice=(2, 5)), replace(base, phase="move", dice=(5,)),
                       replace(base, phase="roll"))
    boxes = board._dice_boxes()
    imgs = [rgb(render(s)) for s in (both, one, none)]
    rings = [[count(img, (x0 - 6, y0 - 6, x1 + 6, y1 + 6), GOLD, 30) for x0, y0, x1, y1 in boxes] for img in imgs]
    assert rings[0][0] > 200 and rings[0][1] > 200
    assert rings[1][0] < 20 and rings[1][1] > 200
    assert rings[2] == [0, 0]
    bbox = diff_bbox(render(replace(base, last_dice=(1, 1))), render(base))
    assert bbox is not None and inside(bbox, board.DICE_CARD)


# ---------------------------------------------------------------- panels


def is_gold(px) -> bool:
    return close(px, GOLD, 30)


def test_the_turn_ring_follows_the_turn():
    panels = board._panels(4)[0]
    for turn in range(4):
        assert_ring_only_on(rgb(render(at(4, {}, turn=turn))), panels, turn, is_gold)


def test_the_winner_is_ringed_and_the_panel_counts_park_and_home():
    state = at(3, {(2, i): 49 + i for i in range(4)} | {(0, 0): 20}, finished=True, winner=2, turn=2)
    img = rgb(render(state))
    panels = board._panels(3)[0]
    for seat, box in enumerate(panels):
        assert (gold_share(img, ring_points(box), is_gold) > 0.9) == (seat == 2)
    x0, y0, _x1, y1 = panels[0]
    counts = (x0, y0 + board.HEADER_H, x0 + 140, y1)
    one_more = rgb(render(replace(state, pieces=(20, 49, *state.pieces[2:]))))
    assert ImageChops.difference(img.crop(counts), one_more.crop(counts)).getbbox() is not None


def test_long_names_are_cut_and_stay_inside_their_cards():
    state = at(4, {(0, 0): 12, (1, 1): 3, (2, 2): 40, (3, 3): 50}, last_dice=(3, 4), last_seat=1, turn=1)
    long = ["Константин Константинопольский-Щ", "W" * 32, "Ж" * 32, "\ue000\ue001"]
    png = render(state, names=long)
    img_long, img_short = rgb(png), rgb(render(state, names=["Я"] * 4))
    for seat, (x0, y0, x1, _y1) in enumerate(board._panels(4)[0]):
        header = (x0, y0, x1, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(header), img_short.crop(header)).getbbox(), seat
        edge = (x1 - 8, y0, x1 + 12, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None
    _x0, y0, x1, y1 = board.DICE_CARD
    edge = (x1 - 10, y0, x1 + 16, y1)
    assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("board_", BOARDS)
@pytest.mark.parametrize("seats", [2, 4])
def test_every_step_of_a_random_game_renders_at_one_size(seats, board_):
    game = play(seats, 5, board_, shelters="staggered" if seats == 4 else "opposite")
    assert game[-1][0].finished
    names = NAMES[:seats]
    sizes = {board._compose(state, names, LABELS, events).size for state, events in game}
    assert sizes == {(1024, board._panels(seats)[1])}
    pngs = {render(state, events=events) for state, events in game[::6] + game[-1:]}
    assert {decode(png).size for png in pngs} == sizes and len(pngs) > len(game[::6]) // 2
