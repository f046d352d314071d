"""An optional rotary encoder in place of UP/DOWN, its push switch as a second OK.

gpiozero's `RotaryEncoder` decodes the quadrature; a detent clockwise is DOWN (the next
item in a list, the way menus on encoder devices scroll), counter-clockwise is UP. The push
switch goes through the same press/hold logic as the buttons (a hold opens the menu).
"""

from __future__ import annotations

import time
from typing import Callable

from gpiozero import GPIOZeroError, RotaryEncoder

from companion.drivers.buttons import ButtonPanel, gpio_error
from companion.inputs import Button, ButtonInput


class Encoder:
    """A context manager that releases its three pins."""

    def __init__(self, *, a: int, b: int, push: int, post: Callable[[object], None],
                 debounce: float = 0.03, hold_time: float = 0.8, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.push = ButtonPanel({"ok": push}, post=post, debounce=debounce,
                                hold_time=hold_time, pin_factory=pin_factory, clock=clock)
        try:
            self.rotor = RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        except GPIOZeroError as e:
            self.push.close()
            raise gpio_error(e, f"rotary encoder on GPIO {a} and {b}") from None
        self.rotor.when_rotated_clockwise = lambda: post(ButtonInput(Button.DOWN))
        self.rotor.when_rotated_counter_clockwise = lambda: post(ButtonInput(Button.UP))

    def close(self) -> None:
        self.rotor.close()
        self.push.close()

    def __enter__(self) -> Encoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
