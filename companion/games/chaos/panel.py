"""The Chaos mode: whose turn, the called color, the Draw 4 stack and the Two Train, the
"Chaos!" one-second call, round points and the dealer (docs/rules.md, "Chaos").

Buttons on the home screen: NEXT ends the turn, ROLL starts the "Chaos!" call (Chaos uses no
dice), OK (or hold OK) opens the menu of cards, UP/DOWN show the points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalEvent
from companion.games.chaos.rules import COLORS, TARGET, first_in_direction
from companion.inputs import Button
from companion.ui import draw
from companion.ui.actions import After, Beep, Emit, Home, Pop, Push, Replace, Toast
from companion.ui.color_picker import ColorPicker
from companion.ui.modes import Mode
from companion.ui.screen import Context, Item, Menu, Result, Screen, TextScreen, pick_player
from companion.ui.table import EndScreen, next_line, turn_header

CALL_SECONDS = 1.0  # "If they fail to do so within 1 second, they draw 3 cards."
TICK = 0.1  # the bar shrinks in tenths of a second
PENALTY = 3


# --- the one-second call: pure timing, driven by the app's monotonic clock -------------------

@dataclass(frozen=True)
class Countdown:
    """A countdown started at `started` (app clock seconds). All answers take `now`."""

    started: float
    seconds: float = CALL_SECONDS

    @property
    def deadline(self) -> float:
        return self.started + self.seconds

    def remaining(self, now: float) -> float:
        return max(0.0, self.deadline - now)

    def fraction(self, now: float) -> float:
        """What is left of the bar, 1.0 at the start down to 0.0."""
        return self.remaining(now) / self.seconds if self.seconds > 0 else 0.0

    def expired(self, now: float) -> bool:
        return now >= self.deadline

    def next_tick(self, now: float) -> float:
        """Seconds to the next redraw: a tenth, or exactly to the deadline if sooner."""
        return min(TICK, self.remaining(now)) + 0.001


class ChaosCall(Screen):
    """"Chaos!": a player is down to one card. Any big button (OK, ROLL, NEXT) within the
    second is the call; when the bar runs out first the screen says DRAW 3. BACK cancels a
    call started by mistake; after the result any button goes back."""

    def __init__(self, started: float, *, seconds: float = CALL_SECONDS) -> None:
        self.countdown = Countdown(started, seconds)
        self.outcome: str | None = None  # None while running, then "called" or "late"
        self.took = 0.0  # seconds from the start to the call

    @classmethod
    def start(cls, ctx: Context) -> list[Any]:
        """The actions that open the call: the screen, the buzzer, the first tick."""
        screen = cls(ctx.now)
        return [Push(screen), Beep(0.15), After(screen.countdown.next_tick(ctx.now), "call")]

    def press(self, now: float) -> Result:
        if self.outcome is not None:
            return Pop()
        if self.countdown.expired(now):
            self.outcome = "late"
            return Beep(0.6)
        self.outcome = "called"
        self.took = now - self.countdown.started
        return None

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.BACK:
            return Pop()
        if button in (Button.OK, Button.ROLL, Button.NEXT):
            return self.press(ctx.now)
        return None

    def on_tick(self, token: str, data: dict[str, Any], ctx: Context) -> Result:
        if token != "call" or self.outcome is not None:
            return None
        if self.countdown.expired(ctx.now):
            self.outcome = "late"
            return Beep(0.6)
        return After(self.countdown.next_tick(ctx.now), "call")

    def draw_on(self, d, ctx: Context) -> None:
        if self.outcome == "late":
            d.rectangle((0, 0, draw.WIDTH - 1, draw.HEIGHT - 1), fill=1)
            draw.centered(d, (2, 0, draw.WIDTH - 2, 44), f"DRAW {PENALTY}", largest=40, fill=0)
            draw.centered(d, (2, 44, draw.WIDTH - 2, 63), "no call in 1 second", largest=12,
                          fill=0)
            return
        if self.outcome == "called":
            draw.centered(d, (0, 0, draw.WIDTH, 40), "CHAOS!", largest=34)
            draw.centered(d, (0, 40, draw.WIDTH, 63), f"called in {self.took:.1f} s: safe",
                          largest=14)
            return
        draw.centered(d, (0, 0, draw.WIDTH, 36), "CHAOS!", largest=34)
        d.text((draw.WIDTH // 2, 44), "call it: press OK", font=draw.font(12), fill=1,
               anchor="mm")
        draw.bar(d, (0, 51, draw.WIDTH - 1, 63), self.countdown.fraction(ctx.now))


# --- home ------------------------------------------------------------------------------------

class ChaosScreen(Screen):
    """Whose turn (biggest), the called color, the stacks, who is next."""

    def __init__(self, mode: ChaosMode) -> None:
        self.mode = mode

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        turn_header(d, ctx, right="")
        if s.color:
            draw.badge(d, (draw.WIDTH - 1, 6), s.color.upper(), 12, anchor="r")
        name = ctx.name(s.table.current)
        if s.draw_stack:
            draw.centered(d, (0, 13, draw.WIDTH, 33), name, largest=22)
            d.rectangle((0, 34, draw.WIDTH - 1, 50), fill=1)
            draw.centered(d, (2, 35, draw.WIDTH - 2, 50),
                          f"TAKE {s.draw_stack} or DRAW 4", largest=16, fill=0)
        elif s.train:
            draw.centered(d, (0, 13, draw.WIDTH, 36), name, largest=26)
            label = f"TWO TRAIN: {s.train}"
            draw.badge(d, (draw.WIDTH // 2 - draw.text_size(label, 13)[0] // 2 - 2, 43),
                       label, 13)
        else:
            draw.centered(d, (0, 13, draw.WIDTH, 50), name, largest=34)
        d.line((0, 51, draw.WIDTH, 51), fill=1)
        next_line(d, ctx, 58)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.NEXT:
            return Emit({"type": "next"})
        if button is Button.ROLL:
            return ChaosCall.start(ctx)
        if button is Button.OK:
            return Push(self.mode.menu(ctx))
        if button in (Button.UP, Button.DOWN):
            return Push(points_screen(ctx))
        if button is Button.BACK:
            return Toast("Hold BACK to undo")
        return None


def points_screen(ctx: Context) -> Screen:
    s = ctx.state
    low = min(s.scores)
    lines = [f"{ctx.name(seat)}: {pts}" + ("  (fewest)" if s.rounds and pts == low else "")
             for seat, pts in enumerate(s.scores)]
    lines.append(f"Rounds: {s.rounds}. At {TARGET} the game ends; fewest points wins.")
    return TextScreen("Points (bad)", lines)


class ChaosEnd(EndScreen):
    """Game over: the winner (fewest points) big, with their points."""

    more_buttons = (Button.UP, Button.DOWN)

    def label(self, ctx: Context) -> str:
        n = len(ctx.state.winners)
        return "" if not n else "Winner: fewest points" if n == 1 else "Shared win: fewest"

    def detail(self, ctx: Context) -> str:
        return f"{ctx.state.scores[ctx.state.winners[0]]} points"

    def more(self, ctx: Context) -> Screen:
        return points_screen(ctx)


# --- dealer, round points, skip to most ------------------------------------------------------

class DealerPicker(Menu):
    """Who deals? The player after the dealer in the current direction goes first."""

    asks_table = True

    def __init__(self, ctx: Context, *, title: str = "Who deals?", cursor: int | None = None,
                 ) -> None:
        t = ctx.state.table
        seats = range(t.seats)
        items = [Item(ctx.name(s), (lambda c, s=s: Emit(
            {"type": "first", "player": c.state.table.step(s)}, then=Home()))) for s in seats]
        if cursor is None:
            cursor = t.step(ctx.state.starter, direction=-t.direction)  # the dealer so far
        super().__init__(title, items, cursor=cursor, back=Home())

    def draw_on(self, d, ctx: Context) -> None:
        t = ctx.state.table
        top = draw.title_bar(d, self.title)
        first = ctx.name(t.step(self.cursor))
        d.text((2, top + 5), draw.clip(f"{first} goes first", draw.WIDTH - 4, draw.SMALL + 1),
               font=draw.font(draw.SMALL + 1), fill=1, anchor="lm")
        y = top + 12
        d.rectangle((0, y, draw.WIDTH - 1, draw.HEIGHT - 1), fill=1)
        d.text((6, (y + draw.HEIGHT) // 2), "▲▼", font=draw.font(12), fill=0, anchor="lm")
        draw.centered(d, (22, y + 1, draw.WIDTH - 2, draw.HEIGHT - 1), self.items[
            self.cursor].text(ctx), largest=28, fill=0)


class RoundPoints(Screen):
    """Each player's card points for the round, seat by seat: UP/DOWN +-1 (hold: +-10),
    OK/NEXT to the next player, BACK to the one before. After the last: recorded."""

    def __init__(self, ctx: Context) -> None:
        self.points = [0] * ctx.state.table.seats
        self.seat = 0

    def draw_on(self, d, ctx: Context) -> None:
        s = ctx.state
        n = len(self.points)
        top = draw.title_bar(d, f"Round {s.rounds + 1} points", f"{self.seat + 1}/{n}")
        d.text((2, top + 7), draw.clip(ctx.name(self.seat), 56, 14), font=draw.font(14), fill=1,
               anchor="lm")
        v = self.points[self.seat]
        draw.centered(d, (60, top, draw.WIDTH - 2, 50), str(v), largest=34)
        total = s.scores[self.seat]
        d.text((2, top + 24), f"now {total}", font=draw.font(draw.SMALL + 1), fill=1, anchor="lm")
        d.text((2, top + 36), f"→ {total + v}", font=draw.font(draw.SMALL + 1), fill=1,
               anchor="lm")
        draw.hint(d, "OK: next player" if self.seat < n - 1 else "OK: record the round")

    def on_press(self, button: Button, ctx: Context) -> Result:
        v = self.points[self.seat]
        if button is Button.UP:
            self.points[self.seat] = min(999, v + 1)
        elif button is Button.DOWN:
            self.points[self.seat] = max(0, v - 1)
        elif button is Button.BACK:
            if self.seat == 0:
                return Pop()
            self.seat -= 1
        elif button in (Button.OK, Button.NEXT):
            if self.seat < len(self.points) - 1:
                self.seat += 1
                return None
            return self.record(ctx)
        return None

    def on_hold(self, button: Button, ctx: Context) -> Result:
        v = self.points[self.seat]
        if button is Button.UP:
            self.points[self.seat] = min(999, v + 10)
        elif button is Button.DOWN:
            self.points[self.seat] = max(0, v - 10)
        return None

    def record(self, ctx: Context) -> Result:
        event = {"type": "round_points", "points": list(self.points)}
        try:
            after = ctx.playing.check(event)
        except IllegalEvent as e:
            return Toast(str(e).removeprefix("round_points: "), 3.0)
        if after.over:
            return Emit(event)  # the app shows the end screen
        return Emit(event, then=[Home(), *ask_next_dealer(ctx)])


def ask_next_dealer(ctx: Context) -> list:
    """After a round is scored and the game goes on: who deals the next one? (The panel's
    Round points and a round scored from a phone both ask; the snapshot's `ask` says so.)
    The dealing passes on: the one asked first is the seat that went first last round."""
    return [Push(DealerPicker(ctx, title="Next round: who deals?", cursor=ctx.state.starter))]


class MarkMost(Menu):
    """Skip to Most: mark the players tied for the most cards; the companion picks the first
    of them in the current direction and emits `skip_to` for that seat."""

    def __init__(self, ctx: Context) -> None:
        self.marked: set[int] = set()
        seats = ctx.state.table.active
        items = [Item((lambda c, s=s: ("■ " if s in self.marked else "□ ") + c.name(s)),  # type: ignore[misc]  # mypy types no lambda with a default
                      (lambda c, s=s: self.toggle(s))) for s in seats]
        items.append(Item(self.go_label, self.go))
        super().__init__("Most cards? Mark", items)

    def toggle(self, seat: int) -> Result:
        self.marked ^= {seat}
        return None

    def target(self, ctx: Context) -> int | None:
        return first_in_direction(ctx.state.table, self.marked) if self.marked else None

    def go_label(self, ctx: Context) -> str:
        k = self.target(ctx)
        return "▶ mark first" if k is None else f"▶ Skip to {ctx.name(k)}"

    def go(self, ctx: Context) -> Result:
        k = self.target(ctx)
        if k is None:
            return Toast("Mark who has the most cards")
        return Emit({"type": "skip_to", "player": k}, then=Home())

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.NEXT:
            return self.go(ctx)
        return super().on_press(button, ctx)


def swap_hands(ctx: Context) -> Screen:
    def second(a: int) -> Result:
        others = [s for s in ctx.state.table.active if s != a]
        return Replace(pick_player(f"Swap {ctx.name(a)} with?", ctx, lambda b: Emit(
            {"type": "swap_hands", "players": [a, b]}, then=Home()), seats=others))
    return pick_player("Swap hands: who?", ctx, second, cursor=ctx.state.table.current)


def color_picker(title: str, kind: str, *, cursor: str | None = None) -> ColorPicker:
    colors = list(COLORS)
    return ColorPicker(title, colors, done=lambda c: Emit({"type": kind, "color": c},
                                                          then=Home()),
                       cursor=colors.index(cursor) if cursor in colors else 0)


# --- the mode --------------------------------------------------------------------------------

class ChaosMode(Mode):
    kind = "chaos"
    first_player_text = "Next after the dealer, in the direction of play."
    house_rules_text = (
        "NEXT ends the turn. ROLL: the Chaos! call. OK: the cards menu. UP/DOWN: points.",
        "Pick a Color, Draw 4 and Two Train end the turn at once (one card a turn).",
        "Draw 4: the next player takes the stack or answers with a Draw 4 (stack +4); "
        "nothing else until then.",
        "After taking a stack you may still play or pass (NEXT).",
        "Two Train: +2 a card; it waits on Train! until a player who does not play takes it.",
        "Skip, reverse, swap hands and color dump leave the turn open: press NEXT after.",
        "Skip to Most: mark the players tied for most cards; the first of them in the "
        "current direction (after you) plays next.",
        "Color Dump sets the color on screen; Swap Hands is only noted in the history.",
        "Chaos!: with one card left, call within 1 second or draw 3.",
        "Round points: at least one player (who went out) has 0. Direction resets to "
        "clockwise; the group picks the next dealer.",
        f"Points are bad: when someone reaches {TARGET}, the fewest points wins (ties share).",
        "Hold BACK to undo, any number of times.",
    )

    def home(self, ctx: Context) -> Screen:
        return ChaosScreen(self)

    def end_screen(self, ctx: Context) -> Screen:
        return ChaosEnd()

    def first_player_screen(self, ctx: Context) -> Screen:
        return DealerPicker(ctx)

    def after_web_action(self, event: dict, ctx: Context) -> Result:
        if ctx.playing.game.question(ctx.state, event) is not None:  # as the snapshot's `ask`
            return ask_next_dealer(ctx)
        return None

    def game_actions(self, ctx: Context) -> list[Item]:
        s = ctx.state
        items: list[Item] = []
        if s.draw_stack:
            items.append(Item(f"Take {s.draw_stack} cards", Emit({"type": "take_draw_four"},
                                                                 then=Home())))
            items.append(Item(f"Add Draw 4 → {s.draw_stack + 4}", lambda c: Push(
                color_picker("Draw 4: new color?", "draw_four", cursor=s.color))))
        else:
            items += [
                Item("Pick a color…", lambda c: Push(
                    color_picker("Pick a color", "pick_color", cursor=s.color))),
                Item("Draw 4 + color…", lambda c: Push(
                    color_picker("Draw 4: new color?", "draw_four", cursor=s.color))),
                Item(f"Two Train +2 → {s.train + 2}", Emit({"type": "two_train"},
                                                               then=Home())),
            ]
            if s.train:
                items.append(Item(f"Take the train ({s.train})", Emit({"type": "take_train"},
                                                                      then=Home())))
            items += [
                Item("Skip to most…", lambda c: Push(MarkMost(c))),
                Item("Swap hands…", lambda c: Push(swap_hands(c))),
                Item("Color dump…", lambda c: Push(
                    color_picker("Color dump: color?", "color_dump", cursor=s.color))),
            ]
        items += [
            Item("Chaos! (1 s call)", lambda c: [Home(), *ChaosCall.start(c)]),
            Item("Points", lambda c: Push(points_screen(c))),
            Item("Round points…", lambda c: Push(RoundPoints(c))),
            Item("Who deals…", lambda c: Push(DealerPicker(c))),
        ]
        return items

    def menu(self, ctx: Context) -> Menu:
        m = super().menu(ctx)
        if ctx.state.draw_stack:  # only the stack answers and the common tools make sense
            m.items = [i for i in m.items if i.text(ctx) not in (
                "Skip next player", "Double skip", "Reverse", "Reverse + skip")]
        return m
