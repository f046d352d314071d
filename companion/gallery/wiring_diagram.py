"""Wiring diagrams (SVG and PNG) drawn from `companion.drivers.wiring`, so they follow the config.

The board (the Pi's 40-pin header or the Pico) stands in the middle with every pin labelled;
each part sits on the side of the pins it uses, level with them where there is room. Every
wire runs out from its pin, along its own vertical lane, into the part; every part's ground
goes to one ground bus per side, fed from a GND pin. Optional parts are dashed.

The drawing is a list of primitives rendered twice: as SVG text and through Pillow as a PNG,
so the two always show the same thing. No drawing library beyond Pillow is needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable

from PIL import Image, ImageDraw, ImageFont

from companion.drivers.wiring import PI, Board, Part, Wire, nearest_ground

ROW = 36  # px between pin rows
TOP = 150  # y of row 0
LANE = 9  # px between wire lanes
INK = "#222222"
GREY = "#8a8a8a"
GROUND = "#222222"
COLORS = {"3V3": "#e6550d", "3V3(OUT)": "#e6550d", "5V": "#c4001a", "VBUS": "#c4001a",
          "SDA": "#1f5fbf", "SCL": "#d4a000"}
PALETTE = ["#2ca02c", "#9467bd", "#17becf", "#d62728", "#8c564b", "#e377c2", "#1f77b4",
           "#bcbd22", "#ff7f0e"]


# --- primitives -----------------------------------------------------------------------------

@dataclass
class Canvas:
    width: int
    height: int
    items: list[tuple] = field(default_factory=list)

    def line(self, points: list[tuple[float, float]], color: str, width: float = 2.5,
             dash: bool = False) -> None:
        self.items.append(("line", points, color, width, dash))

    def rect(self, x0: float, y0: float, x1: float, y1: float, *, outline: str = INK,
             fill: str | None = "#ffffff", dash: bool = False, width: float = 1.5) -> None:
        self.items.append(("rect", (x0, y0, x1, y1), outline, fill, dash, width))

    def dot(self, x: float, y: float, r: float, *, fill: str, outline: str = INK) -> None:
        self.items.append(("dot", (x, y, r), fill, outline))

    def text(self, x: float, y: float, s: str, *, size: int = 12, anchor: str = "start",
             color: str = INK, bold: bool = False) -> None:
        """`y` is the baseline; anchor start | middle | end."""
        self.items.append(("text", (x, y), s, size, anchor, color, bold))

    # -- SVG --

    def svg(self) -> str:
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
               f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
               'font-family="DejaVu Sans Condensed, Arial Narrow, Helvetica, sans-serif">',
               f'<rect width="{self.width}" height="{self.height}" fill="#ffffff"/>']
        for item in self.items:
            kind = item[0]
            if kind == "line":
                _, pts, color, width, dash = item
                d = " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)
                extra = ' stroke-dasharray="7 5"' if dash else ""
                out.append(f'<polyline points="{d}" fill="none" stroke="{color}" '
                           f'stroke-width="{_n(width)}" stroke-linejoin="round"{extra}/>')
            elif kind == "rect":
                _, (x0, y0, x1, y1), outline, fill, dash, width = item
                extra = ' stroke-dasharray="7 5"' if dash else ""
                out.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" '
                           f'height="{_n(y1 - y0)}" rx="4" fill="{fill or "none"}" '
                           f'stroke="{outline}" stroke-width="{_n(width)}"{extra}/>')
            elif kind == "dot":
                _, (x, y, r), fill, outline = item
                out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" '
                           f'stroke="{outline}" stroke-width="1"/>')
            elif kind == "text":
                _, (x, y), s, size, anchor, color, bold = item
                weight = ' font-weight="bold"' if bold else ""
                out.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" '
                           f'text-anchor="{anchor}" fill="{color}"{weight}>{_esc(s)}</text>')
        out.append("</svg>")
        return "\n".join(out) + "\n"

    # -- PNG --

    def png(self, scale: int = 1) -> Image.Image:
        img = Image.new("RGB", (self.width * scale, self.height * scale), "white")
        d = ImageDraw.Draw(img)
        s = scale
        for item in self.items:
            kind = item[0]
            if kind == "line":
                _, pts, color, width, dash = item
                w = max(1, round(width * s))
                for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                    for a, b in (_dashes((x0, y0), (x1, y1)) if dash else [((x0, y0), (x1, y1))]):
                        d.line([(a[0] * s, a[1] * s), (b[0] * s, b[1] * s)], fill=color, width=w)
                for x, y in pts[1:-1]:  # round joints
                    r = w / 2
                    d.ellipse((x * s - r, y * s - r, x * s + r, y * s + r), fill=color)
            elif kind == "rect":
                _, (x0, y0, x1, y1), outline, fill, dash, width = item
                box = (x0 * s, y0 * s, x1 * s, y1 * s)
                w = max(1, round(width * s))
                if fill:
                    d.rounded_rectangle(box, radius=4 * s, fill=fill)
                if dash:
                    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
                    for p0, p1 in zip(corners, corners[1:]):
                        for a, b in _dashes(p0, p1):
                            d.line([(a[0] * s, a[1] * s), (b[0] * s, b[1] * s)], fill=outline,
                                   width=w)
                else:
                    d.rounded_rectangle(box, radius=4 * s, outline=outline, width=w)
            elif kind == "dot":
                _, (x, y, r), fill, outline = item
                d.ellipse(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), fill=fill,
                          outline=outline)
            elif kind == "text":
                _, (x, y), text, size, anchor, color, bold = item
                pil_anchor = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
                d.text((x * s, y * s), text, font=_font(size * s, bold), fill=color,
                       anchor=pil_anchor)
        return img


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _dashes(p0: tuple[float, float], p1: tuple[float, float], on: float = 7,
            off: float = 5) -> Iterable[tuple[tuple[float, float], tuple[float, float]]]:
    (x0, y0), (x1, y1) = p0, p1
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    t = 0.0
    while t < length:
        t1 = min(t + on, length)
        yield ((x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length),
               (x0 + (x1 - x0) * t1 / length, y0 + (y1 - y0) * t1 / length))
        t += on + off


_FONTS: dict[tuple[int, bool], ImageFont.FreeTypeFont] = {}


def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    # The bold DejaVu the OLED screens use is the only font shipped; regular text is the
    # same face, which reads fine at these sizes.
    key = (size, bold)
    if key not in _FONTS:
        path = resources.files("companion.ui") / "fonts" / "DejaVuSansCondensed-Bold.ttf"
        _FONTS[key] = ImageFont.truetype(str(path), size)
    return _FONTS[key]


# --- layout ---------------------------------------------------------------------------------

@dataclass
class Placed:
    part: Part
    side: str
    top: float
    bottom: float
    inner: float  # x of the edge facing the board
    outer: float  # x of the edge facing the ground bus
    terminals: list[tuple[Wire, float]]  # wires drawn to this part, with their y
    away: list[Wire]  # wires to pins on the other side: written as notes
    ground_y: float


def _row_y(row: int) -> float:
    return TOP + row * ROW


def _wire_color(board: Board, wire: Wire, index: int) -> str:
    label = board.label(wire.pin) if wire.pin is not None else ""
    for key in (wire.terminal.split()[0], label):
        if key in COLORS:
            return COLORS[key]
    if label in ("5V", "VBUS"):
        return COLORS["5V"]
    return PALETTE[index % len(PALETTE)]


def draw(board: Board, parts: list[Part], *, title: str, subtitle: str = "",
         legend: str = "") -> Canvas:
    rows = 20
    cx = 590
    width = 1180
    height = TOP + rows * ROW + 60
    c = Canvas(width, height)
    c.text(24, 34, title, size=20, bold=True)
    if subtitle:
        c.text(24, 56, subtitle, size=12, color="#555555")

    # Parts go on the side of most of their pins; lanes are counted per side.
    sides: dict[str, list[Part]] = {"L": [], "R": []}
    for part in parts:
        pinned = [w for w in part.wires if w.pin is not None]
        votes = [board.place(w.pin)[0] for w in pinned]
        side = max("LR", key=lambda s: (votes.count(s), s == "L"))
        sides[side].append(part)
    lanes = {s: sum(1 for p in ps for w in p.wires if w.pin is not None
                    and board.place(w.pin)[0] == s) + 1 for s, ps in sides.items()}

    # The board.
    pin_x = {"L": cx - 14, "R": cx + 14}
    c.rect(cx - 30, TOP - 22, cx + 30, _row_y(rows - 1) + 22, outline=INK, fill="#2d6a3e",
           width=2)
    c.text(cx, TOP - 30, board.name, size=13, anchor="middle", bold=True)
    used = {w.pin: p for p in parts for w in p.wires if w.pin is not None}
    ground_pins: dict[str, int] = {}
    placed: list[Placed] = []
    index = 0

    for side in "LR":
        sign = -1 if side == "L" else 1
        lane0 = cx + sign * 150
        inner_x = cx + sign * (150 + LANE * lanes[side] + 24)
        wanted = []
        for part in sides[side]:
            mine = [w for w in part.wires if board.place(w.pin)[0] == side]
            mine.sort(key=lambda w: board.place(w.pin)[1])
            away = [w for w in part.wires if w not in mine]
            signals = [w for w in mine if board.label(w.pin).startswith("GP")] or mine
            ys = [_row_y(board.place(w.pin)[1]) for w in signals]
            wanted.append((sum(ys) / len(ys), part, mine, away))
        wanted.sort(key=lambda t: t[0])
        floor = TOP - 30.0
        for want_y, part, mine, away in wanted:
            button = part.kind == "button"
            n = len(mine)
            lines = sum(len(_wrap(t)) for t in _box_notes(board, part, away))
            head = 28 if button else 30  # from the top to the first terminal
            if button:
                body = 34.0
            else:
                body = head + ROW * n + 16 * lines + 18
            first_y = want_y - (ROW * (n - 1)) / 2 if button or n else want_y
            top = max(first_y - head, floor)
            first_y = top + head
            bottom = top + body
            w_part = 96 if button else 230
            outer = inner_x + sign * w_part
            terms = [(w, first_y + i * ROW) for i, w in enumerate(mine)]
            ground_y = first_y if button else first_y + ROW * n
            placed.append(Placed(part, side, top, bottom, inner_x, outer, terms, away,
                                 ground_y))
            floor = bottom + (2 if button else 26)
            height = max(height, int(bottom) + 80)

        # Wires from the board to the parts, each on its own lane.
        lane = 0
        for pl in [p for p in placed if p.side == side]:
            dash = bool(pl.part.optional)
            for w, y in pl.terminals:
                side_w, row = board.place(w.pin)
                y0 = _row_y(row)
                x_lane = lane0 + sign * LANE * lane
                lane += 1
                color = _wire_color(board, w, index)
                index += 1
                c.line([(pin_x[side], y0), (x_lane, y0), (x_lane, y), (pl.inner, y)], color,
                       dash=dash)

        # The ground bus, fed from the GND pin nearest the middle of this side's parts.
        boxes = [p for p in placed if p.side == side]
        if boxes and any(p.part.ground for p in boxes):
            mid = sum(p.ground_y for p in boxes) / len(boxes)
            grounds = [p for p, lab in board.pins.items()
                       if lab == "GND" and board.place(p)[0] == side]
            gnd = min(grounds, key=lambda g: abs(_row_y(board.place(g)[1]) - mid)) if grounds \
                else nearest_ground(board, boxes[0].terminals[0][0].pin)
            ground_pins[side] = gnd
            bus_x = (min if side == "L" else max)(p.outer for p in boxes) + sign * 30
            feed_lane = lane0 + sign * LANE * lane
            feed_y = TOP - 62
            y_g = _row_y(board.place(gnd)[1])
            c.line([(pin_x[board.place(gnd)[0]], y_g), (feed_lane, y_g), (feed_lane, feed_y),
                    (bus_x, feed_y)], GROUND)
            low = max(p.ground_y for p in boxes if p.part.ground)
            c.line([(bus_x, feed_y), (bus_x, low)], GROUND, width=3)
            c.text(bus_x, feed_y - 8, "GND bus", size=11, anchor="middle", bold=True)
            for p in boxes:
                if p.part.ground:
                    c.line([(p.outer, p.ground_y), (bus_x, p.ground_y)], GROUND,
                           dash=bool(p.part.optional))
                    c.dot(bus_x, p.ground_y, 3.5, fill=GROUND)

    # Pins and their labels (after the wires, so they sit on top).
    for pin, label in board.pins.items():
        side, row = board.place(pin)
        y = _row_y(row)
        x = pin_x[side]
        fill = "#f2c200" if pin in used or pin in ground_pins.values() else "#d9d9d9"
        if label == "GND":
            fill = "#333333" if pin in ground_pins.values() else "#777777"
        c.dot(x, y, 7, fill=fill)
        name = label
        if board is PI and label.startswith("GPIO") and int(label[4:]) in (2, 3):
            name = f"{label} {('SDA', 'SCL')[int(label[4:]) - 2]}"
        active = pin in used or pin in ground_pins.values()
        color = INK if active else GREY
        if side == "L":
            c.text(cx - 38, y - 4, f"{name}  {pin}", size=11, anchor="end", color=color,
                   bold=active)
        else:
            c.text(cx + 38, y - 4, f"{pin}  {name}", size=11, color=color, bold=active)

    # The parts.
    for pl in placed:
        _draw_part(c, board, pl)
    if legend:
        c.text(24, height - 24, legend, size=12, color="#555555")
    c.height = height
    return c


def _draw_part(c: Canvas, board: Board, pl: Placed) -> None:
    part = pl.part
    dash = bool(part.optional)
    ink = GREY if dash else INK
    x0, x1 = sorted((pl.inner, pl.outer))
    if part.kind == "button":
        y = pl.terminals[0][1]
        mid = (x0 + x1) / 2
        c.line([(x0, y), (mid - 16, y)], ink, width=2)
        c.line([(mid + 16, y), (x1, y)], ink, width=2)
        c.dot(mid - 16, y, 3, fill="#ffffff", outline=ink)
        c.dot(mid + 16, y, 3, fill="#ffffff", outline=ink)
        c.line([(mid - 20, y - 9), (mid + 20, y - 9)], ink, width=2)  # the contact bar
        c.line([(mid, y - 9), (mid, y - 16)], ink, width=2)  # the plunger
        c.text(mid, y - 16, part.name, size=12, anchor="middle", bold=True, color=ink)
        return
    c.rect(x0, pl.top, x1, pl.bottom, outline=ink, fill="#f7f7f7", dash=dash)
    c.text((x0 + x1) / 2, pl.top + 16, part.name, size=13, anchor="middle", bold=True, color=ink)
    for w, y in pl.terminals:
        if pl.side == "L":
            c.text(x1 - 8, y - 4, w.terminal, size=11, anchor="end", color=ink)
        else:
            c.text(x0 + 8, y - 4, w.terminal, size=11, color=ink)
        c.dot(pl.inner, y, 3, fill="#ffffff", outline=ink)
    y = pl.ground_y + 24
    for note in _box_notes(board, part, pl.away):
        for line in _wrap(note):
            c.text((x0 + x1) / 2, y, line, size=10, anchor="middle", color="#555555")
            y += 16
    if part.ground:
        c.dot(pl.outer, pl.ground_y, 3, fill="#ffffff", outline=ink)
        anchor = "start" if pl.side == "L" else "end"
        gx = x0 + 8 if pl.side == "L" else x1 - 8
        c.text(gx, pl.ground_y + 4, part.ground, size=11, anchor=anchor, color=ink)
    if part.optional:
        c.text((x0 + x1) / 2, pl.bottom + 14, f"optional: {part.optional}", size=10,
               anchor="middle", color=GREY)


def _box_notes(board: Board, part: Part, away: list[Wire]) -> list[str]:
    return [f"{w.terminal} to {board.label(w.pin)} (pin {w.pin})" for w in away] \
        + list(part.notes)


def _wrap(text: str, width: int = 38) -> list[str]:
    lines, cur = [], ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    return lines + [cur] if cur else lines


def write(canvas: Canvas, stem: Path) -> list[Path]:
    """Write `stem`.svg and `stem`.png; returns the paths."""
    svg, png = stem.with_suffix(".svg"), stem.with_suffix(".png")
    svg.write_text(canvas.svg(), encoding="utf-8")
    canvas.png().save(png, optimize=True)
    return [svg, png]
