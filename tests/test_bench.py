"""The benchmark's own plumbing: its JSON lines and its byte counts (not its speed)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from bench import processes, run


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
                        "--only", "press", "startup",
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
    assert len(processes.floor_times(tmp_path, runs=1)) == 1
    code = processes.FLOOR_CHILD + "\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('companion')))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, timeout=60, check=True)
    assert p.stdout.splitlines() == ["FRAME", "[]"]


def test_the_start_up_figures_show_the_apps_own_frame_first(tmp_path):
    """startup_ms and its kin: every start shows a frame, and the first one shown (the kept
    start frame, except in the uncached runs) is the app's own first frame (startup_once
    refuses a start whose two first frames differ)."""
    times = processes.startup_times(tmp_path, runs=1)
    assert {k: len(v) for k, v in times.items()} == {"warm": 1, "cold": 1, "uncached": 1}
    assert (tmp_path / "resume.db.frame").exists()  # the last (uncached) run kept it again


def test_a_start_whose_early_frame_differs_from_the_apps_is_refused(tmp_path):
    """The check itself: a kept frame that is not the app's picture (here: a blank one under
    the right key) makes startup_once raise."""
    from companion.session import startframe
    processes.startup_times(tmp_path, runs=1)
    frame = tmp_path / "resume.db.frame"
    line = frame.read_bytes().partition(b"\n")[0]
    frame.write_bytes(line + b"\n" + bytes(startframe.RAW_BYTES))
    env = {**processes.env_for(tmp_path), "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache")}
    with pytest.raises(RuntimeError, match="not the app's own first frame"):
        processes.startup_once(tmp_path, tmp_path / "resume.db", env)


def test_slow_runs_pytest_in_a_cpu_cgroup_or_says_why_not():
    """`make test-slow` (bench/slow.py): bad arguments and a machine without a CPU cgroup are
    one line and exit 2; where it can, pytest runs in the cgroup and the cgroup is removed."""
    def slow(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bench.slow", *args], capture_output=True,
                              text=True, cwd=run.ROOT, timeout=120)

    for args, said in ((["--percent"], "--percent needs a number"),
                       (["--percent", "fast"], "'fast' is not a number"),
                       (["--percent", "0"], "0 is not between 1 and 100")):
        p = slow(*args)
        assert p.returncode == 2 and said in p.stderr and len(p.stderr.splitlines()) == 1
    p = slow("--percent", "50", "--version")  # pytest --version, in the cgroup
    if p.returncode == 2:
        assert p.stderr.startswith("bench.slow: cannot slow the CPU: ") and "Traceback" not in p.stderr
        return
    assert p.returncode == 0, p.stdout + p.stderr
    made = re.findall(r"^bench\.slow: pytest .* in cgroup v\d (\S+): 50% of one core$",
                      p.stdout, re.M)
    assert len(made) == 1, p.stdout
    assert not os.path.exists(made[0])  # removed after the run


def test_the_clock_figures_are_printed(capsys):
    """`--only clock` (bench/clock.py): every figure of issue 28's "Measured" is there, the
    tick ran in the idle run, and the bytes' goal is one page's window."""
    run.FIGURES.clear()
    assert run.main(["--quick", "--only", "clock"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()
            if line.startswith("{")]
    by = {r["figure"]: r for r in rows}
    for name in ("press_to_frame_p99_ms_clock_off", "press_to_frame_p99_ms_clock_on",
                 "press_to_frame_p99_ms_clock_limit", "idle_cpu_percent_clock",
                 "idle_cpu_percent_clock_off", "clock_ticks_per_s", "bytes_clock_tick_mean",
                 "bytes_clock_tick_max", "bytes_clock_tick_max_sh1106", "bytes_clock_alarm_max"):
        assert name in by, name
    assert by["clock_ticks_per_s"]["value"] > 0  # the clock ticked while the app sat idle
    # One whole page rewritten: a window (6 command bytes) and 128 data bytes, each
    # transaction with its address and control byte.
    assert by["bytes_clock_tick_max"]["goal"] == (6 + 2) + (128 + 2)


def test_bytes_per_tick_are_what_the_screen_draws(tmp_path, monkeypatch):
    """bytes_clock_tick_*: a screen that draws the seconds in a corner sends a few bytes on
    each tick, under one page's window; the figure is not bound to what the screens draw
    today."""
    from PIL import ImageDraw

    from bench import clock

    made = clock.new_app

    def new_app(*args, **kwargs):
        app, store = made(*args, **kwargs)
        frame = app.frame

        def with_seconds():
            img = frame()
            seconds = int(app.turn_clock.reading().elapsed)
            ImageDraw.Draw(img).rectangle((100, 0, 127, 7), fill=0)
            ImageDraw.Draw(img).text((100, -2), f"{seconds:3d}", fill=1)
            return img

        app.frame = with_seconds
        return app, store

    monkeypatch.setattr(clock, "new_app", new_app)
    got = clock.tick_bytes(tmp_path, "table", None, start=0, stop=12)
    window = clock.page_window_bytes()
    assert len(got["ssd1306"]) == 12
    assert all(0 < b < window["ssd1306"] for b in got["ssd1306"]), got
    assert all(0 < b < window["sh1106"] for b in got["sh1106"]), got


def test_the_instruction_counts_child_marks_each_press_and_tick(tmp_path, monkeypatch):
    """bench/instructions.py's child (run here without valgrind): one mark before each
    piece, so callgrind's dump k+1 is the k-th label's piece; the presses and ticks asked
    for are all there."""
    import binascii

    from bench import instructions

    marks = []
    monkeypatch.setattr(binascii, "crc_hqx", lambda data, crc: marks.append(1) or 0)
    instructions.child(tmp_path, 4, 3)
    labels = json.loads((tmp_path / "labels.json").read_text())
    assert len(labels) == len(marks)
    assert labels[-1] == "end"
    assert sum(x.startswith("press ") for x in labels) == 4
    assert sum(x.startswith("press-off ") for x in labels) == 4
    assert sum(x.startswith("tick ") for x in labels) == 3
    (tmp_path / "calib").mkdir()
    instructions.calib_child(tmp_path / "calib")
    calib = json.loads((tmp_path / "calib" / "labels.json").read_text())
    assert calib == ["empty", f"calib {instructions.CALIB_SMALL}",
                     f"calib {instructions.CALIB_LARGE}", "end"]
    assert len(marks) == len(labels) + len(calib)
