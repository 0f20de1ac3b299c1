"""`python -m bench --quick` still runs end to end (figures are checked for shape, not speed)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from bench import tempo
from bench.__main__ import main
from bench.e2e_game import cases as e2e_cases
from bench.policies import CHOICE_GAMES, LEVEL_TABLES
from bot.games import GAMES
from tests import postgres_server


def test_bench_quick_run_writes_results(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    assert main(["--quick", "--out", str(out)]) == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    assert set(results["replay"]) == set(GAMES)  # a clip of every game, within the limits
    assert all(0 < r["length_s_max"] <= 40 and 0 < r["bytes_max"] <= 3_000_000 for r in results["replay"].values())
    assert {row["case"].split()[0] for row in results["engines"]} == set(GAMES)
    assert all(row["games_per_s"] > 0 for row in results["engines"])
    assert all(row["bytes_max"] > 1000 and row["size"].startswith("1024x") for row in results["render"])
    assert {row["case"].split()[0] for row in results["render"]} == set(GAMES)
    assert list(results["e2e"]) == [name for name, _, _ in e2e_cases()]  # every variant played through
    assert {"sosedi classic", "sosedi reverse", "sosedi tower", "lions"} <= set(results["e2e"])
    for name in results["e2e"]:
        game = results["e2e"][name]
        # one edit per decision, plus the result message of a finished game (quick runs cut games short)
        assert 0 < game["rolls"] <= 30
        assert game["sends_and_edits"] == game["decisions"] + (1 if game["finished"] else 0)
    # a burst in one group (a 2 s "minute" of 5 calls in a quick run): within budget, latest picture last
    burst = results["burst"]
    assert burst["presses"] > burst["sends_and_edits"] and burst["most_in_any_window"] <= 5
    assert burst["http_429"] == 0 and burst["last_picture_is_latest"] is True
    # turn pings (one game on a virtual clock): every idle turn pinged, every ping gone, within budget
    pings = results["pings"]
    assert pings["idle_turns"] > 0 and pings["pinged_share"] == 1.0 and pings["most_in_any_60_s"] <= 20
    [game] = pings["games"]
    assert game["pings_sent"] == game["pings_deleted"] == game["pinged"] and game["http_429"] == 0
    assert game["seconds_to_ping_p50"] == 30.0
    # the bot process under load: presses went through, nothing crashed, the server saw no misuse
    load = results["load"]
    for window in ("load_empty_db", "paced_empty_db", "paced_fast_empty_db", "load_1000_games"):
        assert load[window]["accepted_presses"] > 0 and load[window]["failed_pressed_again"] == 0
    assert load["bot_log_tracebacks"] == 0 and load["fake_server_violations"] == 0
    assert load["startup_empty_s"] > 0 and load["rss_idle_1000_games"]["rss_mb"] > 0
    assert load["rss_idle_1000_games"]["workers"] >= 1  # the drawing processes are counted with the bot
    # the same scenarios on PostgreSQL (a fresh database each), side by side; every target checked for both
    postgres = load["postgres"]
    for window in ("load_empty_db", "paced_empty_db", "paced_fast_empty_db", "load_1000_games"):
        assert postgres[window]["accepted_presses"] > 0 and postgres[window]["failed_pressed_again"] == 0
        assert postgres[window]["p50_ms"] <= postgres[window]["p95_ms"] <= postgres[window]["p99_ms"]
        assert postgres[window]["server_cpu_pct"] >= 0  # the server's own processes, measured
    assert postgres["bot_log_tracebacks"] == 0 and postgres["fake_server_violations"] == 0
    durability = postgres["durability"]  # as the server reports it (SHOW)
    if not os.environ.get(postgres_server.URL_VARIABLE):  # the bench's own server: crash-safe, commits not waited for
        assert durability["fsync"] == "on" and durability["synchronous_commit"] == "off"
    else:  # the server the run was given (CI's throwaway one): recorded as it is
        assert durability["fsync"] in ("on", "off") and durability["server_version"]
    assert load["durability"]["journal_mode"] == "wal"
    assert {row["backend"] for row in load["targets"]} == {"sqlite", "postgres", "postgres/sqlite"}
    assert all(isinstance(row["met"], bool) for row in load["targets"])
    # the memory of chats (600 chats against the first 100 in a quick run): every one answered, none crashed
    memory = results["chat_memory"]
    assert memory["chats"] == memory["answered"] == 600 and memory["first"] == 100
    assert memory["after_100"]["rss_mb"] > 0 and memory["after_600"]["rss_mb"] > 0 and memory["seconds"] > 0
    assert memory["bot_log_tracebacks"] == 0 and memory["fake_server_violations"] == 0
    # the dice games' computer players: every table adds up (20 games each in a quick run)
    policies = results["policies"]
    assert {row["case"] for row in policies["default"]} == {f"{code} {n}p" for code in
                                                           ("tishe", "shishbesh", "ludo", "parchis") for n in (2, 4)}
    assert CHOICE_GAMES == ("tishe", "shishbesh", "ludo", "parchis")  # the games whose players choose
    # every dice game's levels, «Сильный» against random players and «Средний» against «Лёгкий»
    assert {(row["case"], row["level"], row["opponents"]) for row in policies["levels"]} == {
        (f"{code} {n}p", level, opponents) for code in CHOICE_GAMES for level, opponents, n in LEVEL_TABLES}
    for row in (*policies["default"], *policies["levels"]):
        assert row["games"] == 20 and 0 <= row["policy_wins"] <= 20 and row["unfinished"] == 0
        think = row["think_ms"]
        assert think["decisions"] > 0 and 0 <= think["p50"] <= think["p95"] <= think["max"]
    # the lions AI: only a tiny sample without --lions (bench/lions_ai.py); its tables add up
    lions = results["lions_ai"]
    assert set(lions["vs_random"]) == {"lions", "hunters"}
    for row in lions["vs_random"].values():
        assert row["games"] == row["wins"] + row["draws"] + row["losses"] + row["cap"] >= 2
    balance = lions["balance"]
    assert balance["games"] == balance["lion_wins"] + balance["hunter_wins"] + balance["draws"] + balance["cap"] >= 2
    assert lions["standoff"]["games"] >= 2 and lions["balance"]["slips"] > 0
    assert 0 <= lions["think_s"]["p50"] <= lions["think_s"]["p95"] <= lions["think_s"]["max"]
    # the computer's levels: their matches add up, each level is timed
    for name in ("strong_vs_medium", "easy_vs_medium"):
        row = lions["levels"][name]
        assert row["games"] == row["wins"] + row["losses"] + row["draws"] + row["cap"] >= 2
    think = lions["levels"]["think_s_two_at_once"]
    assert set(think) == {"easy", "medium", "strong"}
    assert all(row["decisions"] >= 10 and 0 <= row["p50"] <= row["p95"] <= row["max"] for row in think.values())


def test_bench_tempo_plays_a_game_on_each_table() -> None:
    """bench.tempo's game on a virtual clock: on the fast table every press is a choice and costs one table
    update; on the classic one the rolls are presses too, and the game takes longer."""
    fast = asyncio.run(tempo.play("ludo", "fast", 2, 0))
    classic = asyncio.run(tempo.play("ludo", "classic", 2, 0))
    assert fast["presses"] == fast["decisions"] == fast["table_updates"] > 0
    assert classic["presses"] == classic["table_updates"] > classic["decisions"] > 0
    assert fast["minutes"] < classic["minutes"] and fast["http_429"] == classic["http_429"] == 0
