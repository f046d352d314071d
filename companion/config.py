"""The one TOML config file: pins, display, roller, player names, house rules.

`load(path)` returns a `Config` or raises `ConfigError` naming the key and the problem.
Every key has a default, so an empty file (or none at all) is a valid config.

Every layer reads the config, so it imports none of them: the house rules (`[rules.<kind>]`)
are checked by their kinds' engines through the `house_rules` that whoever loads the config
hands in (the registry's `companion.games.house_rules`; `companion.games.load_config` and
`check_config` hand it in).
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from companion.errors import ConfigError

if TYPE_CHECKING:
    from companion.session.seasons import Season

APP_NAME = "chroma-companion"

# BCM numbers of the GPIO pins a Raspberry Pi header offers to buttons (GPIO 0/1 hold the HAT
# EEPROM bus; 2/3 are the I2C bus the display uses).
USABLE_PINS = range(4, 28)

DEFAULTS: dict[str, Any] = {
    "players": {
        # Names offered at "New game", in seat order (clockwise). Missing seats get "P9", "P10"...
        "names": ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"],
    },
    "buttons": {
        "next": 17,
        "roll": 27,
        "up": 22,
        "down": 23,
        "ok": 24,
        "back": 25,
        "hold_time": 0.8,  # seconds: a hold of BACK undoes, a hold of OK opens the menu
        "debounce": 0.03,  # seconds: edges closer than this to the last accepted one are chatter
    },
    "encoder": {
        # Optional rotary encoder in place of UP/DOWN; its push switch acts as OK.
        "enabled": False,
        "a": 5,
        "b": 6,
        "push": 13,
    },
    "buzzer": {
        "enabled": False,
        "pin": 12,
    },
    "lights": {
        # An optional ring of WS2812B LEDs showing whose turn it is (docs/lights.md), driven
        # over SPI: MOSI is GPIO 10 on SPI bus 0, which then also holds GPIO 7-11.
        "enabled": False,
        "count": 16,  # LEDs on the ring (8-64)
        "brightness": 0.25,  # 0-1 of full: 16 LEDs at full white draw about 1 A
        "night_brightness": 0.05,  # 0-1, used during `night`
        "night": "",  # "22:00-07:00": the hours of night_brightness; "" = never
        # LEDs before the ring the players see, kept dark: 1 for the first-pixel trick (a
        # spare WS2812B inside the box re-sends the data at 5 V; hardware/README.md).
        "first": 0,
        "seats": [],  # the LED facing each seat, clockwise from the first; [] = spread evenly
        "spi_bus": 0,
        "spi_device": 0,
        "order": "GRB",  # the order the LEDs take the colours in (WS2812B: GRB)
    },
    "speech": {
        # Spoken calls on the box with espeak-ng (docs/speech.md); the pages speak on their own.
        "enabled": False,
        "voice": "en",  # an espeak-ng voice (a language code: en, en-us, de, fr, ...)
        "rate": 170,  # words a minute (80-450)
        "volume": 100,  # 0-200, espeak-ng's amplitude (100 = its normal)
        "device": "",  # the ALSA output, e.g. "plughw:1,0"; "" = the system's default
        # Which calls are spoken, on the box and on the pages (docs/speech.md).
        "calls": ["turn", "reverse", "skip", "move", "time", "end"],
    },
    "gpio": {
        # gpiozero's pin library: "" = gpiozero's order (lgpio, then rpigpio = RPi.GPIO, ...),
        # or lgpio | rpigpio | pigpio | native | mock. GPIOZERO_PIN_FACTORY overrides it.
        "pin_factory": "",
    },
    "display": {
        "kind": "ssd1306",  # ssd1306 | sh1106
        "i2c_port": 1,
        "address": 0x3C,
        "rotate": 0,  # 0 or 2 (180 degrees, a panel mounted upside down); screens are landscape
        "contrast": 255,
    },
    "roller": {
        "port": "auto",  # "auto" = find by USB VID:PID, "none" = no roller, or a device path
        "vid_pid": "2E8A:0005",
        "timeout": 2.0,
    },
    "dice": {
        "animation": 0.6,  # seconds of tumbling faces on the OLED before the result
    },
    "storage": {
        "path": "",  # journal database; "" = the platform's user state dir (or $STATE_DIRECTORY)
    },
    "power": {
        # Run after holding BACK + NEXT for 5 s and answering OK to "Power off?".
        "command": "systemctl poweroff",
    },
    "web": {
        # The table web (docs/web.md): the game live on phones and the TV, control after pairing.
        "enabled": True,
        "host": "0.0.0.0",  # every interface; "127.0.0.1" = this computer only
        "port": 8080,
    },
    "stats": {
        # Before a game starts, /tv and the phones show each player's chance to win from the
        # ratings (docs/stats.md); false hides it (and "upset!" at the end).
        "favourite": True,
        # Seasons: [[stats.seasons]] name = "Autumn 2026", from = 2026-09-01, to = 2026-11-30
        # ("to" left out: the season goes on). Ratings and tables per season on /stats.
        "seasons": [],
    },
    # House rules per game kind, e.g. [rules.penny-badger] bank = 100. Checked by each game.
    "rules": {},
}

# gpiozero's pin factories by entry-point name (companion/drivers/pins.py).
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
_PIN_KEYS = [("buttons", k) for k in ("next", "roll", "up", "down", "ok", "back")]
_ENCODER_PINS = [("encoder", k) for k in ("a", "b", "push")]
# The GPIO pins SPI bus 0 holds once it is on (CE1, CE0, MISO, MOSI, SCLK), and bus 1's.
SPI_PINS = {0: (7, 8, 9, 10, 11), 1: (16, 17, 18, 19, 20, 21)}
# The chip selects each bus has (/dev/spidevBUS.DEVICE): bus 0 two (CE0, CE1), bus 1 three.
SPI_DEVICES = {0: (0, 1), 1: (0, 1, 2)}
# The pin each bus sends the ring's data on (MOSI).
SPI_MOSI = {0: 10, 1: 20}
LIGHT_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
CALLS = ("turn", "reverse", "skip", "move", "roll", "time", "end")

# What checks the file's [rules] tables: given them as written (kind -> its house rules), it
# returns them as each kind's engine checked them, or raises ConfigError naming the table.
# Only the game kinds' registry knows the kinds (companion.games.house_rules): handed in.
HouseRules = Callable[[dict[str, Any]], dict[str, Any]]


class Config:
    """The checked config: `data` (section -> key -> value, every key present) and the file it
    was read from (`path`; None: the defaults). Read-only once made. A plain class rather than
    a frozen dataclass: `companion run` makes one before it shows the kept start frame, and
    the dataclass machinery (dataclasses, inspect, ast) was a twentieth of that start on a Pi
    Zero 2 W class CPU (docs/performance.md)."""

    __slots__ = ("data", "path")
    data: dict[str, Any]
    path: Path | None

    def __init__(self, data: dict[str, Any], path: Path | None = None) -> None:
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "path", path)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Config is read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Config is read-only: {name} cannot be deleted")

    def __reduce__(self) -> tuple[type[Config], tuple[dict[str, Any], Path | None]]:
        return Config, (self.data, self.path)  # copy, deepcopy and pickle make a new one

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Config):
            return NotImplemented
        return (self.data, self.path) == (other.data, other.path)

    __hash__ = None  # type: ignore[assignment]  # it holds dicts, as the dataclass did

    def __repr__(self) -> str:
        return f"Config(data={self.data!r}, path={self.path!r})"

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.data[section]

    @property
    def names(self) -> list[str]:
        return list(self.data["players"]["names"])

    def pins(self) -> dict[str, int]:
        """Button name -> BCM pin, for the six buttons."""
        return {k: self.data["buttons"][k] for _, k in _PIN_KEYS}

    def journal_path(self) -> Path:
        configured = self.data["storage"]["path"]
        if configured:
            return Path(configured).expanduser()
        return default_state_dir() / "journal.db"

    def seasons(self) -> tuple[Season, ...]:
        """The group's seasons ([[stats.seasons]]), in date order."""
        from companion.session.seasons import parse
        return parse(self.data["stats"]["seasons"], where="stats.seasons")

    def house_rules(self, kind: str) -> dict[str, Any]:
        return dict(self.data["rules"].get(kind, {}))


# platformdirs is imported only where a default place is asked for: the box's service names
# its config file and journal (--config, [storage] path), and platformdirs' own imports
# (tempfile, shutil, lzma) are a twentieth of a Pi Zero 2 W's start-up (docs/performance.md).
def default_config_path() -> Path:
    import platformdirs
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_state_dir() -> Path:
    # systemd's StateDirectory= hands the service its directory in $STATE_DIRECTORY.
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    import platformdirs
    return Path(platformdirs.user_state_dir(APP_NAME))


def load(path: Path | str | None = None, *, required: bool = False,
         house_rules: HouseRules | None = None) -> Config:
    """Read and check the config. A missing file at the default location means defaults.
    `house_rules` checks the [rules] tables (`check`)."""
    p = Path(path) if path is not None else default_config_path()
    if not p.exists():
        if required:
            raise ConfigError("", f"config file {p} does not exist")
        return Config(copy.deepcopy(DEFAULTS), None)
    import tomllib  # only with a file to read
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError("", f"{p} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("", f"{p} is not valid TOML: {e}") from None
    except OSError as e:
        raise ConfigError("", f"cannot read {p}: {e.strerror or e}") from None
    except RecursionError:  # tomllib recurses per level: a few hundred [[[ or {a={ deep
        raise _too_deep(p) from None
    try:
        return Config(check(raw, house_rules), p)
    except RecursionError:  # deep but within tomllib's reach: as deep for the checks
        raise _too_deep(p) from None


def _too_deep(p: Path) -> ConfigError:
    return ConfigError("", f"{p} is nested too deeply (tables or lists inside one another "
                           "hundreds of levels deep)")


def check(raw: dict[str, Any], house_rules: HouseRules | None = None) -> dict[str, Any]:
    """Merge `raw` over the defaults, checking every key and value; the house rules with
    `house_rules` (without it, house rules are refused: nothing here can check them)."""
    data = copy.deepcopy(DEFAULTS)
    for section, values in raw.items():
        if section not in DEFAULTS:
            raise ConfigError(section, f"unknown section (known: {', '.join(DEFAULTS)})")
        if not isinstance(values, dict):
            raise ConfigError(section, "must be a table, e.g. [" + section + "]")
        if section == "rules":
            data["rules"] = _check_rules(values, house_rules)
            continue
        for key, value in values.items():
            dotted = f"{section}.{key}"
            if key not in DEFAULTS[section]:
                known = ", ".join(DEFAULTS[section])
                raise ConfigError(dotted, f"unknown key (known in [{section}]: {known})")
            data[section][key] = _check_value(dotted, value, DEFAULTS[section][key])
    _check_semantics(data)
    return data


def _type_name(v: Any) -> str:
    return {bool: "true/false", int: "a whole number", float: "a number", str: "text",
            list: "a list"}.get(type(v), type(v).__name__)


def _check_value(dotted: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, list):
        ok = isinstance(value, list)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise ConfigError(dotted, f"must be {_type_name(default)}, not {value!r}")
    if isinstance(value, str) and "\x00" in value:  # no path, port or command can hold one
        raise ConfigError(dotted, f"{value!r} contains a NUL character (\\u0000)")
    return value


def _check_semantics(data: dict[str, Any]) -> None:
    from companion import names as player_names  # the one rule for names, as the web's
    tidied = []
    for i, n in enumerate(data["players"]["names"]):
        n = player_names.tidy(n) if isinstance(n, str) else n
        why = player_names.problem(n)
        if why:
            raise ConfigError(f"players.names[{i}]", why)
        tidied.append(n)
    twice = player_names.duplicate(tidied)
    if twice:
        raise ConfigError("players.names", f"the same name appears twice: {twice!r} (names "
                          "are told apart ignoring case)")
    data["players"]["names"] = tidied

    pin_keys = list(_PIN_KEYS)
    if data["encoder"]["enabled"]:
        pin_keys += _ENCODER_PINS
    if data["buzzer"]["enabled"]:
        pin_keys.append(("buzzer", "pin"))
    seen: dict[int, str] = {}
    for section, key in pin_keys:
        pin = data[section][key]
        dotted = f"{section}.{key}"
        if pin not in USABLE_PINS:
            raise ConfigError(dotted, f"GPIO {pin} is not a usable pin (use BCM 4-27)")
        if pin in seen:
            raise ConfigError(dotted, f"GPIO {pin} is already used by {seen[pin]}")
        seen[pin] = dotted
    _check_lights(data["lights"], seen)
    _check_speech(data["speech"])

    factory = data["gpio"]["pin_factory"]
    if factory and factory not in PIN_FACTORIES:
        raise ConfigError("gpio.pin_factory", f"{factory!r} is not a pin library gpiozero knows "
                          f"(\"\" for gpiozero's choice, or one of {', '.join(PIN_FACTORIES)})")

    b = data["buttons"]
    if not 0.1 <= b["hold_time"] <= 5:
        raise ConfigError("buttons.hold_time", f"{b['hold_time']} s is outside 0.1-5 s")
    if not 0 <= b["debounce"] <= 0.2:
        raise ConfigError("buttons.debounce", f"{b['debounce']} s is outside 0-0.2 s")

    d = data["display"]
    if d["kind"] not in ("ssd1306", "sh1106"):
        raise ConfigError("display.kind", f"{d['kind']!r} is not ssd1306 or sh1106")
    if not 0x03 <= d["address"] <= 0x77:
        raise ConfigError("display.address", f"{d['address']:#x} is not a 7-bit I2C address "
                          "(0x03-0x77; the panel is usually 0x3C or 0x3D)")
    if d["i2c_port"] < 0:
        raise ConfigError("display.i2c_port", "must be 0 or more")
    if d["rotate"] not in (0, 2):
        raise ConfigError("display.rotate", f"{d['rotate']} is not 0 or 2 (every screen is "
                          "drawn landscape; 2 turns it 180 degrees for a panel mounted upside down)")
    if not 0 <= d["contrast"] <= 255:
        raise ConfigError("display.contrast", f"{d['contrast']} is outside 0-255")

    r = data["roller"]
    vid_pid = r["vid_pid"].split(":")
    if len(vid_pid) != 2 or not all(_is_hex4(x) for x in vid_pid):
        raise ConfigError("roller.vid_pid", f"{r['vid_pid']!r} is not VID:PID in hex, e.g. 2E8A:0005")
    if not 0.1 <= r["timeout"] <= 30:
        raise ConfigError("roller.timeout", f"{r['timeout']} s is outside 0.1-30 s")
    if not 0 <= data["dice"]["animation"] <= 3:
        raise ConfigError("dice.animation", f"{data['dice']['animation']} s is outside 0-3 s")
    w = data["web"]
    if not 1 <= w["port"] <= 65535:
        raise ConfigError("web.port", f"{w['port']} is not a port number (1-65535)")
    if not w["host"].strip() or any(c.isspace() for c in w["host"]):
        raise ConfigError("web.host", f"{w['host']!r} is not an address (e.g. \"0.0.0.0\")")
    if data["stats"]["seasons"]:
        # Only then: the seasons' module (dates, a dataclass) is not part of every start-up.
        from companion.session.seasons import SeasonProblem, parse
        try:  # kept as plain data (name, "from" and "to" as ISO dates); Config.seasons() parses
            data["stats"]["seasons"] = [s.to_json() for s in parse(data["stats"]["seasons"])]
        except SeasonProblem as e:
            raise ConfigError(f"stats.{e.where}", e.problem) from None
    import shlex
    try:
        if not shlex.split(data["power"]["command"]):
            raise ValueError("is empty")
    except ValueError as e:
        raise ConfigError("power.command", f"{e} (e.g. \"systemctl poweroff\")") from None


MIN_LEDS = 8  # the smallest ring the seats are spread round (after `first`)
MAX_FIRST = 8  # LEDs kept dark before the ring (`[lights] first`)


def _check_lights(li: dict[str, Any], pins: dict[int, str]) -> None:
    if not MIN_LEDS <= li["count"] <= 64:
        raise ConfigError("lights.count", f"{li['count']} LEDs is outside 8-64 (a ring of 12-24 "
                          "suits a table)")
    for key in ("brightness", "night_brightness"):
        if not 0 <= li[key] <= 1:
            raise ConfigError(f"lights.{key}", f"{li[key]} is outside 0-1 (a fraction of full)")
    if li["night"] and hours(li["night"]) is None:
        raise ConfigError("lights.night", f"{_clip(li['night'])} is not hours like \"22:00-07:00\" "
                          "(\"\" = never)")
    first = li["first"]
    if not 0 <= first <= MAX_FIRST:
        raise ConfigError("lights.first", f"{first} is outside 0-{MAX_FIRST} (the LEDs kept dark "
                          "before the ring: 1 for the first-pixel trick)")
    if li["count"] - first < MIN_LEDS:
        raise ConfigError("lights.first", f"{first} leaves {li['count'] - first} LEDs of "
                          f"{li['count']} for the ring ({MIN_LEDS} at least)")
    for i, led in enumerate(li["seats"]):
        if not isinstance(led, int) or isinstance(led, bool) or not 0 <= led < li["count"]:
            raise ConfigError(f"lights.seats[{i}]", f"{led!r} is not an LED of the ring "
                              f"(0-{li['count'] - 1})")
        if led < first:
            raise ConfigError(f"lights.seats[{i}]", f"LED {led} is below first = {first}: it "
                              f"is kept dark (the seats' LEDs count from {first})")
    if len(set(li["seats"])) != len(li["seats"]):
        raise ConfigError("lights.seats", "two seats face the same LED")
    if li["spi_bus"] not in SPI_PINS:
        raise ConfigError("lights.spi_bus", f"{li['spi_bus']} is not SPI bus 0 or 1")
    devices = SPI_DEVICES[li["spi_bus"]]
    if li["spi_device"] not in devices:
        raise ConfigError("lights.spi_device", f"{li['spi_device']} is not a chip select of SPI "
                          f"bus {li['spi_bus']} ({' or '.join(map(str, devices))})")
    if li["order"] not in LIGHT_ORDERS:
        raise ConfigError("lights.order", f"{li['order']!r} is not one of "
                          f"{', '.join(LIGHT_ORDERS)}")
    if li["enabled"]:
        for pin in SPI_PINS[li["spi_bus"]]:
            if pin in pins:
                raise ConfigError(pins[pin], f"GPIO {pin} is held by SPI bus {li['spi_bus']}, "
                                  "which drives the lights (move the button, or the lights to "
                                  "the other bus)")


def _clip(text: str, most: int = 40) -> str:
    """A value as a message quotes it: its repr, cut to about `most` characters."""
    shown = repr(text)
    return shown if len(shown) <= most else f"{shown[:most - 5]}...{shown[-1]} ({len(text)} characters)"


def hours(text: str) -> tuple[int, int] | None:
    """"22:00-07:00" -> (1320, 420), minutes of the day from and until; None: not hours."""
    parts = text.replace(" ", "").split("-")
    if len(parts) != 2:
        return None
    out = []
    for part in parts:
        hh, _, mm = part.partition(":")
        # One or two digits of hour, two of minute: thousands of leading zeros were a
        # traceback (int() refuses over 4,300 digits; issue 35.7).
        if not (hh.isascii() and mm.isascii() and hh.isdigit() and mm.isdigit()
                and len(hh) in (1, 2) and len(mm) == 2 and 0 <= int(hh) <= 23
                and 0 <= int(mm) <= 59):
            return None
        out.append(int(hh) * 60 + int(mm))
    return (out[0], out[1]) if out[0] != out[1] else None


def _check_speech(sp: dict[str, Any]) -> None:
    if not sp["voice"].strip() or any(c.isspace() or c in "/\\" for c in sp["voice"]):
        raise ConfigError("speech.voice", f"{sp['voice']!r} is not a voice name (e.g. \"en\")")
    if not 80 <= sp["rate"] <= 450:
        raise ConfigError("speech.rate", f"{sp['rate']} words a minute is outside 80-450")
    if not 0 <= sp["volume"] <= 200:
        raise ConfigError("speech.volume", f"{sp['volume']} is outside 0-200")
    if sp["device"] and (why := alsa_device_problem(sp["device"])):
        raise ConfigError("speech.device", f"{_clip(sp['device'])} is not an ALSA sound device "
                          f"as `aplay -L` lists them (e.g. \"plughw:1,0\", \"hw:CARD=Device,"
                          f"DEV=0\", \"default\"): {why}")
    for i, call in enumerate(sp["calls"]):
        if call not in CALLS:
            raise ConfigError(f"speech.calls[{i}]", f"{call!r} is not a call (known: "
                              f"{', '.join(CALLS)})")


# The ALSA devices `aplay -L` lists for a sound card take arguments (hw:CARD=Device,DEV=0,
# plughw:1,0, sysdefault:CARD=Device, dmix:..., hdmi:...); any other name is one word (default,
# null, pulse, a name of the system's own ALSA config). ALSA's `file` and `tee` devices write
# the sound to a file or, given "|command", into a shell: no speaker is one (issue 35.5).
ALSA_CARD_DEVICES = frozenset((
    "hw", "plughw", "default", "sysdefault", "front", "rear", "center_lfe", "side",
    "surround21", "surround40", "surround41", "surround50", "surround51", "surround71",
    "iec958", "spdif", "hdmi", "dmix", "dsnoop", "usbstream"))
ALSA_FILE_DEVICES = frozenset(("file", "tee"))


def _alsa_word(text: str, more: str = "") -> bool:
    return bool(text) and text.isascii() and all(c.isalnum() or c in "_" + more for c in text)


def alsa_device_problem(name: str) -> str:
    """Why `name` is no ALSA sound device as `aplay -L` and `aplay -l` name them ("": it is
    one): a word (`default`, `pulse`), or a card's device with plain arguments
    (`plughw:1,0`, `hw:CARD=Device,DEV=0`). No quotes, pipes, paths or `file:`."""
    if len(name) > 80:
        return "longer than any device name"
    device, colon, args = name.partition(":")
    if device.lower() in ALSA_FILE_DEVICES:
        return f"ALSA's {device.lower()} device writes to a file or a command, not a speaker"
    if not _alsa_word(device, "-.") or not device[0].isalnum():
        return "a device's name is letters, digits, _, - and ."
    if not colon:
        return ""
    if device not in ALSA_CARD_DEVICES:
        return f"{device} takes no arguments (a card's devices do: hw, plughw, sysdefault, ...)"
    for arg in args.split(","):
        key, eq, value = arg.rpartition("=")
        if (eq and not (key.isascii() and key.isalpha() and key.isupper())) \
                or not _alsa_word(value):
            return f"{_clip(arg)} is not an argument like CARD=Device, DEV=0 or 1"
    return ""


def _is_hex4(s: str) -> bool:
    return len(s) == 4 and all(c in "0123456789abcdefABCDEF" for c in s)


def _check_rules(values: dict[str, Any], house_rules: HouseRules | None) -> dict[str, Any]:
    if not values:
        return {}
    if house_rules is None:  # a caller's mistake, not the file's
        raise ValueError("house rules are checked by their game kinds: load or check the "
                         "config with house_rules= (companion.games.load_config does)")
    return house_rules(values)
