"""`companion doctor`: check the box one line at a time and say what is wrong.

Each check prints `OK`, `FAIL` or `SKIP`, a name and the detail. SKIP is for an optional part
the config leaves out (the encoder, the buzzer, a roller that is not plugged in) and counts as
a pass. Exit status 0 only when nothing failed; 2 for bad arguments.

The doctor needs the pins, the display and the roller to itself: stop the service first
(`sudo systemctl stop chroma-companion`) and run it as the service's user
(`sudo -u companion companion doctor --config /etc/chroma-companion/config.toml`).
"""

from __future__ import annotations

import argparse
import http.client
import io
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from companion import config as configmod
from companion.drivers.wiring import header_pin
from companion.errors import CompanionError, ConfigError, DisplayMissing, shown
from companion.session import webinfo

SERVICE = "chroma-companion"
REQUIRED = ("chroma-companion", "gpiozero", "luma.oled", "luma.core", "Pillow", "pyserial",
            "platformdirs")
BOARD = ("lgpio", "rpi-lgpio", "RPi.GPIO", "smbus2", "spidev")  # reported when present


@dataclass(frozen=True)
class Check:
    verdict: str  # OK | FAIL | SKIP
    name: str
    detail: str

    def line(self) -> str:
        return f"{self.verdict:<5} {self.name}: {self.detail}"

    @property
    def passed(self) -> bool:
        return self.verdict != "FAIL"


def _ok(name: str, detail: str) -> Check:
    return Check("OK", name, detail)


def _fail(name: str, detail: str) -> Check:
    return Check("FAIL", name, detail)


def _skip(name: str, detail: str) -> Check:
    return Check("SKIP", name, f"{detail}; counts as a pass")


# --- the checks -----------------------------------------------------------------------------

def check_python() -> Check:
    v = sys.version_info
    text = f"{platform.python_version()} ({sys.executable})"
    if v < (3, 11):
        return _fail("python", f"{text}: the companion needs Python 3.11 or later")
    return _ok("python", text)


def check_packages() -> Check:
    found, missing = [], []
    for name in REQUIRED + BOARD:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            if name in REQUIRED:
                missing.append(name)
    if missing:
        return _fail("packages", f"missing {', '.join(missing)} (reinstall: pip install "
                                 f"'chroma-companion[pi]'); found {', '.join(found)}")
    return _ok("packages", ", ".join(found))


def pin_factory(factory: Any = None, configured: str = "") -> tuple[Any, Check, bool]:
    """gpiozero's pin factory and why it is the one: the one given (a test's MockFactory),
    else the one in use, else the one `companion run` would load (GPIOZERO_PIN_FACTORY, then
    `[gpio] pin_factory`, then gpiozero's order; companion/drivers/pins.py). Libraries that
    did not load are named, since they say why the preferred one is not in use. The bool says
    whether the caller must close it."""
    from gpiozero import Device

    from companion.drivers.pins import choose, rpi_gpio_note

    if factory is not None:
        source, owned = "given", False
    elif Device.pin_factory is not None:
        factory, source, owned = Device.pin_factory, "in use", False
    else:
        try:
            choice = choose(configured)
        except CompanionError as e:
            return None, _fail("pin library", f"{e}. On a Pi run from a writable directory "
                                              "(lgpio makes a file there)"), False
        factory, source, owned = choice.factory, choice.why, True
    detail = f"{type(factory).__name__} ({source}){rpi_gpio_note(factory)}"
    if "Mock" in type(factory).__name__:
        detail += ": mock pins, not the board's"
    return factory, _ok("pin library", detail), owned


def check_pins(cfg: configmod.Config, factory: Any) -> Iterator[Check]:
    """Each configured input pin can be claimed and reads released (not stuck to ground)."""
    from gpiozero import Button as GpioButton

    inputs = [(f"button {name.upper()}", pin) for name, pin in cfg.pins().items()]
    if cfg["encoder"]["enabled"]:
        e = cfg["encoder"]
        inputs += [("encoder A", e["a"]), ("encoder B", e["b"]), ("encoder push", e["push"])]
    for name, pin in inputs:
        where = f"GPIO{pin} (header pin {header_pin(pin)})"
        if factory is None:
            yield _fail(name, f"{where}: not checked, no pin library")
            continue
        try:
            dev = GpioButton(pin, pull_up=True, pin_factory=factory)
        except Exception as e:
            text = str(e) or type(e).__name__
            if "busy" in text.lower() or "in use" in text.lower():
                text += f" (is the service running? sudo systemctl stop {SERVICE})"
            yield _fail(name, f"{where}: cannot be claimed: {text}")
            continue
        try:
            pressed = dev.is_pressed
        finally:
            dev.close()
        if pressed:
            if name.startswith("encoder") and name != "encoder push":
                yield _ok(name, f"{where} reads low (normal at some encoder positions)")
            else:
                yield _fail(name, f"{where} reads pressed: if nobody is pressing it, its wire "
                                  "touches ground")
        else:
            yield _ok(name, f"{where} reads released")
    if not cfg["encoder"]["enabled"]:
        yield _skip("encoder", "disabled in the config ([encoder] enabled = false)")
    b = cfg["buzzer"]
    if not b["enabled"]:
        yield _skip("buzzer", "disabled in the config ([buzzer] enabled = false)")
    elif factory is not None:
        from gpiozero import DigitalOutputDevice
        where = f"GPIO{b['pin']} (header pin {header_pin(b['pin'])})"
        try:
            DigitalOutputDevice(b["pin"], pin_factory=factory).close()
        except Exception as e:
            yield _fail("buzzer", f"{where}: cannot be claimed: {e}")
        else:
            yield _ok("buzzer", f"{where} can drive the buzzer (silent check)")


def check_display(cfg: configmod.Config, open_display: Callable[[Any], Any]) -> Check:
    d = cfg["display"]
    where = f"{d['kind']} on I2C bus {d['i2c_port']} at {d['address']:#04x}"
    try:
        display = open_display(cfg)
    except DisplayMissing as e:
        detail = str(e)
        if not Path(f"/dev/i2c-{d['i2c_port']}").exists():
            detail = (f"/dev/i2c-{d['i2c_port']} does not exist: I2C is off. Enable it "
                      "(sudo raspi-config nonint do_i2c 0, or run hardware/pi/install.sh) "
                      "and reboot")
        return _fail("display", detail)
    except Exception as e:  # a driver error we did not foresee: still one line
        return _fail("display", f"{where}: {type(e).__name__}: {e}")
    with display:
        try:
            from PIL import Image, ImageDraw
            img = Image.new("1", (128, 64))
            draw = ImageDraw.Draw(img)
            draw.rectangle((0, 0, 127, 63), outline=1)
            draw.text((8, 16), "companion doctor", fill=1)
            draw.text((8, 34), "display OK", fill=1)
            display.show(img)
            if hasattr(display.device, "persist"):
                display.device.persist = True  # leave the message up for the person to see
        except OSError as e:
            return _fail("display", f"{where} answered but a write failed: {e}")
    return _ok("display", f"{where} answers (it now says \"display OK\")")


# Where the board says what it is, and its boot config (Bookworm's place first).
MODEL_FILE = Path("/proc/device-tree/model")
BOOT_CONFIGS: Sequence[Path] = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))


def check_lights(cfg: configmod.Config, *,
                 open_spi: Callable[[int, int], Any] | None = None) -> Iterator[Check]:
    """The seat light ring: its SPI device opens and takes a test pattern that shows the colour
    order and a broken joint; then whether the Pi's SPI clock holds still (docs/lights.md)."""
    from companion.drivers import lights
    from companion.errors import LightsError

    li = cfg["lights"]
    if not li["enabled"]:
        yield _skip("lights", "disabled in the config ([lights] enabled = false)")
        return
    where = lights.device_path(li["spi_bus"], li["spi_device"])
    from companion.session.lock import running_pid
    pid = running_pid(cfg.journal_path())
    if pid is not None:  # its ring: a test pattern would stand over the game's lights
        yield _skip("lights", f"the companion running on this journal (pid {pid}) drives the "
                              f"ring on {where}; to test it, stop the service first (sudo "
                              f"systemctl stop {SERVICE})")
        yield check_spi_clock()
        return
    try:
        spi = (open_spi or lights.open_spi)(li["spi_bus"], li["spi_device"])
        ring = lights.open_ring(cfg, spi=spi)
    except LightsError as e:
        yield _fail("lights", str(e))
        return
    assert ring is not None  # [lights] is enabled
    white = lights.scaled(255, 0.1)  # dim: the pattern is looked at, not read by
    pattern = [(255, 0, 0), (0, 255, 0), (0, 0, 255)] + [(white, white, white)] * li["count"]
    ring.show(pattern[:li["count"]])
    failed = ring.failing
    ring.close(dark=False)  # the pattern stays up for the person to see
    ma = lights.ring_milliamps(li["count"], li["brightness"])
    if failed:
        yield _fail("lights", f"{where} opened, but a write to it failed (see the log line "
                              "above); is another program using it?")
    else:
        yield _ok("lights", f"{where} takes frames: the ring now shows LED 0 red, 1 green, "
                            f"2 blue, the rest dim white (if red, green and blue are swapped, "
                            f"set [lights] order; LEDs dark from one on: a bad joint at its "
                            f"DIN); {li['count']} LEDs at brightness {li['brightness']:g} draw "
                            f"at most {ma} mA")
    yield check_spi_clock()


def check_ring_seats(cfg: configmod.Config) -> Check:
    """Whether the ring gives each seat a light of its own at the largest table of every
    installed kind (issue 35.6): a LED each, seats folded two to a LED (at a LED or between
    two), or too many to tell apart (the ring stays dark for such a game)."""
    import math

    from companion import games
    from companion.ui import ring as R

    li = cfg["lights"]
    visible = li["count"] - li["first"]
    configured = [led - li["first"] for led in li["seats"]]
    kinds = games.games()
    most = max(g.max_players for g in kinds.values())
    dark = sorted((g.max_players, g.title) for g in kinds.values()
                  if not R.Layout.of(visible, g.max_players, configured).distinct)
    if dark:
        n, title = dark[-1]
        return _fail("lights seats", f"{visible} LEDs cannot tell {n} players apart ({title}): "
                                     f"the ring stays dark for such a game; a ring of "
                                     f"{math.ceil(n / 2)} LEDs or more can (docs/lights.md)")
    if R.Layout.of(visible, most, configured).folded:
        return _ok("lights seats", f"{visible} LEDs: a game of more than {visible} players (up "
                                   f"to {most} players) seats them at a LED or between two: "
                                   f"two lit = the seat between (docs/lights.md)")
    return _ok("lights seats", f"{visible} LEDs: a LED for each of up to {most} players")


def check_spi_clock() -> Check:
    """On a Pi 3, Zero 2 W or Pi 4 the SPI clock is divided from the VideoCore's core clock,
    which the firmware moves with load; the WS2812B's timing then slips and the ring shows
    wrong colours. A fixed core clock in config.txt keeps it; a Pi 5's SPI runs on RP1."""
    try:
        model = MODEL_FILE.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return _skip("lights clock", f"no {MODEL_FILE}: not a Raspberry Pi, the SPI clock is "
                                     "not ours to check")
    if "Raspberry Pi" not in model and "Compute Module" not in model:
        return _skip("lights clock", f"{model} is not a Raspberry Pi")
    if any(k in model for k in ("Pi 5", "Module 5", "Pi 500")):
        return _ok("lights clock", f"{model}: SPI runs in the RP1 chip, whose clock holds still")
    want = "core_freq_min=500" if any(k in model for k in ("Pi 4", "Module 4", "Pi 400")) \
        else "core_freq=250"
    boot = next((p for p in BOOT_CONFIGS if p.exists()), BOOT_CONFIGS[0])
    try:
        lines = [ln.split("#")[0].replace(" ", "") for ln in
                 boot.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        lines = []
    if want in lines:
        return _ok("lights clock", f"{model}: {want} in {boot} holds the SPI clock still")
    return _fail("lights clock", f"{model}: the SPI clock follows the core clock, which moves "
                                 "with load (the ring then flickers in wrong colours): add "
                                 f"{want} to {boot}, then reboot")


def check_roller(cfg: configmod.Config, *, comports: Callable[[], Iterable[Any]] | None,
                 wait: float | None = None) -> Check:
    r = cfg["roller"]
    if r["port"] == "none":
        return _skip("roller", "disabled in the config ([roller] port = \"none\")")
    try:
        from companion.drivers.dice import SoftwareDice
        from companion.drivers.roller import DiceRoller, parse_vid_pid
    except ImportError:
        return _skip("roller", "roller driver not installed")
    if comports is None:
        from serial.tools import list_ports
        comports = list_ports.comports
    if r["port"] == "auto":
        vid, pid = parse_vid_pid(r["vid_pid"])
        found = sorted(p.device for p in comports()
                       if getattr(p, "vid", None) == vid and getattr(p, "pid", None) == pid)
        if not found:
            return _skip("roller", f"no roller plugged in (looked for USB {r['vid_pid']}); "
                                   "rolls are in software")
        device = found[0]
    else:
        device = r["port"]
    if device.startswith("/dev/"):
        if not os.path.exists(device):
            return _fail("roller", f"{device} does not exist (is the roller plugged in? "
                                   "[roller] port = \"auto\" finds it by USB id)")
        if not os.access(device, os.R_OK | os.W_OK):
            return _fail("roller", f"{device}: permission denied (add the user to the "
                                   "dialout group: sudo usermod -aG dialout $USER)")
    timeout = float(r["timeout"])
    with DiceRoller(post=lambda item: None, fallback=SoftwareDice(post=lambda item: None),
                    port=device, vid_pid=r["vid_pid"], timeout=timeout,
                    backoff=(timeout, timeout), comports=comports) as roller:
        connected = roller.wait_ready(wait if wait is not None else timeout + 3)
        firmware = roller.firmware
    if connected:
        return _ok("roller", f"{device} answered HELLO, firmware {firmware}")
    return _fail("roller", f"{device} did not answer HELLO within {timeout:g} s: is the "
                           "firmware flashed (firmware/README.md)? Is another program "
                           f"using the port (sudo systemctl stop {SERVICE})?")


def check_audio(cfg: configmod.Config, *, which: Callable[[str], str | None] = shutil.which,
                run: Callable[..., Any] = subprocess.run) -> Check:
    """The box's voice (`[speech]`, companion/drivers/speech.py): espeak-ng is installed and
    has the voice, and the ALSA output opens (a twentieth of a second of silence played with
    `aplay -N`: nothing is heard, a busy device fails instead of waiting). `which` and `run`
    are the test doubles of shutil.which and subprocess.run."""
    sp = cfg["speech"]
    if not sp["enabled"]:
        return _skip("audio", "the box's voice is off in the config ([speech] enabled = false; "
                              "the TV and the phones speak on their own)")
    if which("espeak-ng") is None:
        return _fail("audio", "espeak-ng is not installed: sudo apt-get install espeak-ng "
                              "(hardware/pi/install.sh installs it)")
    try:
        voice = run(["espeak-ng", "-q", "-v", sp["voice"], ""], capture_output=True, text=True,
                    timeout=20)
        if voice.returncode != 0:
            return _fail("audio", f"espeak-ng has no voice {sp['voice']!r} ([speech] voice; "
                                  "espeak-ng --voices lists them)")
        if which("aplay") is None:
            return _fail("audio", "aplay is not installed: sudo apt-get install alsa-utils "
                                  "(hardware/pi/install.sh installs it)")
        listed = run(["aplay", "-l"], capture_output=True, text=True, timeout=20)
        cards = [line.split(",")[0] for line in listed.stdout.splitlines()
                 if line.startswith("card ")]
        device = sp["device"]
        opened = run(["aplay", "-q", "-N", *(["-D", device] if device else [])],
                     input=_silence(), capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as e:
        return _fail("audio", f"could not run the audio tools: {e}")
    where = f"ALSA device {device!r}" if device else "the default audio output"
    cards_text = "; ".join(dict.fromkeys(cards)) or "no sound card"
    if opened.returncode != 0:
        if not cards:
            return _fail("audio", "no sound card (aplay -l lists none): plug in a USB speaker, "
                                  "use HDMI, or wire an I2S amplifier (hardware/README.md, "
                                  "Audio out); a Pi Zero 2 W has no audio jack")
        said = [line.strip() for line in opened.stderr.decode("utf-8", "replace").splitlines()
                if line.strip() and not line.startswith("ALSA lib")]
        return _fail("audio", f"{where} does not open ({said[-1] if said else 'aplay failed'});"
                              f" cards: {cards_text}; set [speech] device, e.g. \"plughw:1,0\" "
                              "for card 1 (aplay -L lists the names)")
    return _ok("audio", f"espeak-ng, voice {sp['voice']!r}; {where} opens (a silent check); "
                        f"cards: {cards_text}")


def _silence() -> bytes:
    """A twentieth of a second of silence as a WAV, what espeak-ng's --stdout sends."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(bytes(2 * 1102))
    return buf.getvalue()


def check_state_dir(cfg: configmod.Config) -> Check:
    path = cfg.journal_path().parent
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-"):
            pass
    except OSError as e:
        return _fail("state directory", f"{path} is not writable ({e.strerror or e}); run the "
                                        "doctor as the service user: sudo -u companion "
                                        "companion doctor ...")
    return _ok("state directory", f"{path} is writable")


def root_problem(path: Path, euid: int | None = None) -> str:
    """Why root must not open the journal at `path` ("" when it may). Even a read-only open
    leaves `-wal` and `-shm` files beside a journal, owned by whoever opened it: root's would
    keep the journal's owner (the service's user) from writing it. So root opens only a
    journal root owns (one `make run` as root wrote, say) or none yet (nothing is opened)."""
    if euid is None:
        euid = os.geteuid() if hasattr(os, "geteuid") else -1
    if euid != 0:
        return ""
    try:
        owner = path.stat().st_uid
    except OSError:  # none yet (a skip), or unreadable: check_journal says which
        return ""
    if owner == 0:
        return ""
    try:
        import pwd
        name = pwd.getpwuid(owner).pw_name
    except (ImportError, KeyError):
        name = f"#{owner}"  # no such user here: sudo -u takes "#UID"
    return (f"{path} not opened: it belongs to {name}, and opening it as root would leave "
            f"root-owned files beside it that {name} cannot write; run as: sudo -u {name} "
            "companion doctor ...")


def check_journal(cfg: configmod.Config) -> Check:
    from companion.session import health
    from companion.session.checksum import describe
    from companion.session.lock import running_pid
    from companion.session.store import Store

    path = cfg.journal_path()
    stray = health.stray_text(health.stray_logs(path))  # a journal moved while it ran
    if not path.exists():
        if stray:
            return _fail("journal", f"none at {path}, but {stray}")
        return _skip("journal", f"none yet at {path} (the first game creates it)")
    problem = health.empty(path)
    if problem:
        return _fail("journal", problem)
    try:
        with Store(path, read_only=True) as store:  # a check never moves or changes it
            ids = [g.id for g in store.games()]
            altered = [m for gid in ids for m in store.verify(gid)]  # every game, not only open
            if altered:
                return _fail("journal", f"{path}: {describe(altered)}")
            if store.notice:
                return _fail("journal", store.notice)
            problem = health.missing_index(store.db, store.schema)
            if problem:
                return _fail("journal", f"{path}: {problem}")
            result = store.integrity()
            sums = ("checksums ok" if store.schema >= 2 else "no checksums yet (schema 1: "
                    "the companion adds them, after a backup copy, the next time it starts)")
    except (OSError, CompanionError) as e:
        return _fail("journal", f"{path}: {e}")
    if result != "ok":
        return _fail("journal", f"{path}: integrity check says {result}")
    names = _more_names(path)
    if names:
        return _fail("journal", f"{path}: integrity ok, {sums}, but the file has {names}: "
                                "SQLite keeps its write-ahead log by name, so events saved "
                                "through another name can be lost; keep one name (remove "
                                "the others with rm: the file stays under this one)")
    pid = running_pid(path)
    moved = health.moved_while_running(path, pid) if pid is not None else ""
    if moved or stray:
        return _fail("journal", f"{path}: integrity ok, {sums}, but {moved or stray}")
    games = len(ids)
    return _ok("journal", f"{path}: integrity ok, {sums}, {games} game{'s' * (games != 1)}")


def _more_names(path: Path) -> str:
    """"" when the journal file has one name; else how many hard links, and which in its own
    directory (a search of the whole file system is not a doctor's business)."""
    try:
        st = path.stat()
    except OSError:
        return ""
    if st.st_nlink < 2:
        return ""
    try:
        beside = sorted(str(p) for p in path.parent.iterdir() if p.name != path.name
                        and os.path.samestat(p.lstat(), st))
    except OSError:
        beside = []
    rest = st.st_nlink - 1 - len(beside)
    where = ", ".join(beside + ([f"{rest} elsewhere on this file system"] if rest else []))
    return f"{st.st_nlink} names (hard links; also {where})"


def check_web(cfg: configmod.Config, *, timeout: float = 2.0) -> Check:
    """Is the table web listening, and at which addresses? Where the companion running on
    this journal says its web listens (companion/session/webinfo.py: it may have been started
    with another --web), else where the config says. (The doctor usually runs with the
    service stopped: then it is not listening, which is a pass, and the line says where it
    will be.)"""
    w = cfg["web"]
    published = webinfo.read(cfg.journal_path())
    if published is not None:
        return _check_running_web(published, (w["host"], w["port"]), timeout)
    if not w["enabled"]:
        return _skip("web", "off in the config ([web] enabled = false)")
    host, port = w["host"], w["port"]
    urls = _urls(host, port)
    try:
        answer = _probe(host, port, timeout)
    except ConnectionRefusedError:
        from companion.session.lock import running_pid
        pid = running_pid(cfg.journal_path())
        if pid is not None:
            return _skip("web", f"not listening on {host}:{port}, though a companion runs on "
                                f"this journal (pid {pid}): it did not say where its web "
                                f"listens (an older companion, or no room to write "
                                f"{webinfo.path_for(cfg.journal_path()).name}); with the "
                                f"config's: {urls}")
        return _skip("web", f"not listening on {host}:{port} (the companion is not running); "
                            f"when it runs: {urls}")
    except (OSError, http.client.HTTPException) as e:
        return _fail("web", f"{host}:{port} does not answer ({e})")
    if not answer:
        return _fail("web", f"port {port} is held by another program: the companion would run "
                            "without the web (set [web] port)")
    return _ok("web", f"listening on {host}:{port}: {urls}")


def _check_running_web(published: webinfo.Published, configured: tuple[str, int], timeout: float) -> Check:
    """The web of the running companion, where it said it listens."""
    host, port, pid = published.host, published.port, published.pid
    urls = _urls(host, port)
    other = "" if (host, port) == configured else \
        f" (not the config's {configured[0]}:{configured[1]}: run with --web, or --emulator)"
    try:
        answer = _probe(host, port, timeout)
    except ConnectionRefusedError:
        return _skip("web", f"the companion running on this journal (pid {pid}) serves its "
                            f"web on {host}:{port}{other} when it is on, and it is off now "
                            "(Web off in the device menu, or started with --no-web): "
                            "Table web > Web on starts it")
    except (OSError, http.client.HTTPException) as e:
        return _fail("web", f"the companion running on this journal (pid {pid}) serves its web "
                            f"on {host}:{port}{other}, which does not answer ({e})")
    if not answer:
        return _fail("web", f"{host}:{port}{other} answers, but not as the companion: "
                            "another program holds the port")
    return _ok("web", f"listening on {host}:{port}{other}, the companion running on this "
                      f"journal (pid {pid}): {urls}")


def _urls(host: str, port: int) -> str:
    """The addresses phones open for a web on host:port (the box's own for 0.0.0.0/::)."""
    from companion.web.guard import box_addresses
    wild = host in ("0.0.0.0", "::")
    shown = [a for a in (box_addresses(host) if wild else [host])
             if not wild or a not in ("127.0.0.1", "::1")] or [host]
    return ", ".join(f"http://{'[' + a + ']' if ':' in a else a}:{port}/" for a in shown)


def _probe(host: str, port: int, timeout: float) -> bool:
    """Whether the companion's web answers on host:port (False: something else does).
    ConnectionRefusedError when nothing listens there."""
    import json
    probe = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    conn = http.client.HTTPConnection(probe, port, timeout=timeout)
    try:
        conn.request("GET", "/api/state")
        body = conn.getresponse().read(65536)
    finally:
        conn.close()
    try:
        int(json.loads(body)["seq"])
    except (ValueError, KeyError, TypeError):
        return False
    return True


# --- running them ---------------------------------------------------------------------------

def run(argv: list[str] | None = None, *, factory: Any = None,
        open_display: Callable[[Any], Any] | None = None,
        comports: Callable[[], Iterable[Any]] | None = None,
        roller_wait: float | None = None,
        open_spi: Callable[[int, int], Any] | None = None) -> Iterator[Check]:
    """Every check, in order. The keyword arguments are the test doubles: gpiozero's
    MockFactory, a display opener, pyserial's `comports`, an SPI device opener."""
    args = parser().parse_args(argv)
    yield check_python()
    yield check_packages()
    try:
        from companion.games import load_config  # house rules: checked by their kinds
        cfg = load_config(args.config, required=args.config is not None)
        yield _ok("config", str(cfg.path) if cfg.path else
                  f"no file at {configmod.default_config_path()}: the defaults")
    except ConfigError as e:
        yield _fail("config", f"{e}; the checks below use the defaults")
        cfg = configmod.Config(configmod.check({}))
    if args.journal:
        cfg.data["storage"]["path"] = args.journal
    factory, line, owned = pin_factory(factory, cfg["gpio"]["pin_factory"])
    yield line
    try:
        yield from check_pins(cfg, factory)
    finally:
        if owned:
            _close(factory)
    if open_display is None:
        from companion.drivers.display import oled
        open_display = oled
    yield check_display(cfg, open_display)
    yield from check_lights(cfg, open_spi=open_spi)
    if cfg["lights"]["enabled"]:
        yield check_ring_seats(cfg)
    yield check_roller(cfg, comports=comports, wait=roller_wait)
    yield check_audio(cfg)
    yield check_state_dir(cfg)
    problem = root_problem(cfg.journal_path())
    yield _fail("journal", problem) if problem else check_journal(cfg)
    yield check_web(cfg)


def _close(factory: Any) -> None:
    try:
        factory.close()
    except Exception:  # closing a half-initialised pin library must not hide the report
        pass


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion doctor",
                                description="Check the hardware, the config and the journal, "
                                            "one line each (OK / FAIL / SKIP).")
    p.add_argument("--config", help=f"config file (default: {configmod.default_config_path()})")
    p.add_argument("--journal", help="journal database (default: from the config)")
    return p


def main(argv: list[str] | None = None, *, out=None, **doubles: Any) -> int:
    out = out or sys.stdout
    failed = 0
    for check in run(sys.argv[1:] if argv is None else argv, **doubles):
        print(shown(check.line()), file=out, flush=True)
        failed += not check.passed
    print("all checks passed" if not failed else
          f"{failed} check{'s' * (failed != 1)} failed", file=out)
    return 0 if not failed else 1
