"""A design game on the panel: one generic `Mode` for every design (its kind name is the
design's, `design:<hash>`), read from the design as the engine is.

The home screen is the built-in kinds' vocabulary: the turn header (the pot on its right when
the design has one), whose turn (biggest), one cell per player of the main tally (the winning
one; the current player's inverted, a player who is out struck through), who is next. The
buttons: NEXT ends the turn (during the roll-off for who goes first it rolls the 8-sided die
for the next contender, and when a round's scores are asked it opens their entry); ROLL rolls
the design's dice (the roll-off's die while it runs); UP plays the design's first move; DOWN
shows every tally; OK opens the menu, whose first items are the design's moves ("…" where a
move asks for a player or a number: a player picker, a `NumberEntry`).
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.inputs import Button
from companion.rules.design import DesignGame, DesignState
from companion.rules.design.format import FIRST, End, MoveDesign
from companion.rules.game import Header
from companion.ui import draw
from companion.ui.actions import Emit, Home, Pop, Push, Roll, Toast
from companion.ui.modes import FirstPlayer, Mode
from companion.ui.screen import (
    Context,
    Item,
    NumberEntry,
    Result,
    Screen,
    TextScreen,
    pick_player,
)
from companion.ui.table import EndScreen, TableScreen, next_line, turn_header

DESIGN_RULE = "design"  # the header's rule that carries the design: not a house rule to list
CELLS = 8  # cells of the main tally at once; more players: the eight around the current one


def main_tally(game: DesignGame) -> int:
    """The tally the home screen shows for everyone: the winning one, else the money, else
    the first."""
    d = game.design
    if d.winner.tally is not None:
        return d.tally_index(d.winner.tally)
    return d.money_tally if d.money_tally is not None else 0


def tally_lines(game: DesignGame, ctx: Context) -> list[str]:
    """Every tally of every player, and the pot: "Ann: coins 10, strikes 1 (out)"."""
    s: DesignState = ctx.state
    d = game.design
    lines = []
    for seat in range(s.table.seats):
        each = ", ".join(f"{t.name} {s.tallies[i][seat]}" for i, t in enumerate(d.tallies))
        out = " (out)" if seat in s.table.eliminated else ""
        lines.append(f"{ctx.name(seat)}: {each}{out}")
    if s.pot is not None:
        lines.append(f"Pot: {s.pot}")
    if s.round:
        lines.append(f"Rounds played: {s.round}")
    return lines


def move_label(m: MoveDesign) -> str:
    return m.name + ("…" if m.chooses or m.ask is not None else "")


def play(game: DesignGame, m: MoveDesign, ctx: Context, player: int | None = None,
         amount: int | None = None) -> Result:
    """What playing move `m` does on the panel: pick the chosen player first, then type the
    amount it asks for, then roll its dice or record it; back to the home screen after."""
    if m.chooses and player is None:
        t = ctx.state.table
        pays = any(e.do == "pay" and "chosen" in (e.source, e.target) for e in m.effects)
        seats = [s for s in t.active if not (pays and s == t.current)]
        return Push(pick_player(f"{m.name}: who?", ctx,
                                lambda s: play(game, m, ctx, s, amount), seats=seats))
    if m.ask is not None and amount is None:
        lo, hi = m.ask.min, m.ask.max
        return Push(NumberEntry(f"{m.name}: how many?", value=lo, lo=lo, hi=hi,
                                done=lambda v: play(game, m, ctx, player, v)))
    event: dict[str, Any] = {"type": "move", "name": m.name}
    if player is not None:
        event["player"] = player
    if amount is not None:
        event["amount"] = amount
    if m.rolls:
        return [Home(), Roll(m.rolls, make_event=lambda dice: {**event, "dice": dice},
                             title=m.name)]
    return Emit(event, then=Home())


def roll_off(ctx: Context) -> Result:
    """The next contender's roll of the 8-sided die for who goes first."""
    s: DesignState = ctx.state
    seat = s.to_roll[0]
    return Roll(("d8",), make_event=lambda dice: {"type": "roll", "dice": dice, "player": seat},
                title=f"{ctx.name(seat)}: who first?", who=seat)


class DesignScreen(TableScreen):
    """Whose turn (biggest), everyone's main tally, who is next; the pot top right. While the
    table rolls for who goes first, or a round's scores are asked, it says so instead."""

    def __init__(self, mode: DesignMode) -> None:
        super().__init__(mode)
        self.design_mode = mode

    def draw_on(self, d, ctx: Context) -> None:
        s: DesignState = ctx.state
        game = self.design_mode.game
        t = s.table
        turn_header(d, ctx, right=f"POT {s.pot}" if s.pot is not None else None)
        if s.rolling and not s.over:
            draw.centered(d, (0, 13, draw.WIDTH, 33), ctx.name(s.to_roll[0]), largest=22)
            d.rectangle((0, 34, draw.WIDTH - 1, 50), fill=1)
            draw.centered(d, (2, 35, draw.WIDTH - 2, 50), "ROLL: who first", largest=14,
                          fill=0)
            draw.hint(d, "ROLL: the 8-sided die")
            return
        if s.scoring and not s.over:
            draw.centered(d, (0, 13, draw.WIDTH, 33), f"Round {s.round + 1} over",
                          largest=18)
            d.rectangle((0, 34, draw.WIDTH - 1, 50), fill=1)
            draw.centered(d, (2, 35, draw.WIDTH - 2, 50), "NEXT: the scores", largest=14,
                          fill=0)
            draw.hint(d, "Type each player's score")
            return
        draw.centered(d, (0, 13, draw.WIDTH, 33), ctx.name(t.current), largest=22)
        self.draw_cells(d, ctx, game, (0, 36, draw.WIDTH, 50))
        d.line((0, 51, draw.WIDTH, 51), fill=1)
        next_line(d, ctx, 58)

    @staticmethod
    def draw_cells(d, ctx: Context, game: DesignGame, box: tuple[int, int, int, int]) -> None:
        """The main tally of each player in seat order, the current player's inverted, a
        player who is out struck through; up to eight at once (with more, the eight of the
        current player's group), with the names when four or fewer play."""
        s: DesignState = ctx.state
        values = s.tallies[main_tally(game)]
        x0, y0, x1, y1 = box
        n = len(values)
        shown = min(n, CELLS)
        first = min(s.table.current // shown * shown, n - shown)
        w = (x1 - x0) // shown
        for col, seat in enumerate(range(first, first + shown)):
            cell = (x0 + col * w, y0, x0 + (col + 1) * w - 2, y1)
            cur = seat == s.table.current
            if cur:
                d.rectangle(cell, fill=1)
            v = values[seat]
            text = f"{ctx.name(seat)} {v}" if n <= 4 else str(v)
            draw.centered(d, (cell[0] + 1, y0, cell[2], y1 + 1), text, largest=12,
                          fill=0 if cur else 1)
            if seat in s.table.eliminated:
                mid = (y0 + y1) // 2
                d.line((cell[0], mid, cell[2], mid), fill=0 if cur else 1)

    def on_press(self, button: Button, ctx: Context) -> Result:
        s: DesignState = ctx.state
        game = self.design_mode.game
        if s.rolling and not s.over and button in (Button.NEXT, Button.ROLL):
            return roll_off(ctx)
        if s.scoring and not s.over and button is Button.NEXT:
            return Push(RoundScoreEntry(game, ctx))
        if button is Button.ROLL:
            if not game.design.dice:
                return Toast(f"{game.title} uses no dice")
            return Roll(game.design.dice)
        if button is Button.UP and game.design.moves:
            return play(game, game.design.moves[0], ctx)
        if button is Button.DOWN:
            return Push(TextScreen("Tallies", tally_lines(game, ctx)))
        return super().on_press(button, ctx)


class RoundScoreEntry(Screen):
    """Each player's score for the round, seat by seat (a player who is out scores 0 and is
    passed over): UP/DOWN +-1 (hold: +-10), OK/NEXT to the next player, BACK to the one
    before. After the last: recorded. The whole table is asked."""

    asks_table = True

    def __init__(self, game: DesignGame, ctx: Context) -> None:
        rs = game.design.round_score
        assert rs is not None
        self.game = game
        self.lo, self.hi = rs.min, rs.max
        self.tally = game.design.tally_index(rs.tally)
        out = ctx.state.table.eliminated
        self.seats = [s for s in range(ctx.state.table.seats) if s not in out]
        self.scores = [0] * ctx.state.table.seats
        self.at = 0

    def draw_on(self, d, ctx: Context) -> None:
        s: DesignState = ctx.state
        seat = self.seats[self.at]
        top = draw.title_bar(d, f"Round {s.round + 1} scores", f"{self.at + 1}/{len(self.seats)}")
        d.text((2, top + 7), draw.clip(ctx.name(seat), 56, 14), font=draw.font(14), fill=1,
               anchor="lm")
        v = self.scores[seat]
        draw.centered(d, (60, top, draw.WIDTH - 2, 50), str(v), largest=30)
        total = s.tallies[self.tally][seat]
        d.text((2, top + 24), f"now {total}", font=draw.font(draw.SMALL + 1), fill=1,
               anchor="lm")
        d.text((2, top + 36), f"→ {total + v}", font=draw.font(draw.SMALL + 1), fill=1,
               anchor="lm")
        last = self.at == len(self.seats) - 1
        draw.hint(d, "OK: record the round" if last else "OK: next player")

    def step(self, by: int) -> None:
        seat = self.seats[self.at]
        self.scores[seat] = max(self.lo, min(self.hi, self.scores[seat] + by))

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.step(1)
        elif button is Button.DOWN:
            self.step(-1)
        elif button is Button.BACK:
            if self.at == 0:
                return Pop()
            self.at -= 1
        elif button in (Button.OK, Button.NEXT):
            if self.at < len(self.seats) - 1:
                self.at += 1
                return None
            return Emit({"type": "score", "scores": list(self.scores)}, then=Home())
        return None

    def on_hold(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.step(10)
        elif button is Button.DOWN:
            self.step(-10)
        return None


class DesignEnd(EndScreen):
    """Game over: the winners big, with their main tally; UP/DOWN show every tally."""

    more_buttons = (Button.UP, Button.DOWN)

    def __init__(self, game: DesignGame) -> None:
        self.game = game

    def detail(self, ctx: Context) -> str:
        s: DesignState = ctx.state
        if not s.winners or not self.game.design.tallies:
            return ""
        i = main_tally(self.game)
        return f"{s.tallies[i][s.winners[0]]} {self.game.design.tallies[i].name}"

    def more(self, ctx: Context) -> Screen:
        return TextScreen("Tallies", tally_lines(self.game, ctx))


def _end_words(end: End, rules: Mapping[str, Any]) -> str:
    """One way a design ends, in plain words: "first to 10 coins", "after 5 rounds"."""
    if end.when == "reach":
        return f"first to {rules.get('target', end.target)} {end.tally}"
    if end.when == "rounds":
        n = rules.get("rounds", end.rounds)
        return f"after {n} round{'s' * (n != 1)}"
    return {"pot_empty": "when the pot is empty", "one_left": "when one player is left",
            "group": "when the group ends it"}.get(end.when, end.when)


class DesignMode(Mode):
    """The screens of one design game."""

    def __init__(self, game: DesignGame) -> None:
        self.kind = game.kind
        self.game = game
        d = game.design
        self.first_player_text = {
            "picked": "The group picks:",
            "roll_off": "Highest 8-sided roll: BACK, ROLL. Or pick:",
            "next_seat": "The next seat each game, or pick:",
        }.get(d.first, FIRST.get(d.first, ""))
        self.house_rules_text = self.rules_text()

    def rules_text(self, rules: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """The design in a few plain lines: its moves, how it ends (the target and the rounds
        as the house rules `rules` set them, else as the design does), who wins."""
        d = self.game.design
        rules = rules or {}
        lines = [f"{d.title}: a game of ours."]
        if d.moves:
            lines.append("Moves: " + ", ".join(m.name for m in d.moves) + ". On the box: "
                         f"hold OK for them; UP plays {d.moves[0].name}.")
        if d.pot is not None:
            lines.append(f"The pot starts at {rules.get('pot start', d.pot)}.")
        if d.round_score is not None:
            lines.append(f"Each round the group types everyone's {d.round_score.tally}.")
        ends = sorted(d.end, key=lambda e: e.when == "group")  # "when the group ends it" last
        lines.append("The game ends: " + ", or ".join(_end_words(e, rules) for e in ends) + ".")
        w = d.winner
        lines.append("The last player left wins." if w.by == "last_left" else
                     f"Winner: the {w.by} {w.tally} (a tie shares the win).")
        lines.append("Hold BACK to undo the last action, any number of times.")
        return tuple(lines)

    def house_rules(self, header: Header) -> list[str]:
        """The rules' text and the house rules in force, but not the design itself (which
        the header carries too)."""
        rules = {k: v for k, v in header.rules.items() if k != DESIGN_RULE}
        lines = list(self.rules_text(rules))  # the target and rounds of this game
        lines += [f"{key}: {value}" for key, value in rules.items()]
        return lines

    def home(self, ctx: Context) -> Screen:
        return DesignScreen(self)

    def end_screen(self, ctx: Context) -> Screen:
        return DesignEnd(self.game)

    def first_player_screen(self, ctx: Context) -> Screen:
        return FirstPlayer(self, ctx)

    def after_web_action(self, event: dict, ctx: Context) -> Result:
        s: DesignState = ctx.state
        if s.scoring and not s.over:  # a phone ended the round of turns: the scores next
            return Push(RoundScoreEntry(self.game, ctx))
        return None

    def game_actions(self, ctx: Context) -> list[Item]:
        game = self.game
        d = game.design
        s: DesignState = ctx.state
        items = [Item(move_label(m), lambda c, m=m: play(game, m, c)) for m in d.moves]
        if d.round_score is not None:
            items.append(Item("Round scores…", lambda c: Push(RoundScoreEntry(game, c))))
        items.append(Item("Tallies", lambda c: Push(TextScreen("Tallies",
                                                               tally_lines(game, c)))))
        if s.rolling:
            items.append(Item("Roll for first", lambda c: [Home(), roll_off(c)]))
        if d.dice:
            items.append(Item("Roll dice", Roll(d.dice)))
        items.append(Item("Who goes first…", lambda c: Push(FirstPlayer(self, c))))
        return items
