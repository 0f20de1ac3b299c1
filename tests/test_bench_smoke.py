"""`python -m bench --quick` still runs end to end (figures are checked for shape, not speed)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.__main__ import main


def test_bench_quick_run_writes_results(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    assert main(["--quick", "--out", str(out)]) == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    assert {row["case"].split()[0] for row in results["engines"]} == {"sosedi", "spichki", "tishe"}
    assert all(row["games_per_s"] > 0 for row in results["engines"])
    assert all(row["bytes_max"] > 1000 and row["size"].startswith("1024x") for row in results["render"])
    assert {row["case"].split()[0] for row in results["render"]} == {"sosedi", "spichki", "tishe"}
    for name in ("sosedi classic", "sosedi reverse", "sosedi tower", "spichki", "tishe"):
        game = results["e2e"][name]
        assert game["rolls"] > 0 and game["sends_and_edits"] == game["decisions"] + 1
