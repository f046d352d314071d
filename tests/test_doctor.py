"""`companion doctor` against gpiozero's MockFactory, luma's dummy display, the real (missing)
I2C bus of this machine, and the firmware's own code playing the roller on a pty."""

from __future__ import annotations

import io
import os
import pty
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion import cli
from companion.cli import doctor
from companion.drivers.display import dummy
from companion.rules.game import Header
from companion.session.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent / "mpy"))
import boardsim  # noqa: E402  (the firmware's pure code on a pty, from the roller tests)


class GroundedPin(MockPin):
    """A pin whose wire touches ground: it reads low whatever the pull-up says."""

    grounded: set[str] = set()

    def _get_state(self):
        return False if self.info.name in self.grounded else super()._get_state()


def run(tmp_path, *extra, config: str | None = None, factory=None, display=lambda cfg: dummy(),
        comports=lambda: [], **kw):
    cfg = tmp_path / "config.toml"
    cfg.write_text(config if config is not None else "[roller]\nport = \"auto\"\n")
    out = io.StringIO()
    status = doctor.main(["--config", str(cfg), "--journal", str(tmp_path / "state" / "j.db"),
                          *extra], out=out, factory=factory or MockFactory(),
                         open_display=display, comports=comports, **kw)
    lines = out.getvalue().splitlines()
    return status, {line.split(":")[0].split(None, 1)[1]: line for line in lines[:-1]}, lines[-1]


def test_all_well_on_mock_pins_and_a_dummy_display(tmp_path):
    status, lines, summary = run(tmp_path)
    assert status == 0 and summary == "all checks passed"
    assert lines["pin library"].startswith("OK    pin library: MockFactory (given)")
    for name, pin, header in (("NEXT", 17, 11), ("BACK", 25, 22)):
        assert lines[f"button {name}"] == \
            f"OK    button {name}: GPIO{pin} (header pin {header}) reads released"
    assert lines["display"].startswith("OK    display: ssd1306 on I2C bus 1 at 0x3c answers")
    assert lines["encoder"].startswith("SKIP") and "counts as a pass" in lines["encoder"]
    assert lines["roller"].startswith("SKIP  roller: no roller plugged in")
    assert lines["state directory"].startswith("OK")
    assert lines["journal"].startswith("SKIP  journal: none yet")
    assert all(line.split()[0] in ("OK", "SKIP", "FAIL") for line in lines.values())


def test_a_button_wire_touching_ground_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(GroundedPin, "grounded", {"GPIO24"})
    status, lines, summary = run(tmp_path, factory=MockFactory(pin_class=GroundedPin))
    assert status == 1 and summary == "1 check failed"
    assert lines["button OK"].startswith("FAIL  button OK: GPIO24 (header pin 18) reads pressed")
    assert lines["button UP"].startswith("OK")


def test_a_pin_held_by_someone_else_fails_and_names_the_service(tmp_path):
    from gpiozero import Button
    factory = MockFactory()
    holder = Button(17, pin_factory=factory)
    try:
        status, lines, _ = run(tmp_path, factory=factory)
    finally:
        holder.close()
    assert status == 1
    assert "button NEXT: GPIO17 (header pin 11): cannot be claimed" in lines["button NEXT"]
    assert "systemctl stop chroma-companion" in lines["button NEXT"]


def test_enabled_encoder_and_buzzer_are_checked(tmp_path):
    config = "[encoder]\nenabled = true\n[buzzer]\nenabled = true\n"
    status, lines, _ = run(tmp_path, config=config)
    assert status == 0
    assert lines["encoder push"].startswith("OK    encoder push: GPIO13 (header pin 33)")
    assert lines["buzzer"].startswith("OK    buzzer: GPIO12 (header pin 32)")


def test_the_missing_display_of_this_machine_fails_with_the_i2c_hint(tmp_path):
    if Path("/dev/i2c-1").exists():
        pytest.skip("this machine has an I2C bus 1; the test wants one without")
    from companion.drivers.display import oled
    status, lines, _ = run(tmp_path, display=oled)
    assert status == 1
    assert lines["display"].startswith("FAIL  display: /dev/i2c-1 does not exist: I2C is off")


def test_a_bad_config_fails_and_the_rest_still_runs(tmp_path):
    status, lines, _ = run(tmp_path, config="[buttons]\nnext = 2\n")
    assert status == 1
    assert lines["config"].startswith("FAIL  config: buttons.next: GPIO 2 is not a usable pin")
    assert lines["button NEXT"].startswith("OK    button NEXT: GPIO17")  # the defaults


def test_roller_on_a_pty_answers_hello(tmp_path):
    board = boardsim.Board(seed=3)
    try:
        status, lines, _ = run(tmp_path, comports=board.ports)
    finally:
        board.close()
    assert status == 0
    assert lines["roller"] == f"OK    roller: {board.path} answered HELLO, firmware 1.0.0"


def test_a_silent_roller_fails(tmp_path):
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    try:
        config = f"[roller]\nport = \"{path}\"\ntimeout = 0.2\n"
        status, lines, _ = run(tmp_path, config=config, roller_wait=5)
    finally:
        os.close(master)
        os.close(slave)
    assert status == 1
    assert lines["roller"].startswith(f"FAIL  roller: {path} did not answer HELLO within 0.2 s")


def test_roller_off_or_absent_is_a_skip_and_a_missing_path_a_fail(tmp_path):
    status, lines, _ = run(tmp_path, config="[roller]\nport = \"none\"\n")
    assert status == 0 and lines["roller"].startswith("SKIP  roller: disabled in the config")
    status, lines, _ = run(tmp_path, config="[roller]\nport = \"/dev/ttyACM97\"\n")
    assert status == 1 and lines["roller"].startswith("FAIL  roller: /dev/ttyACM97 does not exist")


def test_journal_integrity(tmp_path):
    db = tmp_path / "state" / "j.db"
    db.parent.mkdir()
    Store(db).close()
    status, lines, _ = run(tmp_path)
    assert status == 0 and lines["journal"] == (f"OK    journal: {db}: integrity ok, "
                                                "checksums ok, 0 games")
    db.write_bytes(b"this is not sqlite" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    status, lines, _ = run(tmp_path)
    assert status == 1 and lines["journal"].startswith(f"FAIL  journal: {db}: the journal")
    assert "is damaged (file is not a database)" in lines["journal"]
    # A check never moves or changes the journal: `companion run` sets it aside, not doctor.
    assert sorted(p.name for p in db.parent.iterdir()) == ["j.db"]


def test_a_journal_with_more_than_one_name_fails_naming_them(tmp_path):
    """Issue 29 item 5: a hard link is another name SQLite keeps a separate write-ahead log
    for; the doctor says so instead of OK, naming the names it can see."""
    db = tmp_path / "state" / "j.db"
    db.parent.mkdir()
    with Store(db) as s:
        s.new_game(Header("table", ("Ann", "Ben")))
    os.link(db, db.parent / "hard.db")
    os.link(db, tmp_path / "far.db")
    status, lines, _ = run(tmp_path)
    assert status == 1
    assert lines["journal"] == (
        f"FAIL  journal: {db}: integrity ok, checksums ok, but the file has 3 names (hard "
        f"links; also {db.parent / 'hard.db'}, 1 elsewhere on this file system): SQLite keeps "
        "its write-ahead log by name, so events saved through another name can be lost; keep "
        "one name (remove the others with rm: the file stays under this one)")
    (db.parent / "hard.db").unlink()
    (tmp_path / "far.db").unlink()
    status, lines, _ = run(tmp_path)
    assert status == 0 and lines["journal"].startswith(f"OK    journal: {db}: integrity ok")


def test_state_directory_not_writable_fails(tmp_path):
    if os.geteuid() == 0:
        target = Path("/proc/doctor-test/j.db")  # root can write anywhere else
    else:
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        target = ro / "sub" / "j.db"
    out = io.StringIO()
    status = doctor.main(["--journal", str(target), "--config", str(tmp_path / "none.toml")],
                         out=out, factory=MockFactory(), open_display=lambda cfg: dummy(),
                         comports=lambda: [])
    text = out.getvalue()
    assert status == 1
    assert "FAIL  config: config file" in text  # an explicit --config that is missing
    assert f"FAIL  state directory: {target.parent} is not writable" in text


def test_cli_dispatches_and_bad_options_are_usage_errors(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["doctor", "--no-such-option"])
    assert e.value.code == 2
    assert "companion doctor" in capsys.readouterr().err


def test_root_opens_the_journal_root_wrote_and_not_the_services(tmp_path):
    """`make run` as root writes the default journal as root: the doctor as root checks it
    (it refused it before). One another user owns it is still refused: even a read-only open
    leaves -wal and -shm files beside it, which would be root's (issue 26, item 11)."""
    if os.geteuid() != 0:
        pytest.skip("needs root (the check is about running as root)")
    db = tmp_path / "state" / "j.db"
    db.parent.mkdir()
    Store(db).close()
    config = f"[roller]\nport = \"none\"\n[storage]\npath = \"{db}\"\n"
    cfg = tmp_path / "config.toml"
    cfg.write_text(config)
    out = io.StringIO()
    status = doctor.main(["--config", str(cfg)], out=out, factory=MockFactory(),
                         open_display=lambda cfg: dummy(), comports=lambda: [])
    assert status == 0, out.getvalue()
    assert f"OK    journal: {db}: integrity ok" in out.getvalue()
    for f in db.parent.iterdir():
        f.unlink() if f != db else None
    os.chown(db, 65534, 65534)  # the service's user's journal
    out = io.StringIO()
    status = doctor.main(["--config", str(cfg)], out=out, factory=MockFactory(),
                         open_display=lambda cfg: dummy(), comports=lambda: [])
    assert status == 1
    line = next(x for x in out.getvalue().splitlines() if x.startswith("FAIL  journal"))
    assert "not opened" in line and "sudo -u " in line
    assert sorted(p.name for p in db.parent.iterdir()) == ["j.db"]  # nothing left beside it
    # The same with --journal (it was opened then, root's files and all).
    out = io.StringIO()
    assert doctor.main(["--config", str(cfg), "--journal", str(db)], out=out,
                       factory=MockFactory(), open_display=lambda cfg: dummy(),
                       comports=lambda: []) == 1
    assert sorted(p.name for p in db.parent.iterdir()) == ["j.db"]
    assert doctor.root_problem(db, euid=1000) == ""  # the owner itself, or any other user


# --- the seat light ring ([lights]) ----------------------------------------------------------

LIGHTS_ON = "[roller]\nport = \"none\"\n[lights]\nenabled = true\ncount = 12\nbrightness = 0.5\n"


class RecordingSpi:
    """A stand-in spidev device: keeps what was written; `fail` makes writes raise."""

    def __init__(self, fail: bool = False) -> None:
        self.writes: list[bytes] = []
        self.closed = False
        self.fail = fail

    def writebytes2(self, data) -> None:
        if self.fail:
            raise OSError(5, "Input/output error")
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def board(monkeypatch, tmp_path, model: str | None, boot: str | None) -> Path:
    """This machine as a Pi of `model` (None: not a Pi) whose config.txt holds `boot`."""
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model.encode() + b"\0")
    boot_file = tmp_path / "config.txt"
    if boot is not None:
        boot_file.write_text(boot)
    monkeypatch.setattr(doctor, "MODEL_FILE", model_file)
    monkeypatch.setattr(doctor, "BOOT_CONFIGS", (boot_file, tmp_path / "old-config.txt"))
    return boot_file


def test_lights_off_are_a_skip(tmp_path):
    status, lines, _ = run(tmp_path)
    assert status == 0
    assert lines["lights"] == ("SKIP  lights: disabled in the config ([lights] enabled = false); "
                               "counts as a pass")
    assert "lights clock" not in lines


def test_lights_on_show_a_test_pattern_and_say_the_current(tmp_path, monkeypatch):
    board(monkeypatch, tmp_path, "Raspberry Pi Zero 2 W Rev 1.0", "dtparam=spi=on\ncore_freq=250\n")
    spi = RecordingSpi()
    opened = []

    def open_spi(bus, device):
        opened.append((bus, device))
        return spi

    status, lines, summary = run(tmp_path, config=LIGHTS_ON, open_spi=open_spi)
    assert status == 0 and summary == "all checks passed", lines
    assert opened == [(0, 0)]
    assert lines["lights"].startswith("OK    lights: /dev/spidev0.0 takes frames: the ring now "
                                      "shows LED 0 red, 1 green, 2 blue")
    assert "12 LEDs at brightness 0.5 draw at most 360 mA" in lines["lights"]
    assert len(spi.writes) == 2 and spi.closed  # dark, then the pattern, left up
    from companion.drivers.lights import RESET_BYTES
    got = spi.writes[1][:-RESET_BYTES]
    led = [int("".join("1" if b == 0xF8 else "0" for b in got[i:i + 8]), 2)
           for i in range(0, 72, 8)]
    assert led == [0, 128, 0, 128, 0, 0, 0, 0, 128]  # GRB at 0.5: red, green, blue
    assert lines["lights clock"] == ("OK    lights clock: Raspberry Pi Zero 2 W Rev 1.0: "
                                     f"core_freq=250 in {tmp_path / 'config.txt'} holds the SPI "
                                     "clock still")


def test_lights_leave_a_running_companions_ring_alone(tmp_path, monkeypatch):
    """From a review: with the service running, the doctor's test pattern stood over the
    game's lights until the next change."""
    from companion.session import lock

    board(monkeypatch, tmp_path, "Raspberry Pi 5 Model B Rev 1.0", "")
    monkeypatch.setattr(lock, "running_pid", lambda path: 4242)
    opened = []
    status, lines, _ = run(tmp_path, config=LIGHTS_ON,
                           open_spi=lambda bus, device: opened.append((bus, device)))
    assert opened == []  # the ring is not touched
    assert lines["lights"].startswith("SKIP  lights: the companion running on this journal "
                                      "(pid 4242) drives the ring on /dev/spidev0.0; to test "
                                      "it, stop the service first"), lines["lights"]
    assert "lights clock" in lines


def test_a_lock_file_left_by_a_killed_companion_is_no_running_companion(tmp_path):
    """From a review: the pid a killed companion left in its lock file may name another
    process after a reboot; the doctor then skipped the ring's test for a companion that was
    not running. Who holds the lock is the kernel's word (Linux: /proc/locks)."""
    import os
    import sys

    from companion.session.lock import JournalLock, lock_path, running_pid

    journal = tmp_path / "journal.db"
    journal.write_bytes(b"")
    lock_path(journal).write_text(f"{os.getppid()}\n")  # alive, and not a companion
    if sys.platform.startswith("linux"):
        assert running_pid(journal) is None
    with JournalLock(journal):  # held: this process
        assert running_pid(journal) == os.getpid()


def test_lights_on_without_spidev_fail_in_one_line_naming_the_package(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "spidev", None)
    status, lines, _ = run(tmp_path, config=LIGHTS_ON)
    assert status == 1
    assert lines["lights"].startswith("FAIL  lights: the spidev module is not installed")
    assert "python3-spidev" in lines["lights"]


def test_lights_on_with_spi_off_say_how_to_enable_it(tmp_path, monkeypatch):
    from companion.drivers import lights
    from companion.errors import LightsDeviceError

    def open_spi(bus, device):
        raise LightsDeviceError(f"{lights.device_path(bus, device)} does not exist: SPI is off "
                                f"({lights.enable_hint(bus)})")

    status, lines, _ = run(tmp_path, config=LIGHTS_ON, open_spi=open_spi)
    assert status == 1
    assert lines["lights"] == ("FAIL  lights: /dev/spidev0.0 does not exist: SPI is off (enable "
                               "SPI: sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in "
                               "config.txt), then reboot)")


def test_a_failing_write_fails_the_lights_line(tmp_path, monkeypatch):
    board(monkeypatch, tmp_path, None, None)
    status, lines, _ = run(tmp_path, config=LIGHTS_ON, open_spi=lambda b, d: RecordingSpi(True))
    assert status == 1 and lines["lights"].startswith("FAIL  lights: /dev/spidev0.0 opened, but "
                                                      "a write to it failed")


@pytest.mark.parametrize("model, boot, want", [
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "", "FAIL core_freq=250"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "# core_freq=250\n", "FAIL core_freq=250"),
    ("Raspberry Pi 3 Model B Rev 1.2", "[all]\ncore_freq=250 # for SPI\n", "OK core_freq=250"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "core_freq=400\n", "FAIL core_freq=250"),
    ("Raspberry Pi 4 Model B Rev 1.4", "core_freq=250\n", "FAIL core_freq_min=500"),
    ("Raspberry Pi 4 Model B Rev 1.4", "core_freq_min=500\n", "OK core_freq_min=500"),
    ("Raspberry Pi 5 Model B Rev 1.0", "", "OK RP1"),
    (None, None, "SKIP not a Raspberry Pi"),
])
def test_the_spi_clock_must_hold_still(tmp_path, monkeypatch, model, boot, want):
    boot_file = board(monkeypatch, tmp_path, model, boot)
    check = doctor.check_spi_clock()
    verdict, word = want.split(" ", 1)
    assert check.verdict == verdict and word in check.detail, check.line()
    if verdict == "FAIL":
        assert f"add {word} to {boot_file}, then reboot" in check.detail
# --- audio: the box's voice ([speech], companion/drivers/speech.py) ---------------------------

def speech_cfg(**speech):
    from companion import config as configmod
    return configmod.Config(configmod.check({"speech": {"enabled": True, **speech}}))


class FakeAudio:
    """shutil.which and subprocess.run for the audio tools: which are installed, the cards
    `aplay -l` lists, and the devices that open."""

    def __init__(self, installed=("espeak-ng", "aplay"), cards=(), opens=(), voices=("en",)):
        self.installed, self.cards, self.opens, self.voices = installed, cards, opens, voices
        self.ran: list[list[str]] = []

    def which(self, name):
        return f"/usr/bin/{name}" if name in self.installed else None

    def run(self, argv, **kw):
        import subprocess
        self.ran.append(argv)
        if argv[0] == "espeak-ng":
            return subprocess.CompletedProcess(argv, 0 if argv[3] in self.voices else 1, "", "")
        if argv[1] == "-l":
            out = "".join(f"card {i}: {c} [{c}], device 0: x [x]\n"
                          for i, c in enumerate(self.cards))
            return subprocess.CompletedProcess(argv, 0, out, "" if out else
                                               "aplay: device_list:274: no soundcards found...")
        assert "-N" in argv and kw["input"][:4] == b"RIFF"  # silence, never blocking
        device = argv[argv.index("-D") + 1] if "-D" in argv else "default"
        ok = device in self.opens
        return subprocess.CompletedProcess(argv, 0 if ok else 1, b"", b"" if ok else
                                           b"ALSA lib pcm.c: Unknown PCM\n"
                                           b"aplay: main:831: audio open error: No such file")


def audio(cfg, fake):
    return doctor.check_audio(cfg, which=fake.which, run=fake.run).line()


def test_audio_off_is_a_skip_and_runs_nothing(tmp_path):
    status, lines, _ = run(tmp_path)
    assert status == 0 and lines["audio"].startswith("SKIP  audio: the box's voice is off")
    from companion import config as configmod
    fake = FakeAudio()
    assert audio(configmod.Config(configmod.check({})), fake).startswith("SKIP")
    assert fake.ran == []


def test_audio_names_the_missing_package():
    assert audio(speech_cfg(), FakeAudio(installed=())) == (
        "FAIL  audio: espeak-ng is not installed: sudo apt-get install espeak-ng "
        "(hardware/pi/install.sh installs it)")
    assert audio(speech_cfg(), FakeAudio(installed=("espeak-ng",))).startswith(
        "FAIL  audio: aplay is not installed: sudo apt-get install alsa-utils")
    assert audio(speech_cfg(voice="zz"), FakeAudio()) == (
        "FAIL  audio: espeak-ng has no voice 'zz' ([speech] voice; espeak-ng --voices lists "
        "them)")


def test_audio_without_a_sound_card_says_what_to_plug_in():
    line = audio(speech_cfg(), FakeAudio())
    assert line.startswith("FAIL  audio: no sound card (aplay -l lists none)")
    assert "USB speaker" in line and "I2S" in line and "Zero 2 W has no audio jack" in line


def test_audio_device_that_does_not_open_names_the_cards():
    fake = FakeAudio(cards=("Headphones", "vc4hdmi"), opens=("default",))
    line = audio(speech_cfg(device="plughw:3,0"), fake)
    assert line == ("FAIL  audio: ALSA device 'plughw:3,0' does not open (aplay: main:831: "
                    "audio open error: No such file); cards: card 0: Headphones [Headphones]; "
                    "card 1: vc4hdmi [vc4hdmi]; set [speech] device, e.g. \"plughw:1,0\" for card 1 (aplay -L "
                    "lists the names)")
    assert fake.ran[-1][:5] == ["aplay", "-q", "-N", "-D", "plughw:3,0"]
    assert audio(speech_cfg(), fake) == (
        "OK    audio: espeak-ng, voice 'en'; the default audio output opens (a silent check); "
        "cards: card 0: Headphones [Headphones]; card 1: vc4hdmi [vc4hdmi]")


def test_audio_with_this_machines_espeak_ng_and_aplay():
    """The real tools: ALSA's null device opens everywhere; an unknown voice or device fails."""
    import shutil
    for program, package in (("espeak-ng", "espeak-ng"), ("aplay", "alsa-utils")):
        if shutil.which(program) is None:
            why = f"{program} is not installed (apt-get install {package}; make test does it)"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(f"CI must run the audio checks, but {why}")
            pytest.skip(why)
    assert doctor.check_audio(speech_cfg(device="null")).line().startswith(
        "OK    audio: espeak-ng, voice 'en'; ALSA device 'null' opens (a silent check)")
    assert doctor.check_audio(speech_cfg(voice="zz")).verdict == "FAIL"
    line = doctor.check_audio(speech_cfg(device="nosuchdevice")).line()
    assert line.startswith("FAIL  audio: ") and ("no sound card" in line or
                                                 "'nosuchdevice' does not open" in line)
