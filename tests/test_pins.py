"""Which pin library drives the buttons, and why: the environment, then `[gpio] pin_factory`,
then gpiozero's order (lgpio, rpigpio = RPi.GPIO, ...). No real GPIO here: gpiozero's pin
factory modules are replaced by stand-ins in sys.modules, each loading or failing as a Pi
with or without python3-lgpio / python3-rpi-lgpio would."""

from __future__ import annotations

import types
from importlib import metadata

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.cli import doctor, main
from companion.drivers import pins
from companion.errors import DeviceError


class LGPIOFactory(MockFactory):
    """Stands in for gpiozero's lgpio factory where lgpio is installed."""


class RPiGPIOFactory(MockFactory):
    """Stands in for gpiozero's RPi.GPIO factory where python3-rpi-lgpio is installed."""


def missing(module: str):
    class Factory:
        def __init__(self) -> None:
            raise ImportError(f"No module named {module!r}")
    return Factory


def stand_in(monkeypatch, name: str, cls_name: str, cls) -> None:
    mod = types.ModuleType(f"gpiozero.pins.{name}")
    setattr(mod, cls_name, cls)
    monkeypatch.setitem(__import__("sys").modules, f"gpiozero.pins.{name}", mod)


@pytest.fixture
def board(monkeypatch):
    """A Pi with no pin library yet; the test says which ones load."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    for name, cls_name, module in (("lgpio", "LGPIOFactory", "lgpio"),
                                   ("rpigpio", "RPiGPIOFactory", "RPi"),
                                   ("pigpio", "PiGPIOFactory", "pigpio"),
                                   ("native", "NativeFactory", "native")):
        stand_in(monkeypatch, name, cls_name, missing(module))
    real_version = metadata.version

    def version(dist: str) -> str:
        if dist == "rpi-lgpio":
            return "0.6"
        return real_version(dist)

    monkeypatch.setattr(pins.metadata, "version", version)
    return monkeypatch


def test_lgpio_is_gpiozero_first_choice(board):
    stand_in(board, "lgpio", "LGPIOFactory", LGPIOFactory)
    choice = pins.choose("", environ={})
    assert isinstance(choice.factory, LGPIOFactory)
    assert choice.line() == "LGPIOFactory (gpiozero's first choice)"


def test_without_lgpio_gpiozero_takes_rpi_gpio_and_the_reason_is_kept(board):
    stand_in(board, "rpigpio", "RPiGPIOFactory", RPiGPIOFactory)
    choice = pins.choose("", environ={})
    assert isinstance(choice.factory, RPiGPIOFactory)
    line = choice.line()
    assert "Falling back from lgpio: No module named 'lgpio'" in line
    assert line.endswith("RPi.GPIO from rpi-lgpio 0.6, on lgpio")


def test_the_config_names_the_library(board):
    stand_in(board, "lgpio", "LGPIOFactory", LGPIOFactory)
    stand_in(board, "rpigpio", "RPiGPIOFactory", RPiGPIOFactory)
    choice = pins.choose("rpigpio", environ={})
    assert isinstance(choice.factory, RPiGPIOFactory)  # not gpiozero's first choice
    assert choice.why == '[gpio] pin_factory = "rpigpio" in the config'


def test_the_environment_wins_over_the_config(board):
    stand_in(board, "rpigpio", "RPiGPIOFactory", RPiGPIOFactory)
    choice = pins.choose("rpigpio", environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert type(choice.factory) is MockFactory
    assert choice.why == "GPIOZERO_PIN_FACTORY=mock in the environment"


def test_an_empty_environment_variable_means_unset(board):
    """"GPIOZERO_PIN_FACTORY=" (a drop-in clearing it): the config, then gpiozero's order,
    decide; gpiozero was left looking for a factory named ''."""
    stand_in(board, "lgpio", "LGPIOFactory", LGPIOFactory)
    board.setenv("GPIOZERO_PIN_FACTORY", "")
    choice = pins.choose("")
    assert isinstance(choice.factory, LGPIOFactory)
    assert choice.why == "gpiozero's first choice"
    board.setenv("GPIOZERO_PIN_FACTORY", " ")
    stand_in(board, "rpigpio", "RPiGPIOFactory", RPiGPIOFactory)
    assert isinstance(pins.choose("rpigpio").factory, RPiGPIOFactory)


def test_a_named_library_that_does_not_load_says_which_who_asked_and_what_to_install(board):
    with pytest.raises(DeviceError) as e:
        pins.choose("rpigpio", environ={})
    assert str(e.value) == ('pin library rpigpio ([gpio] pin_factory = "rpigpio" in the config) '
                            "did not load: No module named 'RPi' (sudo apt-get install "
                            "python3-rpi-lgpio)")
    with pytest.raises(DeviceError, match="'bogus' .* is not one gpiozero knows"):
        pins.choose("", environ={"GPIOZERO_PIN_FACTORY": "bogus"})


def test_no_library_at_all_lists_every_reason(board):
    with pytest.raises(DeviceError) as e:
        pins.choose("", environ={})
    text = str(e.value)
    for name in ("lgpio", "rpigpio", "pigpio", "native"):
        assert f"Falling back from {name}" in text
    assert "python3-rpi-lgpio" in text and "companion run --emulator" in text


def test_doctor_says_which_library_and_why(board):
    stand_in(board, "rpigpio", "RPiGPIOFactory", RPiGPIOFactory)
    factory, check, owned = doctor.pin_factory(None, "")
    assert owned and isinstance(factory, RPiGPIOFactory)
    factory.close()
    assert check.line().startswith("OK    pin library: RPiGPIOFactory (gpiozero's choice; "
                                   "Falling back from lgpio: No module named 'lgpio')")
    assert "rpi-lgpio 0.6" in check.line()
    _, check, _ = doctor.pin_factory(None, "lgpio")
    assert check.line().startswith('FAIL  pin library: pin library lgpio ([gpio] pin_factory = '
                                   '"lgpio" in the config) did not load')


def test_doctor_reads_the_config_key(board, tmp_path, capsys):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[gpio]\npin_factory = "mock"\n[roller]\nport = "none"\n')
    doctor.main(["--config", str(cfg), "--journal", str(tmp_path / "j.db")],
                open_display=lambda c: (_ for _ in ()).throw(DeviceError("no display here")))
    out = capsys.readouterr().out
    assert ('OK    pin library: MockFactory ([gpio] pin_factory = "mock" in the config): '
            "mock pins" in out)
    assert "OK    button NEXT: GPIO17 (header pin 11) reads released" in out


def test_run_honours_the_config_key(board, tmp_path, capsys):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[gpio]\npin_factory = "rpigpio"\n')
    code = main(["run", "--display", "dummy", "--config", str(cfg),
                 "--journal", str(tmp_path / "j.db")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert '[gpio] pin_factory = "rpigpio" in the config' in err and "python3-rpi-lgpio" in err


def test_the_config_refuses_a_library_gpiozero_does_not_have(tmp_path):
    from companion import config as configmod
    from companion.errors import ConfigError

    cfg = tmp_path / "config.toml"
    cfg.write_text('[gpio]\npin_factory = "RPi.GPIO"\n')
    with pytest.raises(ConfigError, match="gpio.pin_factory: 'RPi.GPIO' is not a pin library"):
        configmod.load(cfg)
