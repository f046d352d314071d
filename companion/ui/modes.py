"""Game modes on the screen: each game kind's home screen, menu, setup and end screen.

`Mode` is the `table` game kind's and the base of the others: a kind's package subclasses it
in its `panel.py` and names it in its `GameKind` (companion/games/). Modes never touch each
other's screens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.inputs import Button
from companion.rules.game import Game, Header
from companion.ui import draw
from companion.ui.actions import Emit, Home, LeaveGame, PauseClock, Push, Redo, Toast, Undo
from companion.ui.clock import TimeScreen
from companion.ui.dice import dice_menu
from companion.ui.screen import (
    Confirm,
    Context,
    Item,
    Menu,
    Result,
    Screen,
    TextScreen,
    pick_player,
)

if TYPE_CHECKING:
    from companion.session.journal import Journal

    # A screenshot for docs/screens (companion/gallery/screens.py), as a kind's gallery makes
    # them (`GameKind.gallery`): its name, a sample game and the screen stack shown over it
    # (the top one is drawn).
    Shot = tuple[str, Journal, list[Screen]]


class Mode:
    kind = Game.kind  # the base kind's screens: a kind's panel names its own

    @property
    def turn_actions(self) -> tuple[str, ...]:
        """The turn moves offered in the menu, by event type, in this order: the kind's
        rules declare them (Game.turn_moves), so what the panel offers is what every live
        input may record (Game.next_refusal refuses the others)."""
        from companion import games
        return games.game(self.kind).turn_moves
    first_player_text = "Agree at the table, then pick:"
    house_rules_text: tuple[str, ...] = (
        "Turns go to the next player in the direction of the arrow.",
        "Skip: the next player loses a turn; skips add up.",
        "Double skip: the next two players lose their turns.",
        "Reverse flips the direction at once; with two players nobody is skipped by it.",
        "Reverse + skip: reverse, then the next player in the new direction loses a turn.",
        "Hold BACK to undo the last action, any number of times.",
    )

    # --- screens ------------------------------------------------------------------------------

    def home(self, ctx: Context) -> Screen:
        from companion.ui.table import TableScreen
        return TableScreen(self)

    def end_screen(self, ctx: Context) -> Screen:
        from companion.ui.table import EndScreen
        return EndScreen()

    def setup(self, ctx: Context) -> list[Screen]:
        """Screens shown after "New game", last one on top: house rules, then who goes first."""
        return [self.first_player_screen(ctx), self.house_rules_screen(ctx, done=_pop())]

    def first_player_screen(self, ctx: Context) -> Screen:
        return FirstPlayer(self, ctx)

    def after_web_action(self, event: dict, ctx: Context) -> Result:
        """What the panel does after a phone's form recorded `event` (the game's home screen
        is already on top): a question the panel's own flow asks next, or nothing."""
        return None

    def house_rules_screen(self, ctx: Context, *, done: Any = None) -> Screen:
        return TextScreen("House rules", self.house_rules(ctx.playing.header),
                          done=done if done is not None else _pop())

    def house_rules(self, header: Header) -> list[str]:
        lines = list(self.house_rules_text)
        for key, value in header.rules.items():
            lines.append(f"{key}: {value}")
        return lines

    # --- the menu (hold OK) -------------------------------------------------------------------

    def game_actions(self, ctx: Context) -> list[Item]:
        """Items specific to this game, shown first in the menu."""
        return [Item("Roll dice", Push(dice_menu(ctx)))]

    def menu(self, ctx: Context) -> Menu:
        """The game menu of every kind: the kind's main action (its first), then the clock's
        Pause (what a group wants at once when the doorbell rings, whatever the kind: never a
        scroll away), then the kind's other actions, the turn moves and the common tools."""
        actions = self.game_actions(ctx)
        items = [*actions[:1], Item(_pause_label, _pause), *actions[1:]]
        labels = {"skip": "Skip next player", "double_skip": "Double skip",
                  "reverse": "Reverse", "reverse_skip": "Reverse + skip"}
        for t in self.turn_actions:
            if t == "skip_to":
                items.append(Item("Skip to player…", lambda c: Push(pick_player(
                    "Skip to whom?", c, lambda s: Emit({"type": "skip_to", "player": s},
                                                       then=Home())))))
            else:
                items.append(Item(labels[t], Emit({"type": t}, then=Home())))
        items += [
            Item("Undo", [Home(), Undo()]),
            Item("Redo", [Home(), Redo()]),
            Item("Time", lambda c: Push(TimeScreen())),
            Item("History", lambda c: Push(history_screen(c))),
            Item("Rule vote", lambda c: Push(rule_vote(c))),
            Item("House rules", lambda c: Push(self.house_rules_screen(c))),
            Item("End game", Push(Confirm("End this game?", Emit({"type": "end"}),
                                          detail="Undo can bring it back"))),
            *([Item("Table web", lambda c: Push(_web_menu(c)))] if ctx.extra.get("web")
              is not None else []),
            Item("Leave to start", Push(Confirm("Leave this game?", LeaveGame(),
                                                detail="You can resume it later"))),
        ]
        return GameMenu("Menu", items)


class GameMenu(Menu):
    """The game's menu, the one hold OK opens (`menu_hold`)."""


def menu_hold(stack: list[Screen], mode: Mode, ctx: Context) -> Result:
    """Hold OK during a game: open the game's menu; on the menu, close it; on a screen chosen
    from the menu, back to that menu (the screens above it close). So there is only ever
    one menu, and one BACK (or another hold) leaves it."""
    from companion.ui.actions import Pop
    for depth, screen in enumerate(reversed(stack), start=1):
        if isinstance(screen, GameMenu):
            if depth >= len(stack):
                return None  # (a menu is never the bottom screen)
            return Pop(1 if depth == 1 else depth - 1)
    return Push(mode.menu(ctx))


def _paused(ctx: Context) -> bool:
    return bool(getattr(ctx.clock, "paused", False))


def _pause_label(ctx: Context) -> str:
    return "Start the clock" if _paused(ctx) else "Pause clock"


def _pause(ctx: Context) -> Result:
    """Stop the turn clock, or start it again (docs/clock.md: paused time counts for nobody;
    the next move starts it again too), and say so."""
    on = not _paused(ctx)
    return [Home(), PauseClock(on), Toast("Clock paused" if on else "Clock started again")]


def _web_menu(ctx: Context) -> Screen:
    from companion.ui.device import web_menu
    return web_menu(ctx)


def _pop():
    from companion.ui.actions import Pop
    return Pop()


class FirstPlayer(Menu):
    """Who goes first: the game's own rule text, then the players to pick from."""

    asks_table = True

    def __init__(self, mode: Mode, ctx: Context) -> None:
        self.mode = mode
        seats = range(len(ctx.playing.header.players))
        items = [Item(ctx.name(s), Emit({"type": "first", "player": s}, then=Home()))
                 for s in seats]
        super().__init__("Who goes first?", items, cursor=ctx.state.table.current)

    def draw_on(self, d, ctx: Context) -> None:
        top = draw.title_bar(d, "Who goes first?")
        from companion.ui.screen import wrap
        lines = wrap(self.mode.first_player_text, draw.WIDTH - 4, draw.SMALL)
        if len(lines) > 2:  # two lines fit: a longer text is cut, seen as one
            lines = [lines[0], draw.clip(" ".join(lines[1:]), draw.WIDTH - 4, draw.SMALL)]
        for i, line in enumerate(lines):
            d.text((2, top + i * 10), line, font=draw.font(draw.SMALL), fill=1)
        y = top + 22
        name = ctx.name(self.cursor)
        d.rectangle((0, y, draw.WIDTH - 1, draw.HEIGHT - 1), fill=1)
        d.text((6, (y + draw.HEIGHT) // 2), "▲▼", font=draw.font(12), fill=0, anchor="lm")
        draw.centered(d, (22, y + 1, draw.WIDTH - 2, draw.HEIGHT - 1), name, largest=24, fill=0)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.BACK:
            return Home()  # keep the seat the game started with
        return super().on_press(button, ctx)


def rule_vote(ctx: Context) -> Screen:
    """The rule vote (docs/rules.md, "Common to all games"), offered in every game's menu."""
    from companion.ui.vote import start_vote
    return start_vote(ctx)


def history_screen(ctx: Context) -> Screen:
    j = ctx.playing
    lines = [f"{i + 1}. {j.describe(i)}" for i in range(len(j.events))][::-1]
    return TextScreen("History", ["Newest first." if lines else "Nothing yet.", *lines])
