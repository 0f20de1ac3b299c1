"""Render time and PNG size of mid-game positions at the default size (~1024 px)."""

from __future__ import annotations

import io
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from engines import lions, ludo, parchis, shishbesh, sosedi, spichki, tishe
from engines.playout import at_random, playout
from locales import Translator
from render import lions as render_lions
from render import ludo as render_ludo
from render import parchis as render_parchis
from render import shishbesh as render_shishbesh
from render import sosedi as render_sosedi
from render import spichki as render_spichki
from render import tishe as render_tishe

MAX_ACTIONS = 3000  # a game without dice (lions) is cut there; its middle is mid-game all the same
NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений", "Жанна", "Зоя"]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _positions(engine: Any, options: Any, seats: int, games: int) -> list[tuple[Any, Sequence[Any]]]:
    """The middle (state, events) of ``games`` seeded games (choices, where there are any, drawn at random)."""
    positions = []
    for k in range(games):
        state, events = engine.new_game(options, seats, f"{k:064x}")
        choose = at_random(random.Random(k), ("offer", "resign", "undo"))
        history = [(state, events), *((after, events) for _, after, events, _ in
                                      playout(engine, state, choose, MAX_ACTIONS - 1))]
        positions.append(history[len(history) // 2])
    return positions


def _measure(case: str, render: Callable[..., bytes], positions: list[tuple[Any, Sequence[Any]]],
             names: Sequence[str], labels: dict[str, str]) -> dict[str, Any]:
    render(positions[0][0], names, labels, positions[0][1])  # warm the static cache
    times, sizes = [], []
    for state, events in positions * 5:
        started = time.perf_counter()
        png = render(state, names, labels, events)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png))
    width, height = Image.open(io.BytesIO(png)).size
    row = {"case": case, "p50_ms": round(statistics.median(times), 2),
           "p95_ms": round(_pct(times, 0.95), 2), "bytes_max": max(sizes),
           "bytes_mean": round(statistics.mean(sizes)), "size": f"{width}x{height}"}
    print(f"{row['case']:<28}{row['p50_ms']:>9}{row['p95_ms']:>9}{row['bytes_max'] / 1024:>9.1f}{row['size']:>11}")
    return row


def run(scale: float = 1.0) -> list[dict[str, Any]]:
    tr = Translator.load()
    games = max(3, int(20 * scale))
    rows = []
    print(f"\n{'render (mid-game)':<28}{'p50 ms':>9}{'p95 ms':>9}{'KB max':>9}{'size':>11}")
    labels = {k: tr.t("ru", f"board-{k}") for k in render_sosedi.LABEL_KEYS}
    for mode in ("classic", "reverse", "tower"):
        for seats in (3, 6):
            positions = _positions(sosedi.ENGINE, sosedi.SosediOptions(mode=mode), seats, games)
            rows.append(_measure(f"sosedi {mode} {seats}p", render_sosedi.render_board, positions,
                                 NAMES[:seats], labels))
    labels = {k: tr.t("ru", f"board-{k}") for k in render_spichki.LABEL_KEYS}
    for seats in (4, 8):
        positions = _positions(spichki.ENGINE, spichki.SpichkiOptions(), seats, games)
        rows.append(_measure(f"spichki {seats}p", render_spichki.render_board, positions, NAMES[:seats], labels))
    labels = {k: tr.t("ru", f"board-{k}") for k in render_tishe.LABEL_KEYS}
    for seats in (3, 6):
        positions = _positions(tishe.ENGINE, tishe.TisheOptions(), seats, games)
        rows.append(_measure(f"tishe {seats}p", render_tishe.render_board, positions, NAMES[:seats], labels))
    labels = {k: tr.t("ru", f"board-{k}") for k in render_ludo.LABEL_KEYS}
    for seats in (2, 4):
        positions = _positions(ludo.ENGINE, ludo.LudoOptions(), seats, games)
        rows.append(_measure(f"ludo {seats}p", render_ludo.render_board, positions, NAMES[:seats], labels))
    labels = {k: tr.t("ru", f"board-{k}") for k in render_parchis.LABEL_KEYS}
    for seats in (2, 4):
        positions = _positions(parchis.ENGINE, parchis.ParchisOptions(), seats, games)
        rows.append(_measure(f"parchis {seats}p", render_parchis.render_board, positions, NAMES[:seats], labels))
    labels = {k: tr.t("ru", f"board-{k}") for k in render_shishbesh.LABEL_KEYS}
    for board in shishbesh.BOARDS:
        for seats in (2, 4):
            positions = _positions(shishbesh.ENGINE, shishbesh.ShishbeshOptions(board=board), seats, games)
            rows.append(_measure(f"shishbesh {board} {seats}p", render_shishbesh.render_board, positions,
                                 NAMES[:seats], labels))
    labels = {k: tr.t("ru", f"board-{k}") for k in render_lions.LABEL_KEYS}
    positions = _positions(lions.ENGINE, lions.LionsOptions(), 2, games)
    rows.append(_measure("lions 2p", render_lions.render_board, positions, NAMES[:2], labels))
    return rows
