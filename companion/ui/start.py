"""The start menu: resume an unfinished game, or set up a new one."""

from __future__ import annotations

from dataclasses import dataclass

from companion import games
from companion.inputs import Button
from companion.rules.game import Header
from companion.ui import draw
from companion.ui.actions import NewGame, Pop, Push, ResumeGame, Toast
from companion.ui.screen import Context, Item, Menu, NumberEntry, Result, Screen, ScrollList


@dataclass(frozen=True)
class ResumeEntry:
    """An unfinished game as the Resume list shows it (made by the app from
    `Store.unfinished`)."""

    game_id: int
    title: str  # the game kind's title
    players: tuple[str, ...]
    when: str  # when its last move was made: "14:05" today, else "12 Mar"

    @property
    def label(self) -> str:
        return f"{self.title} #{self.game_id}"  # as the Resume list and the web name it


def default_names(names: list[str], n: int) -> tuple[str, ...]:
    """The first `n` of `names`, then each seat past them called by its number: seat 5 of a
    roster of four is "P5" (not "P1", which reads as the first seat). A number a roster's
    name already spells ("p5": one player to stats) gets a letter: "P5b"."""
    names = list(names[:n])
    taken = {m.strip().casefold() for m in names}
    while len(names) < n:
        seat = len(names) + 1
        candidate = f"P{seat}"
        for letter in "bcdefghijklmnopqrstuvwxyz":
            if candidate.casefold() not in taken:
                break
            candidate = f"P{seat}{letter}"
        names.append(candidate)
        taken.add(candidate.casefold())
    return tuple(names)


class StartScreen(Menu):
    ROWS = 3  # more items scroll, three at a time
    ROW_H = 14
    LEAD = 0

    def __init__(self, ctx: Context) -> None:
        items = []
        if len(ctx.unfinished) > 1:  # which one: the list, newest move first
            items.append(Item(f"Resume ({len(ctx.unfinished)} games)",
                              lambda c: Push(ResumeScreen(c.unfinished))))
        elif ctx.unfinished:
            entry = ctx.unfinished[0]
            label = f"Resume {entry.label}"  # "#3": the game's number; left out if too long
            if draw.text_size(label, draw.SMALL)[0] > draw.WIDTH - 8:
                label = f"Resume {entry.title}"
            items.append(Item(label, ResumeGame(entry.game_id)))
        items.append(Item("New game", lambda c: Push(choose_game(c))))
        items.append(Item("Records", lambda c: Push(records_screen(c))))
        if ctx.extra.get("web") is not None:
            items.append(Item("Table web", lambda c: Push(web_menu(c))))
        items.append(Item("Keys & buttons", lambda c: Push(help_screen())))
        super().__init__("Chroma Companion", items, back=None)

    def header(self, d, ctx: Context, lines) -> int:
        d.text((draw.WIDTH // 2, 1), "Chroma Cards", font=draw.font(16), fill=1, anchor="mt")
        return 20

    def draw_line(self, d, ctx: Context, i: int, item: Item, y: int) -> None:
        if i == self.cursor:
            d.rectangle((0, y, draw.WIDTH - (5 if len(self.items) > self.ROWS else 1), y + 13),
                        fill=1)
        label = item.text(ctx)
        size = draw.fit(label, draw.WIDTH - 8, draw.HEIGHT, largest=12)  # smaller type if long
        d.text((4, y + 7), draw.clip(label, draw.WIDTH - 8, size),
               font=draw.font(size), fill=0 if i == self.cursor else 1, anchor="lm")


class ResumeScreen(ScrollList):
    """The unfinished games, newest move first, two at a time: kind and id, when, players.
    UP/DOWN move, OK resumes the game (the one left open is parked, not lost), BACK leaves."""

    ROWS = 2
    ROW_H = 25
    cursor: int

    def __init__(self, entries) -> None:
        self.entries: list[ResumeEntry] = list(entries)
        self.cursor = 0

    def lines(self, ctx: Context) -> list[ResumeEntry]:
        return self.entries

    def header(self, d, ctx: Context, lines) -> int:
        top = draw.title_bar(d, "Resume", self.position(len(lines)) if lines else "")
        if not lines:
            draw.centered(d, (0, top, draw.WIDTH, draw.HEIGHT), "No unfinished games",
                          largest=draw.BODY)
        return top

    def draw_line(self, d, ctx: Context, i: int, e: ResumeEntry, y: int) -> None:
        on = i == self.cursor
        if on:
            d.rectangle((0, y, draw.WIDTH - 5, y + self.ROW_H - 2), fill=1)
        ink = 0 if on else 1
        # The kind and its number, whole ("Rainbow Rush #12" names the game), with when
        # beside it; when that does not fit even in smaller type, when goes under it, before
        # who (as many names as fit, then how many more).
        title = f"{e.title} #{e.game_id}"
        when_w = draw.text_size(e.when, draw.SMALL)[0]
        beside = draw.WIDTH - 9 - when_w - 6
        size = draw.fit(title, beside, draw.HEIGHT, largest=12)
        x = 2
        if draw.text_size(title, size)[0] <= beside:
            d.text((draw.WIDTH - 7, y + 7), e.when, font=draw.font(draw.SMALL), fill=ink,
                   anchor="rm")
        else:
            size = draw.fit(title, draw.WIDTH - 9, draw.HEIGHT, largest=12)
            d.text((x, y + 18), e.when, font=draw.font(draw.SMALL), fill=ink, anchor="lm")
            x += when_w + 6
        d.text((2, y + 7), draw.clip(title, draw.WIDTH - 9, size), font=draw.font(size),
               fill=ink, anchor="lm")
        d.text((x, y + 18), draw.name_list(e.players, draw.WIDTH - 7 - x, draw.SMALL),
               font=draw.font(draw.SMALL), fill=ink, anchor="lm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK and self.entries:
            return ResumeGame(self.entries[self.cursor].game_id)
        if button is Button.BACK:
            return Pop()
        return super().on_press(button, ctx)


def game_label(kind: str, title: str) -> str:
    """A kind's line in New game: a group's own design is marked "(ours)"."""
    return f"{title} (ours)" if games.is_design(kind) else title


def choose_game(ctx: Context) -> Menu:
    """Every kind, the designs New game offers after the built-in ones."""
    items = [Item(game_label(g.kind, g.title), (lambda c, g=g: Push(choose_players(c, g.kind))))
             for g in games.games().values()]
    return Menu("New game: which?", items)


def choose_players(ctx: Context, kind: str) -> NumberEntry:
    g = games.game(kind)
    start = min(max(4, g.min_players), g.max_players)

    def done(n: int):
        rules = ctx.config.house_rules(kind)
        owner = rules.get("deck_owner")
        if isinstance(owner, int) and owner >= n:  # the config's deck owner has no seat yet
            return Toast(f"Seat {owner + 1} owns the deck: {owner + 1}+ players", seconds=3)
        return NewGame(Header(kind, default_names(ctx.names, n), 0, rules))

    return NumberEntry(f"{g.title}: players", value=start, lo=g.min_players, hi=g.max_players,
                       done=done, describe=lambda n: draw.name_list(default_names(ctx.names, n),
                                                                    draw.WIDTH, draw.SMALL))


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
