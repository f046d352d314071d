"""Stored times cannot stop the box (issue 35, item 1).

A journal accepts only times from 1970 to the end of 9999 (companion/session/when.py): a log
whose `at` or `started` is beyond that (1e17, 1e308, a 308-digit whole number) is a bad line
for `companion import` and `companion replay`. A journal that already holds such a time (one
imported before the bound, or edited) still starts, and every place that turns a stored time
into text says "unknown" for it: the panel (the Resume list, the turn clock, Records), the
pages (/games, /games/N, /stats), `companion export` and `companion stats`. Fuzzed with
hypothesis over the times stored and every renderer of them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings, strategies as st

from companion import cli
from companion.rules.game import Header
from companion.session import when
from companion.session.store import Store
from companion.testing import choose

T0 = 1_764_100_000.0  # 2025-11-25


def write_log(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


HUGE = ["1e17", "6.8e16", "1e308", "1" + "0" * 307, "253402300800"]


@pytest.mark.parametrize("value", HUGE)
def test_a_time_past_9999_is_a_bad_line_for_import_and_replay(tmp_path, capsys, value):
    text = json.dumps(json.loads(value))  # as the message shows a number: 1e17 is 1e+17
    shown = text if len(text) <= 40 else text[:39] + "…"
    for header, event, number, name in (
            ('{"game": "table", "players": ["A", "B"]}', f'{{"type": "next", "at": {value}}}',
             2, "at"),
            (f'{{"game": "table", "players": ["A", "B"], "started": {value}}}',
             '{"type": "next"}', 1, "started"),
            (f'{{"game": "table", "players": ["A", "B"], "away": [[1, {value}]]}}',
             '{"type": "next"}', 1, "away")):
        log = write_log(tmp_path / "g.jsonl", [header, event])
        db = tmp_path / "j.db"
        for command in (["replay", log], ["import", log, "--journal", str(db)]):
            assert cli.main(command) == 1
            out, err = capsys.readouterr()
            assert out == ""
            assert err == (f"companion: {log}: line {number}: \"{name}\" must be a time in "
                           f"seconds from 1970 to 9999, not {shown}\n")
        assert not db.exists()  # nothing written


def test_the_last_second_of_9999_is_still_a_time(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", ['{"game": "table", "players": ["A", "B"]}',
                                           '{"type": "next", "at": 253402300799}'])
    assert cli.main(["replay", log, "--json"]) == 0
    capsys.readouterr()


# Stored times: anything a REAL column can hold (SQLite keeps no NaN: it becomes NULL; and
# -0.0 comes back as 0.0, under checksums made of -0.0: no clock gives it, and an import
# no longer keeps it, below).
stored = st.one_of(
    st.floats(min_value=T0, max_value=T0 + 10**6),  # the usual
    st.floats(allow_nan=False),  # huge, negative, infinite
    st.integers(min_value=6 * 10**16, max_value=10**308).map(float),
    st.sampled_from([0.0, 6.8e16, 1e17, 1e308, -1.0, 253402300800.0, math.inf])
).map(lambda t: t + 0.0)  # -0.0 -> 0.0


class Planted:
    """A clock that hands out the drawn times, one per write (then the last one again)."""

    def __init__(self, times: list[float]) -> None:
        self.times = list(times)

    def __call__(self) -> float:
        return self.times.pop(0) if len(self.times) > 1 else self.times[0]


def plant(path: Path, times: list[float]) -> None:
    """A finished game (for the statistics) and an unfinished one, parked (for Resume),
    each time they record taken from `times`, as an import before the bound stored them."""
    with Store(path, clock=Planted(times)) as s:
        j = s.new_game(Header("table", ("Ann", "Ben", "Cy")))
        for _ in range(3):
            j.append({"type": "next"})
        j.append({"type": "end"})
        j = s.new_game(Header("table", ("Ann", "Ben")))
        j.append({"type": "next"})
        j = s.new_game(Header("table", ("Dee", "Eve")), park=True)


def pages(path: Path) -> dict[str, str]:
    """/games, /games/1, /games/2 and /stats as the history routes answer them."""
    from starlette.requests import Request

    from companion.web import history

    class Web:
        source = path
        allowed_hosts: frozenset[str] = frozenset()

    routes = {r.path: r.endpoint for r in history.routes(Web())}
    out = {}
    for name, route, params in (("/games", "/games", {}),
                                ("/games/1", "/games/{game_id:int}", {"game_id": 1}),
                                ("/games/2", "/games/{game_id:int}", {"game_id": 2}),
                                ("/stats", "/stats", {})):
        scope = {"type": "http", "method": "GET", "path": name, "headers": [],
                 "query_string": b"", "path_params": params}
        response = routes[route](Request(scope))
        assert response.status_code == 200, name
        out[name] = response.body.decode()
    return out


@settings(max_examples=25, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(times=st.lists(stored, min_size=1, max_size=8))
@example(times=[0.0, 1e308] * 4)  # turns of 1e308 s each: a playing time that adds up to inf
@example(times=[1e17])
def test_any_stored_time_starts_the_box_and_every_renderer_shows_it(tmp_path_factory, capsys,
                                                                    times):
    from companion.testing import close, make_app
    folder = tmp_path_factory.mktemp("t")
    db = folder / "journal.db"
    plant(db, times)
    # The panel: the start (the open game resumed, its turn clock in the corner), the
    # start menu's Resume list, the records.
    app = make_app(folder, journal=db, clock=lambda: T0)
    try:
        app.render()
        app.actions.start_menu()
        app.render()
        for u in app.unfinished:
            assert u.when  # a time, or "unknown"
        choose(app, "Records")
        app.render()
    finally:
        close(app)
    # The pages.
    for body in pages(db).values():
        assert "Traceback" not in body
    # `companion export` and `companion stats`: each game, and the log re-imports.
    for gid in (1, 2):
        out = folder / f"{gid}.jsonl"
        assert cli.main(["export", "--journal", str(db), "--game", str(gid), "-o",
                         str(out)]) == 0
        assert cli.main(["replay", str(out), "--json"]) == 0
        for line in out.read_text().splitlines():
            obj = json.loads(line)
            for k in ("at", "started"):
                assert k not in obj or when.sane(obj[k])
    capsys.readouterr()
    assert cli.main(["stats", "--journal", str(db)]) == 0
    assert " inf " not in capsys.readouterr().out  # a playing time out of range is unknown
    assert cli.main(["stats", "--journal", str(db), "--json"]) == 0

    def no_constant(name: str) -> None:
        raise AssertionError(f"{name} in the statistics' JSON")
    json.loads(capsys.readouterr().out, parse_constant=no_constant)  # no Infinity, no NaN


@pytest.mark.parametrize("t", [1e17, 1e308, -5.0, math.inf, math.nan])
def test_a_stored_time_out_of_range_reads_as_unknown(t):
    from companion.app.handlers import when_text
    from companion.web.history import when as page_when
    assert when_text(t, T0) == page_when(t) == when.UNKNOWN
    assert page_when(T0) == "2025-11-25 " + page_when(T0)[11:]


def test_a_time_of_minus_zero_is_imported_as_zero(tmp_path, capsys):
    """-0.0 is a time (it is 0), but SQLite gives it back as 0.0: kept as -0.0, the game's
    checksums (made of the -0.0) no longer matched, and the imported game read as altered."""
    log = write_log(tmp_path / "g.jsonl", ['{"game": "table", "players": ["A", "B"], '
                                           '"started": -0.0}', '{"type": "next", "at": -0.0}'])
    db = tmp_path / "j.db"
    assert cli.main(["import", log, "--journal", str(db)]) == 0
    assert cli.main(["export", "--journal", str(db), "--game", "1"]) == 0
    capsys.readouterr()
