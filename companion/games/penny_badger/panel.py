"""Penny Badger on the panel: the ledger, the turn (pass or claim), accusers, the reveal,
the settlement summary, the ledger history and the end screen.

Buttons on the ledger (home): NEXT ends the turn the Penny Badger way, by opening the turn
screen with PASS chosen (so a pass is NEXT then OK; UP picks a claim of 1-8 cards instead).
ROLL opens the dice, OK (or hold OK) the menu, UP/DOWN page the badgers when they do not fit.

Every amount shown before a choice comes from `companion.games.penny_badger.rules.settle`, the
function the engine settles with, so what the table sees at stake is what is paid.
"""

from __future__ import annotations

from typing import Sequence

from companion.games.penny_badger.rules import (
    BANK,
    MAX_CARDS,
    PennyState,
    best_catch,
    biggest_claim,
    claim_words,
    clockwise_from,
    end_reason,
    net_line,
    penalty,
    record_title,
    settle,
    short_bank,
    withdrawal,
)
from companion.inputs import Button
from companion.rules.game import Header
from companion.ui import clock, draw
from companion.ui.actions import Emit, Home, Pop, Push, Toast
from companion.ui.again import end_menu
from companion.ui.dice import dice_menu
from companion.ui.modes import Mode
from companion.ui.records import end_line
from companion.ui.screen import Context, Item, Result, Screen, ScrollList, TextScreen, wrap

TOP_H = 30  # the bank and the current badger
GRID_TOP = 32


NAME_ROOM = 16  # the fewest pixels a name gets beside its savings: two letters and "…"


def grid_layout(n: int, money: int = 0) -> tuple[int, int, int]:
    """(columns, rows, font size) of the savings grid for `n` badgers: as large as fits.
    Five or six badgers sit in two columns of three rows: three columns left a name 20
    pixels beside its savings, one letter ("O…" for "Olu"); two give it 38 or more, six
    or seven letters of the smallest size. Seven or more take three columns, unless the
    widest savings (`money` pixels wide in the smallest size: a bank of thousands) would
    leave a name less than NAME_ROOM: then two columns, six a page."""
    if n <= 4:
        return 2, 2, 13
    if n <= 6 or (draw.WIDTH - 4) // 3 - money - 7 < NAME_ROOM:
        return 2, 3, 10
    return 3, 3, 10


def wrap_list(line: str, width: int, size: int) -> list[str]:
    """Wrap at ", " first (one payment a line), then at spaces if a piece is still too wide."""
    if draw.text_size(line, size)[0] <= width:
        return [line]
    chunks = line.split(", ")
    out: list[str] = []
    cur = ""
    for i, chunk in enumerate(chunks):
        piece = chunk + ("," if i < len(chunks) - 1 else "")
        trial = f"{cur} {piece}" if cur else piece
        if not cur or draw.text_size(trial, size)[0] <= width:
            cur = trial
        else:
            out.append(cur)
            cur = "  " + piece
    out.append(cur)
    return [w for part in out for w in
            (wrap(part, width, size) if draw.text_size(part, size)[0] > width else [part])]


def _strike(d, box: tuple[int, int, int, int], fill: int) -> None:
    x0, y0, x1, y1 = box
    y = (y0 + y1) // 2
    d.line((x0 + 1, y, x1 - 1, y), fill=fill)


# --- the ledger (home) -------------------------------------------------------------------------


class Ledger(Screen):
    """The bank and the current badger in big figures; every badger's savings in a grid
    below (current inverted, eliminated struck out), in pages of 9 when more than 9 play."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.page: int | None = None  # None: the page holding the current badger

    @staticmethod
    def layout(s: PennyState) -> tuple[int, int, int]:
        """The grid for this game's badgers and the widest of their savings."""
        return grid_layout(s.table.seats, max(draw.text_size(str(v), draw.SMALL)[0]
                                              for v in s.savings))

    def pages(self, s: PennyState) -> int:
        cols, rows, _ = self.layout(s)
        return -(-s.table.seats // (cols * rows))

    def shown_page(self, ctx: Context) -> int:
        s = ctx.state
        cols, rows, _ = self.layout(s)
        if self.page is None:
            return s.table.current // (cols * rows)
        return min(self.page, self.pages(s) - 1)

    def draw_on(self, d, ctx: Context) -> None:
        s: PennyState = ctx.state
        t = s.table
        # The bank, top left.
        d.text((1, 0), "BANK", font=draw.font(draw.SMALL), fill=1)
        draw.direction_arrow(d, (40, 5), 4, t.direction)
        draw.centered(d, (0, 10, 47, TOP_H), str(s.bank), largest=22)
        # The current badger, top right, inverted.
        d.rectangle((49, 0, draw.WIDTH - 1, TOP_H - 1), fill=1)
        end = clock.draw_corner(d, ctx, on_white=True)
        draw.centered(d, (51, 0, min(end, draw.WIDTH - 2), 13), ctx.name(t.current), largest=13,
                      fill=0)
        money_box = (51, 12, draw.WIDTH - 2, TOP_H)
        if t.pending_skips:
            label = "SKIP" if t.pending_skips == 1 else f"SKIP{t.pending_skips}"
            w, h = draw.text_size(label, draw.SMALL)
            d.rectangle((51, 16, 51 + w + 3, 27), fill=0)
            d.text((53, 22), label, font=draw.font(draw.SMALL), fill=1, anchor="lm")
            money_box = (55 + w, 12, draw.WIDTH - 2, TOP_H)
        draw.centered(d, money_box, str(s.savings[t.current]), largest=18, fill=0)
        self.draw_grid(d, ctx)

    def draw_grid(self, d, ctx: Context) -> None:
        s: PennyState = ctx.state
        n = s.table.seats
        cols, rows, size = self.layout(s)
        pages = self.pages(s)
        page = self.shown_page(ctx)
        right = draw.WIDTH - (4 if pages > 1 else 0)
        cw = right // cols
        rh = (draw.HEIGHT - GRID_TOP) // rows
        per = cols * rows
        for i, seat in enumerate(range(page * per, min(n, (page + 1) * per))):
            r, c = divmod(i, cols)
            box = (c * cw, GRID_TOP + r * rh, c * cw + cw - 2, GRID_TOP + r * rh + rh - 1)
            current = seat == s.table.current
            out = seat in s.table.eliminated
            fill = 0 if current else 1
            if current:
                d.rectangle(box, fill=1)
            if c:
                d.line((c * cw - 1, box[1] + 1, c * cw - 1, box[3] - 1), fill=1)
            money = str(s.savings[seat])
            mw = draw.text_size(money, size)[0]
            cy = (box[1] + box[3] + 1) // 2
            name = draw.clip(ctx.name(seat), cw - mw - 7, size)
            d.text((box[0] + 1, cy), name, font=draw.font(size), fill=fill, anchor="lm")
            d.text((box[2] - 1, cy), money, font=draw.font(size), fill=fill, anchor="rm")
            if out:
                _strike(d, box, fill)
        if pages > 1:
            draw.scrollbar(d, GRID_TOP, draw.HEIGHT - 1, page, 1, pages)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.NEXT:
            self.page = None
            return Push(TurnPicker())
        if button is Button.ROLL:
            return Push(dice_menu(ctx))
        if button is Button.OK:
            return Push(self.mode.menu(ctx))
        if button in (Button.UP, Button.DOWN):
            pages = self.pages(ctx.state)
            if pages > 1:
                step = -1 if button is Button.UP else 1
                self.page = (self.shown_page(ctx) + step) % pages
            return None
        if button is Button.BACK:
            return Toast("Hold BACK to undo")
        return None


# --- a turn: pass, or claim N cards --------------------------------------------------------


def stake_lines(state: PennyState, cards: int) -> tuple[str, str]:
    """What is at stake for a choice on the turn screen: (withdrawal, penalty)."""
    if cards == 0:
        return "Pays 1 to the bank", "nobody may challenge"
    w = withdrawal(cards, state.bank)
    if cards == MAX_CARDS:
        take = f"Takes the bank: {w}"
    elif short_bank(cards, state.bank):
        take = f"Takes {w}: all there is"
    else:
        take = f"Takes {w} from the bank"
    if cards == 1:
        pen = "Penalty 1, bluffer 2"
    elif cards == MAX_CARDS:
        pen = "Penalty: all savings"
    else:
        pen = f"Penalty {penalty(cards, bluffer=False, savings=0)} to bank + each"
    return take, pen


def choice_label(cards: int) -> str:
    if cards == 0:
        return "PASS"
    if cards == 1:
        return "1 WILD"
    return f"{cards} CARDS"


class TurnPicker(Screen):
    """How the current badger ends the turn: PASS (chosen first) or a claim of 1-8 cards.

    UP/DOWN change the choice; OK goes on (a pass is settled at once: this screen is its
    confirmation); BACK returns to the ledger.
    """

    def __init__(self, cards: int = 0) -> None:
        self.cards = cards

    def draw_on(self, d, ctx: Context) -> None:
        s: PennyState = ctx.state
        who = ctx.name(s.table.current)
        top = draw.title_bar(d, f"{who}'s turn", f"bank {s.bank}")
        mid = (top + 38) // 2
        d.polygon([(3, mid - 3), (7, mid - 9), (11, mid - 3)],
                  fill=1 if self.cards < MAX_CARDS else 0, outline=1)
        d.polygon([(3, mid + 3), (7, mid + 9), (11, mid + 3)],
                  fill=1 if self.cards > 0 else 0, outline=1)
        draw.centered(d, (14, top, draw.WIDTH - 2, 38), choice_label(self.cards), largest=24)
        take, pen = stake_lines(s, self.cards)
        draw.centered(d, (0, 39, draw.WIDTH, 51), take, largest=12)
        if self.cards == 0:
            draw.badge(d, (1, 57), "OK = pass", 11)
            d.text((draw.WIDTH - 1, 57), "▲ = claim", font=draw.font(11), fill=1, anchor="rm")
        else:
            draw.centered(d, (0, 52, draw.WIDTH, 64), pen, largest=12)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.cards = min(MAX_CARDS, self.cards + 1)
        elif button is Button.DOWN:
            self.cards = max(0, self.cards - 1)
        elif button is Button.OK:
            if self.cards == 0:
                return Emit({"type": "pass"}, then=[Home(), Push(SettlementScreen())])
            return Push(Accusers(self.cards))
        elif button is Button.BACK:
            return Pop()
        return None


ROWS = 4  # lines of the accusers and settlement lists shown at once
ROW_H = 12
ROW_SIZE = 12


def claim_title(who: str, cards: int) -> str:
    """The title bar of the accusers and of the settlement after them: the same words on
    both, so the bar stays put when the claim is settled (the panel is sent only what
    changed)."""
    return f"{who}: {claim_words(cards)}"


def label_room(right: str, box: bool | None) -> int:
    """The width a row's label has (`draw_row`): after the box column when there is one,
    before the amount on the right."""
    x = 3 if box is None else 14
    room = draw.WIDTH - 8 - x
    if right:
        room = min(room, draw.WIDTH - 7 - draw.text_size(right, ROW_SIZE)[0] - 4 - x)
    return room


def draw_row(d, y: int, row: tuple[str, bool | None, str], sel: bool, *,
             boxes: bool = True) -> None:
    """A line of the accusers' list, also of the settlement's: (label, box, right) in 12 px,
    in a bar when `sel`; `box` True/False draws a ticked/empty box before the label (None:
    no box); `right` is right-aligned text (an amount). Without `boxes` (the settlement: the
    question is over) no box is drawn: a ticked one becomes the accuser's mark, a pointer
    (▶, not a box: nobody is asked any more), and the label keeps its place."""
    label, box, right = row
    fill = 0 if sel else 1
    if sel:
        d.rectangle((0, y, draw.WIDTH - 5, y + ROW_H - 1), fill=1)
    x = 3 if box is None else 14
    if box and not boxes:
        d.polygon(((4, y + 2), (4, y + 9), (9, y + 5), (9, y + 6)), fill=fill)
    elif box is not None and boxes:
        d.rectangle((3, y + 2, 10, y + 9), outline=fill, fill=fill if box else 1 - fill)
    room = label_room(right, box)
    if right:
        d.text((draw.WIDTH - 7, y + ROW_H // 2), right, font=draw.font(ROW_SIZE),
               fill=fill, anchor="rm")
    size = draw.fit(label, room, draw.HEIGHT, largest=ROW_SIZE, smallest=ROW_SIZE - 1)
    d.text((x, y + ROW_H // 2), draw.clip(label, room, size),  # "No challenge: +103" whole
           font=draw.font(size), fill=fill, anchor="lm")


class Accusers(ScrollList):
    """Who challenges the claim: OK toggles a badger; the top line goes on ("No challenge"
    settles the claim at once; with accusers ticked it asks what the cards showed).
    NEXT also goes on. The settlement screen keeps this layout (`SettlementScreen`)."""

    ROWS = ROWS
    ROW_H = ROW_H
    cursor: int

    def __init__(self, cards: int) -> None:
        self.cards = cards
        self.cursor = 0
        self.chosen: list[int] = []

    def opponents(self, ctx: Context) -> list[int]:
        t = ctx.state.table
        return clockwise_from(t.current, [s for s in t.active if s != t.current], t.seats)

    def go_label(self, ctx: Context) -> str:
        if not self.chosen:
            return f"No challenge: +{withdrawal(self.cards, ctx.state.bank)}"
        k = len(self.chosen)
        return f"Show cards ({k})"

    def lines(self, ctx: Context) -> list[tuple[str, bool | None, str]]:
        return [(self.go_label(ctx), None, ""),
                *((ctx.name(s), s in self.chosen, "") for s in self.opponents(ctx))]

    def header(self, d, ctx: Context, lines) -> int:
        who = ctx.name(ctx.state.table.current)
        return draw.title_bar(d, claim_title(who, self.cards),
                              f"{len(self.chosen)}/{len(lines) - 1}")

    def draw_line(self, d, ctx: Context, i: int, row, y: int) -> None:
        draw_row(d, y, row, i == self.cursor)

    def go(self, ctx: Context) -> Result:
        if not self.chosen:
            return Emit({"type": "claim", "cards": self.cards, "challengers": []},
                        then=[Home(), Push(SettlementScreen())])
        opp = self.opponents(ctx)
        return Push(Reveal(self.cards, [s for s in opp if s in self.chosen]))

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK:
            if self.cursor == 0:
                return self.go(ctx)
            seat = self.opponents(ctx)[self.cursor - 1]
            if seat in self.chosen:
                self.chosen.remove(seat)
            else:
                self.chosen.append(seat)
        elif button is Button.NEXT:
            return self.go(ctx)
        elif button is Button.BACK:
            return Pop()
        return super().on_press(button, ctx)


def claimant_change(state: PennyState, cards: int, challengers: Sequence[int],
                    truthful: bool) -> int:
    seat = state.table.current
    s = settle(state.bank, state.savings, seat, cards=cards, challengers=challengers,
               truthful=truthful)
    return s.savings[seat] - state.savings[seat]


class Reveal(Screen):
    """The cards are shown: TRUE or BLUFF, each with what it means for the claimant."""

    def __init__(self, cards: int, challengers: Sequence[int]) -> None:
        self.cards = cards
        self.challengers = list(challengers)
        self.cursor = 0  # 0 = true, 1 = bluff

    def event(self) -> dict:
        return {"type": "claim", "cards": self.cards, "challengers": list(self.challengers),
                "truthful": self.cursor == 0}

    def draw_on(self, d, ctx: Context) -> None:
        s: PennyState = ctx.state
        who = ctx.name(s.table.current)
        top = draw.title_bar(d, f"{who}'s {claim_words(self.cards)}: shown")
        h = (draw.HEIGHT - top) // 2
        for i, (word, truthful) in enumerate((("TRUE", True), ("BLUFF", False))):
            y = top + i * h
            sel = i == self.cursor
            fill = 0 if sel else 1
            if sel:
                d.rectangle((0, y, draw.WIDTH - 1, y + h - 2), fill=1)
            draw.centered(d, (2, y, 56, y + h - 1), word, largest=18, fill=fill)
            delta = claimant_change(s, self.cards, self.challengers, truthful)
            draw.centered(d, (58, y, draw.WIDTH - 2, y + h - 1),
                          f"{who} {delta:+d}", largest=16, fill=fill)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.UP, Button.DOWN):
            self.cursor = 1 - self.cursor
        elif button is Button.OK:
            return Emit(self.event(), then=[Home(), Push(SettlementScreen())])
        elif button is Button.BACK:
            return Pop()
        return None


# --- after a settlement: who paid whom --------------------------------------------------------


def settlement_rows(state: PennyState, names: Sequence[str],
                    ) -> tuple[str, str, list[tuple[str, bool | None, str]]]:
    """The settlement in the accusers' layout: (title, title's right, rows).

    After a claim the title bar is the claim and the badgers stay in the accusers' rows and
    order, their box as ticked (True: challenged) but not drawn (nobody is asked any more:
    an accuser's row has a pointer and says "accuser" where the name leaves room), with what each one paid (-) or got (+) on the right; the top row (the accusers' "No
    challenge" bar) says what the claimant got. Then the bank and who is next, a scroll away with 4 badgers.
    """
    r = state.history[-1]
    t = state.table
    who = names[r.seat]
    net = r.net()
    mine = net.get(r.seat, 0)
    out = set(r.eliminated)

    def amount(seat: int) -> str:
        text = f"{net[seat]:+d}" if net.get(seat) else ""
        return (text + " out").strip() if seat in out else text

    def either(long: str, short: str) -> str:  # the top row, unclipped with a long name
        return long if draw.text_size(long, ROW_SIZE)[0] <= draw.WIDTH - 11 else short

    if r.cards is None:
        title, right = f"{who} passed", ""
        rows: list[tuple[str, bool | None, str]] = [
            (either(f"{who} {mine:+d} to bank", f"{who} {mine:+d}"), None,
             "out" if r.seat in out else "")]
    else:
        before = [s for s in range(t.seats) if s != r.seat
                  and (s not in t.eliminated or s in out)]
        opp = clockwise_from(r.seat, before, t.seats)
        title = claim_title(who, r.cards)
        right = f"{len(r.challengers)}/{len(opp)}"  # how many challenged: a fact
        if not r.challengers:
            head = either(f"{who} +{r.kept} from bank", f"{who} +{r.kept}") if r.kept \
                else "The bank had nothing"
        else:
            head = f"{'TRUE' if r.truthful else 'BLUFF'}: {who} {mine:+d}"
        rows = [(head, None, "out" if r.seat in out else "")]
        # Settled: no tick boxes (they would look as if the panel still asked who
        # challenges): an accuser's row has the pointer (draw_row) and says so in words
        # ("Cy: accuser") where the name fits whole beside them; else the name has the
        # row, shortened no more than anyone's (who accused stays readable).
        rows += [(accuser_label(names[s], amount(s)) if s in r.challengers else names[s],
                  s in r.challengers, amount(s)) for s in opp]
    bank = net.get(BANK, 0)
    # The bank's line whole, in fewer words where its figures are long (a bank of 14985).
    rows.append((next((w for w in (f"Bank {bank:+d}, now {state.bank}",
                                   f"Bank {bank:+d}: {state.bank}")
                       if draw.text_size(w, ROW_SIZE - 1)[0] <= label_room("", None)),
                      f"Bank now {state.bank}") if bank else f"Bank: {state.bank}",
                 None, ""))
    rows.append(("Game over!" if state.over else f"Next: {names[t.current]}", None, ""))
    return title, right, rows


def accuser_label(name: str, right: str) -> str:
    """An accuser's row in the settlement: "Cy: accuser" when it fits with the whole name
    beside `right` (its amount), else the name alone (its pointer marks it)."""
    words = f"{name}: accuser"
    fits = draw.text_size(words, ROW_SIZE - 1)[0] <= label_room(right, True)
    return words if fits else name


class SettlementScreen(ScrollList):
    """The turn just settled, in the accusers' layout (`settlement_rows`): the title bar and
    the badgers' rows stay where they were, so the panel is sent little more than the
    amounts. UP/DOWN scroll. OK/BACK: the ledger, where the next badger is shown; NEXT:
    straight on to the next badger's turn screen."""

    ROWS = ROWS
    ROW_H = ROW_H

    def __init__(self) -> None:
        self.first = 0

    def lines(self, ctx: Context) -> list[tuple[str, bool | None, str]]:
        s: PennyState = ctx.state
        if not s.history:
            return [("Nothing settled yet.", None, "")]
        return settlement_rows(s, ctx.playing.header.players)[2]

    def header(self, d, ctx: Context, lines) -> int:
        s: PennyState = ctx.state
        if not s.history:
            return draw.title_bar(d, "Ledger")
        title, right, _ = settlement_rows(s, ctx.playing.header.players)
        return draw.title_bar(d, title, right)

    def draw_line(self, d, ctx: Context, i: int, row, y: int) -> None:
        # The claimant's line in a bar; the badgers' rows where the accusers' were, with
        # no tick boxes: nobody is asked any more (an accuser's row says so in words).
        draw_row(d, y, row, i == 0 and bool(ctx.state.history), boxes=False)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.OK, Button.BACK):
            return Home()
        if button is Button.NEXT:
            if ctx.state.over:
                return Home()
            return [Home(), Push(TurnPicker())]
        return super().on_press(button, ctx)


def history_lines(state: PennyState, names: Sequence[str]) -> list[str]:
    """Every pass and claim, newest first, with what it moved."""
    out: list[str] = []
    for r in reversed(state.history):
        out.append(f"{r.turn}. {record_title(r, names)}")
        out.append("   " + (net_line(r, names) or "nothing moved"))
        for s in r.eliminated:
            out.append(f"   {names[s]} out")
    return out or ["No claims yet."]


def history_screen(ctx: Context) -> Screen:
    lines = history_lines(ctx.state, ctx.playing.header.players)
    return TextScreen("Claims", ["Newest first."] +
                      [w for line in lines for w in wrap_list(line, draw.WIDTH - 6,
                                                               draw.SMALL + 1)])


# --- the end --------------------------------------------------------------------------------


def end_facts(state: PennyState, names: Sequence[str]) -> list[str]:
    """Biggest claim, best catch (a heading line, then what), then the standings (ties
    share a place) and the bank."""
    lines = ["Biggest claim:"]
    big = biggest_claim(state.history)
    if big is not None:
        assert big.cards is not None  # a kept withdrawal is a claim's
        lines.append(f"  {names[big.seat]}: {claim_words(big.cards)} +{big.kept}")
    else:
        lines.append("  none kept")
    lines.append("Best catch:")
    catch = best_catch(state.history)
    if catch is not None:
        who = " & ".join(names[s] for s in catch.challengers)
        lines.append(f"  {who} on {names[catch.seat]} +{catch.earned}")
    else:
        lines.append("  no bluff caught")
    lines.append("Standings:")
    order = sorted(range(len(names)), key=lambda s: (-state.savings[s], s))
    place = 0
    for i, s in enumerate(order):
        if i == 0 or state.savings[s] != state.savings[order[i - 1]]:
            place = i + 1
        out = " (out)" if s in state.table.eliminated else ""
        lines.append(f"  {place}. {names[s]} {state.savings[s]}{out}")
    lines.append(f"Bank: {state.bank}")
    return lines


SHORT_REASON = {"The bank is empty": "bank empty", "One badger left": "one left",
                "Ended by the group": "ended"}


class PennyEnd(ScrollList):
    """Game over: the winner(s) big with their savings; below, scrolling with UP/DOWN, the
    biggest claim, the best catch and the standings. OK: the start menu."""

    ROWS = 3
    ROW_H = 10
    SIZE = 11

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.first = 0

    def lines(self, ctx: Context) -> list[str]:
        history = [h] if (h := end_line(ctx)) else []  # "3rd win in 5 games"
        return [w for line in history + end_facts(ctx.state, ctx.playing.header.players)
                for w in wrap_list(line, draw.WIDTH - 6, self.SIZE)]

    def header(self, d, ctx: Context, lines) -> int:
        s: PennyState = ctx.state
        names = ctx.playing.header.players
        top = draw.title_bar(d, "Game over", SHORT_REASON.get(end_reason(s), ""))
        winners = [names[w] for w in s.winners]
        if winners:
            amount = s.savings[s.winners[0]]
            verb = "wins" if len(winners) == 1 else "win"
            tail = f" {verb} {amount}"  # whole; as many winners as fit before it
            room = draw.WIDTH - draw.text_size(tail, draw.SMALL)[0]
            text = draw.name_list(winners, room, draw.SMALL, " & ") + tail
        else:
            text = "No winner"
        draw.centered(d, (0, top, draw.WIDTH, top + 20), text, largest=20)
        d.line((0, top + 20, draw.WIDTH, top + 20), fill=1)
        return top + 21

    def draw_line(self, d, ctx: Context, i: int, line: str, y: int) -> None:
        d.text((1, y + self.ROW_H // 2), line, font=draw.font(self.SIZE), fill=1, anchor="lm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK:
            return Push(end_menu(ctx))  # play again or leave
        return super().on_press(button, ctx)


# --- the mode --------------------------------------------------------------------------------


class PennyMode(Mode):
    kind = "penny-badger"
    first_player_text = "Who gave the most pennies goes first:"
    house_rules_text = (
        "The companion is the bank. NEXT: pass (OK) or claim (UP to pick 1-8 cards).",
        "Pass: 1 penny to the bank.",
        "A claim takes from the bank 3 pennies for a wild, 4 for 2 cards, 8 for 3, 16 for 4, "
        "32 for 5, 64 for 6, 128 for 7, the whole bank for 8; never more than it holds.",
        "Not challenged: the claimant keeps them; the cards stay hidden.",
        "Challenged, the cards are shown. True: the claimant keeps them, and each accuser "
        "pays the penalty to the bank and the penalty again to the claimant.",
        "A bluff: the claimant takes nothing, and pays the penalty to the bank and the "
        "penalty again to each accuser.",
        "The penalty: 2 pennies for 2 cards, 4 for 3, 8 for 4, 16 for 5, 32 for 6, 64 for "
        "7, all the payer's savings for 8; for a wild 1 (an accuser) or 2 (a bluffer).",
        "The bank is paid first; a payer short for the bank pays it all they have and is "
        "out, and the others get nothing.",
        "Short for the others: equal shares, odd pennies one each clockwise from the "
        "payer's left.",
        "0 savings: out and skipped. The game ends at the end of a turn with the bank at 0 or "
        "one badger left with savings; the most savings wins, ties share.",
        "Skip and reverse cards: in the menu (hold OK).",
        "Hold BACK to undo a whole settlement, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return Ledger(self)

    def end_screen(self, ctx: Context) -> Screen:
        return PennyEnd(self)

    def house_rules(self, header: Header) -> list[str]:
        return [f"Bank {header.rules['bank']}, savings {header.rules['savings']} each.",
                *self.house_rules_text]

    def game_actions(self, ctx: Context) -> list[Item]:
        return [Item("Pass or claim", Push(TurnPicker())),
                Item("Claims history", lambda c: Push(history_screen(c))),
                Item("Roll dice", Push(dice_menu(ctx)))]
