"""Only a full `python -m bench` writes bench/results.json, the figures docs/benchmarks.md quotes; `--quick`
writes bench/results-quick.json (ignored by git) and refuses to overwrite the full run's file. The
benchmarks themselves are stubbed here: test_bench_smoke.py runs them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import bench.__main__ as bench_main
from bench import crowd, crowd_report
from bot.config import SETTINGS
from bot.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine_speed", "render_speed", "pings", "load", "chat_memory", "policies", "lions_ai", "replay", "takeover",
         "tempo",
         "crowd")


@pytest.fixture
def stubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Every benchmark answers at once; the two results files live in ``tmp_path``."""
    full, quick = tmp_path / "results.json", tmp_path / "results-quick.json"
    monkeypatch.setattr(bench_main, "RESULTS", full)
    monkeypatch.setattr(bench_main, "QUICK_RESULTS", quick)
    for name in PARTS:
        monkeypatch.setattr(getattr(bench_main, name), "run", lambda *_args, **_kw: {"stub": True})

    async def played(*_args: object, **_kw: object) -> dict[str, bool]:
        return {"stub": True}

    monkeypatch.setattr(bench_main.e2e_game, "run", played)
    monkeypatch.setattr(bench_main.burst, "run", played)
    return full, quick


def test_a_quick_run_leaves_the_full_results_alone(stubbed: tuple[Path, Path]) -> None:
    full, quick = stubbed
    full.write_text('{"full": "run"}\n', encoding="utf-8")
    assert bench_main.main(["--quick"]) == 0
    assert full.read_text(encoding="utf-8") == '{"full": "run"}\n'
    assert json.loads(quick.read_text(encoding="utf-8"))["engines"] == {"stub": True}


def test_a_full_run_writes_the_full_results(stubbed: tuple[Path, Path]) -> None:
    full, quick = stubbed
    assert bench_main.main([]) == 0
    assert json.loads(full.read_text(encoding="utf-8"))["load"] == {"stub": True} and not quick.exists()


def test_quick_refuses_to_write_the_full_results_even_when_told(stubbed: tuple[Path, Path]) -> None:
    full, _ = stubbed
    with pytest.raises(SystemExit) as exited:
        bench_main.main(["--quick", "--out", str(full)])
    assert exited.value.code == 2 and not full.exists()


@pytest.mark.parametrize("part", ["crowd", "tempo"])
def test_a_long_part_is_opt_in_and_its_earlier_figures_survive_a_run_without_it(stubbed: tuple[Path, Path],
                                                                               part: str) -> None:
    full, _ = stubbed
    full.write_text(f'{{"{part}": {{"earlier": "run"}}, "load": "old"}}\n', encoding="utf-8")
    assert bench_main.main([]) == 0
    assert json.loads(full.read_text(encoding="utf-8"))[part] == {"earlier": "run"}
    assert bench_main.main([f"--{part}"]) == 0
    assert json.loads(full.read_text(encoding="utf-8"))[part] == {"stub": True}


def test_crowd_alone_writes_only_its_key_and_never_the_full_file_when_quick(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    out.write_text('{"load": {"kept": true}}\n', encoding="utf-8")
    crowd.write({"figures": 1}, out)
    assert json.loads(out.read_text(encoding="utf-8")) == {"load": {"kept": True}, "crowd": {"figures": 1}}
    with pytest.raises(SystemExit) as exited:
        crowd.main(["--quick", "--out", str(crowd.RESULTS)])
    assert exited.value.code == 2


def test_the_crowd_bot_runs_with_none_of_its_settings_lifted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the caller's environment says, the bot gets its defaults (a README reader's)."""
    for name in ("GROUP_MAX_RATE", "OVERALL_MAX_RATE", "GROUP_RATE_PERIOD", "DRAW_PROCESSES", "DATABASE_PATH"):
        monkeypatch.setenv(name, "1000000")
    env = crowd.bot_env(FakeTelegram(token=crowd.TOKEN), "/tmp/x.sqlite3", 9999)
    chosen = {s.name for s in SETTINGS if s.name in env}
    assert chosen == {"BOT_TOKEN", "BOT_API_BASE_URL", "BOT_API_FILE_URL", "DATABASE_PATH", "METRICS_PORT"}
    assert env["METRICS_PORT"] == "9999" and env["DATABASE_PATH"] == "/tmp/x.sqlite3"


def test_the_crowd_figures_are_a_full_run_on_both_backends_with_their_targets_checked() -> None:
    """bench/results.json's "crowd": 1,000 groups, 200 at a human pace, both backends, and the
    targets as crowd_report computes them from the figures beside them."""
    r = json.loads(bench_main.RESULTS.read_text(encoding="utf-8"))["crowd"]
    assert r["mode"] == "full" and r["flood_per_min"] == 600
    for backend in ("sqlite", "postgres"):
        runs = r[backend]
        assert runs["quiet"]["playing"] == runs["flood"]["playing"] == 200
        assert runs["saturation"]["playing"] == runs["quiet"]["groups"] == 1000
        assert runs["flood"]["flood_commands"] >= 0.95 * 600 * runs["flood"]["seconds"] / 60
        for name in crowd_report.RUNS:
            assert runs[name]["presses"] > 0 and runs[name]["seconds"] >= 60
    assert r["targets"] == crowd_report.targets(r)
    assert {row["backend"] for row in r["targets"]} == {"sqlite", "postgres"}


def test_the_quick_results_are_not_kept_in_git() -> None:
    assert bench_main.QUICK_RESULTS.parent == bench_main.RESULTS.parent == ROOT / "bench"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(bench_main.QUICK_RESULTS)], cwd=ROOT)
    assert ignored.returncode == 0


# «Сильный» against three random players, 1,000 four-player games each
STRONG_TARGETS = {"tishe": 0.75, "shishbesh": 0.82, "ludo": 0.70, "parchis": 0.85}
GAME_NAMES = {"tishe": "«Тише едешь»", "shishbesh": "«Шиш-беш»", "ludo": "«Людо»", "parchis": "«Парчис»"}


def test_the_levels_figures_meet_their_targets_and_docs_benchmarks_quotes_them() -> None:
    rows = json.loads(bench_main.RESULTS.read_text(encoding="utf-8"))["policies"]["levels"]
    readme = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for code, target in STRONG_TARGETS.items():
        strong = next(r for r in rows if r["case"] == f"{code} 4p" and r["level"] == "strong")
        medium = next(r for r in rows if r["case"] == f"{code} 2p" and r["level"] == "medium")
        assert strong["opponents"] == "random" and strong["games"] == 1000 and strong["win_rate"] >= target, code
        assert strong["think_ms"]["p95"] <= 50, code
        assert medium["opponents"] == "easy" and medium["win_rate"] >= 0.70, code  # «Лёгкий» loses ≥ 70%
        row = next(line for line in readme.splitlines() if line.startswith(f"| {GAME_NAMES[code]} | ")
                   and "vs" not in line and f"/{strong['games']} (" in line and "met" in line)
        assert f"{strong['policy_wins']}/1000" in row and f"{medium['policy_wins']}/1000" in row, code
        assert f"{strong['think_ms']['p95']:g}" in row or f"{strong['think_ms']['p95']:.1f}" in row, code


def test_the_lions_levels_meet_their_targets_and_docs_benchmarks_quotes_them() -> None:
    """«Сильный» beats «Средний» in at least 65% of the decided games, «Средний» beats
    a random player at least 95% (as either side), and every level thinks p95 ≤ 0.5 s, max ≤ 2 s with
    two games thinking at once."""
    lions = json.loads(bench_main.RESULTS.read_text(encoding="utf-8"))["lions_ai"]
    readme = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    strong = lions["levels"]["strong_vs_medium"]
    assert strong["games"] == 200 and strong["win_pct_of_decided"] >= 65
    assert f"won {strong['wins']} of {strong['wins'] + strong['losses']} decided" in readme
    assert f"**{strong['win_pct_of_decided']}%**" in readme
    for side in lions["vs_random"].values():
        assert side["wins"] >= 0.95 * side["games"]
    for level, think in lions["levels"]["think_s_two_at_once"].items():
        assert think["p95"] <= 0.5 and think["max"] <= 2, level
        assert f"p95 {think['p95']} s" in readme, level
