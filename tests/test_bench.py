"""The benchmark's own plumbing: its JSON lines and its byte counts (not its speed)."""

from __future__ import annotations

import json

from bench import run


def test_bench_prints_one_json_object_per_figure_and_counts_wire_bytes(capsys):
    run.FIGURES.clear()
    assert run.main(["--quick", "--only", "bytes", "journal"]) == 0
    out = capsys.readouterr().out
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    names = {r["figure"] for r in rows}
    for name in ("bytes_turn_change", "bytes_turn_change_stock", "bytes_claim",
                 "bytes_claim_stock", "bytes_score_step", "bytes_score_step_stock",
                 "replay_10k_ms", "undo_10k_ms"):
        assert name in names
    for r in rows:
        assert set(r) == {"figure", "value", "unit", "goal"}
        assert isinstance(r["value"], (int, float)) and r["value"] >= 0
    by = {r["figure"]: r["value"] for r in rows}
    # luma's stock drivers send every frame whole: 1034 (ssd1306) and 1080 (sh1106) bytes.
    assert by["bytes_turn_change_stock"] == 1034
    assert by["bytes_turn_change_sh1106_stock"] == 1080
    for name in ("turn_change", "claim", "score_step"):
        assert 0 < by[f"bytes_{name}"] < by[f"bytes_{name}_stock"]
        # The goal (docs/performance.md): under 40% of a stock frame. Exact byte counts.
        assert by[f"bytes_{name}"] < 0.4 * by[f"bytes_{name}_stock"], name
    assert "figure" in out.splitlines()[-len(rows) - 1]  # the human table follows
