"""Which of gpiozero's pin libraries ("pin factories") drives the buttons, and why.

Who chooses, the first that names one wins:

1. `GPIOZERO_PIN_FACTORY` in the environment (gpiozero's own switch: a systemd drop-in, or
   `GPIOZERO_PIN_FACTORY=mock companion run` to try the box without a board);
2. `[gpio] pin_factory` in the config;
3. gpiozero's own order: lgpio, then rpigpio (the RPi.GPIO API: on Raspberry Pi OS the
   `python3-rpi-lgpio` package, which runs on lgpio and so on a Pi 5 too), then pigpio, then
   native. Each library that does not load gives its reason, which `companion doctor`
   reports.

`choose()` loads the factory and says which and why; `companion run` installs it as gpiozero's
`Device.pin_factory`, so every button, the encoder and the buzzer share it.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Mapping

from companion.errors import DeviceError

ENV = "GPIOZERO_PIN_FACTORY"


@dataclass(frozen=True)
class Choice:
    factory: Any
    why: str

    @property
    def name(self) -> str:
        return type(self.factory).__name__

    def line(self) -> str:
        """For the doctor and the log: "LGPIOFactory (gpiozero's first choice: lgpio)"."""
        return f"{self.name} ({self.why}){rpi_gpio_note(self.factory)}"


def choose(configured: str = "", *, environ: Mapping[str, str] | None = None) -> Choice:
    """Load the pin factory the environment, the config or gpiozero picks (in that order).

    Raises DeviceError naming the library and who asked for it when that one does not load,
    or, with no name given, listing why each of gpiozero's candidates failed.
    """
    env = (os.environ if environ is None else environ).get(ENV, "").strip()
    if not env and environ is None and ENV in os.environ:
        # Set but empty (a drop-in's "Environment=GPIOZERO_PIN_FACTORY=" clearing it) means
        # unset; gpiozero itself would go looking for a factory named ''.
        del os.environ[ENV]
    if env:
        return Choice(_load(env, f"{ENV}={env} in the environment"),
                      f"{ENV}={env} in the environment")
    if configured:
        source = f'[gpio] pin_factory = "{configured}" in the config'
        return Choice(_load(configured, source), source)
    return _gpiozero_default()


def _load(name: str, source: str) -> Any:
    eps = {ep.name: ep for ep in metadata.entry_points(group="gpiozero_pin_factories")}
    ep = eps.get(name) or eps.get(name.lower())
    if ep is None:
        raise DeviceError(f"pin library {name!r} ({source}) is not one gpiozero knows "
                          f"(known: {', '.join(sorted(eps))})")
    try:
        return ep.load()()
    except Exception as e:  # ImportError, the library's own errors: each says why
        raise DeviceError(f"pin library {name} ({source}) did not load: "
                          f"{str(e) or type(e).__name__}{_hint(name)}") from None


def _gpiozero_default() -> Choice:
    from gpiozero import Device

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = Device._default_pin_factory()
        except Exception as e:  # BadPinFactory: none of them loaded
            why = "; ".join(str(w.message) for w in caught) or str(e)
            raise DeviceError(f"no GPIO pin library could be loaded ({why}). On a Raspberry "
                              "Pi: sudo apt-get install python3-lgpio python3-rpi-lgpio (see "
                              "hardware/README.md); without GPIO pins run the emulator: "
                              "companion run --emulator") from None
    fallbacks = [str(w.message) for w in caught]
    if not fallbacks:
        return Choice(factory, "gpiozero's first choice")
    return Choice(factory, "gpiozero's choice; " + "; ".join(fallbacks))


def rpi_gpio_note(factory: Any) -> str:
    """Which RPi.GPIO the rpigpio factory runs on: rpi-lgpio (any Pi, the Pi 5 too) or the
    original (register access: not on a Pi 5)."""
    if type(factory).__name__ != "RPiGPIOFactory":
        return ""
    try:
        return f"; RPi.GPIO from rpi-lgpio {metadata.version('rpi-lgpio')}, on lgpio"
    except metadata.PackageNotFoundError:
        pass
    try:
        return (f"; the original RPi.GPIO {metadata.version('RPi.GPIO')}, which does not work "
                "on a Pi 5 (sudo apt-get install python3-rpi-lgpio replaces it)")
    except metadata.PackageNotFoundError:
        return ""


def _hint(name: str) -> str:
    return {"lgpio": " (sudo apt-get install python3-lgpio)",
            "rpigpio": " (sudo apt-get install python3-rpi-lgpio)",
            "pigpio": " (pigpio needs its daemon: sudo apt-get install pigpiod python3-pigpio)",
            }.get(name.lower(), "")
