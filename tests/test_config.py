"""Config loading: every mistake stops start-up with exit 2 and one line naming the key."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli import main
from companion.config import DEFAULTS, Config
from companion.errors import ConfigError
from companion.games import check_config as check, load_config as load


def test_no_file_means_defaults(tmp_path):
    cfg = load(tmp_path / "missing.toml")
    assert cfg.pins() == {k: DEFAULTS["buttons"][k]
                          for k in ("next", "roll", "up", "down", "ok", "back")}
    assert cfg["display"]["address"] == 0x3C


def test_a_valid_file(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[players]\nnames = ["Zoe", "Yan"]\n[display]\nkind = "sh1106"\n'
                 'address = 0x3D\n[roller]\ntimeout = 3\n[storage]\npath = "/tmp/x.db"\n')
    cfg = load(p)
    assert cfg.names == ["Zoe", "Yan"] and cfg["display"]["kind"] == "sh1106"
    assert cfg["roller"]["timeout"] == 3.0 and str(cfg.journal_path()) == "/tmp/x.db"


@pytest.mark.parametrize("text, key, words", [
    ("[buttons]\nnxt = 5\n", "buttons.nxt", "unknown key"),
    ("[screen]\nkind = 1\n", "screen", "unknown section"),
    ("[buttons]\nnext = 40\n", "buttons.next", "not a usable pin"),
    ("[buttons]\nnext = 2\n", "buttons.next", "not a usable pin"),
    ("[buttons]\nnext = 22\n", "buttons.up", "GPIO 22 is already used by buttons.next"),
    ("[buttons]\nnext = \"17\"\n", "buttons.next", "must be a whole number"),
    ("[display]\naddress = 0x90\n", "display.address", "not a 7-bit I2C address"),
    ("[display]\nkind = \"ssd1309\"\n", "display.kind", "not ssd1306 or sh1106"),
    ("[display]\nrotate = 5\n", "display.rotate", "not 0 or 2"),
    ("[display]\nrotate = 1\n", "display.rotate", "drawn landscape"),
    ("[roller]\nvid_pid = \"pico\"\n", "roller.vid_pid", "not VID:PID"),
    ("[players]\nnames = [\"A\", \"A\"]\n", "players.names", "same name appears twice"),
    ("[players]\nnames = [\"\"]\n", "players.names[0]", "non-empty name"),
    ("[players]\nnames = [\"Ann\\nX\", \"Ben\"]\n", "players.names[0]", "cannot show"),
    ("[players]\nnames = [\"\\u200b\"]\n", "players.names[0]", "cannot show"),
    ("[buttons]\nhold_time = true\n", "buttons.hold_time", "must be a number"),
    ("[encoder]\nenabled = true\na = 17\n", "encoder.a", "already used by buttons.next"),
    ("[rules.poker]\nante = 1\n", "rules.poker", "unknown game"),
    ("[rules.table]\nbank = 1\n", "rules.table", "unknown house rule"),
    ("players = 3\n", "players", "must be a table"),
    ("[buttons\nnext = 1\n", "", "not valid TOML"),
    ("[lights]\ncount = 7\n", "lights.count", "outside 8-64"),
    ("[lights]\ncount = 65\n", "lights.count", "outside 8-64"),
    ("[lights]\nbrightness = 1.5\n", "lights.brightness", "outside 0-1"),
    ("[lights]\nnight_brightness = -0.1\n", "lights.night_brightness", "outside 0-1"),
    ("[lights]\nnight = \"late\"\n", "lights.night", "not hours"),
    ("[lights]\nnight = \"22:00-25:00\"\n", "lights.night", "not hours"),
    ("[lights]\nnight = \"\u00b22:00-07:00\"\n", "lights.night", "not hours"),  # not 0-9
    ("[lights]\nnight = \"0\u0667:00-07:00\"\n", "lights.night", "not hours"),
    ("[lights]\nnight = \"007:00-08:00\"\n", "lights.night", "not hours"),  # 1-2 digits
    ("[lights]\nseats = [0, 16]\n", "lights.seats[1]", "not an LED of the ring (0-15)"),
    ("[lights]\nseats = [3, 3]\n", "lights.seats", "two seats face the same LED"),
    ("[lights]\nfirst = 9\n", "lights.first", "outside 0-8"),
    ("[lights]\nfirst = -1\n", "lights.first", "outside 0-8"),
    ("[lights]\ncount = 12\nfirst = 5\n", "lights.first",
     "leaves 7 LEDs of 12 for the ring (8 at least)"),
    ("[lights]\ncount = 17\nfirst = 1\nseats = [0, 5, 9, 13]\n", "lights.seats[0]",
     "LED 0 is below first = 1"),
    ("[lights]\nfirst = true\n", "lights.first", "must be a whole number"),
    ("[lights]\nspi_bus = 2\n", "lights.spi_bus", "not SPI bus 0 or 1"),
    ("[lights]\nspi_device = 2\n", "lights.spi_device", "not a chip select of SPI bus 0 (0 or 1)"),
    ("[lights]\norder = \"GRBW\"\n", "lights.order", "not one of RGB"),
    ("[lights]\nenabled = true\n[buttons]\nback = 10\n", "buttons.back",
     "GPIO 10 is held by SPI bus 0, which drives the lights"),
    ("[lights]\nenabled = true\nspi_bus = 1\n", "buttons.next",
     "GPIO 17 is held by SPI bus 1"),
    ("[lights]\nenabled = true\n[buzzer]\nenabled = true\npin = 8\n", "buzzer.pin",
     "GPIO 8 is held by SPI bus 0"),
])
def test_mistakes_name_the_key(tmp_path, text, key, words):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as e:
        load(p)
    assert e.value.key == key and words in str(e.value)


def test_run_with_a_bad_config_exits_2_with_one_line(tmp_path, capsys):
    p = tmp_path / "c.toml"
    p.write_text("[buttons]\nnext = 99\n")
    assert main(["run", "--config", str(p), "--display", "dummy", "--input", "stdin"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "buttons.next" in err and "GPIO 99" in err


def test_a_night_of_thousands_of_leading_zeros_exits_2_with_one_short_line(tmp_path, capsys):
    """Issue 35.7: int() refuses strings of over 4,300 digits: it was a traceback."""
    p = tmp_path / "c.toml"
    p.write_text(f'[lights]\nnight = "{"0" * 5000}22:00-07:00"\n')
    assert main(["run", "--config", str(p), "--display", "dummy", "--input", "stdin"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lights.night" in err and "not hours" in err
    assert len(err) < 200 and "5011 characters" in err


@pytest.mark.parametrize("device", [
    'file:"|touch${IFS}x",raw',  # issue 35.5: ALSA's file plugin hands "|..." to a shell
    "file:/tmp/out.wav", "FILE:x", "file", "tee:hw,/tmp/x", "plug:file", "hw:1,0|touch x",
    "hw:'0',0", "/dev/snd/pcmC0D0p", "-D", "hw:", "hw:1,,0", "hw:CARD=a b", "plughw:1,0;x",
    "default:CARD=$(x)", "x" * 81,
])
def test_a_speech_device_that_is_no_sound_card_is_refused_at_load(tmp_path, device):
    p = tmp_path / "c.toml"
    p.write_text(f"[speech]\ndevice = {json.dumps(device)}\n")
    with pytest.raises(ConfigError) as e:
        load(p)
    assert e.value.key == "speech.device" and "not an ALSA sound device" in str(e.value)


@pytest.mark.parametrize("device", [
    "plughw:1,0", "hw:0", "hw:CARD=Device,DEV=0", "plughw:CARD=Headphones,DEV=0", "default",
    "sysdefault", "sysdefault:CARD=vc4hdmi0", "hdmi:CARD=vc4hdmi0,DEV=0",
    "dmix:CARD=Device,DEV=0", "front:CARD=PCH,DEV=0", "null", "pulse", "pipewire",
    "default:CARD=Device", "my_speaker",
])
def test_the_devices_aplay_lists_are_accepted(tmp_path, device):
    p = tmp_path / "c.toml"
    p.write_text(f"[speech]\ndevice = {json.dumps(device)}\n")
    assert load(p)["speech"]["device"] == device


def test_a_shell_in_the_speech_device_exits_2_with_one_line_and_runs_nothing(tmp_path, capsys,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # (a run that starts ends at once)
    p = tmp_path / "c.toml"
    p.write_text('[speech]\nenabled = true\ndevice = \'file:"|touch${IFS}x",raw\'\n')
    assert main(["run", "--config", str(p), "--display", "dummy", "--input", "stdin"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "speech.device" in err and "file device" in err
    assert not (tmp_path / "x").exists()


def test_run_with_a_missing_config_file_given_explicitly(tmp_path, capsys):
    assert main(["run", "--config", str(tmp_path / "nope.toml"), "--display", "dummy"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_run_without_a_display_on_this_machine_exits_2(tmp_path, capsys):
    # No I2C bus here: the real panel cannot answer, and the message says what to do.
    code = main(["run", "--journal", str(tmp_path / "j.db"), "--input", "stdin"])
    assert code == 2
    err = capsys.readouterr().err
    assert "no ssd1306 display answered" in err and "0x3c" in err


def test_the_example_config_is_valid_and_states_the_defaults():
    import tomllib
    from pathlib import Path

    example = Path(__file__).parent.parent / "config.example.toml"
    raw = tomllib.loads(example.read_text())
    assert load(example).data == {**DEFAULTS, "rules": {}}
    for section, values in DEFAULTS.items():
        if section != "rules":
            assert raw[section] == values, f"config.example.toml [{section}] drifted"


DEEP = {
    "inline tables": "[players]\nnames = 1\nx = " + "{a = " * 400 + "1" + "}" * 400 + "\n",
    "arrays": "[players]\nnames = " + "[" * 600 + "]" * 600 + "\n",
    "arrays within reach": "[players]\nnames = " + "[" * 300 + "]" * 300 + "\n",
}


@pytest.mark.parametrize("shape", DEEP)
@pytest.mark.parametrize("command", ["run", "export", "stats"])
def test_a_deeply_nested_config_exits_2_with_one_line(tmp_path, capsys, command, shape):
    """tomllib recurses once per level: a few hundred levels were a RecursionError traceback."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(DEEP[shape])
    argv = [command, "--config", str(cfg), "--journal", str(tmp_path / "j.db")]
    if command == "run":
        argv += ["--no-web", "--display", "dummy", "--input", "stdin"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    if shape == "arrays within reach":  # parsed: then the checks say what is wrong
        assert err.startswith("companion: config: players.names[0]: must be a non-empty name")
    else:
        assert err == f"companion: config: {cfg} is nested too deeply (tables or lists inside " \
                      "one another hundreds of levels deep)\n"
    assert not (tmp_path / "j.db").exists()


def test_doctor_reports_a_deeply_nested_config_as_its_config_check(tmp_path):
    """The doctor reports every check: a bad config is its FAIL line (the others run on the
    defaults), as for any config error; no traceback."""
    import io

    from gpiozero.pins.mock import MockFactory

    from companion.cli import doctor
    from companion.drivers.display import dummy

    cfg = tmp_path / "config.toml"
    cfg.write_text(DEEP["arrays"])
    out = io.StringIO()
    status = doctor.main(["--config", str(cfg), "--journal", str(tmp_path / "j.db")], out=out,
                         factory=MockFactory(), open_display=lambda c: dummy(),
                         comports=lambda: [])
    lines = out.getvalue().splitlines()
    assert status == 1
    assert f"FAIL  config: {cfg} is nested too deeply (tables or lists inside one another " \
           "hundreds of levels deep); the checks below use the defaults" in lines


def test_a_config_is_read_only_and_compares_by_its_contents(tmp_path):
    """Config is a plain class (not a frozen dataclass: docs/performance.md, the kept start
    frame) that keeps what the dataclass gave: equality by data and path, no assignment, no
    hash (it holds dicts), and a repr naming both."""
    import copy
    import pickle
    from unittest import mock

    a, b = Config(check({})), Config(check({}))
    assert a == b and a != Config(check({}), tmp_path) and a != object() and a == mock.ANY
    with pytest.raises(AttributeError):
        a.path = tmp_path  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.path
    with pytest.raises(TypeError):
        hash(a)
    assert repr(Config({}, None)) == "Config(data={}, path=None)"
    deep = copy.deepcopy(a)
    assert deep == a and deep.data is not a.data
    assert copy.copy(a) == a and pickle.loads(pickle.dumps(a)) == a


def test_a_deck_owner_no_game_can_seat_is_refused_at_load(tmp_path):
    """Issue 29, item 8: a seat beyond any game of the kind is refused when the config loads
    (before, New game could then never start that kind, and every /api/kinds logged an
    ERROR). Each kind's range is its own most players."""
    from companion import games

    for kind, k in games.kinds().items():
        most = k.rules.max_players
        p = tmp_path / f"{kind}.toml"
        p.write_text(f"[rules.{kind}]\ndeck_owner = {most}\n")
        with pytest.raises(ConfigError) as e:
            load(p)
        assert e.value.key == f"rules.{kind}" and "deck_owner" in e.value.problem
        assert f"0-{most - 1}" in e.value.problem and f"at most {most} players" in e.value.problem
        p.write_text(f"[rules.{kind}]\ndeck_owner = {most - 1}\n")
        assert load(p).house_rules(kind)["deck_owner"] == most - 1


def test_the_panels_new_game_with_no_seat_for_the_deck_owner_says_so(tmp_path, caplog):
    import logging

    from companion.inputs import Button
    from companion.testing import choose, close, make_app, press

    app = make_app(tmp_path, config={"rules": {"table": {"deck_owner": 5}}})
    try:
        choose(app, "New game")
        choose(app, "Table")
        assert app.top.value == 4
        with caplog.at_level(logging.WARNING):
            press(app, Button.OK)
        assert app.toast and app.toast[0] == "Seat 6 owns the deck: 6+ players"
        assert app.journal is None and caplog.records == []
        for _ in range(2):
            press(app, Button.UP)
        press(app, Button.OK)
        assert app.journal is not None and len(app.journal.header.players) == 6
    finally:
        close(app)


@pytest.mark.parametrize("text", [
    '[buttons]\n"next\\u001b[2J\\u001b[31m" = 5\n',  # a key that clears and reddens a terminal
    '[display]\nkind = "x\\u001b]0;owned\\u0007"\n',  # a value that retitles the window
    '["\\u001b[5m"]\nx = 1\n',
])
def test_control_characters_in_a_config_are_escaped_in_the_message(tmp_path, capsys, text):
    p = tmp_path / "c.toml"
    p.write_text(text)
    assert main(["run", "--config", str(p), "--display", "dummy", "--input", "stdin"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\\x1b" in err
    assert err.count("\n") == 1 and err.startswith("companion: config: ")


def test_lights_off_leave_the_spi_pins_free_and_on_take_bus_1s_third_chip_select(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[lights]\nenabled = false\n[buttons]\nback = 10\n")
    assert load(p).pins()["back"] == 10
    p.write_text("[lights]\nenabled = true\nspi_bus = 1\nspi_device = 2\ncount = 24\n"
                 "seats = [0, 6, 12, 18]\nnight = \"22:00-07:00\"\n"
                 "[buttons]\nnext = 5\nroll = 6\n")
    li = load(p)["lights"]
    assert (li["spi_bus"], li["spi_device"], li["count"], li["seats"]) == (1, 2, 24, [0, 6, 12, 18])


def test_the_first_pixel_trick_keeps_the_seats_as_the_builder_counts_them(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[lights]\ncount = 17\nfirst = 1\nseats = [1, 5, 9, 16]\n")
    li = load(p)["lights"]
    assert (li["count"], li["first"], li["seats"]) == (17, 1, [1, 5, 9, 16])
    p.write_text("[lights]\ncount = 16\nfirst = 8\n")
    assert load(p)["lights"]["first"] == 8  # 8 LEDs left: the smallest ring
    p.write_text("[lights]\n")
    assert load(p)["lights"]["first"] == 0


def test_the_house_rules_are_checked_by_the_check_the_config_is_handed(tmp_path):
    """Issue 36: companion/config.py, read by every layer, imports none of them; the game
    kinds' registry checks the house rules (games.house_rules), handed in by the loader."""
    from companion import config as configmod, games

    with pytest.raises(ValueError, match="house_rules="):  # nothing here can check them
        configmod.check({"rules": {"table": {"deck_owner": 1}}})
    assert configmod.check({"rules": {}}) == configmod.check({})  # none to check
    seen = []

    def house_rules(tables):
        seen.append(tables)
        return {"table": {"checked": True}}

    assert configmod.check({"rules": {"table": {"deck_owner": 1}}}, house_rules)["rules"] == \
        {"table": {"checked": True}}
    p = tmp_path / "c.toml"
    p.write_text("[rules.table]\ndeck_owner = 2\n")
    assert configmod.load(p, house_rules=house_rules).house_rules("table") == {"checked": True}
    assert seen == [{"table": {"deck_owner": 1}}, {"table": {"deck_owner": 2}}]
    assert load(p).house_rules("table") == games.house_rules({"table": {"deck_owner": 2}})["table"]
