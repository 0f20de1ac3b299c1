"""bot.bounded.LruDict: filled past its bound, it keeps the most recently used keys only."""

import pytest

from bot.bounded import LruDict


def test_filled_past_the_bound_it_keeps_the_newest() -> None:
    lru: LruDict[int, str] = LruDict(100)
    for key in range(10_000):
        lru[key] = str(key)
    assert len(lru) == 100
    assert sorted(lru) == list(range(9_900, 10_000))


def test_a_read_counts_as_a_use() -> None:
    lru: LruDict[str, int] = LruDict(2)
    lru["a"], lru["b"] = 1, 2
    assert lru["a"] == 1  # now "b" is the least recently used
    lru["c"] = 3
    assert "b" not in lru and lru.get("a") == 1 and lru["c"] == 3


def test_setdefault_and_pop_work_as_on_a_dict() -> None:
    lru: LruDict[int, list[int]] = LruDict(3)
    lru.setdefault(1, []).append(5)
    assert lru[1] == [5]
    assert lru.pop(1) == [5] and 1 not in lru and lru.pop(1, None) is None


def test_a_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        LruDict(0)
