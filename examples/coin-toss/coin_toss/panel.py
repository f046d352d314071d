"""Coin Toss on the panel: whose call it is, big, and everyone's points under it.

UP records a right call (a point), DOWN a wrong one; either ends the turn. OK opens the menu
(undo, house rules, end game...), hold BACK undoes, as in every game.
"""

from __future__ import annotations

from companion.inputs import Button
from companion.ui import draw
from companion.ui.actions import Emit
from companion.ui.modes import Mode
from companion.ui.screen import Context, Item, Result, Screen
from companion.ui.table import TableScreen, turn_header


class CoinScreen(TableScreen):
    """The caller's name (biggest); under it every player's points."""

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        turn_header(d, ctx, right=f"to {s.target}")
        draw.centered(d, (0, 13, draw.WIDTH, 40), ctx.name(s.table.current), largest=28)
        d.line((0, 41, draw.WIDTH, 41), fill=1)
        scores = "  ".join(f"{ctx.name(seat)[:4]} {p}" for seat, p in enumerate(s.points))
        draw.centered(d, (0, 42, draw.WIDTH, 53), scores, largest=11)
        draw.hint(d, "UP right  DOWN wrong")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            return Emit({"type": "toss", "right": True})
        if button is Button.DOWN:
            return Emit({"type": "toss", "right": False})
        if button is Button.ROLL:
            return None  # a coin, not dice
        return super().on_press(button, ctx)


class CoinTossMode(Mode):
    kind = "coin-toss"
    first_player_text = "Whoever last flipped a coin:"
    house_rules_text = (
        "Call heads or tails, then toss a real coin.",
        "UP: the call was right (a point). DOWN: it was wrong. The turn passes either way.",
        "The first to the target wins (house rule target, default 3).",
        "Hold BACK to undo the last action, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return CoinScreen(self)

    def game_actions(self, ctx: Context) -> list[Item]:
        return []  # a coin, not dice: no "Roll dice" at the top of the menu
