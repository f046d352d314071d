"""The start menu: resume the unfinished game, or set up a new one."""

from __future__ import annotations

from companion.rules import GAMES
from companion.rules.game import Header
from companion.ui import draw
from companion.ui.actions import NewGame, Push, ResumeGame
from companion.ui.screen import Context, Item, Menu, NumberEntry, Screen


def default_names(names: list[str], n: int) -> tuple[str, ...]:
    """The first `n` of `names`, then P1, P2, ... for seats past them."""
    names = list(names[:n])
    k = 1
    while len(names) < n:
        candidate = f"P{k}"
        if candidate.casefold() not in {m.strip().casefold() for m in names}:
            names.append(candidate)  # not "P1" beside a roster's "p1": one player to stats
        k += 1
    return tuple(names)


class StartScreen(Menu):
    def __init__(self, ctx: Context) -> None:
        items = []
        if ctx.resume:
            items.append(Item(f"Resume {ctx.resume}", ResumeGame()))
        items.append(Item("New game", lambda c: Push(choose_game(c))))
        items.append(Item("Records", lambda c: Push(records_screen(c))))
        if ctx.extra.get("web") is not None:
            items.append(Item("Table web", lambda c: Push(web_menu(c))))
        items.append(Item("Keys & buttons", lambda c: Push(help_screen())))
        super().__init__("Chroma Companion", items, back=None)

    def draw_on(self, d, ctx: Context) -> None:
        d.text((draw.WIDTH // 2, 1), "Chroma Cards", font=draw.font(16), fill=1, anchor="mt")
        top, rows = 20, 3  # more items scroll, three at a time
        first = max(0, min(self.cursor - rows + 1, len(self.items) - rows))
        for i, item in enumerate(self.items[first:first + rows], start=first):
            y = top + (i - first) * 14
            if i == self.cursor:
                d.rectangle((0, y, draw.WIDTH - (5 if len(self.items) > rows else 1), y + 13),
                            fill=1)
            d.text((4, y + 7), draw.clip(item.text(ctx), draw.WIDTH - 8, 12),
                   font=draw.font(12), fill=0 if i == self.cursor else 1, anchor="lm")
        if len(self.items) > rows:
            draw.scrollbar(d, top, draw.HEIGHT - 1, first, rows, len(self.items))


def choose_game(ctx: Context) -> Menu:
    items = [Item(g.title, (lambda c, g=g: Push(choose_players(c, g.kind))))
             for g in GAMES.values()]
    return Menu("New game: which?", items)


def choose_players(ctx: Context, kind: str) -> NumberEntry:
    g = GAMES[kind]
    start = min(max(4, g.min_players), g.max_players)

    def done(n: int):
        header = Header(kind, default_names(ctx.names, n), 0, ctx.config.house_rules(kind))
        return NewGame(header)

    return NumberEntry(f"{g.title}: players", value=start, lo=g.min_players, hi=g.max_players,
                       done=done, describe=lambda n: ", ".join(default_names(ctx.names, n)))


def records_screen(ctx: Context) -> Screen:
    from companion.ui.records import RecordsScreen
    return RecordsScreen(ctx)


def web_menu(ctx: Context) -> Screen:
    from companion.ui.device import web_menu as menu
    return menu(ctx)


def help_screen() -> Screen:
    from companion.ui.screen import TextScreen
    return TextScreen("Buttons", HELP_LINES)


HELP_LINES = [
    "NEXT (n, space): end the turn.",
    "ROLL (r): roll dice.",
    "UP/DOWN (arrows, k/j): move.",
    "OK (Enter): choose; hold OK (m): menu.",
    "BACK (Backspace, b): back; hold BACK (u): undo.",
    "q: quit the emulator (the game is kept).",
]
