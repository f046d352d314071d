"""The benchmark's own plumbing: its JSON lines and its byte counts (not its speed)."""

from __future__ import annotations

import json
import subprocess
import sys

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


def test_pi_class_without_a_cgroup_says_why_in_one_line_and_skips(tmp_path):
    # A cgroup root with no cpu controller (or no root): the figures are skipped, exit 0.
    p = subprocess.run([sys.executable, "-m", "bench.run", "--pi-class", "--quick",
                        "--cgroup-root", str(tmp_path / "no-cgroup")],
                       capture_output=True, text=True, cwd=run.ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    said = [line for line in p.stdout.splitlines() if line.startswith("pi-class:")]
    assert len(said) == 1 and said[0].startswith("pi-class: skipping the pi-class figures"), said
    assert "no-cgroup" in said[0] or "not root" in said[0]
    assert not [line for line in p.stdout.splitlines() if line.startswith("{")]


def test_the_floor_shows_a_frame_with_no_companion_code(tmp_path):
    """pi_startup_floor_ms / startup_floor_ms: what no start-up can beat. It must show a
    frame (floor_times refuses a child that says nothing) and read none of the companion."""
    assert len(run.floor_times(tmp_path, runs=1)) == 1
    code = run.FLOOR_CHILD + "\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('companion')))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, timeout=60, check=True)
    assert p.stdout.splitlines() == ["FRAME", "[]"]
