"""The «Охота на львов» board renderer."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise

import pytest
from PIL import ImageChops

from engines.base import Event
from engines.lions import ENGINE, HUNTERS, LIONS, LionsOptions, LionsState, build
from engines.lions_ai import LionsAI
from engines.lions_board import CIRCLES, INDEX, LINES, NEIGHBOURS, SIZE
from engines.playout import at_random, playout
from render import lions as board
from render import lions_geometry as geometry
from render.lions import LABEL_KEYS, render_board
from render.lions_geometry import centre, label_spots
from render.marks import dashed_ring, red_cross, round_ring
from render.theme import GOLD, INK, RED
from render.typeset import font
from tests.render_helpers import (
    assert_ring_only_on,
    close,
    count_close,
    decode,
    diff_bbox,
    ignores_label,
    inside,
    png_size,
    renderer,
    rgb,
    seed,
    shows_label,
)

LABELS = {"turn": "Ходит", "winner": "Победитель", "draw": "Ничья", "lions": "Львы", "hunters": "Охотники",
          "push": "в затылок"}
NAMES = ["Аня", "Борис"]
Box = tuple[int, int, int, int]
render = renderer(render_board, LABELS, NAMES)
count = count_close


def ix(*labels: str) -> tuple[int, ...]:
    return tuple(sorted(INDEX[label] for label in labels))


def fresh(lions_seat: int = 0, **changes) -> LionsState:
    """A new game (lions at 1–6, hunters at А–Е) with ``changes``; the lions to move unless told."""
    state = ENGINE.new_game(LionsOptions(lions_seat=lions_seat), 2, seed(1))[0]
    return replace(state, **{"turn": lions_seat, **changes})


def spread(**changes) -> LionsState:
    """Pieces out on the board, lions to move: lions on 1, +3, 9, +4, 19; hunters on 12, +6, В, Г, 13, 16."""
    return fresh(lions=ix("1", "+3", "9", "+4", "19"), hunters=ix("12", "+6", "В", "Г", "13", "16"), **changes)


def steps(state: LionsState, *codes: str) -> LionsState:
    for code in codes:
        state = ENGINE.apply(state, code)[0]
    return state


@lru_cache(maxsize=1)
def mid_game() -> LionsState:
    """A realistic position: a few whole turns of a quick AI on each side, then half of the next turn."""
    ai = LionsAI(width=3, budget=1500)
    state = ENGINE.new_game(LionsOptions(lions_seat=1), 2, seed(5))[0]
    for _ in range(8):
        state = steps(state, *ai.plan(state))
    plan = ai.plan(state)
    return steps(state, *plan[: max(2, len(plan) - 2)])


def around(xy: tuple[int, int], r: int) -> Box:
    return (xy[0] - r, xy[1] - r, xy[0] + r + 1, xy[1] + r + 1)


def lion_at(img, c: int) -> bool:
    return count(img, around(centre(c), 14), board.LION, 30) > 300


def hunter_at(img, c: int) -> bool:
    return count(img, around(centre(c), 22), board.HUNTER, 30) > 600


def empty_at(img, c: int) -> bool:
    return count(img, around(centre(c), 14), board.SPOT, 12) > 700


def between(a: int, b: int, t: float = 0.5) -> tuple[int, int]:
    (ax, ay), (bx, by) = centre(a), centre(b)
    return round(ax + (bx - ax) * t), round(ay + (by - ay) * t)


def differs(a, b, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


# ---------------------------------------------------------------- format, determinism, labels


@pytest.mark.parametrize("which", ["start", "spread", "mid"])
def test_png_is_1024_wide_palette_small_and_fits_telegram(which):
    state = {"start": fresh(), "spread": spread(last_taken=ix("+5")), "mid": mid_game()}[which]
    png = render(state)
    width, height = png_size(png)
    assert width == 1024 and 900 <= height <= 1200
    assert width + height <= 10_000 and height / width <= 20  # Telegram's photo limits
    assert len(png) <= 100_000


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state = mid_game()
    first = render(state)
    assert render(state) == first
    for cached in (board._base, board._draw_board, board._palette, board._piece, board._trail, board._joint,
                   board._push_badge, geometry.label_spots, round_ring, dashed_ring, red_cross, font):
        cached.cache_clear()
    assert render_board(state, list(NAMES), dict(LABELS), [Event("step", 1, {"to": 3})]) == first


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    with pytest.raises(KeyError, match=key):
        render(fresh(), labels={k: v for k, v in LABELS.items() if k != key})


def test_label_keys_are_the_agreed_tuple():
    assert LABEL_KEYS == ("turn", "winner", "draw", "lions", "hunters", "push")


def test_every_label_is_drawn_and_the_hidden_ones_change_nothing():
    playing, pushing = fresh(), spread(push_on=True)
    won, drawn = fresh(finished=True, winner=1), fresh(finished=True, winner=None)
    where = {"winner": won, "draw": drawn, "push": pushing}
    for key in LABEL_KEYS:
        assert shows_label(render, where.get(key, playing), LABELS, key), key
    for key in ("winner", "draw", "push"):
        assert ignores_label(render, playing, LABELS, key), key
    assert ignores_label(render, won, LABELS, "turn") and ignores_label(render, won, LABELS, "draw")
    assert ignores_label(render, drawn, LABELS, "winner")


# ---------------------------------------------------------------- geometry


def test_circles_stand_on_the_grid_inside_the_board_and_lines_join_them_straight():
    x0, y0, x1, y1 = geometry.BOARD
    pts = [centre(c) for c in range(SIZE)]
    assert len(set(pts)) == SIZE
    assert all(x0 + geometry.P / 2 < x < x1 - geometry.P / 2 and y0 + geometry.P / 2 < y < y1 - geometry.P / 2
               for x, y in pts)
    for c, (x, y) in zip(CIRCLES, pts, strict=True):
        assert (x - pts[0][0], y - pts[0][1]) == (round(c.x * geometry.P), round(c.y * geometry.P))
    for a, b in LINES:  # one grid step or a diagonal: never shorter than a piece's width
        assert math.dist(pts[a], pts[b]) >= geometry.P - 1


def test_every_circle_name_sits_nearest_its_own_circle_off_every_piece():
    spots = label_spots()
    assert len(set(spots)) == SIZE
    for c, spot in enumerate(spots):
        own = math.dist(spot, centre(c))
        assert own > geometry.PIECE / 2
        assert all(math.dist(spot, centre(j)) > own + 8 for j in range(SIZE) if j != c), CIRCLES[c].label
        assert inside(around(spot, 10), geometry.BOARD)


def test_a_circle_name_is_printed_where_its_spot_is():
    img = rgb(render(fresh()))
    for c in (INDEX["+4"], INDEX["А"], INDEX["14"]):
        assert count(img, around(label_spots()[c], 7), INK, 60) + count(
            img, around(label_spots()[c], 7), board.GREY_INK, 30) > 10, CIRCLES[c].label


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize("make", [fresh, spread, mid_game])
def test_every_circle_shows_the_piece_on_it_in_its_colour_or_nothing(make):
    state = make()
    built = build(state)
    lions, hunters = (built.mover, built.opp) if state.side == LIONS else (built.opp, built.mover)
    img = rgb(render(state))
    for c in range(SIZE):
        is_lion, is_hunter = bool(lions >> c & 1), bool(hunters >> c & 1)
        assert lion_at(img, c) == is_lion and hunter_at(img, c) == is_hunter, CIRCLES[c].label


def test_lions_and_hunters_differ_in_shape_not_only_colour():
    img = rgb(render(fresh()))
    lion, hunter = INDEX["1"], INDEX["А"]

    def silhouette(c: int) -> set[tuple[int, int]]:  # pixels that are not the circle, sand or cave round it
        x, y = centre(c)
        out = set()
        for dx in range(-34, 35, 2):
            for dy in range(-34, 35, 2):
                px = img.getpixel((x + dx, y + dy))
                if not any(close(px, bg, 14) for bg in (board.SPOT, board.SAND, board.CAMP, board.CAVE)):
                    out.add((dx, dy))
        return out

    a, b = silhouette(lion), silhouette(hunter)
    assert len(a ^ b) > 0.2 * len(a | b)


def test_a_piece_moved_in_the_turn_being_built_stands_at_its_new_circle():
    state = steps(spread(), f"p{INDEX['9']}", f"s{INDEX['10']}", f"s{INDEX['14']}")
    img = rgb(render(state))
    assert lion_at(img, INDEX["14"])
    assert not lion_at(img, INDEX["9"]) and not lion_at(img, INDEX["10"])  # left, and passed on the way
    assert empty_at(rgb(render(replace(state, segments=()))), INDEX["14"])
    hunter = steps(replace(spread(), turn=1), f"p{INDEX['+6']}", f"s{INDEX['18']}")
    img = rgb(render(hunter))
    assert hunter_at(img, INDEX["18"]) and not hunter_at(img, INDEX["+6"])


def test_a_capture_in_the_turn_being_built_removes_the_piece_and_crosses_its_circle():
    # «+7»'s only way out is «+4»: a lion stopping there takes the hunter on «+7» (rule 4)
    state = fresh(lions=ix("1", "2", "3", "+8", "+5"), hunters=ix("А", "Б", "В", "Г", "Д", "+7"))
    done = steps(state, f"p{INDEX['+5']}", f"s{INDEX['+4']}", f"p{INDEX['1']}")  # the lion stops: +7 falls
    assert INDEX["+7"] in {c for c, _ in build(done).taken}
    img, before = rgb(render(done)), rgb(render(state))
    seven = around(centre(INDEX["+7"]), 20)
    assert hunter_at(before, INDEX["+7"]) and not hunter_at(img, INDEX["+7"])
    assert count(img, seven, RED, 40) > 60 and count(before, seven, RED, 40) == 0


# ---------------------------------------------------------------- the turn being built


def test_the_path_of_the_turn_being_built_is_a_gold_trail_from_its_start():
    path = (INDEX["9"], INDEX["10"], INDEX["14"])
    picked = steps(spread(), f"p{path[0]}")
    walked = steps(picked, *(f"s{c}" for c in path[1:]))
    a, b = rgb(render(walked)), rgb(render(spread()))
    for p, q in pairwise(path):
        mid = around(between(p, q), 6)
        assert count(a, mid, GOLD, 20) > 20 and count(b, mid, GOLD, 20) == 0
    start = centre(path[0])
    ring = (start[0] + geometry.R + 1, start[1] - 4, start[0] + geometry.R + 7, start[1] + 5)  # just outside the circle
    assert count(a, ring, GOLD, 70) > 5 and count(b, ring, GOLD, 70) == 0
    off = around(between(INDEX["11"], INDEX["17"]), 12)  # a line the path does not take
    assert not differs(a, b, off)


def test_the_picked_piece_is_ringed_and_its_free_neighbours_marked():
    here = INDEX["9"]
    picked, calm = rgb(render(steps(spread(), f"p{here}"))), rgb(render(spread()))
    x, y = centre(here)
    edge = geometry.PIECE // 2 + 4
    assert count(picked, (x - 3, y - edge - 4, x + 4, y - edge + 3), GOLD, 40) > 10
    assert count(calm, (x - 3, y - edge - 4, x + 4, y - edge + 3), GOLD, 40) == 0
    free = [c for c in NEIGHBOURS[here] if c not in spread().lions + spread().hunters]
    assert free
    for c in range(SIZE):  # a dashed ring on each free neighbour, and nowhere else
        if c != here:
            cx, cy = centre(c)
            rim = (cx - 3, cy - geometry.R - 9, cx + 4, cy - geometry.R - 1)
            assert differs(picked, calm, rim) == (c in free), CIRCLES[c].label


def test_the_last_turn_is_a_faint_trail_and_the_current_one_a_bold_gold_one():
    path = (INDEX["17"], INDEX["21"])
    last = spread(last_paths=(path,), last_seat=1)
    a, b = rgb(render(last)), rgb(render(spread()))
    mid = around(between(*path), 8)
    assert differs(a, b, mid)
    assert count(a, mid, GOLD, 20) == 0  # not the gold of the turn being built
    assert count(a, mid, board.SIDE_INK[HUNTERS], 90) > 20


def test_a_piece_taken_last_turn_gets_a_red_cross_on_its_circle():
    taken = spread(last_taken=ix("+5", "6"), last_seat=1)
    a, b = rgb(render(taken)), rgb(render(spread()))
    for c in ix("+5", "6"):
        box = around(centre(c), 20)
        assert count(a, box, RED, 40) > 60 and count(b, box, RED, 40) == 0


def test_no_targets_are_marked_when_the_game_is_over():
    picked = steps(spread(), f"p{INDEX['9']}")
    a = rgb(render(replace(picked, finished=True, winner=1)))
    b = rgb(render(replace(spread(), finished=True, winner=1)))
    x, y = centre(INDEX["10"])
    assert not differs(a, b, (x - 40, y - 40, x + 40, y + 40))


# ---------------------------------------------------------------- push rule


def test_the_push_rule_shows_a_badge_and_rings_the_pushed_piece():
    # hunters on 22, Е, Г in a straight row: the lion on Д must move (rule 6)
    state = fresh(lions=ix("Д", "9", "+4", "3", "5"), hunters=ix("22", "Е", "Г", "+6", "13", "16"))
    on, off = rgb(render(replace(state, push_on=True))), rgb(render(state))
    x, y = (round(v) for v in geometry.grid_px(*geometry.PUSH_AT))
    assert count(on, around((x, y), 30), board.PUSH, 30) > 200 and count(off, around((x, y), 30), board.PUSH, 30) == 0
    lion = around(centre(INDEX["Д"]), geometry.PIECE // 2 + 16)
    assert count(on, lion, board.PUSH, 30) > 80 and count(off, lion, board.PUSH, 30) == 0
    x, y = centre(INDEX["Д"])
    rim = (x + geometry.PIECE // 2 - 3, y - 5, x + geometry.PIECE // 2 + 2, y + 6)  # the ring round the pushed lion
    assert count(on, rim, board.PUSH, 40) > 5 and count(off, rim, board.PUSH, 40) == 0
    hunters_turn = rgb(render(replace(state, push_on=True, turn=1)))  # the pushed lion moves on the lions' turn
    assert count(hunters_turn, lion, board.PUSH, 30) == 0


def test_a_finished_game_shows_no_push_badge():
    """The push rule is of a game still going: the last picture of a finished one has neither its badge nor
    a pushed piece ringed."""
    state = fresh(lions=ix("Д", "9", "+4", "3", "5"), hunters=ix("22", "Е", "Г", "+6", "13", "16"), push_on=True)
    over = rgb(render(replace(state, finished=True, winner=1)))
    x, y = (round(v) for v in geometry.grid_px(*geometry.PUSH_AT))
    assert count(over, around((x, y), 30), board.PUSH, 30) == 0
    assert count(over, around(centre(INDEX["Д"]), geometry.PIECE // 2 + 16), board.PUSH, 30) == 0


# ---------------------------------------------------------------- cards


def is_gold(px) -> bool:
    return close(px, GOLD, 30)


@pytest.mark.parametrize("lions_seat", [0, 1])
def test_the_turn_ring_follows_the_side_to_move(lions_seat):
    cards = board._cards()[0]
    for side in (LIONS, HUNTERS):
        state = fresh(lions_seat, turn=lions_seat if side == LIONS else 1 - lions_seat)
        assert state.side == side
        assert_ring_only_on(rgb(render(state)), cards, state.seat_of(side), is_gold)


def test_the_winner_is_ringed_and_a_draw_rings_nobody():
    cards = board._cards()[0]
    assert_ring_only_on(rgb(render(fresh(finished=True, winner=1, turn=0))), cards, 1, is_gold)
    img = rgb(render(fresh(finished=True, winner=None)))
    assert_ring_only_on(img, cards, -1, is_gold)
    playing, won = rgb(render(fresh(turn=1))), rgb(render(fresh(finished=True, winner=1)))
    for x0, y0, _x1, y1 in cards:  # a draw veils no card; a win veils the loser's
        body = (x0 + 10, y0 + board.HEADER_H + 10, x0 + 120, y1 - 10)
        assert not differs(img, playing, body)
        assert differs(won, playing, body) == (x0 == cards[0][0])


def test_a_card_counts_the_pieces_its_side_has_left():
    cards = board._cards()[0]
    full, less = rgb(render(fresh())), rgb(render(fresh(hunters=ix("А", "Б", "В", "Г"))))
    lions_card, hunters_card = cards[0], cards[1]  # seat 0 plays the lions
    body = (hunters_card[0], hunters_card[1] + board.HEADER_H + 4, hunters_card[2], hunters_card[3])
    assert differs(full, less, body)
    assert not differs(full, less, lions_card)
    faded = count(less, body, board.HUNTER, 20)
    assert 0 < faded < count(full, body, board.HUNTER, 20)


def test_long_and_odd_names_are_cut_and_stay_inside_their_cards():
    state = mid_game()
    odd = ["Константин Константинопольский-Щедровицкий", "\ue000\u200b🦁\n\tZoë " + "W" * 40]
    a, b = rgb(render(state, names=odd)), rgb(render(state, names=["Я", "Ю"]))
    for x0, y0, x1, _y1 in board._cards()[0]:
        header = (x0, y0, x1, y0 + board.HEADER_H)
        assert differs(a, b, header)
        assert not differs(a, b, (x1 - 8, y0, x1 + 12, y0 + board.HEADER_H))
    assert render(state, names=["", "\u200b"]) and render(state, names=[]) == render(state, names=["A", "B"])


# ---------------------------------------------------------------- whole games


def test_every_few_steps_of_a_random_game_render_at_one_size():
    sizes, pngs = set(), set()
    steps = playout(ENGINE, fresh(), at_random(random.Random(2), ("offer", "resign")), 120)
    for k, (_, state, _, _) in enumerate(steps):
        if k % 8 == 0:
            png = render(state)
            sizes.add(decode(png).size)
            pngs.add(png)
    assert sizes == {(1024, board._cards()[1])} and len(pngs) > 8
    assert diff_bbox(render(fresh()), render(fresh(turn=1))) is not None
