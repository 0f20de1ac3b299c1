"""Render time and PNG size of mid-game positions at the default size (~1024 px)."""

from __future__ import annotations

import io
import statistics
import time
from typing import Any

from PIL import Image

from engines.sosedi import ENGINE, SosediOptions
from locales import Translator
from render.sosedi import LABEL_KEYS, render_board

NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений"]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(scale: float = 1.0) -> list[dict[str, Any]]:
    tr = Translator.load()
    labels = {k: tr.t("ru", f"board-{k}") for k in LABEL_KEYS}
    rows = []
    print(f"\n{'render (mid-game)':<28}{'p50 ms':>9}{'p95 ms':>9}{'KB max':>9}{'size':>11}")
    for mode in ("classic", "reverse", "tower"):
        for seats in (3, 6):
            positions = []
            for k in range(max(3, int(20 * scale))):
                state, events = ENGINE.new_game(SosediOptions(mode=mode), seats, f"{k:064x}")
                history = [(state, events)]
                while not state.finished:
                    state, events, _ = ENGINE.apply(state, "r")
                    history.append((state, events))
                positions.append(history[len(history) // 2])
            render_board(*positions[0][:1], NAMES[:seats], labels, positions[0][1])  # warm the static cache
            times, sizes = [], []
            for state, events in positions * 5:
                started = time.perf_counter()
                png = render_board(state, NAMES[:seats], labels, events)
                times.append((time.perf_counter() - started) * 1000)
                sizes.append(len(png))
            width, height = Image.open(io.BytesIO(png)).size
            row = {"case": f"sosedi {mode} {seats}p", "p50_ms": round(statistics.median(times), 2),
                   "p95_ms": round(_pct(times, 0.95), 2), "bytes_max": max(sizes),
                   "bytes_mean": round(statistics.mean(sizes)), "size": f"{width}x{height}"}
            rows.append(row)
            print(f"{row['case']:<28}{row['p50_ms']:>9}{row['p95_ms']:>9}{row['bytes_max'] / 1024:>9.1f}"
                  f"{row['size']:>11}")
    return rows
