"""An optional buzzer (active, switched by an NPN transistor) for timers and calls."""

from __future__ import annotations

from gpiozero import Buzzer as GpioBuzzer, GPIOZeroError

from companion.drivers.buttons import gpio_error


class Buzzer:
    """`beep(seconds)` sounds once without blocking. A context manager that frees the pin."""

    def __init__(self, pin: int, *, pin_factory=None) -> None:
        try:
            self.device = GpioBuzzer(pin, pin_factory=pin_factory)
        except GPIOZeroError as e:
            raise gpio_error(e, f"buzzer on GPIO {pin}") from None

    def beep(self, seconds: float = 0.2) -> None:
        self.device.beep(on_time=seconds, off_time=0, n=1, background=True)

    def close(self) -> None:
        self.device.close()

    def __enter__(self) -> Buzzer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
