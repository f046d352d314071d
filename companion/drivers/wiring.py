"""Who connects to what: the wiring of the Pi box, derived from a `Config`, and of the roller,
derived from the constants at the top of `firmware/main.py`.

This is the one place the docs' wiring tables and diagrams come from (`gallery/hardware_docs.py`), so
they follow `companion.config.DEFAULTS` (or your own config: `python -m
companion.gallery.hardware_docs --config my.toml --print`), and the doctor names header pins with it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# --- the boards -----------------------------------------------------------------------------

# The Raspberry Pi's 40-pin header (all models since the B+): physical pin -> what it is.
# Odd pins are the column nearer the board's middle, even pins the edge column.
PI_HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}

# The Raspberry Pi Pico, seen from above with the USB socket at the top: pins 1-20 down the
# left edge, 21-40 up the right edge.
PICO_PINS: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}


@dataclass(frozen=True)
class Board:
    name: str
    pins: dict[int, str]

    def place(self, pin: int) -> tuple[str, int]:
        """(side, row) of a physical pin: side "L" or "R", row 0 at the top."""
        if self.pins is PI_HEADER:
            return ("L" if pin % 2 else "R"), (pin - 1) // 2
        return ("L", pin - 1) if pin <= 20 else ("R", 40 - pin)

    def gpio(self, number: int) -> int:
        """The physical pin of GPIO `number` (BCM on the Pi, GP on the Pico)."""
        want = f"GPIO{number}" if self.pins is PI_HEADER else f"GP{number}"
        for pin, label in self.pins.items():
            if label == want:
                return pin
        raise ValueError(f"{self.name} has no {want}")

    def first(self, label: str) -> int:
        return min(p for p, lab in self.pins.items() if lab == label)

    def label(self, pin: int) -> str:
        return self.pins[pin]


PI = Board("Raspberry Pi header", PI_HEADER)
PICO = Board("Raspberry Pi Pico (USB end up)", PICO_PINS)


def header_pin(bcm: int) -> int:
    """Physical header pin of BCM GPIO `bcm` (e.g. 17 -> 11)."""
    return PI.gpio(bcm)


# --- parts and their wires ------------------------------------------------------------------

@dataclass(frozen=True)
class Wire:
    terminal: str  # the part's pin, e.g. "SDA" or "one leg"
    pin: int  # the board's physical pin


@dataclass(frozen=True)
class Part:
    name: str  # "NEXT", "OLED", ...
    kind: str  # button | display | encoder | buzzer | ring
    does: str
    wires: tuple[Wire, ...]
    ground: str = "GND"  # the part's ground terminal, wired to the ground bus ("" = none)
    optional: str = ""  # why it may be left out, or "" when it is always fitted
    notes: tuple[str, ...] = field(default_factory=tuple)


BUTTON_DOES = {
    "next": "end the turn (hold with BACK 5 s: power off)",
    "roll": "roll the dice",
    "up": "move up, more",
    "down": "move down, less",
    "ok": "choose (hold: the game's menu)",
    "back": "go back (hold: undo)",
}


def pi_parts(cfg: Any) -> list[Part]:
    """The parts wired to the Pi, in the order the docs list them."""
    parts = []
    for name, bcm in cfg.pins().items():
        parts.append(Part(name.upper(), "button", BUTTON_DOES[name],
                          (Wire("one leg (NO)", header_pin(bcm)),)))
    d = cfg["display"]
    parts.append(Part(
        "OLED", "display",
        f"{d['kind'].upper()} 128x64, I2C bus {d['i2c_port']} at {d['address']:#04x}",
        (Wire("VCC", PI.first("3V3")), Wire("SDA", header_pin(2)), Wire("SCL", header_pin(3))),
        notes=("VCC to 3V3, never 5V",)))
    e = cfg["encoder"]
    parts.append(Part(
        "ENCODER", "encoder", "turn = UP/DOWN, push = OK",
        (Wire("CLK (A)", header_pin(e["a"])), Wire("DT (B)", header_pin(e["b"])),
         Wire("SW (push)", header_pin(e["push"])), Wire("+ (3V3)", max(
             p for p, lab in PI_HEADER.items() if lab == "3V3"))),
        optional="" if e["enabled"] else "[encoder] enabled = false",
        notes=("KY-040 style module; + to 3V3, never 5V",)))
    b = cfg["buzzer"]
    parts.append(Part(
        "BUZZER", "buzzer", "timers and alarms (active buzzer, NPN switch)",
        (Wire("IN (1 kΩ to NPN base)", header_pin(b["pin"])),
         Wire("+5V (buzzer +)", PI.first("5V"))),
        optional="" if b["enabled"] else "[buzzer] enabled = false",
        notes=("buzzer - to NPN collector; emitter to GND",)))
    parts.append(ring_part(cfg))
    return parts


def ring_part(cfg: Any) -> Part:
    """The seat light ring on SPI's MOSI: its data through a 74AHCT125 (3.3 V to 5 V) and a
    330 Ω resistor, its power from 5V with a 1000 µF capacitor, and what it draws."""
    from companion.config import SPI_MOSI
    from companion.drivers.lights import ring_milliamps

    li = cfg["lights"]
    mosi = SPI_MOSI[li["spi_bus"]]
    full = ring_milliamps(li["count"], 1.0)
    dimmed = ring_milliamps(li["count"], li["brightness"])
    return Part(
        "LIGHT RING", "ring",
        f"WS2812B ring of {li['count']} LEDs on SPI bus {li['spi_bus']} (MOSI, GPIO{mosi})",
        (Wire("DIN", header_pin(mosi)),
         Wire("5V", max(p for p, lab in PI_HEADER.items() if lab == "5V"))),
        optional="" if li["enabled"] else "[lights] enabled = false",
        notes=(f"data: GPIO{mosi} to a 74AHCT125's pin 1A, its 1Y through 330 Ω to DIN; "
               "1OE to GND, VCC to 5V (or the first-pixel trick: hardware/README.md)",
               "1000 µF across 5V and GND at the ring",
               f"full white: {li['count']} × 60 mA = {full / 1000:.2f} A; at brightness "
               f"{li['brightness']:g}: {dimmed} mA",
               "over 1 A: feed the ring from the 5 V supply, not the header"))


# --- the roller (firmware/main.py) ----------------------------------------------------------

FIRMWARE_MAIN = Path(__file__).resolve().parents[2] / "firmware" / "main.py"
FIRMWARE_KEYS = ("BUTTON_PIN", "RING_PIN", "RING_LEDS", "I2C_ID", "SDA_PIN", "SCL_PIN",
                 "OLED_ADDR")


def firmware_constants(path: Path = FIRMWARE_MAIN) -> dict[str, int]:
    """The pin constants at the top of firmware/main.py, read without running it (it imports
    `machine`, which only exists on the Pico)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id in FIRMWARE_KEYS:
            value = ast.literal_eval(node.value)
            if isinstance(value, int):
                found[node.targets[0].id] = value
    missing = [k for k in FIRMWARE_KEYS if k not in found]
    if missing:
        raise ValueError(f"{path} no longer defines {', '.join(missing)}")
    return found


def roller_parts(fw: dict[str, int]) -> list[Part]:
    return [
        Part("BUTTON", "button", "asks the companion for a roll",
             (Wire("one leg", PICO.gpio(fw["BUTTON_PIN"])),)),
        Part("RING", "ring", f"WS2812 ring, {fw['RING_LEDS']} LEDs",
             (Wire("DIN (through 330 Ω)", PICO.gpio(fw["RING_PIN"])),
              Wire("5V", PICO.first("VBUS"))),
             notes=("470 µF across 5V and GND at the ring",)),
        Part("OLED", "display",
             f"SSD1306 128x64, I2C{fw['I2C_ID']} at {fw['OLED_ADDR']:#04x}",
             (Wire("SDA", PICO.gpio(fw["SDA_PIN"])), Wire("SCL", PICO.gpio(fw["SCL_PIN"])),
              Wire("VCC", PICO.first("3V3(OUT)"))),
             optional="the roller works without it"),
    ]


def nearest_ground(board: Board, pin: int) -> int:
    """The GND pin nearest to `pin`. On the Pi's header both columns are a finger apart, so
    only the row counts (same column breaks ties); the Pico's two edges are far apart, so a
    GND on the same edge comes first."""
    side, row = board.place(pin)
    grounds = [p for p, lab in board.pins.items() if lab == "GND"]

    def distance(g: int) -> tuple:
        g_side, g_row = board.place(g)
        if board is PI:
            return (abs(g_row - row), g_side != side, g)
        return (g_side != side, abs(g_row - row), g)

    return min(grounds, key=distance)
