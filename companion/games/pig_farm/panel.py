"""Pig Farm on the panel: the scoreboard, the butcher roll, the sell flow, round summaries.

Every number shown comes from `companion.games.pig_farm.rules.farm_score`, the same function the
engine scores a `sell` with, so what the table sees while entering a hand is what is added.

Buttons on the scoreboard: NEXT ends the turn (drew and discarded), ROLL rolls the butcher,
OK (or hold OK) opens the menu, whose first item sells the farm.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.errors import IllegalEvent
from companion.games.pig_farm.rules import (
    MIN_SELL_SETS,
    FarmScore,
    PigFarmState,
    butcher_verdict,
    farm_score,
)
from companion.inputs import Button
from companion.rules import dice as dicemod
from companion.rules.game import Header
from companion.ui import clock, draw
from companion.ui.actions import Emit, Home, Pop, Push, Replace, Roll, Toast
from companion.ui.dice import dice_menu, draw_glyph
from companion.ui.modes import Mode
from companion.ui.screen import Confirm, Context, Item, Menu, Result, Screen, ScrollList
from companion.ui.table import EndScreen

MAX_SET_SIZE = 30  # more pigs than three base decks hold of one kind: a slip of the finger
MAX_UNMATCHED = 60


def target_text(target: int | None) -> str:
    return "no target" if target is None else f"to {target}"


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


# --- the scoreboard (home) ----------------------------------------------------------------------


class Scoreboard(Screen):
    """Totals for every seat, the current player inverted, the round and the target on top."""

    ROWS = 4

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.first: int | None = None  # manual scroll (UP/DOWN) for more than ROWS seats

    def window(self, ctx: Context) -> tuple[int, int]:
        n = ctx.state.table.seats
        if n <= self.ROWS:
            return 0, n
        if self.first is None:
            cur = ctx.state.table.current
            first = min(max(0, cur - 1), n - self.ROWS)
        else:
            first = self.first
        return first, self.ROWS

    def draw_on(self, d, ctx: Context) -> None:
        s: PigFarmState = ctx.state
        n = s.table.seats
        top = clock.title_bar(d, ctx, f"Round {s.rounds + 1}", target_text(s.target))
        hint = n <= 3
        bottom = draw.HEIGHT - (11 if hint else 0)
        first, shown = self.window(ctx)
        row_h = min(17, (bottom - top) // shown)
        size = min(row_h - 1, 15)
        for row in range(shown):
            seat = first + row
            y = top + row * row_h
            current = seat == s.table.current
            if current:
                d.rectangle((0, y, draw.WIDTH - 5, y + row_h - 1), fill=1)
                d.polygon([(2, y + row_h // 2 - 3), (5, y + row_h // 2), (2, y + row_h // 2 + 3)],
                          fill=0)
            fill = 0 if current else 1
            total = str(s.scores[seat])
            tw = draw.text_size(total, size)[0]
            d.text((8, y + row_h // 2), draw.clip(ctx.name(seat), draw.WIDTH - 20 - tw, size),
                   font=draw.font(size), fill=fill, anchor="lm")
            d.text((draw.WIDTH - 7, y + row_h // 2), total, font=draw.font(size), fill=fill,
                   anchor="rm")
        draw.scrollbar(d, top, bottom - 1, first, shown, n)
        if hint:
            draw.hint(d, "OK: sell   ROLL: butcher")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.NEXT:
            self.first = None
            return Emit({"type": "next"})
        if button is Button.ROLL:
            return Push(butcher_menu(ctx))
        if button is Button.OK:
            return Push(self.mode.menu(ctx))
        if button in (Button.UP, Button.DOWN):
            n = ctx.state.table.seats
            if n > self.ROWS:
                first, _ = self.window(ctx)
                step = -1 if button is Button.UP else 1
                self.first = min(max(0, first + step), n - self.ROWS)
            return None
        if button is Button.BACK:
            return Toast("Hold BACK to undo")
        return None


# --- the butcher ------------------------------------------------------------------------------


def butcher_event(die: str, *, deal: bool = False):
    def make(dice: dict[str, Any]) -> dict[str, Any]:
        e: dict[str, Any] = {"type": "butcher", "die": die, "face": dice[die]}
        if deal:
            e["deal"] = True
        return e
    return make


def butcher_roll(die: str, *, deal: bool = False) -> Roll:
    """Roll the butcher's die through the app (the dice roller when attached), record a
    `butcher` event and show what everyone discards."""
    label = dicemod.die(die).label
    return Roll((die,), make_event=butcher_event(die, deal=deal),
                then=Replace(ButcherScreen()),
                title=f"Butcher{' at deal' if deal else ''}: {label}")


def butcher_menu(ctx: Context) -> Menu:
    """The drawer picks the die. At the start of a round a dealt butcher can be rolled too."""
    items = [Item("Colors die", butcher_roll("colors")),
             Item("Shapes die", butcher_roll("shapes"))]
    if ctx.state.at_deal:
        items += [Item("Dealt: Colors die", butcher_roll("colors", deal=True)),
                  Item("Dealt: Shapes die", butcher_roll("shapes", deal=True))]
    return Menu("Butcher: which die?", items)


def verdict_lines(die: str, face: str) -> tuple[str, str]:
    """`butcher_verdict` on two lines, for big letters."""
    text = butcher_verdict(die, face)
    if face == dicemod.LOGO:
        one, two = text.split(" ", 1)  # "Logo:", "pigs are safe"
        return one, two
    one, _, rest = text.rpartition(" pigs ")  # "All RED", "pigs out"
    return one, "pigs " + rest


class ButcherScreen(Screen):
    """What every player must discard, in big letters. Any of OK/BACK/NEXT returns home."""

    def draw_on(self, d, ctx: Context) -> None:
        s: PigFarmState = ctx.state
        b = s.last_butcher
        if b is None:  # undone meanwhile: nothing to show
            draw.centered(d, (0, 0, draw.WIDTH, draw.HEIGHT), "No butcher yet", largest=16)
            return
        title = "Butcher at the deal" if b.deal else f"Butcher: {ctx.name(b.player)}"
        top = draw.title_bar(d, title)
        draw_glyph(d, b.die, b.face, (1, top + 4, 27, top + 30))
        one, two = verdict_lines(b.die, b.face)
        draw.centered(d, (30, top, draw.WIDTH, top + 19), one, largest=20)
        draw.centered(d, (30, top + 18, draw.WIDTH, top + 37), two, largest=20)
        d.line((0, 51, draw.WIDTH, 51), fill=1)
        who = ctx.name(s.table.current)
        foot = f"{who} starts" if b.deal else f"Next: {who}"
        draw.centered(d, (0, 53, draw.WIDTH, draw.HEIGHT), foot, largest=12)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.OK, Button.BACK, Button.NEXT):
            return Home()
        return None


# --- selling the farm -----------------------------------------------------------------------


@dataclass
class Draft:
    """One seat's hand while it is entered."""

    sets: list[int] = field(default_factory=list)
    unmatched: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"sets": list(self.sets), "unmatched": self.unmatched}


@dataclass
class SellFlow:
    """The hands of one sale: the seller first, then each other seat in the order of play."""

    seller: int
    order: list[int]
    drafts: dict[int, Draft]

    @classmethod
    def start(cls, ctx: Context) -> SellFlow:
        t = ctx.state.table
        order = [t.current] + [t.step(t.current, k) for k in range(1, t.seats)]
        return cls(t.current, order, {s: Draft() for s in order})

    def event(self) -> dict[str, Any]:
        return {"type": "sell", "hands": [self.drafts[s].to_json()
                                          for s in range(len(self.order))]}


def score_or_none(draft: Draft, *, seller: bool) -> FarmScore | None:
    try:
        return farm_score(draft.sets, draft.unmatched, seller=seller)
    except IllegalEvent:
        return None


def breakdown_items(score: FarmScore) -> list[str]:
    """The breakdown as short items: "3 sets: 30", "2×3: +100", "all used: +100"."""
    n = len(score.sets)
    items = [f"{n} set{'' if n == 1 else 's'}: {score.base}"]
    for count, label, pts in ((score.threes, "3", score.three_bonus),
                              (score.fours, "4", score.four_bonus),
                              (score.fives, "5+", score.five_bonus)):
        if pts:
            items.append(f"{count}×{label}: +{pts}")
    if score.no_unmatched_bonus:
        items.append(f"all used: +{score.no_unmatched_bonus}")
    if not score.seller and (score.threes or score.fours or score.fives):
        items.append("no bonus: not seller")
    return items


def breakdown_lines(score: FarmScore, width: int, *, size: int = draw.SMALL) -> list[str]:
    """The breakdown on at most two lines of `width` pixels. When the labelled items do not
    fit, the bonuses are summed on the first line and listed as numbers on the second."""
    lines: list[str] = []
    for item in breakdown_items(score):
        trial = f"{lines[-1]}  {item}" if lines else item
        if lines and draw.text_size(trial, size)[0] <= width:
            lines[-1] = trial
        else:
            lines.append(item)
    if len(lines) <= 2:
        return lines
    parts = [p for p in (score.three_bonus, score.four_bonus, score.five_bonus,
                         score.no_unmatched_bonus) if p]
    return [f"{len(score.sets)} sets: {score.base}  bonus +{score.bonus}",
            draw.clip(" ".join(f"+{p}" for p in parts), width, size)]


class HandEntry(Screen):
    """One seat's hand: a row of set boxes, a "+" box and the unmatched count.

    UP/DOWN change the box under the cursor (UP on "+" adds a set of 2; DOWN on a set of 2
    removes it); NEXT moves to the next box, ROLL to the one before; OK confirms the hand;
    BACK returns to the previous seat.
    """

    CELL_W = 15

    def __init__(self, flow: SellFlow, index: int) -> None:
        self.flow = flow
        self.index = index
        self.seat = flow.order[index]
        self.draft = flow.drafts[self.seat]
        self.cursor = len(self.draft.sets)  # on "+"
        self.scroll = 0

    @property
    def seller(self) -> bool:
        return self.seat == self.flow.seller

    @property
    def plus(self) -> int:
        return len(self.draft.sets)

    @property
    def unmatched_cell(self) -> int:
        return len(self.draft.sets) + 1

    def score(self) -> FarmScore | None:
        return score_or_none(self.draft, seller=self.seller)

    # drawing

    def draw_on(self, d, ctx: Context) -> None:
        name = ctx.name(self.seat)
        n = len(self.flow.order)
        top = draw.title_bar(d, f"{name} SELLS" if self.seller else f"{name}'s hand",
                             f"{self.index + 1}/{n}")
        self._draw_sets(d, top)
        score = self.score()
        self._draw_unmatched(d, top + 16, score)
        d.line((0, 43, draw.WIDTH, 43), fill=1)
        self._draw_points(d, 44, score)

    def _draw_sets(self, d, y: int) -> None:
        cells = [str(s) for s in self.draft.sets] + ["+"]
        fit = (draw.WIDTH - 4) // self.CELL_W
        if self.cursor < len(cells):
            if self.cursor < self.scroll:
                self.scroll = self.cursor
            elif self.cursor >= self.scroll + fit:
                self.scroll = self.cursor - fit + 1
        self.scroll = max(0, min(self.scroll, max(0, len(cells) - fit)))
        for i, label in enumerate(cells[self.scroll:self.scroll + fit]):
            k = self.scroll + i
            x = 3 + i * self.CELL_W
            box = (x, y, x + self.CELL_W - 3, y + 13)
            on = k == self.cursor
            if label == "+":
                d.rectangle(box, outline=1, fill=1 if on else 0)
            else:
                d.rounded_rectangle(box, radius=3, outline=1, fill=1 if on else 0, width=1)
            d.text(((box[0] + box[2]) // 2 + 1, (box[1] + box[3]) // 2 + 1), label,
                   font=draw.font(12), fill=0 if on else 1, anchor="mm")
        if self.scroll > 0:
            d.polygon([(0, y + 7), (2, y + 4), (2, y + 10)], fill=1)
        if self.scroll + fit < len(cells):
            d.polygon([(draw.WIDTH - 1, y + 7), (draw.WIDTH - 3, y + 4),
                       (draw.WIDTH - 3, y + 10)], fill=1)

    def _draw_unmatched(self, d, y: int, score: FarmScore | None) -> None:
        """The unmatched box on the left; the hand's points, as large as fit, on the right."""
        label = f"Unmatched {self.draft.unmatched}"
        on = self.cursor == self.unmatched_cell
        w = draw.text_size(label, 11)[0] + 5
        if on:
            d.rectangle((0, y + 1, w, y + 13), fill=1)
        d.text((2, y + 7), label, font=draw.font(11), fill=0 if on else 1, anchor="lm")
        if score is not None and (self.draft.sets or self.draft.unmatched):
            total = f"= {score.total}"
            size = draw.fit(total, draw.WIDTH - w - 4, 16, largest=17)
            d.text((draw.WIDTH - 1, y + 8), total, font=draw.font(size), fill=1, anchor="rm")

    def _draw_points(self, d, y: int, score: FarmScore | None) -> None:
        """The breakdown of the points (or what is missing) on two lines."""
        if score is None or (not self.draft.sets and not self.draft.unmatched):
            k = len(self.draft.sets)
            first = (f"Needs {MIN_SELL_SETS} sets to sell" if self.seller
                     else "No sets: 0 points")
            second = "▲ add a set  NEXT: move" if k == 0 else f"Has {k}: add more"
            lines = [first, second]
        else:
            lines = breakdown_lines(score, draw.WIDTH - 2)
        for i, line in enumerate(lines[:2]):
            d.text((draw.WIDTH // 2, y + 5 + i * 10), line, font=draw.font(draw.SMALL),
                   fill=1, anchor="mm")

    # buttons

    def on_press(self, button: Button, ctx: Context) -> Result:
        sets = self.draft.sets
        if button is Button.UP:
            if self.cursor == self.plus:
                sets.append(2)  # the cursor now stands on the new set
            elif self.cursor == self.unmatched_cell:
                self.draft.unmatched = min(MAX_UNMATCHED, self.draft.unmatched + 1)
            else:
                sets[self.cursor] = min(MAX_SET_SIZE, sets[self.cursor] + 1)
        elif button is Button.DOWN:
            if self.cursor == self.unmatched_cell:
                self.draft.unmatched = max(0, self.draft.unmatched - 1)
            elif self.cursor < self.plus:
                if sets[self.cursor] > 2:
                    sets[self.cursor] -= 1
                else:
                    del sets[self.cursor]  # below 2 pigs it is no set: removed
        elif button is Button.NEXT:
            self.cursor = (self.cursor + 1) % (len(sets) + 2)
        elif button is Button.ROLL:
            self.cursor = (self.cursor - 1) % (len(sets) + 2)
        elif button is Button.OK:
            return self.confirm(ctx)
        elif button is Button.BACK:
            if self.index == 0 and (sets or self.draft.unmatched):
                return Push(Confirm("Stop selling?", Home(), detail="The hands are dropped"))
            return Pop()
        return None

    def confirm(self, ctx: Context) -> Result:
        try:
            farm_score(self.draft.sets, self.draft.unmatched, seller=self.seller)
        except IllegalEvent as e:
            return Toast(str(e).capitalize(), 3.0)
        if self.index + 1 < len(self.flow.order):
            return Push(HandEntry(self.flow, self.index + 1))
        return Emit(self.flow.event(), then=[Home(), Push(RoundSummary())])


def sell_screen(ctx: Context) -> Result:
    return Push(HandEntry(SellFlow.start(ctx), 0))


# --- after a round, and at the end ------------------------------------------------------------


class RoundSummary(ScrollList):
    """The round just scored: each seat's points and new total. UP/DOWN scroll; OK goes on."""

    def __init__(self, round_no: int | None = None) -> None:
        self.round_no = round_no  # 1-based; None = the last round
        self.first = 0

    def index(self, s: PigFarmState) -> int:
        return (self.round_no or s.rounds) - 1

    def lines(self, ctx: Context) -> list[int]:
        return list(range(ctx.state.table.seats))

    def draw_on(self, d, ctx: Context) -> None:
        if not ctx.state.results:
            draw.centered(d, (0, 0, draw.WIDTH, draw.HEIGHT), "No round scored", largest=16)
            return
        super().draw_on(d, ctx)

    def header(self, d, ctx: Context, lines) -> int:
        r = ctx.state.results[self.index(ctx.state)]
        return draw.title_bar(d, f"R{self.index(ctx.state) + 1}: {ctx.name(r.seller)} sold",
                              "+pts  total")

    def draw_lines(self, d, ctx: Context, top: int, lines) -> int:
        # Two or three seats get taller lines (16 px, 13 px text) than four or more (12, 11).
        self.ROW_H = min(16, (draw.HEIGHT - top) // min(self.ROWS, len(lines)))
        return super().draw_lines(d, ctx, top, lines)

    def draw_line(self, d, ctx: Context, seat: int, _, y: int) -> None:
        s: PigFarmState = ctx.state
        k = self.index(s)
        r = s.results[k]
        totals = [sum(rr.points[i] for rr in s.results[:k + 1]) for i in range(s.table.seats)]
        size = min(self.ROW_H - 1, 13)
        y += self.ROW_H // 2
        # The columns as wide as their widest figure (scores of thousands), the name in the
        # rest: 94 and 58 as before for figures of up to three digits.
        total_w = max(draw.text_size(str(t), size)[0] for t in totals)
        pts_right = min(94, draw.WIDTH - 5 - total_w - 5)
        pts_w = max(draw.text_size(signed(p), size)[0] for p in r.points)
        name = ctx.name(seat) + (" $" if seat == r.seller else "")
        d.text((1, y), draw.clip(name, min(58, pts_right - pts_w - 5), size),
               font=draw.font(size), fill=1, anchor="lm")
        d.text((pts_right, y), signed(r.points[seat]), font=draw.font(size), fill=1, anchor="rm")
        d.text((draw.WIDTH - 5, y), str(totals[seat]), font=draw.font(size), fill=1,
               anchor="rm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.OK, Button.BACK, Button.NEXT):
            return Pop()
        return super().on_press(button, ctx)


class RoundsTable(ScrollList):
    """Points by round: rounds down, seats across (four at a time; NEXT shows more seats),
    totals on the last line. UP/DOWN scroll the rounds."""

    COLS = 4  # seats shown at once; three when a figure is too wide for four (-1650)
    ROWS = 3  # rounds shown at once; the totals line is always under them
    ROW_H = 10
    LABEL_W = 20

    def __init__(self, *, done: Any = Pop()) -> None:
        self.first = 0  # first round line shown
        self.page = 0  # first seat shown = page * COLS
        self.done = done

    def cols(self, s: PigFarmState) -> int:
        figures = [*s.scores, *(p for r in s.results for p in r.points)]
        widest = max((draw.text_size(str(p), draw.SMALL)[0] for p in figures), default=0)
        return max(1, min(self.COLS, (draw.WIDTH - self.LABEL_W - 4) // (widest + 3)))

    def col_w(self, s: PigFarmState) -> int:  # 26 for four, as ever; clear of the scroll bar
        return (draw.WIDTH - self.LABEL_W - 4) // self.cols(s)

    def pages(self, s: PigFarmState) -> int:
        return (s.table.seats + self.cols(s) - 1) // self.cols(s)

    def seats(self, s: PigFarmState) -> range:
        cols = self.cols(s)
        self.page = min(self.page, self.pages(s) - 1)
        return range(self.page * cols, min(s.table.seats, (self.page + 1) * cols))

    def lines(self, ctx: Context) -> list[tuple[str, tuple[int, ...]]]:
        return [(f"R{i + 1}", r.points) for i, r in enumerate(ctx.state.results)]

    def header(self, d, ctx: Context, lines) -> int:
        pages = self.pages(ctx.state)
        top = draw.title_bar(d, "Points by round",
                             f"{self.page + 1}/{pages}" if pages > 1 else "")
        col_w = self.col_w(ctx.state)
        for col, seat in enumerate(self.seats(ctx.state)):
            d.text((self.LABEL_W + (col + 1) * col_w, top),
                   draw.clip(ctx.name(seat), col_w - 2, draw.SMALL),
                   font=draw.font(draw.SMALL), fill=1, anchor="ra")
        d.line((0, top + 10, draw.WIDTH - 4, top + 10), fill=1)
        return top + 11

    def draw_on(self, d, ctx: Context) -> None:
        lines = self.lines(ctx)
        top = self.header(d, ctx, lines)
        y = top + self.draw_lines(d, ctx, top, lines) * self.ROW_H
        d.line((0, y, draw.WIDTH - 4, y), fill=1)
        self.draw_line(d, ctx, len(lines), ("Tot", ctx.state.scores), y + 1)

    def draw_line(self, d, ctx: Context, i: int, line, y: int) -> None:
        label, points = line
        d.text((0, y), label, font=draw.font(draw.SMALL), fill=1)
        col_w = self.col_w(ctx.state)
        for col, seat in enumerate(self.seats(ctx.state)):
            d.text((self.LABEL_W + (col + 1) * col_w, y), str(points[seat]),
                   font=draw.font(draw.SMALL), fill=1, anchor="ra")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.NEXT, Button.ROLL):
            step = 1 if button is Button.NEXT else -1
            self.page = (self.page + step) % self.pages(ctx.state)
        elif button in (Button.OK, Button.BACK):
            return self.done
        return super().on_press(button, ctx)


class PigEndScreen(EndScreen):
    """The winners and their total, big; DOWN opens the per-round table; OK leaves."""

    hint = "OK: again / leave  ▼ table"  # OK: the end menu (play again / start menu)
    more_buttons = (Button.DOWN, Button.UP, Button.NEXT)

    def heading(self, ctx: Context) -> str:
        rounds = ctx.state.rounds
        return f"Game over: {rounds} round{'' if rounds == 1 else 's'}"

    def label(self, ctx: Context) -> str:
        s: PigFarmState = ctx.state
        label = super().label(ctx)
        return label and f"{label}: {s.scores[s.winners[0]]} points"

    def more(self, ctx: Context) -> Screen:
        return RoundsTable()


# --- the mode -------------------------------------------------------------------------------


class PigFarmMode(Mode):
    kind = "pig-farm"
    first_player_text = "The best hog call or pig sound goes first:"
    house_rules_text = (
        "A set is 2 or more pigs of one color and shape; 4 alike is one set of 4.",
        "NEXT: the turn ends (drew 2, discarded 1).",
        "ROLL: butcher drawn: pick the Colors or Shapes die; the turn ends.",
        "A butcher dealt at the start: ROLL, then 'Dealt:' before the first turn.",
        "Sell (OK menu): 3 or more sets. Enter the seller's sets, then everyone's.",
        "Seller: 3 sets 30, 4: 50, 5: 70, 6: 100, +50 per further set; +50 per set of 3, "
        "+150 per set of 4, +250 per set of 5+, +100 with no unmatched pig.",
        "Others: 0-3 sets 0/5/15/30, 4: 0, 5: -30, 6: -50, -50 per further set; no bonuses.",
        "After a sale the seat after the seller starts the next round.",
        "The game ends after a round with a total at the target; the highest total wins, "
        "ties share.",
        "Hold BACK to undo; a whole round's scoring undoes at once.",
    )

    def home(self, ctx: Context) -> Screen:
        return Scoreboard(self)

    def end_screen(self, ctx: Context) -> Screen:
        return PigEndScreen()

    def house_rules(self, header: Header) -> list[str]:
        target = header.rules.get("target")
        lines = list(self.house_rules_text)
        lines.append("Target: none, play until the group ends the game." if target is None
                     else f"Target: the game ends after a round with {target} or more.")
        return lines

    def game_actions(self, ctx: Context) -> list[Item]:
        return [
            Item("Sell the farm", sell_screen),
            Item("Butcher card", lambda c: Push(butcher_menu(c))),
            Item("Points by round", lambda c: Push(RoundsTable())),
            Item("Last round", lambda c: Push(RoundSummary()) if c.state.results
                 else Toast("No round scored yet")),
            Item("Roll dice", lambda c: Push(dice_menu(c))),
        ]
