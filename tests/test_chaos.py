"""Chaos engine (docs/rules.md, "Chaos"; seeds/chaos-base-set.txt; docs/rules-readings.md)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from companion.errors import IllegalEvent
from companion.games import games
from companion.games.chaos.rules import COLORS, ChaosState, first_in_direction
from companion.rules.game import Header
from companion.rules.table import Table

G = games()["chaos"]


def start(n: int = 4, first: int = 0) -> ChaosState:
    return G.initial(G.check_header(Header("chaos", tuple(f"P{i}" for i in range(n)), first)))


def play(state, *events):
    for e in events:
        state = G.apply(state, e)
    return state


def test_header_takes_3_to_16_players():
    # docs/rules.md "Chaos": 3-8 players with the base set, up to 16 with the expansion.
    for n in (3, 8, 16):
        assert start(n).scores == (0,) * n
    for n in (2, 17):
        with pytest.raises(IllegalEvent, match="3-16 players"):
            start(n)


def test_every_action_and_both_stacks_through_several_players_and_a_reverse():
    """A walk through every Chaos action with 5 players (issue 6, "Tests that must exist")."""
    s = start(5)
    # Seat 0: Pick a Color ends the turn; the color stays on screen.
    s = play(s, {"type": "pick_color", "color": "blue"})
    assert (s.table.current, s.color, s.table.turns) == (1, "blue", 1)
    # Seat 1: Draw 4 -> seat 2 owes 4; seat 2 answers with a Draw 4 -> seat 3 owes 8.
    s = play(s, {"type": "draw_four", "color": "red"})
    assert (s.table.current, s.draw_stack, s.color) == (2, 4, "red")
    s = play(s, {"type": "draw_four", "color": "green"})
    assert (s.table.current, s.draw_stack, s.color) == (3, 8, "green")
    # Seat 3 must take the 8 (nothing else is accepted), then may still play: a Two Train.
    for e in ({"type": "next"}, {"type": "two_train"}, {"type": "skip"},
              {"type": "pick_color", "color": "red"}, {"type": "skip_to", "player": 1}):
        with pytest.raises(IllegalEvent, match="must first take the 8"):
            G.apply(s, e)
    s = play(s, {"type": "take_draw_four"})
    assert (s.table.current, s.draw_stack) == (3, 0)
    s = play(s, {"type": "two_train"})
    assert (s.table.current, s.train) == (4, 2)
    # Seat 4: another Two Train; seat 0 plays a Reverse (turn stays open) and passes.
    s = play(s, {"type": "two_train"})
    assert (s.table.current, s.train) == (0, 4)
    s = play(s, {"type": "reverse"})
    assert (s.table.current, s.table.direction) == (0, -1)
    s = play(s, {"type": "next"})
    assert s.table.current == 4  # counter-clockwise now
    # Seat 4 cannot play: draws the train's total; the train is scrapped; the turn goes on.
    s = play(s, {"type": "take_train"})
    assert (s.table.current, s.train) == (4, 0)
    # A Draw 4 against the new direction lands on seat 3.
    s = play(s, {"type": "draw_four", "color": "orange"})
    assert (s.table.current, s.draw_stack, s.color) == (3, 4, "orange")
    s = play(s, {"type": "take_draw_four"}, {"type": "next"})
    assert s.table.current == 2
    # Color Dump sets the color and leaves the turn open for its last action card: a skip.
    s = play(s, {"type": "color_dump", "color": "blue"}, {"type": "skip"})
    assert (s.table.current, s.color, s.table.pending_skips) == (2, "blue", 1)
    s = play(s, {"type": "next"})
    assert s.table.current == 0  # seat 1 lost its turn
    # Double skip, reverse-then-skip, swap hands (noted only), skip to (most).
    s = play(s, {"type": "double_skip"}, {"type": "next"})
    assert s.table.current == 2  # 4 and 3 skipped (counter-clockwise from 0)
    s = play(s, {"type": "reverse_skip"}, {"type": "next"})
    assert (s.table.direction, s.table.current) == (1, 4)  # clockwise again, 3 skipped
    before = s
    s = play(s, {"type": "swap_hands", "players": [4, 1]})
    assert s == before
    s = play(s, {"type": "skip_to", "player": 2})
    assert s.table.current == 2 and s.table.pending_skips == 0


def test_draw_four_applies_pending_skips_like_next():
    s = play(start(4), {"type": "skip"}, {"type": "draw_four", "color": "blue"})
    assert (s.table.current, s.draw_stack) == (2, 4)


def test_taking_an_empty_stack_is_refused():
    with pytest.raises(IllegalEvent, match="no Two Train"):
        G.apply(start(), {"type": "take_train"})
    with pytest.raises(IllegalEvent, match="no Draw 4 stack"):
        G.apply(start(), {"type": "take_draw_four"})


def test_take_train_waits_until_the_draw_four_stack_is_taken():
    s = play(start(4), {"type": "two_train"}, {"type": "draw_four", "color": "red"})
    with pytest.raises(IllegalEvent, match="must first take the 4"):
        G.apply(s, {"type": "take_train"})
    s = play(s, {"type": "take_draw_four"}, {"type": "take_train"})
    assert (s.train, s.draw_stack, s.table.current) == (0, 0, 2)


def test_the_two_train_waits_across_turns_while_players_play_normally():
    s = play(start(3), {"type": "two_train"}, {"type": "next"}, {"type": "next"})
    assert (s.train, s.table.current) == (2, 0)


@pytest.mark.parametrize("event, message", [
    ({"type": "pick_color", "color": "purple"}, "one of red, orange, green, blue"),
    ({"type": "pick_color"}, "missing field 'color'"),
    ({"type": "draw_four", "color": 3}, "color must be one of"),
    ({"type": "two_train", "cards": 2}, "unknown field 'cards'"),
    ({"type": "swap_hands", "players": [1]}, "two seats"),
    ({"type": "swap_hands", "players": [1, 1]}, "two different"),
    ({"type": "swap_hands", "players": [1, 9]}, "seat number 0-3"),
    ({"type": "color_dump", "color": "yellow"}, "color must be one of"),
    ({"type": "pick_color", "color": "red", "player": 2}, "seat 0's turn"),
    ({"type": "round_points", "points": [0, 1, 2]}, "list of 4 numbers"),
    ({"type": "round_points", "points": [0, 1, -2, 3]}, "seat 2's points"),
    ({"type": "round_points", "points": [0, 1, True, 3]}, "seat 2's points"),
    ({"type": "round_points", "points": [5, 1, 2, 3]}, "at least one player has 0"),
])
def test_illegal_events(event, message):
    with pytest.raises(IllegalEvent, match=message):
        G.apply(start(4), event)


def test_round_scoring_to_500_lowest_wins():
    # docs/rules.md "Chaos": points are bad; when a player reaches 500, the fewest points wins.
    s = start(4)
    s = play(s, {"type": "reverse"}, {"type": "two_train"}, {"type": "draw_four",
                                                              "color": "red"})
    s = play(s, {"type": "round_points", "points": [0, 120, 250, 80]})
    assert s.scores == (0, 120, 250, 80) and s.rounds == 1 and not s.over
    # A new round: clockwise again, nothing on the stacks, no color.
    assert (s.table.direction, s.train, s.draw_stack, s.color) == (1, 0, 0, None)
    s = play(s, {"type": "first", "player": 1})
    s = play(s, {"type": "round_points", "points": [200, 0, 249, 60]})
    assert s.scores == (200, 120, 499, 140) and not s.over  # 499 is not yet 500
    s = play(s, {"type": "round_points", "points": [10, 30, 1, 0]})
    assert s.scores == (210, 150, 500, 140)
    assert s.over and s.winners == (3,)
    with pytest.raises(IllegalEvent, match="game is over"):
        G.apply(s, {"type": "next"})


def test_a_tie_for_fewest_points_shares_the_win():
    s = play(start(3), {"type": "round_points", "points": [0, 100, 100]},
             {"type": "round_points", "points": [100, 0, 400]})
    assert s.over and s.winners == (0, 1)


def test_end_by_the_group_names_the_fewest_points_and_nobody_before_any_round():
    assert play(start(3), {"type": "end"}).winners == ()
    s = play(start(3), {"type": "round_points", "points": [10, 0, 30]}, {"type": "end"})
    assert s.winners == (1,)


def test_first_records_who_starts_the_round():
    s = play(start(4, first=2), {"type": "next"})
    assert s.starter == 2
    s = play(s, {"type": "first", "player": 1})
    assert (s.starter, s.table.current) == (1, 1)


def test_skip_to_most_picks_the_first_tied_player_in_the_current_direction():
    # docs/rules.md "Common to all games": on a tie for most cards, the first of the tied players
    # in the current direction is chosen.
    t = Table(seats=6, current=2)
    assert first_in_direction(t, [0, 4]) == 4
    assert first_in_direction(Table(seats=6, current=2, direction=-1), [0, 4]) == 0
    assert first_in_direction(t, [2, 3]) == 3
    assert first_in_direction(t, [2]) == 2  # the current player alone: they play again
    with pytest.raises(IllegalEvent, match="mark at least one"):
        first_in_direction(t, [])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["next", "skip", "reverse", "pick_color", "draw_four",
                                 "two_train", "take_train", "take_draw_four", "color_dump"]),
                max_size=60), st.integers(3, 9))
def test_stacks_are_whole_cards_and_only_the_owner_is_blocked(moves, n):
    """Invariants: the Draw 4 stack is a multiple of 4, the train a multiple of 2; while a
    Draw 4 stack waits, only the answers to it are accepted."""
    s = start(n)
    for m in moves:
        e = {"type": m}
        if m in ("pick_color", "draw_four", "color_dump"):
            e["color"] = COLORS[len(e) % 4]
        try:
            new = G.apply(s, e)
        except IllegalEvent:
            assert (s.draw_stack and m not in ("draw_four", "take_draw_four")) or \
                (m == "take_train" and not s.train) or (m == "take_draw_four"
                                                        and not s.draw_stack)
            continue
        assert new.draw_stack % 4 == 0 and new.train % 2 == 0
        if m == "draw_four":
            assert new.draw_stack == s.draw_stack + 4 and new.table.turns == s.table.turns + 1
        s = new


def test_replay_json_contract(tmp_path, capsys):
    log = tmp_path / "chaos.jsonl"
    lines = [{"game": "chaos", "players": ["Ann", "Ben", "Cy", "Dee"], "first": 1},
             {"type": "draw_four", "color": "blue"}, {"type": "take_draw_four"},
             {"type": "two_train"}, {"type": "round_points", "points": [0, 14, 33, 7]},
             {"type": "first", "player": 2},
             {"type": "pick_color", "color": "green"}, {"type": "two_train"},
             {"type": "draw_four", "color": "red"}]
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == 1 and out["direction"] == 1 and out["over"] is False
    assert out["winners"] == []
    assert out["color"] == "red" and out["train"] == 2 and out["draw_stack"] == 4
    assert out["scores"] == [0, 14, 33, 7]


def test_replay_reports_the_bad_line(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"game": "chaos", "players": ["A", "B", "C"]}\n'
                   '{"type": "draw_four", "color": "red"}\n{"type": "next"}\n')
    assert main(["replay", str(log), "--json"]) == 1
    err = capsys.readouterr().err
    assert "line 3" in err and "take the 4" in err


def test_describe_and_text():
    h = G.check_header(Header("chaos", ("Ann", "Ben", "Cy")))
    s = G.initial(h)
    assert G.describe({"type": "draw_four", "color": "red"}, h, s) == "Ann: Draw 4, RED"
    s2 = play(s, {"type": "two_train"}, {"type": "two_train"})
    assert G.describe({"type": "take_train"}, h, s2) == "Cy took the train (4)"
    assert G.describe({"type": "swap_hands", "players": [0, 2]}, h, s) == "Swap: Ann & Cy"
    assert "Two Train: 4" in G.text(s2, h)


@pytest.mark.parametrize("kind", [["take_draw_four"], {"t": 1}, 5])
def test_a_type_that_is_not_text_is_refused_while_a_stack_is_owed(kind):
    s = play(start(), {"type": "draw_four", "color": "red"})
    with pytest.raises(IllegalEvent, match="needs a \"type\""):
        G.apply(s, {"type": kind})


def test_a_round_points_line_names_each_players_points():
    """History lines carry the amounts (issue #18 part 7): a scored round says who got what."""
    from companion.games import games
    from companion.rules.game import Header
    game = games()["chaos"]
    header = game.check_header(Header("chaos", ("Ann", "Ben", "Cy")))
    before = game.initial(header)
    line = game.describe({"type": "round_points", "points": [0, 25, 40]}, header, before)
    assert line == "Round points: Ann 0, Ben 25, Cy 40"
