"""The screen protocol and the reusable screens every mode builds from.

A screen holds only UI state (a cursor, a value being entered). Game state comes from
`ctx.journal.state` each time it renders, so undo, redo and resume need no screen code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PIL import Image

from companion.inputs import Button, ButtonInput, Gesture
from companion.ui import draw

if TYPE_CHECKING:
    from companion.config import Config
    from companion.session.journal import Journal

Result = Any  # an Action (companion/ui/actions.py), a list of Actions, or None


@dataclass(frozen=True)
class Pop:
    """The action that closes the top `count` screens: every screen's BACK by default.
    Declared here, below the other actions (ui/actions.py, which names the screens it
    carries, re-exports it), so that the screens need nothing of that module."""

    count: int = 1


@dataclass
class Context:
    """What a screen may read while drawing or handling a button."""

    config: Config
    journal: Journal | None = None
    now: float = 0.0  # monotonic seconds, from the app's clock
    dice_note: str = ""  # "Roller" / "Software dice" / a fault note, for the dice screens
    # The history figures (companion.session.stats.Stats), computed by the app thread on first call
    # and kept until the journal changes; None where there is no journal (screenshots).
    stats: Callable[[], Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    roster: tuple[str, ...] | None = None  # the names a phone keeps (None: never set)
    # The unfinished games the start menu's Resume offers (companion.ui.start.ResumeEntry),
    # newest move first.
    unfinished: tuple[Any, ...] = ()
    # The turn clock now (companion.session.clock.Reading; docs/clock.md); None without a game.
    clock: Any = None

    @property
    def names(self) -> list[str]:
        """The names a new game's seats get: the phone's roster, else the config's."""
        return list(self.roster) if self.roster is not None else self.config.names

    @property
    def playing(self) -> Journal:
        """The game's journal, for the screens shown only while there is one."""
        assert self.journal is not None
        return self.journal

    @property
    def state(self) -> Any:
        assert self.journal is not None
        return self.journal.state

    def name(self, seat: int) -> str:
        assert self.journal is not None
        return self.journal.name(seat)

    @property
    def players(self) -> tuple[str, ...]:
        """The game's players' names (none outside a game): text too wide for its place is
        shortened in these only (draw.clip)."""
        return tuple(self.journal.header.players) if self.journal is not None else ()


class Screen:
    """Base screen. Subclasses draw in `draw_on` and answer buttons in `on_press`/`on_hold`."""

    title = ""
    # A question to the whole table (who goes first, who deals, a roll-off, a rule vote):
    # while such a screen is up nobody's turn runs on the clock (app/clock.py `settle`).
    asks_table = False

    def render(self, ctx: Context) -> Image.Image:
        img, d = draw.blank()
        with draw.players(ctx.players):  # text too wide is shortened in these names only
            self.draw_on(d, ctx)
        return img

    def draw_on(self, d, ctx: Context) -> None:
        raise NotImplementedError

    def handle(self, event: ButtonInput, ctx: Context) -> Result:
        if event.gesture is Gesture.HOLD:
            return self.on_hold(event.button, ctx)
        return self.on_press(event.button, ctx)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.BACK:
            return Pop()
        return None

    def on_hold(self, button: Button, ctx: Context) -> Result:
        """Holds of BACK (undo) and OK (menu) are handled by the app before this is called."""
        return None

    def on_tick(self, token: str, data: dict[str, Any], ctx: Context) -> Result:
        """A timer this screen set (`After`) ran out. It arrives while the screen is on the
        stack even if another screen covers it; the answer acts as if this one were on top,
        and the covering screens stay over it."""
        return None


@dataclass
class Item:
    """A menu line: its label and what choosing it does (an Action, or a function of ctx)."""

    label: str | Callable[[Context], str]
    action: Any
    enabled: bool = True

    def text(self, ctx: Context) -> str:
        return self.label(ctx) if callable(self.label) else self.label

    def choose(self, ctx: Context) -> Result:
        return self.action(ctx) if callable(self.action) else self.action


class ScrollList(Screen):
    """A list shown `ROWS` lines at a time, `ROW_H` pixels apart, under a header (by default a
    title bar with the position on its right), with a scroll bar beside the lines when they do
    not all fit. Menus, the resume list, text to read, settlements and round tables are built
    on it.

    Two kinds, told apart by `cursor`:
    - a cursor list (`cursor` a line number: menus, the resume list, the accusers): UP/DOWN
      move the cursor round the list; the lines shown follow it, `LEAD` lines below it kept
      in view while it moves down;
    - a reading list (`cursor` None: house rules, history, a settlement): UP/DOWN move the
      lines shown by one, from the top to the last full window (`first`).

    A subclass gives the lines (`lines(ctx)`) and draws one (`draw_line`); it may draw its own
    header, or more around the list with `draw_lines`. Its `on_press` answers the other
    buttons and hands UP/DOWN to this one.
    """

    ROWS = 4
    ROW_H = 12
    LEAD = 1
    cursor: int | None = None
    first = 0  # a reading list's first line shown

    def lines(self, ctx: Context) -> Sequence[Any]:
        raise NotImplementedError

    def draw_line(self, d, ctx: Context, i: int, line: Any, y: int) -> None:
        """Line `i` of the list, its row starting at `y`."""
        raise NotImplementedError

    def position(self, total: int) -> str:
        """Where the list is: the cursor's line, or the last line shown, of `total`."""
        at = self.cursor + 1 if self.cursor is not None else min(self.first + self.ROWS, total)
        return f"{at}/{total}"

    def header(self, d, ctx: Context, lines: Sequence[Any]) -> int:
        """Draw what is above the lines; returns the y where they start."""
        return draw.title_bar(d, self.title, self.position(len(lines)))

    def draw_on(self, d, ctx: Context) -> None:
        lines = self.lines(ctx)
        self.draw_lines(d, ctx, self.header(d, ctx, lines), lines)

    def shown_from(self, total: int) -> int:
        """The first line shown (a reading list's `first`, kept within the list)."""
        if self.cursor is None:
            self.first = max(0, min(self.first, total - self.ROWS))
            return self.first
        return max(0, min(self.cursor - self.ROWS + 1 + self.LEAD, total - self.ROWS))

    def draw_lines(self, d, ctx: Context, top: int, lines: Sequence[Any]) -> int:
        """The lines shown, from `top` down, and the scroll bar; returns how many were shown."""
        first = self.shown_from(len(lines))
        shown = lines[first:first + self.ROWS]
        for row, line in enumerate(shown):
            self.draw_line(d, ctx, first + row, line, top + row * self.ROW_H)
        draw.scrollbar(d, top, draw.HEIGHT - 1, first, self.ROWS, len(lines))
        return len(shown)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.UP, Button.DOWN):
            step = -1 if button is Button.UP else 1
            total = len(self.lines(ctx))
            if self.cursor is None:
                self.first = max(0, min(self.first + step, total - self.ROWS))
            elif total:
                self.cursor = (self.cursor + step) % total
        return None


class Menu(ScrollList):
    """A list: UP/DOWN move, OK chooses, BACK leaves. Four lines show at once."""

    cursor: int

    def __init__(self, title: str, items: Sequence[Item], *, cursor: int = 0,
                 back: Any = Pop()) -> None:
        self.title = title
        self.items = list(items)
        self.cursor = min(cursor, max(0, len(self.items) - 1))
        self.back = back

    def lines(self, ctx: Context) -> list[Item]:
        return self.items

    def draw_line(self, d, ctx: Context, i: int, item: Item, y: int) -> None:
        label = item.text(ctx) if item.enabled else "(" + item.text(ctx) + ")"
        size = draw.fit(label, draw.WIDTH - 12, draw.HEIGHT, largest=12)  # smaller type if long
        label = draw.clip(label, draw.WIDTH - 12, size)
        if i == self.cursor:
            d.rectangle((0, y, draw.WIDTH - 5, y + self.ROW_H - 1), fill=1)
        d.text((3, y + self.ROW_H // 2), label, font=draw.font(size),
               fill=0 if i == self.cursor else 1, anchor="lm")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK:
            item = self.items[self.cursor]
            if item.enabled:
                return item.choose(ctx)
        elif button is Button.BACK:
            return self.back
        return super().on_press(button, ctx)


class TextScreen(ScrollList):
    """Lines of text to read (house rules, history, help): UP/DOWN scroll, OK/BACK leave."""

    ROWS = 5
    ROW_H = 10

    def __init__(self, title: str, lines: Sequence[str], *, done: Any = Pop()) -> None:
        self.title = title
        self.raw = list(lines)
        self.first = 0
        self.done = done
        self._wrapped: list[str] | None = None

    def lines(self, ctx: Context) -> list[str]:
        if self._wrapped is None:
            self._wrapped = [w for line in self.raw for w in wrap(line, draw.WIDTH - 6, draw.SMALL + 1)]
        return self._wrapped

    def draw_line(self, d, ctx: Context, i: int, line: str, y: int) -> None:
        d.text((1, y - 1), line, font=draw.font(draw.SMALL + 1), fill=1)  # descenders on the panel

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.OK, Button.BACK):
            return self.done
        return super().on_press(button, ctx)


def wrap(line: str, width: int, size: int) -> list[str]:
    """Word-wrap `line` to `width` pixels at font `size`. A word wider than a line (a long
    name and its "'s") is broken across lines, never cut."""
    words = line.split()
    if not words:
        return [""]
    out, cur = [], ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if draw.text_size(trial, size)[0] <= width:
            cur = trial
            continue
        if cur:
            out.append(cur)
        while draw.text_size(w, size)[0] > width:
            cut = len(w) - 1
            while cut > 1 and draw.text_size(w[:cut], size)[0] > width:
                cut -= 1
            out.append(w[:cut])
            w = w[cut:]
        cur = w
    out.append(cur)
    return out


class Confirm(Screen):
    """A question with OK: yes, BACK: no (two badges that never touch, even at 12 px)."""

    def __init__(self, question: str, yes: Any, *, no: Any = Pop(), detail: str = "") -> None:
        self.question = question
        self.yes = yes
        self.no = no
        self.detail = detail

    def draw_on(self, d, ctx: Context) -> None:
        draw.centered(d, (0, 2, draw.WIDTH, 30), self.question, largest=20)
        if self.detail:
            draw.centered(d, (0, 30, draw.WIDTH, 44), self.detail, largest=draw.BODY)
        draw.badge(d, (2, 56), "OK: yes", 12)
        draw.badge(d, (draw.WIDTH - 2, 56), "BACK: no", 12, anchor="r")

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK:
            return self.yes
        if button is Button.BACK:
            return self.no
        return None


class NumberEntry(Screen):
    """Enter a whole number with UP/DOWN (held: steps of 10 via repeated holds), OK confirms.

    `done(value)` returns what to do with it. `describe(value)` may add a line under it
    (e.g. the points at stake).
    """

    def __init__(self, title: str, *, value: int, lo: int, hi: int,
                 done: Callable[[int], Any], step: int = 1,
                 describe: Callable[[int], str] | None = None, label: str = "") -> None:
        self.title = title
        self.value = value
        self.lo, self.hi, self.step = lo, hi, step
        self.done = done
        self.describe = describe
        self.label = label

    def draw_on(self, d, ctx: Context) -> None:
        top = draw.title_bar(d, self.title)
        bottom = 50 if self.describe else 62
        draw.centered(d, (10, top, draw.WIDTH - 10, bottom), f"{self.label}{self.value}",
                      largest=30)
        d.polygon([(4, (top + bottom) // 2 - 4), (8, (top + bottom) // 2 - 10),
                   (12, (top + bottom) // 2 - 4)], fill=1 if self.value < self.hi else 0,
                  outline=1)
        d.polygon([(4, (top + bottom) // 2 + 4), (8, (top + bottom) // 2 + 10),
                   (12, (top + bottom) // 2 + 4)], fill=1 if self.value > self.lo else 0,
                  outline=1)
        if self.describe:
            draw.centered(d, (0, 51, draw.WIDTH, 64), self.describe(self.value),
                          largest=draw.SMALL + 1)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.value = min(self.hi, self.value + self.step)
        elif button is Button.DOWN:
            self.value = max(self.lo, self.value - self.step)
        elif button is Button.OK:
            return self.done(self.value)
        elif button is Button.BACK:
            return Pop()
        return None

    def on_hold(self, button: Button, ctx: Context) -> Result:
        if button is Button.UP:
            self.value = min(self.hi, self.value + 10 * self.step)
        elif button is Button.DOWN:
            self.value = max(self.lo, self.value - 10 * self.step)
        return None


def pick_player(title: str, ctx: Context, done: Callable[[int], Any], *,
                seats: Sequence[int] | None = None, cursor: int | None = None) -> Menu:
    """A menu of players (active seats by default); `done(seat)` says what choosing does."""
    state = ctx.state
    if seats is None:
        seats = state.table.active
    items = [Item(ctx.name(s), (lambda c, s=s: done(s))) for s in seats]
    start = list(seats).index(cursor) if cursor in seats else 0
    return Menu(title, items, cursor=start)
