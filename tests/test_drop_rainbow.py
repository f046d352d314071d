"""Drop Rainbow engine (docs/rules.md, "Drop Rainbow"; seeds/drop-rainbow.txt;
docs/rules-readings.md)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from companion.errors import ConfigError, IllegalEvent
from companion.games import check_config, games
from companion.games.drop_rainbow.rules import DEFAULT_COLORS, RAINBOW, DropRainbowState
from companion.rules.game import Header

G = games()["drop-rainbow"]


def start(n: int = 2, **rules) -> DropRainbowState:
    return G.initial(G.check_header(Header("drop-rainbow", tuple(f"P{i}" for i in range(n)),
                                           0, rules)))


def play(state, *events):
    for e in events:
        state = G.apply(state, e)
    return state


def draw(c: str) -> dict:
    return {"type": "draw", "color": c}


BANK = {"type": "bank"}


def reveal(c: str) -> dict:
    return {"type": "reveal", "color": c}


def test_header_takes_2_to_5_players_and_the_seven_colors_by_default():
    assert start(5).colors == DEFAULT_COLORS
    for n in (1, 6):
        with pytest.raises(IllegalEvent, match="2-5 players"):
            start(n)


def test_success_moves_the_top_card_to_the_side_and_the_player_goes_on():
    # docs/rules.md "Drop Rainbow": the top card moves to the side and a new card is turned up;
    # a color not among the side cards is a success.
    s = play(start(), reveal("red"), draw("blue"))
    assert (s.top, s.side, s.table.current) == ("blue", ("red",), 0)
    s = play(s, draw("green"))
    assert (s.top, s.side, s.table.current) == ("green", ("red", "blue"), 0)
    assert s.failing() == {"red", "blue", "green"}


def test_failure_discards_the_side_keeps_the_new_card_on_top_and_ends_the_turn():
    s = play(start(3), reveal("red"), draw("blue"), draw("red"))
    assert s.top == "red" and s.side == () and s.discarded == 2
    assert s.table.current == 1 and s.score == ((), (), ())


def test_the_card_just_moved_to_the_side_counts_for_a_failure():
    # The old top card is at the side when the new one is compared: same color again fails.
    s = play(start(), reveal("yellow"), draw("yellow"))
    assert (s.top, s.side, s.discarded, s.table.current) == ("yellow", (), 1, 1)


def test_banking_takes_the_side_cards_and_ends_the_turn():
    s = play(start(3), reveal("red"), draw("blue"), draw("green"), BANK)
    assert s.score[0] == ("red", "blue") and s.side == () and s.top == "green"
    assert s.table.current == 1 and s.collected(0) == ["red", "blue"]
    # Score cards are never lost, even when their owner fails later.
    s = play(s, draw("orange"), BANK, draw("green"), draw("green"))
    assert s.score[0] == ("red", "blue") and s.table.current == 0


def test_a_bank_with_no_side_cards_gets_nothing_and_ends_the_turn():
    # docs/rules.md: "A player may also bank at the start of a turn instead of drawing (with no
    # side cards they get nothing)."
    s = play(start(), reveal("red"), BANK)
    assert s.score == ((), ()) and s.table.current == 1 and s.top == "red"


def test_all_seven_colors_wins_at_once():
    s = play(start(2), reveal("red"),
             *(draw(c) for c in ("orange", "yellow", "green", "blue", "indigo", "violet")),
             BANK)
    assert s.collected(0) == ["red", "orange", "yellow", "green", "blue", "indigo"]
    assert not s.over
    s = play(s, draw("red"), BANK)  # seat 1 takes the violet
    s = play(s, draw("violet"))  # seat 0: red to the side, violet on top
    assert not s.over  # side cards are not score cards yet
    s = play(s, draw("orange"), BANK)
    assert s.over and s.winners == (0,) and s.ended_by == "seven"
    with pytest.raises(IllegalEvent, match="game is over"):
        G.apply(s, draw("red"))


def test_the_rainbow_ends_the_game_its_drawer_banks_and_most_score_cards_wins():
    # docs/rules.md: the rainbow card is turned up: the drawer banks the side cards (the rainbow
    # itself scores nothing) and the player with the most score cards wins.
    s = play(start(3), reveal("red"), draw("blue"), draw("green"), BANK)  # P0: 2
    s = play(s, draw("orange"), draw("yellow"), draw("indigo"), BANK)  # P1: 3
    s = play(s, draw("violet"), draw(RAINBOW))  # P2: indigo + violet = 2
    assert s.over and s.ended_by == "rainbow" and s.top == RAINBOW
    assert [len(x) for x in s.score] == [2, 3, 2] and s.winners == (1,)
    # The rainbow drawer can win with the cards it brings.
    s = play(start(2), reveal("red"), draw("blue"), BANK, draw("green"), draw("yellow"),
             draw(RAINBOW))
    assert s.score[1] == ("blue", "green", "yellow") and s.winners == (1,)


def test_a_rainbow_tie_shares_the_win():
    s = play(start(2), reveal("red"), draw("blue"), BANK, draw(RAINBOW))
    assert s.winners == (0, 1)  # one card each: P1 banks the blue moved aside


def test_the_group_ending_the_game_names_the_most_score_cards_or_nobody():
    s = play(start(3), reveal("red"), draw("red"), {"type": "end"})
    assert s.over and s.winners == () and s.ended_by == "group"
    s = play(start(3), reveal("red"), draw("blue"), BANK, {"type": "end"})
    assert s.winners == (0,)


def test_a_rainbow_bank_that_completes_seven_colors_wins_outright():
    s = play(start(2), reveal("red"),
             *(draw(c) for c in ("orange", "yellow", "green", "blue", "indigo")), BANK)
    # P0 holds red..blue (5). P1 passes; P0 draws violet then the rainbow.
    s = play(s, BANK, draw("violet"), draw(RAINBOW))
    assert s.over and s.ended_by == "seven" and s.winners == (0,)


def test_a_turn_with_side_cards_ends_only_by_banking_or_failing():
    s = play(start(3), reveal("red"), draw("blue"))
    for e in ({"type": "next"}, {"type": "skip_to", "player": 2}):
        with pytest.raises(IllegalEvent, match="1 side card"):
            G.apply(s, e)
    # With no side cards, next is a pass.
    assert play(start(3), reveal("red"), {"type": "next"}).table.current == 1


@pytest.mark.parametrize("events, message", [
    ([draw("red")], "turn up the first card"),
    ([BANK], "turn up the first card"),
    ([reveal("red"), reveal("blue")], "already face up"),
    ([reveal(RAINBOW)], "bottom half"),
    ([reveal("pink")], "one of red, orange"),
    ([reveal("red"), draw("pink")], "or rainbow, not 'pink'"),
    ([reveal("red"), draw("blue"), {"type": "bank", "player": 1}], "seat 0's turn"),
    ([reveal("red"), {"type": "draw"}], "missing field 'color'"),
    ([reveal("red"), {"type": "bank", "cards": 2}], "unknown field 'cards'"),
])
def test_illegal_events(events, message):
    s = start(2)
    with pytest.raises(IllegalEvent, match=message):
        play(s, *events)


def test_color_names_are_a_house_rule():
    colors = ["rot", "orange", "gelb", "grün", "blau", "indigo", "violett"]
    s = play(start(2, colors=colors), reveal("gelb"), draw("rot"))
    assert s.side == ("gelb",) and s.collected(0) == []
    with pytest.raises(IllegalEvent, match="color must be one of rot"):
        G.apply(s, draw("red"))
    data = check_config({"rules": {"drop-rainbow": {"colors": colors}}})
    assert data["rules"]["drop-rainbow"]["colors"] == colors


@pytest.mark.parametrize("colors, message", [
    (["red"] * 7, "appears twice"),
    (["red", "orange"], "list of 7"),
    ("red", "list of 7"),
    (["red", "orange", "yellow", "green", "blue", "indigo", "Rainbow"], "rainbow card"),
    (["red", "orange", "yellow", "green", "blue", "indigo", ""], "not a color name"),
    (["red", "orange", "yellow", "green", "blue", "indigo", 7], "not a color name"),
    (["red", "orange", "yellow", "green", "blue", "indigo", "ultraviolet"], "longer than"),
])
def test_bad_color_rules_are_refused(colors, message):
    with pytest.raises(IllegalEvent, match=message):
        start(2, colors=colors)
    with pytest.raises(ConfigError, match="rules.drop-rainbow"):
        check_config({"rules": {"drop-rainbow": {"colors": colors}}})


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5), st.lists(st.one_of(st.sampled_from(DEFAULT_COLORS),
                                             st.just("bank"), st.just(RAINBOW)),
                                   max_size=80), st.sampled_from(DEFAULT_COLORS))
def test_cards_are_never_lost_or_duplicated_and_score_cards_never_decrease(n, moves, first):
    s = play(start(n), reveal(first))
    for m in moves:
        before = s
        e = BANK if m == "bank" else draw(m)
        try:
            s = G.apply(s, e)
        except IllegalEvent:
            assert before.over
            break
        # Every colored card turned up is exactly one of: top, side, score, discarded.
        on_top = 1 if s.top in DEFAULT_COLORS else 0
        assert s.turned == on_top + len(s.side) + sum(map(len, s.score)) + s.discarded
        for old, new in zip(before.score, s.score):
            assert new[:len(old)] == old  # score cards only ever grow
        assert len(set(s.side)) == len(s.side)  # the side never holds a color twice
        if s.over:
            assert s.ended_by in ("seven", "rainbow")
            if s.ended_by == "seven":
                assert set(DEFAULT_COLORS) <= set(s.score[s.winners[0]])


def test_replay_json_contract(tmp_path, capsys):
    log = tmp_path / "drop.jsonl"
    lines = [{"game": "drop-rainbow", "players": ["Ann", "Ben", "Cy"]},
             reveal("red"), draw("blue"), draw("green"), BANK,
             draw("violet"), draw("violet"),
             draw("orange"), draw("yellow")]
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == 2 and out["direction"] == 1 and out["over"] is False
    assert out["top"] == "yellow" and out["side"] == ["violet", "orange"]
    assert out["score_cards"] == [2, 0, 0]
    assert out["colors"] == [["red", "blue"], [], []]
    assert out["winners"] == []


def test_replay_after_the_rainbow(tmp_path, capsys):
    log = tmp_path / "drop.jsonl"
    lines = [{"game": "drop-rainbow", "players": ["Ann", "Ben"]},
             reveal("red"), draw("blue"), BANK, draw("green"), draw(RAINBOW)]
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is True and out["winners"] == [1] and out["top"] == RAINBOW
    assert out["score_cards"] == [1, 2] and out["colors"] == [["red"], ["green", "blue"]]


def test_describe():
    h = G.check_header(Header("drop-rainbow", ("Ann", "Ben")))
    s = play(G.initial(h), reveal("red"), draw("blue"))
    assert G.describe(draw("red"), h, s) == "Ann drew RED (fail)"
    assert G.describe(draw("green"), h, s) == "Ann drew GREEN"
    assert G.describe(BANK, h, s) == "Ann banked 1"
    assert "Ann: 0 score cards" in G.text(s, h)


def test_first_cannot_hand_the_side_cards_to_another_player():
    # docs/rules.md, "Drop Rainbow": the side cards are the drawer's to bank or to lose.
    s = play(start(3), {"type": "reveal", "color": "red"}, draw("blue"), draw("green"))
    with pytest.raises(IllegalEvent, match="bank them or draw"):
        G.apply(s, {"type": "first", "player": 1})
    s = play(start(3), {"type": "reveal", "color": "red"}, {"type": "first", "player": 2})
    assert s.table.current == 2  # before anything is drawn, the group may still pick
