"""Records: each player's skill rating and wins, from the start menu; one line of history on the end
screens ("3rd win in 5 games", under which the winner's name is shown big).

The figures come from `ctx.stats()`, which the app thread computes on demand (companion/session/stats.py);
screens never open the journal.
"""

from __future__ import annotations

from typing import Any

from companion import games
from companion.inputs import Button
from companion.ui import draw
from companion.ui.actions import Pop
from companion.ui.screen import Context, Result, Screen

ALL = ""  # the "all games" choice of the Records screen


def _stats(ctx: Context) -> Any:
    return ctx.stats() if ctx.stats is not None else None


class RecordsScreen(Screen):
    """Four players a page, as /stats ranks them: established players by skill rating, then
    the provisional ones (docs/stats.md, "Ratings"): name, rating ("new" while provisional),
    wins of games played. UP/DOWN turn the pages; OK or NEXT shows the next game kind (then all games); BACK leaves."""

    ROWS = 4
    ROW_H = 12
    SIZE = 12

    def __init__(self, ctx: Context) -> None:
        self.kind = ALL
        self.opened = False  # on the latest game's kind, once the figures are there
        self.page = 0
        self._open(_stats(ctx))

    def kinds(self, stats) -> list[str]:
        return [ALL, *(k for k in games.kinds() if k in stats.totals["by_game"])]

    def _open(self, stats) -> None:
        if not self.opened and stats is not None:
            self.opened = True
            self.kind = next((g.kind for g in reversed(stats.games) if g.finished), ALL)

    def rows(self, ctx: Context) -> list[tuple[str, float, bool, int, int]]:
        """(name, rating, provisional, won, played) in /stats' order: established players by
        rating, then the provisional ones. All games: the statistics' own order (ranked by
        the exact rating, not the one place shown); one kind: by that kind's rating."""
        stats = _stats(ctx)
        if stats is None:
            return []
        self._open(stats)
        out = []
        exact: dict[str, float] = {}
        for name, p in stats.players.items():
            figures = p if self.kind == ALL else p["by_game"].get(self.kind)
            if figures:
                out.append((name, figures["rating"], figures["provisional"], figures["won"],
                            figures["played"]))
                exact[name] = figures["mu"] - 3 * figures["sigma"]
        if self.kind != ALL:  # (sorted() keeps the statistics' order on a tie)
            out.sort(key=lambda r: (r[2], -exact[r[0]], -r[3], -r[4], r[0].casefold()))
        return out

    def pages(self, ctx: Context) -> int:
        return max(1, -(-len(self.rows(ctx)) // self.ROWS))

    def draw_on(self, d, ctx: Context) -> None:
        rows = self.rows(ctx)
        pages = self.pages(ctx)
        self.page = min(self.page, pages - 1)
        counting = ctx.stats is not None and _stats(ctx) is None  # a background replay
        title = "Records" if counting else "All games" if self.kind == ALL \
            else games.title(self.kind)
        top = draw.title_bar(d, title, f"{self.page + 1}/{pages}" if pages > 1 else "")
        if not rows:
            draw.centered(d, (0, top, draw.WIDTH, 50),
                          "Counting games" if counting else "No games yet", largest=16)
            draw.hint(d, "A moment, please" if counting else "Finished games count")
            return
        f = draw.font(self.SIZE)
        shown = rows[self.page * self.ROWS:(self.page + 1) * self.ROWS]
        # The columns from the right: wins of games, then the rating, as wide as this page's
        # widest (a 1234/1234 or a -12.3 takes its room from the names, never overlaps).
        scores = [f"{won}/{played}" for _, _, _, won, played in shown]
        ratings = ["new" if provisional else f"{rating:.1f}"
                   for _, rating, provisional, _, _ in shown]
        rating_x = draw.WIDTH - 1 - max(draw.text_size(t, self.SIZE)[0] for t in scores) - 6
        room = rating_x - max(draw.text_size(t, self.SIZE)[0] for t in ratings) - 4
        for i, (name, *_) in enumerate(shown):
            y = top + i * self.ROW_H + self.ROW_H // 2
            d.text((draw.WIDTH - 1, y), scores[i], font=f, fill=1, anchor="rm")
            d.text((rating_x, y), ratings[i], font=f, fill=1, anchor="rm")
            d.text((1, y), draw.clip(name, room, self.SIZE, (name,)), font=f, fill=1,
                   anchor="lm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.BACK:
            return Pop()
        if button is Button.DOWN:
            self.page = min(self.page + 1, self.pages(ctx) - 1)
        elif button is Button.UP:
            self.page = max(0, self.page - 1)
        elif button in (Button.OK, Button.NEXT):
            stats = _stats(ctx)
            if stats is not None:
                self._open(stats)
                kinds = self.kinds(stats)
                i = kinds.index(self.kind) if self.kind in kinds else -1
                self.kind = kinds[(i + 1) % len(kinds)]
                self.page = 0
        return None


def end_line(ctx: Context) -> str:
    """One line of history for the end screen of the game on screen ("" when unknown)."""
    stats = _stats(ctx)
    game_id = getattr(getattr(ctx.journal, "sink", None), "game_id", None)
    if stats is None or game_id is None:
        return ""
    record = next((g for g in stats.games if g.id == game_id), None)
    if record is None:
        return ""
    return stats.history_line(record, short=True)


def end_title(ctx: Context, default: str) -> str:
    """The end screen's title: the history line when there is one, else `default`."""
    return end_line(ctx) or default
