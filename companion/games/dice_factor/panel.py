"""Dice Factor screens: the roll-off, the two targets always on show, the 8-sided die's
meaning, and the hand limits (docs/rules.md, "Dice Factor").
"""

from __future__ import annotations

import math
from typing import Any

from companion.games.dice_factor.rules import LOSE_TURN, roll_off_winner
from companion.inputs import Button
from companion.rules import dice as dicemod
from companion.ui import clock, draw
from companion.ui.actions import Emit, Home, Pop, Push, Replace, Roll, Toast
from companion.ui.dice import draw_glyph
from companion.ui.modes import Mode
from companion.ui.screen import Context, Item, Menu, Result, Screen, TextScreen, pick_player
from companion.ui.table import TableScreen, next_line

TARGET_DICE = ("colors", "shapes")
ANY_ONE = {"colors": "ANY ONE COLOR", "shapes": "ANY ONE SHAPE"}


def target_text(die: str, face: Any) -> str:
    """What a target die asks for, in words: "5 GREEN", "5 PENTAGON", "5 ANY ONE COLOR"."""
    dicemod.die(die).check(face)
    if face == dicemod.LOGO:
        return f"5 {ANY_ONE[die]}"
    return f"5 {str(face).upper()}"


def targets_rolled(state) -> bool:
    return state.colors is not None or state.shapes is not None


def roll_targets() -> Roll:
    return Roll(TARGET_DICE, title="Targets")


def roll_d8() -> Roll:
    return Roll(("d8",), title="8-sided die", then=Replace(D8Outcome()))


def draw_target(d, die: str, face: Any, box: tuple[int, int, int, int]) -> None:
    """One target: the face's glyph, then its meaning in words, as large as fits."""
    x0, y0, x1, y1 = box
    g = y1 - y0
    if face is None:
        draw.centered(d, box, f"{die.upper()}: not rolled", largest=12)
        return
    draw_glyph(d, die, face, (x0, y0, x0 + g, y1))
    draw.centered(d, (x0 + g + 3, y0, x1, y1 + 1), target_text(die, face), largest=16)


class DiceFactorScreen(TableScreen):
    """Whose turn (biggest), both targets in words and glyphs, the hand limit, who is next.

    NEXT ends the turn; ROLL rolls the targets if they are not on the table yet, else the
    8-sided die (turn option 3).
    """

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        t = s.table
        draw.direction_arrow(d, (6, 10), 5, t.direction)
        hand = f"HAND {s.hand_limits[t.current]}"
        box = draw.badge(d, (clock.draw_corner(d, ctx) - 1, 10), hand, 11, anchor="r")
        draw.centered(d, (14, 0, box[0] - 2, 21), ctx.name(t.current), largest=22)
        if targets_rolled(s):
            draw_target(d, "colors", s.colors, (1, 23, draw.WIDTH - 1, 37))
            draw_target(d, "shapes", s.shapes, (1, 39, draw.WIDTH - 1, 53))
        else:
            draw.centered(d, (0, 23, draw.WIDTH, 38), "ROLL: the targets", largest=16)
            draw.centered(d, (0, 39, draw.WIDTH, 52), "Colors + Shapes dice", largest=12)
        next_line(d, ctx, 59)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.ROLL:
            return roll_d8() if targets_rolled(ctx.state) else roll_targets()
        return super().on_press(button, ctx)


class D8Outcome(Screen):
    """What the 8-sided die means (turn option 3): 1-5 the turn is already over; 6 and 7 say
    what to do; 8 asks which die to re-roll.
    """

    HEADS = {6: "Trade a card", 7: "Trade hands", 8: "Re-roll a die"}
    DETAIL = {6: ("Swap 1 card for a", "random card of a player"),
              7: ("OK: pick who to trade", "hands with"),
              8: ("OK: pick Colors or", "Shapes")}

    def face(self, ctx: Context) -> int | None:
        roll = ctx.state.last_roll or {}
        return roll.get("d8")

    def draw_on(self, d, ctx: Context) -> None:
        face = self.face(ctx)
        if face is None:
            draw.centered(d, (0, 0, draw.WIDTH, 64), "Roll the 8-sided die", largest=16)
            return
        draw_glyph(d, "d8", face, (0, 0, 30, 30))
        if face in LOSE_TURN:
            draw.centered(d, (32, 0, draw.WIDTH, 30), "Lose your turn", largest=22)
            draw.centered(d, (0, 32, draw.WIDTH, 52),
                          f"{ctx.name(ctx.state.table.current)}'s turn now", largest=16)
            draw.hint(d, "OK: carry on")
            return
        draw.centered(d, (32, 0, draw.WIDTH, 30), self.HEADS[face], largest=22)
        for i, line in enumerate(self.DETAIL[face]):
            draw.centered(d, (0, 30 + 11 * i, draw.WIDTH, 41 + 11 * i), line, largest=11)
        if face == 6:
            draw.hint(d, "NEXT: end the turn")

    def on_press(self, button: Button, ctx: Context) -> Result:
        face = self.face(ctx)
        if button is Button.OK:
            if face == 7:
                return Push(trade_hands_menu(ctx))
            if face == 8:
                return Push(reroll_menu())
            return Home()
        if button is Button.NEXT:
            if face in LOSE_TURN or face is None:
                return Home()  # the die already ended the turn
            return Emit({"type": "next"}, then=Home())
        if button is Button.BACK:
            return Home()
        return None


def reroll_menu() -> Menu:
    return Menu("Re-roll which die?", [
        Item("Colors die", Roll(("colors",), title="New colors target")),
        Item("Shapes die", Roll(("shapes",), title="New shapes target")),
    ])


def trade_hands_menu(ctx: Context) -> Menu:
    me = ctx.state.table.current
    others = [s for s in ctx.state.table.active if s != me]

    def done(seat: int):
        return Emit({"type": "trade_hands", "player": seat},
                    then=[Home(), Toast(f"Hands traded with {ctx.name(seat)}")])

    return pick_player("Trade hands with?", ctx, done, seats=others)


def hand_limits_screen(ctx: Context) -> Screen:
    limits = ctx.state.hand_limits
    return TextScreen("Hand limits", [f"{ctx.name(s)}: {n} cards" for s, n in enumerate(limits)])


def win_menu(ctx: Context) -> Menu:
    def done(seat: int):
        from companion.ui.screen import Confirm
        return Push(Confirm(f"{ctx.name(seat)} wins?", Emit({"type": "win", "player": seat}),
                            detail="5 of a kind on a target"))

    return pick_player("Who has 5 alike?", ctx, done, cursor=ctx.state.table.current)


class RollOff(Screen):
    """Who goes first: the companion rolls the 8-sided die for every player in turn, shows all
    rolls and applies the tie rule (docs/rules.md, "Dice Factor"): the highest roll nobody else
    rolled goes first; when every roll is shared, all roll again.
    """

    asks_table = True

    def __init__(self) -> None:
        self.partial: dict[int, int] = {}

    def roll_all(self, ctx: Context) -> Roll:
        n = ctx.playing.header.players
        self.partial = {}
        action: Any = Pop()  # after the last roll: back to this screen, which shows them all
        for seat in reversed(range(len(n))):
            action = Roll(("d8",), make_event=self._taker(seat, len(n)), then=action,
                          title=f"{ctx.name(seat)} rolled", who=seat)
        return action

    def _taker(self, seat: int, n: int):
        def take(dice: dict[str, Any]) -> dict[str, Any] | None:
            self.partial[seat] = dice["d8"]
            if len(self.partial) < n:
                return None  # recorded with the others in one roll_off event
            return {"type": "roll_off", "rolls": [self.partial[s] for s in range(n)]}
        return take

    def draw_on(self, d, ctx: Context) -> None:
        rolls = ctx.state.roll_off
        top = draw.title_bar(d, "Who goes first? Roll-off")
        if rolls is None:
            draw.centered(d, (0, top, draw.WIDTH, top + 18), "Everyone rolls", largest=16)
            draw.centered(d, (0, top + 18, draw.WIDTH, top + 32), "the 8-sided die",
                          largest=14)
            draw.centered(d, (0, top + 33, draw.WIDTH, 64), "ROLL or OK: roll for all",
                          largest=11)
            return
        winner = roll_off_winner(rolls)
        big = f"{ctx.name(winner)} first" if winner is not None else "Tie: roll again"
        draw.centered(d, (0, top, draw.WIDTH, top + 18), big, largest=18)
        draw_rolls(d, ctx, rolls, winner, (0, top + 19, draw.WIDTH, 64))

    def on_press(self, button: Button, ctx: Context) -> Result:
        rolls = ctx.state.roll_off
        done = rolls is not None and roll_off_winner(rolls) is not None
        if button is Button.ROLL or (button is Button.OK and not done):
            return self.roll_all(ctx)
        if button in (Button.OK, Button.BACK):
            return Home()
        return None


def draw_rolls(d, ctx: Context, rolls: tuple[int, ...], winner: int | None,
               box: tuple[int, int, int, int]) -> None:
    """Every seat's roll in a grid (name and roll), the winner's cell inverted."""
    x0, y0, x1, y1 = box
    n = len(rolls)
    cols = n if n <= 4 else (4 if n <= 8 else 8)
    rows = math.ceil(n / cols)
    w, h = (x1 - x0) // cols, (y1 - y0) // rows
    for seat, r in enumerate(rolls):
        cx, cy = x0 + (seat % cols) * w, y0 + (seat // cols) * h
        cell = (cx + 1, cy, cx + w - 2, cy + h - 1)
        inv = seat == winner
        if inv:
            d.rectangle(cell, fill=1)
        fill = 0 if inv else 1
        if rows == 1:
            draw.centered(d, (cell[0], cy, cell[2], cy + 11), ctx.name(seat), largest=10,
                          fill=fill)
            draw.centered(d, (cell[0], cy + 11, cell[2], cell[3]), str(r), largest=20, fill=fill)
        elif cols == 4:
            label = draw.clip(ctx.name(seat), w - 14, 10)
            d.text((cell[0] + 1, cy + h // 2), label, font=draw.font(10), fill=fill, anchor="lm")
            d.text((cell[2] - 1, cy + h // 2), str(r), font=draw.font(12), fill=fill, anchor="rm")
        else:
            draw.centered(d, cell, str(r), largest=12, fill=fill)


class DiceFactorMode(Mode):
    kind = "dice-factor"
    first_player_text = "Everyone rolls the 8-sided die."
    house_rules_text = (
        "Who goes first: everyone rolls the 8-sided die; the highest roll nobody else "
        "rolled goes first. If every roll is shared, all roll again.",
        "The first player rolls the Colors and Shapes dice: collect 5 of that color or 5 of "
        "that shape. Logo: 5 of any one color / any one shape.",
        "ROLL on the main screen rolls the 8-sided die (turn option 3): 1-5 lose your turn "
        "(the companion ends it); 6 trade a card; 7 trade hands; 8 re-roll a die.",
        "Hand limit 5; each Add a card: +1 for the rest of the game. Trading hands swaps "
        "the limits too.",
        "Hold BACK to undo the last action, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return DiceFactorScreen(self)

    def first_player_screen(self, ctx: Context) -> Screen:
        return RollOff()

    def game_actions(self, ctx: Context) -> list[Item]:
        return [
            Item("Roll the targets", roll_targets()),
            Item("Roll 8-sided die", roll_d8()),
            Item("Dice card: re-roll", Push(reroll_menu())),
            Item("Trade hands with…", lambda c: Push(trade_hands_menu(c))),
            Item("Add a card (+1)", lambda c: Emit(
                {"type": "add_card"},
                then=[Home(), Toast(f"{c.name(c.state.table.current)}: hand limit "
                                    f"{c.state.hand_limits[c.state.table.current] + 1}")])),
            Item("Hand limits", lambda c: Push(hand_limits_screen(c))),
            Item("Winner: 5 of a kind", lambda c: Push(win_menu(c))),
            Item("Roll-off: who first", Push(RollOff())),
        ]
