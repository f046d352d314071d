"""Regenerate the wiring tables in hardware/README.md and the wiring diagrams from the config.

    python -m companion.gallery.hardware_docs            # rewrite the generated parts (repo checkout)
    python -m companion.gallery.hardware_docs --check    # exit 1 if they drifted from the defaults
    python -m companion.gallery.hardware_docs --config my.toml --print            # your wiring, as tables
    python -m companion.gallery.hardware_docs --config my.toml --diagrams DIR     # ... and as pictures

The tables sit between `<!-- BEGIN generated: NAME -->` and `<!-- END generated: NAME -->`
markers; everything else in the README is written by hand.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from companion import config as configmod
from companion.drivers import wiring as W
from companion.errors import ConfigError
from companion.gallery import wiring_diagram as D

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
README = HARDWARE / "README.md"
PI_STEM = "wiring-pi"
ROLLER_STEM = "wiring-roller"
PI_LEGEND = ("Buttons: one leg to its GPIO, the other to the GND bus (one bare wire "
             "daisy-chained from button to button). Dashed: optional, off in this config.")
ROLLER_LEGEND = "Dashed: optional (the roller works without its display)."


def _pin(pin: int) -> str:
    return f"{pin} ({W.PI.label(pin)})"


def pi_tables(cfg: configmod.Config) -> str:
    """The Pi box's wiring as Markdown tables."""
    parts = {p.name: p for p in W.pi_parts(cfg)}
    out = ["### Buttons", "",
           "Each button has two legs (on microswitch arcade buttons: NO and COM; NC stays "
           "free). One leg goes to the GPIO, the other to ground. The GPIO's internal pull-up "
           "holds it high; pressing pulls it low. No resistors needed.", "",
           "| Button | Does | GPIO (BCM) | Header pin | Other leg (COM) to |",
           "|---|---|---|---|---|"]
    for name, bcm in cfg.pins().items():
        part = parts[name.upper()]
        pin = W.header_pin(bcm)
        out.append(f"| {part.name} | {part.does} | GPIO{bcm} | {pin} | GND, e.g. pin "
                   f"{W.nearest_ground(W.PI, pin)} |")
    d = cfg["display"]
    oled = parts["OLED"]
    vcc = oled.wires[0].pin
    out += ["", "### Display", "",
            f"{oled.does} (`[display]` in the config). Four wires; the module's pin order "
            "varies (GND VCC SCL SDA is common), so go by the labels printed on it.", "",
            "| OLED pin | Header pin | Note |", "|---|---|---|"]
    for w in oled.wires:
        note = "3.3 V only, never 5V" if w.terminal == "VCC" else (
            f"I2C bus {d['i2c_port']} ({'SDA' if w.terminal == 'SDA' else 'SCL'})")
        out.append(f"| {w.terminal} | {_pin(w.pin)} | {note} |")
    out.append(f"| GND | {_pin(W.nearest_ground(W.PI, vcc))} | any GND pin |")
    headings = {"ENCODER": "Rotary encoder (optional)", "BUZZER": "Buzzer (optional)",
                "LIGHT RING": "Light ring (optional)"}
    for key, heading in headings.items():
        part = parts[key]
        state = (f"Off in this config (`{part.optional}`); set it to `true` to use it."
                 if part.optional else "On in this config.")
        out += ["", f"### {heading}", "", f"{part.does[0].upper()}{part.does[1:]}. {state}", "",
                "| Part pin | Header pin | Note |", "|---|---|---|"]
        for w in part.wires:
            label = W.PI.label(w.pin)
            out.append(f"| {w.terminal} | {_pin(w.pin)} | "
                       f"{'' if label.startswith('GPIO') else 'power'} |")
        gnd = W.nearest_ground(W.PI, part.wires[0].pin)
        out.append(f"| {part.ground} | {_pin(gnd)} | {'; '.join(part.notes)} |")
    return "\n".join(out) + "\n"


def _sections(text: str) -> dict[str, tuple[int, int]]:
    """name -> (start, end) of the text between a BEGIN and END marker pair."""
    found = {}
    for m in re.finditer(r"<!-- BEGIN generated: ([\w-]+)[^>]*-->\n", text):
        end = text.find(f"<!-- END generated: {m.group(1)} -->", m.end())
        if end < 0:
            raise ValueError(f"README: BEGIN generated: {m.group(1)} has no END marker")
        found[m.group(1)] = (m.end(), end)
    return found


def generated(cfg: configmod.Config) -> dict[str, str]:
    return {"pi-wiring": pi_tables(cfg)}


def render_readme(text: str, parts: dict[str, str]) -> str:
    spans = _sections(text)
    missing = [name for name in parts if name not in spans]
    if missing:
        raise ValueError(f"README has no generated section {', '.join(missing)}")
    for name, (start, end) in sorted(spans.items(), key=lambda kv: -kv[1][0]):
        if name in parts:
            text = text[:start] + parts[name] + text[end:]
    return text


def diagrams(cfg: configmod.Config, *, subtitle: str) -> dict[str, D.Canvas]:
    out = {PI_STEM: D.draw(W.PI, W.pi_parts(cfg), title="Chroma Table Companion: the Pi box",
                           subtitle=subtitle, legend=PI_LEGEND)}
    if W.FIRMWARE_MAIN.exists():
        out[ROLLER_STEM] = D.draw(W.PICO, W.roller_parts(W.firmware_constants()),
                                  title="Dice roller: Raspberry Pi Pico",
                                  subtitle="generated from the constants in firmware/main.py",
                                  legend=ROLLER_LEGEND)
    return out


DEFAULT_SUBTITLE = ("generated from companion.config.DEFAULTS by "
                    "python -m companion.gallery.hardware_docs")


def drift(readme: Path = README, hardware: Path = HARDWARE) -> list[str]:
    """What differs between the committed docs and the defaults (empty = in step)."""
    cfg = configmod.Config(configmod.check({}))
    problems = []
    text = readme.read_text(encoding="utf-8")
    if render_readme(text, generated(cfg)) != text:
        problems.append(f"{readme}: the wiring tables differ from companion.config.DEFAULTS")
    for stem, canvas in diagrams(cfg, subtitle=DEFAULT_SUBTITLE).items():
        svg = hardware / f"{stem}.svg"
        if not svg.exists() or svg.read_text(encoding="utf-8") != canvas.svg():
            problems.append(f"{svg}: differs from the config")
        if not (hardware / f"{stem}.png").exists():
            problems.append(f"{hardware / stem}.png: missing")
    return problems


def write_all(readme: Path = README, hardware: Path = HARDWARE) -> list[Path]:
    cfg = configmod.Config(configmod.check({}))
    text = readme.read_text(encoding="utf-8")
    new = render_readme(text, generated(cfg))
    written = []
    if new != text:
        readme.write_text(new, encoding="utf-8")
        written.append(readme)
    for stem, canvas in diagrams(cfg, subtitle=DEFAULT_SUBTITLE).items():
        written += D.write(canvas, hardware / stem)
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.gallery.hardware_docs",
                                description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true",
                   help="only check that hardware/ matches the defaults (exit 1 if not)")
    p.add_argument("--config", help="use this config instead of the defaults (with --print or "
                                    "--diagrams)")
    p.add_argument("--print", action="store_true", help="print the wiring tables")
    p.add_argument("--diagrams", metavar="DIR", help="write the wiring diagrams into DIR")
    args = p.parse_args(argv)
    try:
        if args.print or args.diagrams:
            from companion.games import load_config  # house rules: checked by their kinds
            cfg = load_config(args.config, required=args.config is not None)
            if args.print:
                print(pi_tables(cfg), end="")
            if args.diagrams:
                out = Path(args.diagrams)
                out.mkdir(parents=True, exist_ok=True)
                sub = f"generated from {cfg.path or 'the defaults'}"
                for stem, canvas in diagrams(cfg, subtitle=sub).items():
                    for path in D.write(canvas, out / stem):
                        print(f"wrote {path}")
            return 0
        if args.config:
            p.error("--config needs --print or --diagrams (the committed docs show the defaults)")
        if not README.exists():
            print(f"hardware_docs: {README} not found: run this in a checkout of the repository",
                  file=sys.stderr)
            return 2
        if args.check:
            problems = drift()
            for line in problems:
                print(line, file=sys.stderr)
            if problems:
                print("run: python -m companion.gallery.hardware_docs", file=sys.stderr)
            return 1 if problems else 0
        for path in write_all():
            print(f"wrote {path}")
        return 0
    except ConfigError as e:
        print(f"hardware_docs: config: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"hardware_docs: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
