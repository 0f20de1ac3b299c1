"""bench/crowd.py's figures side by side (quiet | flood | saturation, per backend) and its targets, checked.

Targets, for the groups playing at a human pace: press→answer p99 ≤ 100 ms; press→edit p99 ≤ 300 ms
over the presses made while the group's window had room; with one group flooding, both p99s within
1.2 × the run without it; no group stalled; no 429 in any run; and ≥ 150 accepted presses/s with
every group pressing as fast as it can, on each backend.
"""

from __future__ import annotations

from typing import Any

RUNS = ("quiet", "flood", "saturation")
HUMAN = ("quiet", "flood")
ANSWER_P99_MS, EDIT_P99_MS, FLOOD_RATIO, MIN_PRESSES_PER_S = 100, 300, 1.2, 150


def _backends(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The backends that ran."""
    return {name: r[name] for name in ("sqlite", "postgres") if name in r and "skipped" not in r[name]}


def _at_most(value: float | None, limit: float) -> bool:
    return value is not None and value <= limit


def _ratio(flood: float | None, quiet: float | None) -> float | None:
    return round(flood / quiet, 2) if flood is not None and quiet else None


def targets(r: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with its figure per backend and whether it is met."""
    rows: list[dict[str, Any]] = []
    for name, x in _backends(r).items():
        for run in HUMAN:
            answer, edit = x[run]["answer_p99_ms"], x[run]["edit_room_p99_ms"]
            rows += [
                {"backend": name, "target": f"press→answer p99 ≤ {ANSWER_P99_MS} ms ({run})", "value": answer,
                 "met": _at_most(answer, ANSWER_P99_MS)},
                {"backend": name, "target": f"press→edit p99 ≤ {EDIT_P99_MS} ms, window with room ({run})",
                 "value": edit, "met": _at_most(edit, EDIT_P99_MS)},
            ]
        for label, key in (("press→answer", "answer_p99_ms"), ("press→edit", "edit_room_p99_ms")):
            ratio = _ratio(x["flood"][key], x["quiet"][key])
            rows.append({"backend": name, "target": f"{label} p99 flood ≤ {FLOOD_RATIO} × quiet", "value": ratio,
                         "met": _at_most(ratio, FLOOD_RATIO)})
        stalled = x["flood"]["stalled_groups"]
        rows.append({"backend": name, "target": "no quiet group stalled (flood)", "value": stalled,
                     "met": stalled == 0})
        too_many = sum(x[run]["http_429"] for run in RUNS)
        rows.append({"backend": name, "target": "429s = 0 (all runs)", "value": too_many, "met": too_many == 0})
        rate = x["saturation"]["accepted_presses_per_s"]
        rows.append({"backend": name, "target": f"≥ {MIN_PRESSES_PER_S} accepted presses/s (saturation)",
                     "value": rate, "met": rate >= MIN_PRESSES_PER_S})
    return rows


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


LINES: tuple[tuple[str, Any], ...] = (
    ("groups playing", lambda w: f"{w['playing']} of {w['groups']}"),
    ("press→answer p50/p99/max ms", lambda w: f"{_ms(w['answer_p50_ms'])}/{_ms(w['answer_p99_ms'])}/"
                                              f"{_ms(w['answer_max_ms'])}"),
    ("press→edit p50/p99/max ms", lambda w: f"{_ms(w['edit_p50_ms'])}/{_ms(w['edit_p99_ms'])}/{_ms(w['edit_max_ms'])}"),
    ("  with room p50/p99 (n)", lambda w: f"{_ms(w['edit_room_p50_ms'])}/{_ms(w['edit_room_p99_ms'])} "
                                          f"({w['edits_with_room']})"),
    ("accepted presses/s (+lobby)", lambda w: f"{w['accepted_presses_per_s']} ({w['with_lobby_presses_per_s']})"),
    ("late/unanswered/no lobby", lambda w: f"{w['answered_late']}/{w['unanswered']}/{w['no_lobby']}"),
    ("stalled groups", lambda w: str(w["stalled_groups"])),
    ("429s (quiet groups)", lambda w: f"{w['http_429']} ({w['http_429_quiet']})"),
    ("replies dropped", lambda w: str(w["dropped_replies"] if w["dropped_replies"] == "n/a"
                                      else sum(w["dropped_replies"].values()))),
    ("RSS/PSS MB (workers)", lambda w: f"{w['rss_mb']:.0f}/{w['pss_mb']:.0f} ({w['workers']})"),
    ("bot CPU", lambda w: f"{w['bot_cpu_pct']}%"),
    ("tracebacks/violations", lambda w: f"{w['bot_log_tracebacks']}/{w['fake_server_violations']}"),
)


def show(r: dict[str, Any]) -> None:
    """Print each backend's three runs side by side, then the targets."""
    for name, x in _backends(r).items():
        print(f"\ncrowd, {name:<28}" + "".join(f"{run:>24}" for run in RUNS))
        for label, cell in LINES:
            print(f"{label:<35}" + "".join(f"{cell(x[run]):>24}" for run in RUNS))
        if x["flood"].get("flood_commands") is not None:
            print(f"flood: {x['flood']['flood_commands']} /help sent, {x['flood']['flood_replies']} answered; "
                  f"429s by method: {x['flood']['http_429_by_method']}")
    for name in ("sqlite", "postgres"):
        if "skipped" in r.get(name, {}):
            print(f"{name}: skipped: {r[name]['skipped']}")
    print("targets:")
    for row in r["targets"]:
        print(f"  {'met    ' if row['met'] else 'NOT MET'} {row['backend']:<10}{row['target']:<52} {row['value']}")
