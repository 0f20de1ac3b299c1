"""bench/load.py's figures side by side (SQLite | PostgreSQL) and its targets, checked.

Targets: ≥ 100 accepted presses/s on each backend (every chat pressing the moment its table is
redrawn); press→edit p50 ≤ 25 ms, p99 ≤ 150 ms at 100 presses/s; PostgreSQL's p99 within
1.5 × SQLite's in every 100-chat window; RSS ≤ 300 MB; start-up ≤ 2 s.
"""

from __future__ import annotations

from typing import Any

WINDOWS = ("load_empty_db", "paced_empty_db", "paced_fast_empty_db", "load_1000_games")
SATURATED = ("load_empty_db", "load_1000_games")  # every chat presses at once: throughput
PACED_AT_100 = "paced_empty_db"  # ~100 presses/s in all: latency
MIN_PRESSES_PER_S, P50_MS, P99_MS, P99_RATIO, RSS_MB, STARTUP_S = 100, 25, 150, 1.5, 300, 2.0


def _backends(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The backends that ran: SQLite's figures are the top level, PostgreSQL's under "postgres"."""
    out = {"sqlite": r}
    if "skipped" not in r.get("postgres", {"skipped": True}):
        out["postgres"] = r["postgres"]
    return out


def _rss(x: dict[str, Any]) -> float:
    return max([x[w]["rss_mb"] for w in WINDOWS] + [x["rss_idle_1000_games"]["rss_mb"]])


def targets(r: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with its figure per backend and whether it is met."""
    rows: list[dict[str, Any]] = []
    for name, x in _backends(r).items():
        rate = min(x[w]["presses_per_s"] for w in SATURATED)
        paced = x[PACED_AT_100]
        startup = max(x["startup_empty_s"], x["startup_1000_games_s"])
        rows += [
            {"backend": name, "target": f"≥ {MIN_PRESSES_PER_S} accepted presses/s (100 chats, saturated)",
             "value": rate, "met": rate >= MIN_PRESSES_PER_S},
            {"backend": name, "target": f"p50 ≤ {P50_MS} ms, p99 ≤ {P99_MS} ms at ~100 presses/s",
             "value": [paced["p50_ms"], paced["p99_ms"]],
             "met": paced["p50_ms"] is not None and paced["p50_ms"] <= P50_MS and paced["p99_ms"] <= P99_MS},
            {"backend": name, "target": f"RSS ≤ {RSS_MB} MB", "value": _rss(x), "met": _rss(x) <= RSS_MB},
            {"backend": name, "target": f"start-up ≤ {STARTUP_S} s", "value": startup, "met": startup <= STARTUP_S},
        ]
    if "postgres" in _backends(r):
        for window in WINDOWS:
            lite, pg = r[window]["p99_ms"], r["postgres"][window]["p99_ms"]
            ratio = round(pg / lite, 2) if lite and pg is not None else None
            rows.append({"backend": "postgres/sqlite", "target": f"p99 ≤ {P99_RATIO} × SQLite's, {window}",
                         "value": ratio, "met": ratio is not None and ratio <= P99_RATIO})
    return rows


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


def _cells(x: dict[str, Any], window: str) -> list[str]:
    w = x[window]
    return [f"{w['presses_per_s']}/s ({w['with_lobby_presses_per_s']})",
            f"{_ms(w['p50_ms'])}/{_ms(w['p95_ms'])}/{_ms(w['p99_ms'])}/{_ms(w['max_ms'])}",
            f"{w['bot_cpu_pct']}%" + (f" +{w['server_cpu_pct']}%" if "server_cpu_pct" in w else ""),
            f"{w['rss_mb']:.0f}/{w['pss_mb']:.0f}/{w['hwm_mb']:.0f}",
            f"{w['failed_pressed_again']}/{w['timed_out']}/{w['rejected']}"]


def show(r: dict[str, Any]) -> None:
    """Print both backends' figures, one row per window and measure, then the targets."""
    runs = _backends(r)
    heads = ["moves/s (+lobby)", "p50/p95/p99/max ms", "CPU bot (+server)", "RSS/PSS/peak MB", "fail/t.o./rej"]
    print(f"\n{'load (bot process)':<22}{'measure':<20}" + "".join(f"{n:>28}" for n in runs))
    for window in WINDOWS:
        cells = {name: _cells(x, window) for name, x in runs.items()}
        for k, head in enumerate(heads):
            print(f"{window if k == 0 else '':<22}{head:<20}" + "".join(f"{cells[n][k]:>28}" for n in runs))
    for label, key in (("start-up empty s", "startup_empty_s"), ("start-up 1000 games s", "startup_1000_games_s"),
                       ("quiet after s", "catch_up_1000_games_s"), ("log tracebacks", "bot_log_tracebacks"),
                       ("server violations", "fake_server_violations")):
        print(f"{'':<22}{label:<20}" + "".join(f"{runs[n][key]!s:>28}" for n in runs))
    print("(CPU and memory: the bot with its drawing processes, summed; +server: the PostgreSQL server's processes)")
    for name, x in runs.items():
        print(f"durability {name}: {x['durability']}")
    if "skipped" in r.get("postgres", {}):
        print(f"PostgreSQL: skipped: {r['postgres']['skipped']}")
    print("targets:")
    for row in r["targets"]:
        print(f"  {'met    ' if row['met'] else 'NOT MET'} {row['backend']:<16}{row['target']:<52} {row['value']}")
