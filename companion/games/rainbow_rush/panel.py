"""Rainbow Rush screens: whose turn, and the discard lock after a wild replaced a card
(docs/rules.md, "Rainbow Rush"). The lock counts down by itself as turns end.
"""

from __future__ import annotations

from companion.games.rainbow_rush.rules import LOCK_TURNS
from companion.inputs import Button
from companion.ui import draw
from companion.ui.actions import Emit, Home, Push, Toast
from companion.ui.modes import Mode
from companion.ui.screen import Confirm, Context, Item, Menu, Result, Screen, pick_player
from companion.ui.table import TableScreen, next_line, turn_header


def lock_text(turns: int) -> str:
    """The lock in words: how many turn ends before the replaced card may be picked up."""
    if turns <= 0:
        return ""
    return "NO PICK-UP THIS TURN" if turns == 1 else f"NO PICK-UP: {turns} TURNS"


class RainbowScreen(TableScreen):
    """Whose turn (biggest); under it, while it lasts, the discard lock as an inverted bar."""

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        turn_header(d, ctx)
        lock = s.discard_lock
        bottom = 37 if lock else 50
        draw.centered(d, (0, 13, draw.WIDTH, bottom), ctx.name(s.table.current), largest=34)
        if lock:
            d.rectangle((0, 38, draw.WIDTH - 1, 50), fill=1)
            draw.centered(d, (1, 38, draw.WIDTH - 1, 51), lock_text(lock), largest=12, fill=0)
        d.line((0, 51, draw.WIDTH, 51), fill=1)
        next_line(d, ctx, 58)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.ROLL:
            return None  # Rainbow Rush uses no dice
        return super().on_press(button, ctx)


def wild_replace() -> Emit:
    return Emit({"type": "wild_replace"},
                then=[Home(), Toast(f"Replaced card: no pick-up for {LOCK_TURNS} turns")])


def win_menu(ctx: Context) -> Menu:
    def done(seat: int):
        return Push(Confirm(f"{ctx.name(seat)} wins?", Emit({"type": "win", "player": seat}),
                            detail="5 of one shape, one of each color"))

    return pick_player("Whose rainbow?", ctx, done, cursor=ctx.state.table.current)


class RainbowRushMode(Mode):
    kind = "rainbow-rush"
    first_player_text = "Who most recently saw a rainbow?"
    house_rules_text = (
        "When a wild replaces a card in a rainbow, the replaced card goes on the discard "
        "pile: choose Wild replaced a card in the menu.",
        "That card may not be picked up until 2 turns have ended; the main screen counts "
        "down and clears by itself. Wild cards are never picked up from the discard pile.",
        "Winner: 5 cards of one shape, one of each color (menu, Winner).",
        "Hold BACK to undo the last action, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return RainbowScreen(self)

    def game_actions(self, ctx: Context) -> list[Item]:
        return [Item("Wild replaced a card", wild_replace()),
                Item("Winner: rainbow", lambda c: Push(win_menu(c)))]
