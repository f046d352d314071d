"""Pictures of the panel with its seat light ring round it (docs/screens/ring-*.png, made by
`companion screens`): the companion run on the test driver's fake clock with a recording ring,
each picture the panel's frame and the ring's frame at one moment of a scripted game. The
end and an eliminated seat come from the kinds' own gallery games (no kind is named here)."""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from PIL import Image, ImageDraw

from companion import games
from companion.drivers.lights import seen
from companion.ui import draw, ring as R

SCALE = 3  # the panel's pixels
PAD = 26  # from the panel's edge to the ring's line
DOT = 10  # radius of a LED
SIDE = 120  # room for the names beside the ring
TOP = 44  # and above and under it
CAPTION = 44
INK = (235, 235, 235)
# Each seat's name says what its light says, beside the colour.
MARKS = {"turn": " ▶", "warn": " !", "time": " ✕", "won": " ★", "out": " (out)",
         "skip": " (skipped)"}
LIT = (205, 230, 255)  # the OLED's lit pixels
BOX = (38, 38, 42)
COUNT = 16


def picture(panel: Image.Image, frame: R.Frame, players: Sequence[str], seats: Sequence[int],
            marks: Sequence[str]) -> Image.Image:
    """The panel (a 1-bit frame) in its box, the ring's LEDs round it in `frame`'s colours,
    each seat's name outside its LED and the ring's words under it all."""
    pw, ph = panel.width * SCALE, panel.height * SCALE
    w, h = pw + 2 * (PAD + SIDE), ph + 2 * (PAD + TOP) + CAPTION
    img = Image.new("RGB", (w, h), (0, 0, 0))
    d = ImageDraw.Draw(img)
    x0, y0 = PAD + SIDE, PAD + TOP
    d.rounded_rectangle((x0 - PAD - DOT - 6, y0 - PAD - DOT - 6, x0 + pw + PAD + DOT + 6,
                         y0 + ph + PAD + DOT + 6), radius=18, fill=BOX)
    screen = panel.convert("1").resize((pw, ph), Image.Resampling.NEAREST)
    img.paste(Image.new("RGB", (pw, ph), LIT), (x0, y0), screen)
    d.rectangle((x0 - 1, y0 - 1, x0 + pw, y0 + ph), outline=(70, 70, 70))
    face = draw.font(18)
    for led, colour in enumerate(frame):
        fx, fy = R.around(led, len(frame))
        x, y = x0 - PAD + fx * (pw + 2 * PAD), y0 - PAD + fy * (ph + 2 * PAD)
        shown = seen(colour)
        outline = (80, 80, 80) if colour == R.DARK else shown
        d.ellipse((x - DOT, y - DOT, x + DOT, y + DOT), fill=shown, outline=outline, width=1)
        if led in seats:
            seat = seats.index(led)
            name = players[seat] + MARKS.get(marks[seat], "")
            off = DOT + 14
            if fy == 0.0:
                d.text((x, y - off), name, font=face, fill=INK, anchor="ms")
            elif fy == 1.0:
                d.text((x, y + off), name, font=face, fill=INK, anchor="mt")
            elif fx == 1.0:
                d.text((x + off, y), name, font=face, fill=INK, anchor="lm")
            else:
                d.text((x - off, y), name, font=face, fill=INK, anchor="rm")
    d.text((w / 2, h - CAPTION / 2), R.words(players, marks), font=draw.font(20),
           fill=INK, anchor="mm")
    return img


class _Shot:
    """The companion on a fake clock with a recording ring: `take()` pictures it now."""

    def __init__(self, tmp: Any, config: Any, kind: str, players: Sequence[str],
                 rules: dict[str, Any] | None = None, count: int = COUNT) -> None:
        from companion.testing import FakeClock, RecordingRing, make_app
        self.clock = FakeClock()
        # COUNT LEDs the players see, after the ones `[lights] first` keeps dark.
        self.first = int(config["lights"]["first"])
        self.ring = RecordingRing(count + self.first, clock=self.clock)
        self.players = tuple(players)
        self.app = make_app(tmp, config=config, kind=kind, players=players, rules=rules,
                            setup=False, clock=self.clock, ring=self.ring)

    def run(self, seconds: float) -> None:
        from companion.testing import drain
        end = self.clock.t + seconds
        while True:
            due = [t for t in self.clock.pending if t <= end]
            if not due:
                break
            self.clock.t = max(self.clock.t, due[0])
            drain(self.app)
        self.clock.t = end
        drain(self.app)

    def take(self, frame: R.Frame | None = None) -> Image.Image:
        self.app.render()
        snap = self.app.lights.snapshot()
        assert snap is not None
        shown = (frame or self.ring.last)[self.first:]  # the ring drawn: no hidden LED
        return picture(self.app.panel_frame, shown, self.players, snap["seats"], snap["marks"])

    def close(self) -> None:
        from companion.testing import close
        close(self.app)


def shots(config: Any) -> Iterator[tuple[str, Image.Image]]:
    """(name, RGB image) of the ring at each thing it shows."""
    import tempfile

    from companion.inputs import Button
    from companion.rules.game import Game
    from companion.session.clock import WARN_BEFORE
    from companion.testing import press
    from companion.ui.start import default_names

    names = default_names(config.names, 4)
    with tempfile.TemporaryDirectory() as tmp:
        s = _Shot(f"{tmp}/a", config, Game.kind, names, {"turn_limit": 60})
        try:
            yield "ring-turn", s.take()
            mark = len(s.ring.frames)
            press(s.app, Button.NEXT)
            s.run(0.1)
            yield "ring-chase", s.take(s.ring.frames[mark + 2][1])
            s.run(2.0)
            s.app.emit({"type": "skip"})
            s.app.handle(object())
            yield "ring-skip", s.take()
            s.run(2.0)
            s.app.emit({"type": "roll", "player": 1, "dice": {"colors": "green"}})
            s.app.handle(object())
            yield "ring-roll-green", s.take()
            s.run(3.0)
            s.app.render()
            s.run(60 - WARN_BEFORE + 1)
            yield "ring-warn", s.take()
            s.run(WARN_BEFORE)
            yield "ring-time", s.take()
        finally:
            s.close()
        # 16 players on a ring of 8 (issue 35.6): the second player sits between LEDs 0 and
        # 1, both lit; the panel says so as the game comes on.
        s = _Shot(f"{tmp}/b", config, Game.kind, default_names(config.names, 16), count=8)
        try:
            press(s.app, Button.NEXT)
            s.run(1.0)
            s.app.show_toast(R.fold_words(R.Layout.of(8, 16)), 4.0)  # (as at its start)
            yield "ring-folded", s.take()
        finally:
            s.close()
        over = _found(config, lambda st: st.over and len(st.winners) == 1)
        if over is not None:
            yield "ring-over", _still(over, glow=1.0)
        out = _found(config, lambda st: not st.over and st.table.eliminated)
        if out is not None:
            yield "ring-eliminated", _still(out)


def _found(config: Any, want: Any) -> tuple[Image.Image, Any] | None:
    """The first gallery game of any kind whose state is `want`ed: (its panel, its journal)."""
    for kind in games.kinds().values():
        if kind.gallery is None:
            continue
        try:
            for _, journal, stack in kind.gallery(config):
                if journal is not None and want(journal.state):
                    from companion.ui.screen import Context
                    ctx = Context(config=config, journal=journal)
                    return stack[-1].render(ctx), journal
        except Exception:  # a house game's gallery that fails: not our picture to make
            if games.builtin(kind):
                raise
    return None


def _still(found: tuple[Image.Image, Any], glow: float = 1.0) -> Image.Image:
    panel, journal = found
    look = R.Look.of(journal.state)
    layout = R.Layout.of(COUNT, look.seats)
    return picture(panel, R.steady(layout, look, glow=glow), journal.header.players,
                   layout.centres, R.marks(look))
