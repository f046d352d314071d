"""The history pages' charts (issue 18, item 7): wins are counted in whole numbers, and the
per-game chart labels its points (every one when they fit, never two on top of each other)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.web.history import (
    LABEL_PX,
    PLOT_WIDTH,
    score_chart,
    win_rate_chart,
    wins_by_kind_chart,
    x_labels_shown,
)

SVG = "{http://www.w3.org/2000/svg}"


def axis(svg: str, which: str) -> list[str]:
    """The texts pygal wrote on an axis ("x" or "y", as pygal names them)."""
    root = ET.fromstring(svg)
    for g in root.iter(SVG + "g"):
        if g.get("class", "").split()[:2] == ["axis", which]:
            return [t.text or "" for t in g.iter(SVG + "text")]
    raise AssertionError(f"no {which} axis")


def names_and_values(svg: str, names) -> tuple[list[str], list[str]]:
    """(the axis with the players' names, the other one), whichever way the bars go."""
    x, y = axis(svg, "x"), axis(svg, "y")
    return (x, y) if set(names) & set(x) else (y, x)


def players(wins: dict[str, dict[str, int]]) -> dict:
    return {name: {"by_game": {k: {"won": n} for k, n in by.items()},
                   "win_rate": min(1.0, sum(by.values()) / 3)} for name, by in wins.items()}


@pytest.mark.parametrize("wins", [
    {"Ann": {"pig-farm": 1}, "Ben": {"chaos": 1, "pig-farm": 0}},  # pygal wrote 0, 0.1, ... 1
    {"Ann": {"pig-farm": 2, "chaos": 1}, "Ben": {"chaos": 1}},
    {"Ann": {"pig-farm": 17, "chaos": 5}, "Ben": {"chaos": 9}, "Cy": {"table": 1}},
])
def test_wins_are_whole_numbers_on_the_wins_axis(wins):
    svg = wins_by_kind_chart(players(wins))
    names, values = names_and_values(svg, wins)
    assert values and all(v.isdigit() for v in values), values
    most = max(sum(by.values()) for by in wins.values())
    assert int(values[0]) == 0 and int(values[-1]) >= most
    assert sorted(names) == sorted(wins)  # every name, whole


def test_win_rate_axis_is_whole_percentages_unshortened():
    who = {"Wolfeschlegelste": {"chaos": 1}, "Ann": {"chaos": 0}}
    names, values = names_and_values(win_rate_chart(players(who)), who)
    assert values == ["0", "25", "50", "75", "100"]  # "100" was written "1…"
    # A 16-letter name keeps 10 letters and "…" (whole, it ran off a phone's left edge).
    assert sorted(names) == ["Ann", "Wolfeschle…"]


def test_a_long_name_down_the_side_of_a_chart_is_shortened_to_fit():
    who = {"Maximilianussssz": {"chaos": 2}, "Bo": {"pig-farm": 1}}
    for chart in (win_rate_chart, wins_by_kind_chart):
        names, _ = names_and_values(chart(players(who)), who)
        assert sorted(names) == ["Bo", "Maximilian…"], chart.__name__


def rows(numbers: list[int]) -> list[dict]:
    return [{"n": n, "text": "", "scores": [n, 2 * n]} for n in numbers]


@pytest.mark.parametrize("numbers", [list(range(0, 27, 3)), list(range(10)), [0, 1, 2]])
def test_the_game_chart_labels_every_point_when_they_fit(numbers):
    """Nine points were labelled 0, 6, 12, 18, 24 before: every other change unlabelled."""
    svg = score_chart("pig-farm", ("Ann", "Ben"), rows(numbers))
    assert axis(svg, "x") == [str(n) for n in numbers]


@pytest.mark.parametrize("count", [11, 12, 25, 40, 101, 400])
def test_a_long_game_labels_the_start_and_the_end_at_an_even_step(count):
    numbers = list(range(count))
    svg = score_chart("penny-badger", ("Ann", "Ben"), rows(numbers))
    shown = axis(svg, "x")
    assert shown == x_labels_shown([str(n) for n in numbers])
    assert shown[0] == "0" and shown[-1] == str(count - 1)  # the start, the final score
    at = [numbers.index(int(t)) for t in shown]
    gaps = [b - a for a, b in zip(at, at[1:])]
    assert len(set(gaps[:-1])) <= 1 and gaps[0] <= gaps[-1] < 2 * gaps[0]  # an even step
    # No two overlap: a label's width fits the room between two labelled points.
    between = PLOT_WIDTH / (count - 1) * min(gaps)
    assert LABEL_PX * len(str(count - 1)) + 10 <= between + 1e-9


def series_colors(svg: str) -> list[str]:
    """Each series' fill colour, in series order (from the chart's own style sheet)."""
    import re
    found = dict(re.findall(r"\.color-(\d+),[^{]*\{stroke:(#[0-9a-fA-F]+);fill:", svg))
    return [found[str(i)].lower() for i in range(len(found))]


def test_a_kind_keeps_its_colour_whatever_other_kinds_are_charted():
    """Penny Badger went from yellow to green when the group played another kind: each kind
    is now its own colour in the wins chart and its legend, whatever else is in it (issue
    26, item 10)."""
    from companion.games import color, kinds
    alone = series_colors(wins_by_kind_chart(players({"Ann": {"penny-badger": 1}})))
    many = {"Ann": {"penny-badger": 1, "chaos": 2}, "Ben": {"table": 1, "pig-farm": 1}}
    mixed = series_colors(wins_by_kind_chart(players(many)))
    charted = [k for k in kinds() if k in {"penny-badger", "chaos", "table", "pig-farm"}]
    assert alone == [color("penny-badger")]
    assert mixed == [color(k) for k in charted]
    assert mixed[charted.index("penny-badger")] == alone[0]
    # Every built-in kind declares its own, and no two kinds share one.
    assert len({color(k) for k in kinds()}) == len(kinds())
    assert all(kinds()[k].color == color(k) for k in kinds())


def test_a_house_game_without_a_colour_gets_one_from_its_name_alone():
    from companion.games import color
    first = color("coin-toss")
    assert first == color("coin-toss") and first.startswith("#") and len(first) == 7
    assert color("coin-toss") != color("coin-tosses")
