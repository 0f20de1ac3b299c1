"""The «спички» board renderer."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from PIL import Image, ImageChops

from engines.spichki import ENGINE, SpichkiOptions, SpichkiState
from render import spichki as board
from render.dice import die_image
from render.pieces import marker_image
from render.spichki import LABEL_KEYS, render_board
from render.theme import CARD, player
from render.typeset import font
from tests.render_helpers import (
    PNG_SIGNATURE,
    Pixel,
    assert_ring_only_on,
    count_pixels,
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
    shows_label,
)

LABELS = {
    "target": "Цель",
    "no_target": "Ставится цель",
    "throw": "Бросок",
    "pile": "Куча",
    "goal": "Играем до",
    "turn": "Ходит",
    "winner": "Победитель",
    "draw": "Ничья",
}
NAMES = ["Аня", "Борис", "Вика", "Григорий", "Даша", "Евгений", "Жанна", "Зоя"]


def play(seats: int, k: int = 1, **opts) -> list[tuple[SpichkiState, list]]:
    """Every (state, events of the throw that made it) of one whole game."""
    return play_game(ENGINE, SpichkiOptions(**opts), seats, k)


def find(seats: int, pred, **opts) -> tuple[SpichkiState, list]:
    """The first (state, events) over seeds 0, 1, … for which ``pred(state, events)`` holds."""
    return find_state(lambda k: play(seats, k, **opts), pred, 300)


def mid(seats: int, k: int = 1) -> tuple[SpichkiState, list]:
    game = play(seats, k)
    return game[len(game) // 2]


render = renderer(render_board, LABELS, NAMES)


def is_gold(px: Pixel) -> bool:
    """Whether ``px`` is the gold of a ring (turn, winner, hit)."""
    r, g, b = px
    return r > 225 and 165 < g < 225 and b < 100


def red_heads(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels of match-head red inside ``box``."""
    return count_pixels(img, box, lambda px: px[0] > 150 and px[1] < 80 and px[2] < 80)


def section_box(i: int) -> tuple[int, int, int, int]:
    a, b = board.SECTIONS[i]
    _x0, y0, _x1, y1 = board._layout(2).table
    return (a, y0, b, y1)


# ---------------------------------------------------------------- format and determinism


@pytest.mark.parametrize("seats", range(2, 9))
def test_png_is_1024_wide_palette_and_of_a_reasonable_height(seats):
    png = render(mid(seats)[0])
    width, height = png_size(png)
    assert width == 1024 and 400 <= height <= 900
    assert len(png) <= 100_000


def test_same_input_gives_identical_bytes_even_after_caches_are_dropped():
    state, events = mid(5)
    first = render(state, events=events)
    assert render(state, events=events) == first
    for cached in (board._base, board._palette, board._layout, board._heap, board._stick_row, board._stick,
                   die_image, marker_image, font):
        cached.cache_clear()
    assert render_board(state, list(NAMES[:5]), dict(LABELS), list(events)) == first


@pytest.mark.parametrize("seats", [2, 8])
def test_every_state_of_a_whole_game_renders_at_one_size(seats):
    sizes, pngs = render_all(render, play(seats, k=7))
    assert len(sizes) == 1  # one picture size for the whole game: no jumping message
    assert len(pngs) > 10


def test_panels_of_up_to_eight_players_do_not_overlap_and_stay_inside():
    for seats in range(2, 9):
        lay = board._layout(seats)
        assert len(lay.panels) == seats
        for box in lay.panels:
            assert 0 < box[0] < box[2] < lay.width and lay.table[3] < box[1] < box[3] < lay.height
        for a, b in pairwise(sorted(lay.panels)):
            assert a[2] <= b[0] or a[3] <= b[1] or b[3] <= a[1]


# ---------------------------------------------------------------- labels and names


def _label_states() -> dict[str, SpichkiState]:
    """For every label key, a state whose picture shows that label."""
    start = play(3)[0][0]
    chasing = find(3, lambda s, e: bool(s.target) and not s.finished)[0]
    won = find(3, lambda s, e: s.finished and len(s.winners) == 1)[0]
    drawn = replace(won, matches=(7, 7, 3), pile=0, winners=(0, 1))
    return {"target": chasing, "no_target": start, "throw": start, "pile": start, "goal": start,
            "turn": start, "winner": won, "draw": drawn}


def test_every_label_key_is_drawn():
    states = _label_states()
    assert set(states) == set(LABEL_KEYS)
    for key, state in states.items():
        assert shows_label(render, state, LABELS, key), f"label {key!r} does not appear"


def test_labels_not_shown_do_not_change_the_picture():
    chasing = find(3, lambda s, e: bool(s.target) and not s.finished)[0]
    for key in ("no_target", "winner", "draw"):
        assert ignores_label(render, chasing, LABELS, key), key


@pytest.mark.parametrize("key", LABEL_KEYS)
def test_missing_label_raises_key_error(key):
    labels = {k: v for k, v in LABELS.items() if k != key}
    with pytest.raises(KeyError, match=key):
        render(mid(2)[0], labels=labels)


def test_long_names_are_cut_and_do_not_spill_out_of_their_header():
    state = play(8)[0][0]
    long_names = ["Константин Константинопольский-Щ", "W" * 32, "Ж" * 32, "Ёжик в тумане и ещё кто-то",
                  "Щ" * 32, "\ue000\ue001", "  ", "Zoë Ф"]
    png = render(state, names=long_names)
    assert png == render(state, names=[n + "ЖЖ" if len(n) >= 32 else n for n in long_names])
    short = render(state, names=["Я"] * 8)
    # the header changes between long and short names, the right edge of each card does not
    img_long, img_short = rgb(png), rgb(short)
    for x0, y0, x1, _y1 in board._layout(8).panels:
        header = (x0 + 50, y0 + 4, x1 - 8, y0 + board.HEADER_H - 6)
        assert ImageChops.difference(img_long.crop(header), img_short.crop(header)).getbbox()
        edge = (x1 - 8, y0, x1 + 10, y0 + board.HEADER_H)
        assert ImageChops.difference(img_long.crop(edge), img_short.crop(edge)).getbbox() is None


def test_fewer_names_than_seats_fall_back_to_letters():
    state = mid(4)[0]
    assert render(state, names=["Аня"]).startswith(PNG_SIGNATURE)
    assert render(state, names=["Аня"]) != render(state, names=["Аня", "Б", "В", "Г"])


# ---------------------------------------------------------------- the picture follows the state


def test_target_being_set_shows_empty_slots_and_a_set_target_shows_dice():
    state = find(3, lambda s, e: bool(s.target) and not s.finished)[0]
    setting = replace(state, target=())
    a, b = render(state), render(setting)
    bbox = diff_bbox(a, b)
    assert bbox is not None and inside(bbox, section_box(0))  # only the target area changed
    die = board._layout(3).target[0]
    centre = (die[0] + die[2]) // 2, die[1] + 12
    assert sum(rgb(a).getpixel(centre)) > 600  # an ivory die face
    assert sum(rgb(b).getpixel(centre)) < 400  # the felt inside an empty slot


def test_different_targets_and_throws_give_different_pictures():
    state = find(3, lambda s, e: bool(s.target) and not s.finished)[0]
    assert render(replace(state, target=(1, 2))) != render(replace(state, target=(5, 6)))
    assert render(replace(state, last_dice=(1, 2))) != render(replace(state, last_dice=(5, 6)))


def test_matches_counts_change_their_panel_and_the_sticks():
    state = replace(play(3)[0][0], matches=(0, 2, 0), pile=28)
    a, b = render(state), render(replace(state, matches=(0, 7, 0)))
    lay = board._layout(3)
    x0, _y0, x1, y1 = lay.panels[1]
    bbox = diff_bbox(a, b)
    assert bbox is not None and inside(bbox, lay.panels[1])  # only Boris's panel changed
    sticks = (x0, y1 - 60, x1, y1)
    assert red_heads(rgb(b), sticks) > 3 * red_heads(rgb(a), sticks) > 0
    assert red_heads(rgb(a), (lay.panels[0][0], y1 - 60, lay.panels[0][2], y1)) == 0


def test_the_pile_shrinks_with_its_count():
    state = play(4)[0][0]
    full, low = render(replace(state, pile=40)), render(replace(state, pile=4))
    bbox = diff_bbox(full, low)
    assert bbox is not None and inside(bbox, section_box(2))
    area = section_box(2)
    assert red_heads(rgb(full), area) > 2 * red_heads(rgb(low), area) > 0


def test_the_turn_ring_moves_with_the_turn():
    state = play(4)[0][0]
    lay = board._layout(4)
    for turn in range(4):
        assert_ring_only_on(rgb(render(replace(state, turn=turn))), lay.panels, turn, is_gold)


def test_winner_and_draw_panels_are_marked_gold():
    won = find(4, lambda s, e: s.finished and len(s.winners) == 1)[0]
    lay = board._layout(4)
    img = rgb(render(won))
    for seat, box in enumerate(lay.panels):
        share = gold_share(img, ring_points(box), is_gold)
        assert (share > 0.9) if seat in won.winners else (share < 0.1)
        blank = (box[2] - 20, box[1] + board.HEADER_H + 12)  # card, right of the number
        dimmed = sum(img.getpixel(blank)) < sum(CARD) - 60
        assert dimmed == (seat not in won.winners)  # the others recede
    drawn = replace(won, matches=(6, 3, 6, 2), pile=0, winners=(0, 2))
    img = rgb(render(drawn))
    assert [gold_share(img, ring_points(box), is_gold) > 0.9 for box in lay.panels] == [True, False, True, False]


def test_thrown_dice_that_hit_the_target_get_a_gold_ring():
    state = replace(play(3)[0][0], target=(2, 5), last_target=(2, 5), last_seat=0, turn=0,
                    matches=(1, 0, 0), pile=29)
    lay = board._layout(3)

    def rings(dice: tuple[int, int]) -> list[bool]:
        img = rgb(render(replace(state, last_dice=dice)))
        return [gold_share(img, ring_points(box, out=3), is_gold) > 0.8 for box in lay.dice]

    assert rings((2, 3)) == [True, False]
    assert rings((4, 5)) == [False, True]
    assert rings((3, 4)) == [False, False]
    assert rings((5, 5)) == [True, True]


def test_the_award_follows_the_events_of_each_throw():
    for seats in (2, 5):
        game = play(seats, k=11)
        for (prev, _), (state, events) in pairwise(game):
            throw = board._throw(state, events)
            assert throw is not None and throw.dice == state.last_dice and throw.seat == state.last_seat
            assert throw.award == state.matches[throw.seat] - prev.matches[throw.seat]
            expected_next = None if throw.award or state.finished else state.turn
            assert throw.passed_to == expected_next
            if state.pile:  # without events the dice alone give the same award (unless the pile capped it)
                assert board._throw(state, ()).award == throw.award


def test_the_award_badge_is_drawn_for_the_roller():
    state, events = find(3, lambda s, e: any(ev.kind == "take" and ev.data["count"] == 1 for ev in e))
    with_badge = render(state, events=events)
    assert with_badge != render(state, events=[*events[:1], *(e for e in events if e.kind != "take")])


# ---------------------------------------------------------------- players 7 and 8


def test_eight_seats_have_eight_distinct_colours_and_shapes():
    styles = [player(seat) for seat in range(8)]
    assert len({s.colour for s in styles}) == 8
    assert len({s.shape for s in styles}) == 8
    masks = {marker_image(seat, 40).getchannel("A").tobytes() for seat in range(8)}
    assert len(masks) == 8
