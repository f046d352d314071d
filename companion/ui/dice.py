"""Dice on a one-bit panel: every face drawn as a glyph AND a word, never colour alone.

`DiceMenu` chooses what to roll; `RollScreen` tumbles faces while the roll is under way and
shows the result once the app has recorded it; `roller_press` is what the dice roller's own
button does.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from companion.inputs import Button, ButtonInput
from companion.rules import dice as dicemod
from companion.ui import draw
from companion.ui.actions import Emit, Home, Push, Roll
from companion.ui.screen import Context, Item, Menu, Result, Screen

LOGO_WORD = {"colors": "ANY COLOR", "shapes": "ANY SHAPE"}


def face_word(die: str, face: Any) -> str:
    if face == dicemod.LOGO:
        return "LOGO"
    return str(face).upper()


def draw_glyph(d, die: str, face: Any, box: tuple[int, int, int, int]) -> None:
    """Draw `face` of `die` inside `box` (square-ish)."""
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    r = s // 2 - 1
    if face == dicemod.LOGO:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=1)
        _star(d, cx, cy, r * 0.8, fill=0)
        return
    if die == "shapes":
        if face == "square":
            d.rectangle((cx - r + 2, cy - r + 2, cx + r - 2, cy + r - 2), fill=1)
        elif face == "circle":
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=1)
        elif face == "star":
            _star(d, cx, cy, r, fill=1)
        elif face == "cross":
            t = max(3, r // 2)
            d.rectangle((cx - t // 2 - 1, cy - r, cx + t // 2, cy + r), fill=1)
            d.rectangle((cx - r, cy - t // 2 - 1, cx + r, cy + t // 2), fill=1)
        elif face == "pentagon":
            pts = [(cx + r * math.cos(math.radians(-90 + 72 * k)),
                    cy + r * math.sin(math.radians(-90 + 72 * k))) for k in range(5)]
            d.polygon(pts, fill=1)
        return
    # Colors and numbers: a die outline with the colour's initial or the number inside.
    d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=max(2, r // 4), fill=1)
    label = str(face)[0].upper() if die == "colors" else str(face)
    size = draw.fit(label, 2 * r - 4, 2 * r - 4, largest=2 * r)
    d.text((cx, cy), label, font=draw.font(size), fill=0, anchor="mm")


def _star(d, cx: float, cy: float, r: float, *, fill: int) -> None:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill)


def draw_faces(d, faces: dict[str, Any], box: tuple[int, int, int, int]) -> None:
    """One die: glyph left, word right. Two or more: side by side, glyph over word."""
    x0, y0, x1, y1 = box
    items = list(faces.items())
    if len(items) == 1:
        die, face = items[0]
        gs = min(y1 - y0, 40)
        gy = (y0 + y1 - gs) // 2
        draw_glyph(d, die, face, (x0 + 2, gy, x0 + 2 + gs, gy + gs))
        word = face_word(die, face)
        if face == dicemod.LOGO and die in LOGO_WORD:
            draw.centered(d, (x0 + gs + 6, y0, x1, (y0 + y1) // 2), word, largest=20)
            draw.centered(d, (x0 + gs + 6, (y0 + y1) // 2, x1, y1), LOGO_WORD[die], largest=14)
        else:
            draw.centered(d, (x0 + gs + 6, y0, x1, y1), word, largest=30)
        return
    w = (x1 - x0) // len(items)
    for i, (die, face) in enumerate(items):
        bx0 = x0 + i * w
        gs = min(w - 4, y1 - y0 - 14)
        draw_glyph(d, die, face, (bx0 + (w - gs) // 2, y0, bx0 + (w + gs) // 2, y0 + gs))
        draw.centered(d, (bx0, y0 + gs + 1, bx0 + w, y1), face_word(die, face), largest=13)


CHOICES = [("Colors + Shapes", ("colors", "shapes")), ("Colors die", ("colors",)),
           ("Shapes die", ("shapes",)), ("8-sided die", ("d8",)), ("6-sided die", ("d6",))]
# What the roller's button rolls before anything has been rolled: the pair most Chroma Cards
# games use, and the dice menu's first line.
DEFAULT_DICE = CHOICES[0][1]


class DiceMenu(Menu):
    """What to roll. Choosing rolls at once; the result is recorded as a roll event."""


def dice_menu(ctx: Context) -> Menu:
    return DiceMenu("Roll which dice?", [Item(label, Roll(names, title=label))
                                         for label, names in CHOICES])


def game_dice(ctx: Context) -> Roll:
    """The dice this game uses: the last ones rolled (in the journal), else DEFAULT_DICE."""
    last = ctx.state.last_roll if ctx.journal is not None else None
    dice = tuple(last) if last else DEFAULT_DICE
    return Roll(dice, title=next((label for label, names in CHOICES if names == dice), ""))


def roller_press(screen: Screen, ctx: Context) -> Result:
    """The dice roller's own button, a request to roll now. Where ROLL would open the dice
    menu (the `table` kind's home screen, Penny Badger's), the game's dice roll at once with
    no menu (`game_dice`); on the dice menu, the dice under the cursor; anywhere else it is
    the ROLL button (a result: the same dice again; Pig Farm: the butcher)."""
    if isinstance(screen, DiceMenu):
        return screen.on_press(Button.OK, ctx)
    action = screen.handle(ButtonInput(Button.ROLL), ctx)
    if isinstance(action, Push) and isinstance(action.screen, DiceMenu):
        return game_dice(ctx)
    return action


class RollScreen(Screen):
    """Tumbling faces, then the recorded result.

    The app calls `tumble()` on each animation tick and `settle(dice)` once the roll event is
    in the journal. OK/BACK return to the game; NEXT ends the turn; ROLL rolls the same again.
    """

    def __init__(self, roll: Roll, *, rng: random.Random | None = None) -> None:
        self.roll = roll
        self.rng = rng or random.Random()
        self.faces: dict[str, Any] = {}
        self.result: dict[str, Any] | None = None
        self.note = ""
        self.tumble()

    def tumble(self) -> None:
        self.faces = dicemod.roll(self.roll.dice, self.rng)  # for show only, never recorded

    def settle(self, dice: dict[str, Any], note: str = "") -> None:
        self.result = dict(dice)
        self.faces = dict(dice)
        self.note = note

    def draw_on(self, d, ctx: Context) -> None:
        seat = self.roll.who
        who = ctx.name(ctx.state.table.current if seat is None else seat) if ctx.journal else ""
        if self.result is None:
            top = draw.title_bar(d, f"{who} rolling…" if who else "Rolling…")
            # Tumbling: faces drawn slightly shifted for a sense of motion.
            jitter = self.rng.randint(-2, 2)
            draw_faces(d, self.faces, (0 + jitter, top + 1, draw.WIDTH + jitter, draw.HEIGHT - 1))
            return
        top = draw.title_bar(d, self.roll.title or f"{who} rolled", ctx.dice_note or "")
        bottom = draw.HEIGHT - (11 if self.note else 1)
        draw_faces(d, self.faces, (0, top + 1, draw.WIDTH, bottom))
        if self.note:
            draw.hint(d, self.note)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if self.result is None:
            return None  # the roll is still under way
        if button in (Button.OK, Button.BACK):
            return Home()
        if button is Button.NEXT and ctx.journal is not None:
            return Emit({"type": "next"}, then=Home())
        if button is Button.ROLL:
            return self.roll
        return None


def roll_event(dice: dict[str, Any]) -> dict[str, Any]:
    return {"type": "roll", "dice": dict(dice)}


def make_event(roll: Roll) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    return roll.make_event or roll_event
