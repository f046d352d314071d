"""bench/memory.py (issue 35.4): a game pressed live, through the app's queue with the turn
clock ticking, keeps little per press; and the benchmark's live part runs."""

from __future__ import annotations

from bench.memory import play


def test_a_game_pressed_live_keeps_little_per_press(tmp_path):
    """Before: 488 kB per 1,000 presses traced (the clock's ledger kept a tuple, a float and
    a turn object for each); now about 45, most of it the journal's own arrays."""
    traced = play(tmp_path, [300, 1300], trace=True)
    assert traced["traced_bytes_per_1k_events"] < 150_000, traced["top"][:3]


def test_the_live_benchmark_reads_rss_after_each_count(tmp_path):
    rss = play(tmp_path, [20, 40])["rss_kb"]
    assert sorted(rss) == [20, 40] and all(v > 1000 for v in rss.values())
