"""Callback data: formatted within 64 bytes, parsed strictly, junk rejected."""

from __future__ import annotations

import pytest

from bot import callback_data as cb


def test_round_trips() -> None:
    assert cb.parse(cb.move(123456, 57, "r")) == cb.Callback(kind="g", game_id=123456, version=57, code="r")
    parsed = cb.parse(cb.lobby(99, "set", "roller_immune", "on"))
    assert parsed is not None and (parsed.command, parsed.key, parsed.value) == ("set", "roller_immune", "on")
    assert cb.parse(cb.picker("sosedi")) == cb.Callback(kind="n", code="sosedi")
    assert cb.parse(cb.rematch(36)) == cb.Callback(kind="r", game_id=36)
    assert cb.check_dice(1234) == "v:ya" and cb.parse(cb.check_dice(1234)) == cb.Callback(kind="v", game_id=1234)


def test_largest_values_fit_64_bytes() -> None:
    data = cb.move(36**10 - 1, 9_999_999, "x" * 24)
    assert len(data.encode()) <= 64
    assert len(cb.lobby(36**10 - 1, "set", "k" * 20, "v" * 20).encode()) <= 64


@pytest.mark.parametrize(
    "junk",
    [None, "", "g", "g:1:2", "g:1:x:r", "g:1:2:r:extra", "l:1:explode", "l:1:set:chips", "n:Ж", "r:", "z:1",
     "g:1:2:" + "r" * 60, "\x00\x01", "g:1:-1:r", "n:sosedi ", "l:1:set:chips:1;drop",
     "v:", "v:1:2", "v:YA", "v:" + "1" * 11, "v:-1"],
)
def test_junk_is_rejected(junk: str | None) -> None:
    assert cb.parse(junk) is None


def test_formatting_refuses_bad_values() -> None:
    with pytest.raises(ValueError):
        cb.move(1, 1, "Бросок")
