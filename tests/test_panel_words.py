"""Plain words on the panel and in the statistics (issue 34, item 11): what a player at a
table reads says what happened or what a button does, in words, not the program's terms.
The words the issue found are looked for on every panel screen the gallery draws and on
every kind's fresh game (menus and what they open), and in the statistics' text."""

from __future__ import annotations

import re

from companion.config import Config, check
from companion.gallery import screens
from companion.games.penny_badger.panel import Accusers, SettlementScreen, settlement_rows
from companion.rules.game import Header
from companion.session import stats
from companion.session.journal import Journal
from companion.ui import draw
from companion.ui.screen import Context
from tests.test_screen_texts import fresh_game_shots

# What the issue found, as drawn: the dice's title naming the program ("Software"), an end
# screen's "1st game here", "It is kept in the journal", the Pig Farm end's squeezed hint,
# and the menu's "Clock on" (what the clock is, not what the item does).
JARGON = re.compile(r"Software|\b1st\b|game here|kept in the journal|again/leave|Clock on\b")


def drawn_texts(shots) -> list[tuple[str, str]]:
    out = []
    while True:
        with draw.recording() as rec:
            try:
                name, _image = next(shots)
            except StopIteration:
                return out
        out += [(name, text) for text, _box, _ink in rec.texts]


def test_no_screen_says_what_a_player_would_not_understand():
    config = Config(check({}))
    texts = drawn_texts(screens.screens(config)) + drawn_texts(fresh_game_shots(config))
    assert len(texts) > 500
    found = sorted({f"{name}: {text!r}" for name, text in texts if JARGON.search(text)})
    assert not found, "\n".join(found)


def test_a_settled_claim_shows_no_tick_boxes_as_if_still_asking():
    """After a claim the settlement keeps the accusers' rows where they were (so the panel
    sends little), but not their tick boxes: the question is over. An accuser's row says so
    in words."""
    j = Journal(Header("penny-badger", ("Ann", "Ben", "Cy", "Dee")))
    j.append({"type": "claim", "cards": 3, "challengers": [2], "truthful": False})
    _title, _right, rows = settlement_rows(j.state, j.header.players)
    labels = [label for label, _box, _amount in rows]
    assert "Cy: accuser" in labels and "Ben" in labels and "Dee" in labels
    config = Config(check({}))
    settled = SettlementScreen().render(Context(config=config, journal=j))
    accusers = Accusers(3)
    accusers.chosen = [2]
    j.undo()
    asking = accusers.render(Context(config=config, journal=j))
    # The box column (x 3-10) of the badgers' rows: boxes while asking, none once settled.
    rows_y = range(26, 64)
    assert any(asking.getpixel((3, y)) for y in rows_y)
    assert not any(settled.getpixel((x, y)) for x in (3, 10) for y in rows_y)


def test_the_records_never_say_won_by_no_winner():
    """`companion stats` records: a record game nobody won says "no winner", not "won by no
    winner"."""
    from companion.cli.stats import text as stats_text
    from companion.session.stats import GameRecord
    game = GameRecord(3, "table", ("Ann", "Ben"), 0.0, True, (), 10, 60.0, None)
    text = stats_text(stats.compute([game]))
    assert "Longest game: 10 events, game 3, Table, no winner" in text
    assert "won by no winner" not in text


def test_the_pages_say_when_time_is_up_in_words():
    """The new-game form's chess clock note said "Time! at none" (issue 34.11)."""
    from pathlib import Path

    import companion.web
    web = Path(companion.web.__file__).parent
    pages = [p for d in ("static", "templates") for p in (web / d).rglob("*")
             if p.suffix in (".js", ".html")]
    assert pages
    found = [p.name for p in pages if "Time! at none" in p.read_text(encoding="utf-8")]
    assert not found
