"""`make test-flaky N=5` (bench/slow.py --runs): the options, and the closing lines that name
each failed test and the runs it failed in (from pytest's JUnit XML). The cgroup itself is
tested in tests/test_bench.py."""

from __future__ import annotations

import pytest

from bench import slow

JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="tests.web.test_speech" name="test_said"/>
<testcase classname="tests.web.test_speech" name="test_restart">{restart}</testcase>
<testcase classname="tests.web.test_axe" name="test_axe"><skipped message="no node"/></testcase>
</testsuite></testsuites>"""


def test_the_options():
    assert slow.options(["--runs", "5", "--percent", "40", "-m", "browser", "tests/web"]) == (
        40.0, 5, ["-m", "browser", "tests/web"])
    assert slow.options(["-x", "--runs", "5"]) == (25.0, 1, ["-x", "--runs", "5"])  # pytest's
    for argv, said in ((["--runs"], "--runs needs a number"),
                       (["--runs", "x"], "--runs 'x' is not a number"),
                       (["--runs", "0"], "--runs 0 is not 1 or more"),
                       (["--percent", "101"], "--percent 101 is not between 1 and 100")):
        with pytest.raises(slow.Usage, match=said):
            slow.options(argv)


def test_bad_runs_is_one_line_and_exit_2(capsys):
    assert slow.main(["--runs", "none"]) == 2
    assert capsys.readouterr().err == "bench.slow: --runs 'none' is not a number\n"


def test_the_summary_names_a_test_that_failed_in_some_runs(tmp_path):
    results = []
    for i, restart in enumerate(["", '<failure message="Timeout 10000ms"/>', "",
                                 '<error message="teardown"/>']):
        (tmp_path / f"{i}.xml").write_text(JUNIT.format(restart=restart))
        results.append(slow.outcomes(tmp_path / f"{i}.xml"))
    assert results[1] == {"tests.web.test_speech::test_said": "passed",
                          "tests.web.test_speech::test_restart": "failed",
                          "tests.web.test_axe::test_axe": "skipped"}
    assert slow.outcomes(tmp_path / "none.xml") == {}  # pytest stopped before the tests
    assert slow.summary(results, [0, 1, 0, 1]) == [
        "bench.slow: run 1: 2 passed, 0 failed, 1 skipped (pytest exit 0)",
        "bench.slow: run 2: 1 passed, 1 failed, 1 skipped (pytest exit 1)",
        "bench.slow: run 3: 2 passed, 0 failed, 1 skipped (pytest exit 0)",
        "bench.slow: run 4: 1 passed, 1 failed, 1 skipped (pytest exit 1)",
        "bench.slow: FAILED in run 2, 4 of 4: tests.web.test_speech::test_restart"]
    assert slow.summary(results[:1] * 2, [0, 0])[-1] == (
        "bench.slow: every test passed in all 2 runs")
    # A run that stopped before any test (a collection error) is no pass.
    assert slow.summary([{}], [2]) == ["bench.slow: run 1: 0 passed, 0 failed, 0 skipped "
                                       "(pytest exit 2)"]
