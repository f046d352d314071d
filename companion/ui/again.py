"""What OK on a game's end screen offers: play again (same players and house rules) or the
start menu. Every game kind's end screen pushes this menu (App.play_again does the rest)."""

from __future__ import annotations

from companion.ui.actions import LeaveGame, PlayAgain
from companion.ui.screen import Context, Item, Menu

HINT = "OK: play again / leave"  # the end screens' bottom line


def end_menu(ctx: Context) -> Menu:
    """Play again first: after a game the table mostly wants another."""
    return Menu("Game over", [Item("Play again", PlayAgain()),
                              Item("Start menu", LeaveGame())])
