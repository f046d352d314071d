"""The Penny Badger settlement keeps the accusers' layout (issue 14, item 2): the title bar
and the badgers' rows stay put, so our partial ssd1306 driver sends under 40% of a stock
frame for "No challenge"; and what it shows is what the engine settled."""

from __future__ import annotations

import pytest

from companion.drivers import oled
from companion.drivers.oled import RecordingSerial
from companion.games.penny_badger.panel import Accusers, SettlementScreen, settlement_rows
from companion.games.penny_badger.rules import BANK
from companion.inputs import Button
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui import draw
from companion.ui.screen import Context

STOCK_FRAME = 1034  # luma's ssd1306 sends every frame whole: 8 + 1026 wire bytes


def wire_bytes(before, after) -> int:
    """Wire bytes our partial driver sends to go from frame `before` to `after`."""
    serial = RecordingSerial()
    device = oled.ssd1306(serial)
    device.display(before)
    sent = serial.wire_bytes
    device.display(after)
    return serial.wire_bytes - sent


def frames(config, players: tuple[str, ...], cards: int, challengers=(), truthful=None):
    """The accusers screen as the claim goes on, and the settlement after it."""
    j = Journal(Header("penny-badger", players))
    j.append({"type": "pass"})  # the claimant is seat 1
    acc = Accusers(cards)
    acc.chosen = list(challengers)
    before = acc.render(Context(config=config, journal=j))
    event = {"type": "claim", "cards": cards, "challengers": list(challengers)}
    if challengers:
        event["truthful"] = truthful
    j.append(event)
    after = SettlementScreen().render(Context(config=config, journal=j))
    return j, before, after


@pytest.mark.parametrize("players", [("Ann", "Ben", "Cy", "Dee"),
                                     ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")])
@pytest.mark.parametrize("cards", [1, 2, 3, 5])
def test_no_challenge_sends_under_40_percent_of_a_stock_frame(config, players, cards):
    _, before, after = frames(config, players, cards)
    assert wire_bytes(before, after) < 0.4 * STOCK_FRAME


def test_title_bar_and_unticked_rows_stay_put(config):
    _, before, after = frames(config, ("Ann", "Ben", "Cy", "Dee"), 3)
    assert before.crop((0, 0, 128, 12)).tobytes() == after.crop((0, 0, 128, 12)).tobytes()
    # The badgers' names are the same pixels; only the top row's words change, and the tick
    # boxes go (issue 34.11: nobody is asked any more).
    for row in (1, 2, 3):
        y = 13 + 12 * row
        name = (12, y, 70, y + 12)
        assert before.crop(name).tobytes() == after.crop(name).tobytes(), row
        assert before.crop((0, y, 12, y + 12)).getbbox() is not None
        assert after.crop((0, y, 12, y + 12)).getbbox() is None, row


def test_the_rows_say_what_the_engine_settled(config):
    names = ("Ann", "Ben", "Cy", "Dee")
    for truthful in (True, False):
        j, _, _ = frames(config, names, 3, challengers=[2, 0], truthful=truthful)
        s = j.state
        r = s.history[-1]
        net = r.net()
        title, right, rows = settlement_rows(s, names)
        assert title == "Ben: 3 of a kind" and right == "2/3"
        head = rows[0][0]
        assert head == f"{'TRUE' if truthful else 'BLUFF'}: Ben {net[1]:+d}"
        # The opponents in the accusers' order (clockwise from Ben), the accusers named so
        # in words (issue 34.11: no tick boxes drawn, as if the panel still asked).
        assert [(label, box) for label, box, _ in rows[1:4]] == [
            ("Cy: accuser", True), ("Dee", False), ("Ann: accuser", True)]
        for label, _, amount in rows[1:4]:
            seat = names.index(label.removesuffix(": accuser"))
            assert amount == (f"{net[seat]:+d}" if net.get(seat) else "")
        bank = net.get(BANK, 0)
        assert rows[-2][0] == (f"Bank {bank:+d}, now {s.bank}" if bank else f"Bank: {s.bank}")
        assert rows[-1][0] == f"Next: {names[s.table.current]}"


def test_a_pass_and_an_elimination(config):
    names = ("Ann", "Ben", "Cy", "Dee")
    j = Journal(Header("penny-badger", names))
    j.append({"type": "pass"})
    title, right, rows = settlement_rows(j.state, names)
    assert (title, right) == ("Ann passed", "")
    assert [label for label, _, _ in rows] == ["Ann -1 to bank", "Bank +1, now 101",
                                               "Next: Ben"]
    j.append({"type": "claim", "cards": 8, "challengers": [2], "truthful": False})
    title, right, rows = settlement_rows(j.state, names)
    assert rows[0][0].startswith("BLUFF: Ben -") and rows[0][2] == "out"


def test_every_row_fits_unclipped_with_short_names(config):
    """The top row (the most important) is never cut short with the usual names."""
    names = ("Ann", "Ben", "Cy", "Dee")
    for event in ({"type": "pass"}, {"type": "claim", "cards": 8, "challengers": []},
                  {"type": "claim", "cards": 4, "challengers": [1, 2, 3], "truthful": False}):
        j = Journal(Header("penny-badger", names))
        j.append(event)
        _, _, rows = settlement_rows(j.state, names)
        for label, box, amount in rows:
            x = 14 if box is not None else 3
            room = draw.WIDTH - 8 - x
            if amount:
                room = min(room, draw.WIDTH - 7 - draw.text_size(amount, 12)[0] - 4 - x)
            assert draw.text_size(label, 12)[0] <= room, label


def test_scrolling_shows_the_bank_and_who_is_next(config):
    j, _, _ = frames(config, ("Ann", "Ben", "Cy", "Dee"), 2)
    screen = SettlementScreen()
    ctx = Context(config=config, journal=j)
    for _ in range(5):
        screen.on_press(Button.DOWN, ctx)
    screen.render(ctx)
    assert screen.first == len(settlement_rows(j.state, j.header.players)[2]) - 4
