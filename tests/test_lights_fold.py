"""More seats than LEDs (issue 35.6; docs/lights.md "More players than LEDs"): 16 players on
8 LEDs (or on 11 with the first-pixel trick) shared lights, so the ring could point at the
wrong player. Seats now sit at a LED or between two (both lit), every turn's light differs
from every other's up to twice as many seats as LEDs, and past that the ring stays dark; the
panel says which when such a game comes on, and so does `companion doctor`."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from companion import games
from companion.cli import doctor
from companion.config import Config, check
from companion.rules.game import Header
from companion.testing import FakeClock, RecordingRing, close, drain, make_app, press
from companion.ui import ring as R


def run_for(app, clock: FakeClock, seconds: float) -> None:
    """Let `seconds` pass, handling each timer's tick at its own time (tests/test_lights.py)."""
    end = clock.t + seconds
    while due := [w for w in clock.pending if w <= end]:
        clock.t = max(clock.t, due[0])
        drain(app)
    clock.t = end
    drain(app)


def _turn_frames(layout: R.Layout, seats: int) -> list[R.Frame]:
    return [R.steady(layout, R.Look(seats, s)) for s in range(seats)]


@settings(max_examples=300, deadline=None)
@given(st.integers(8, 64), st.data())
def test_every_seat_s_turn_looks_different_up_to_twice_as_many_seats_as_leds(count, data):
    seats = data.draw(st.integers(1, 2 * count))
    layout = R.Layout.of(count, seats)
    assert layout.distinct
    frames = _turn_frames(layout, seats)
    assert len(set(frames)) == seats
    for s, frame in enumerate(frames):  # the seat's own LEDs, and no other, are the turn's
        assert [i for i, p in enumerate(frame) if p == R.TURN] == sorted(layout.arc(s))


def test_sixteen_players_on_eight_leds_sit_at_a_led_or_between_two():
    layout = R.Layout.of(8, 16)
    assert [layout.arc(s) for s in range(4)] == [(0,), (0, 1), (1,), (1, 2)]
    assert layout.arc(15) == (7, 0)  # between the last LED and the first
    assert R.fold_words(layout) == "16 seats, 8 lights: 2 lit = between"
    assert R.fold_words(R.Layout.of(8, 8)) == ""  # a LED each: nothing to say


def test_over_twice_as_many_seats_as_leds_is_refused():
    layout = R.Layout.of(8, 17)
    assert not layout.distinct
    assert R.fold_words(layout) == "Lights off: 17 seats, 8 LEDs"


@pytest.mark.parametrize("kind", games.names())
def test_every_kind_at_its_most_players_has_a_distinct_light_for_each_seat(kind):
    """Across every registered kind (a table rule lives in one place): on
    the smallest ring the config allows (8 LEDs), and on 11 (16 with the first-pixel trick
    and a few more kept dark), each seat's turn is its own light."""
    g = games.game(kind)
    n = g.max_players
    state = g.initial(g.check_header(Header(kind, tuple(f"P{i}" for i in range(n)))))
    look = R.Look.of(state)
    for count in (8, 11):
        layout = R.Layout.of(count, n)
        frames = [R.steady(layout, dataclasses.replace(look, current=s)) for s in range(n)]
        assert len(set(frames)) == n, (kind, count)


def _app(tmp_path, players: int, lights: dict, kind: str = "table"):
    clock = FakeClock()
    ring = RecordingRing(lights["count"], clock=clock)
    names = tuple(f"P{i}" for i in range(players))
    app = make_app(tmp_path, kind=kind, setup=False, clock=clock, ring=ring, players=names,
                   config={"lights": lights})
    return app, ring


@pytest.mark.parametrize("lights, between", [
    ({"count": 8}, {1: (0, 1), 15: (7, 0)}),
    ({"count": 12, "first": 1}, {1: (1, 2), 15: (11, 1)}),  # 11 seen: LED 0 is the spare
])
def test_a_game_of_sixteen_points_at_each_player_in_turn_and_the_panel_says_how(
        tmp_path, lights, between):
    app, ring = _app(tmp_path, 16, lights)
    try:
        assert app.toast is not None and "2 lit = between" in app.toast[0]
        seen = []
        for seat in range(16):
            assert app.journal.state.table.current == seat
            frame = ring.last
            seen.append(frame)
            on = tuple(i for i, p in enumerate(frame) if p == R.TURN)
            if seat in between:
                assert on == tuple(sorted(between[seat]))
            press(app, "NEXT")
            run_for(app, app.clock, 5)  # the chase done
        assert len(set(seen)) == 16
    finally:
        close(app)


def test_a_game_with_a_led_for_each_seat_says_nothing_of_the_ring(tmp_path):
    app, ring = _app(tmp_path, 8, {"count": 8})
    try:
        assert app.toast is None
    finally:
        close(app)


def _doctor_line(lights: dict) -> str:
    cfg = Config(check({"lights": {"enabled": True, **lights}}))
    found = doctor.check_ring_seats(cfg)
    return found.line()


def test_doctor_says_when_the_largest_table_shares_leds():
    assert _doctor_line({"count": 24}).startswith("OK    lights seats: 24 LEDs: a LED for each")
    line = _doctor_line({"count": 8})
    assert line.startswith("OK    lights seats: 8 LEDs") and "two lit" in line \
        and "16 players" in line
    line = _doctor_line({"count": 12, "first": 1})
    assert "11 LEDs" in line and "two lit" in line


def test_doctor_fails_a_ring_too_small_for_a_kind(monkeypatch):
    class Big:
        max_players = 20
        title = "Big Table"

    monkeypatch.setattr(games, "games", lambda: {**{k: games.game(k) for k in games.names()},
                                                 "big": Big()})
    line = _doctor_line({"count": 8})
    assert line.startswith("FAIL  lights seats:") and "Big Table" in line and "20" in line
