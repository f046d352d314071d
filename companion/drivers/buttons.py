"""The six buttons through gpiozero: pins to ground, internal pull-ups.

Edges from gpiozero's callback threads go through a `PressDetector` per button; gestures are
posted as `ButtonInput`s. Timers wake the detector at its deadlines, so nothing polls.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from gpiozero import BadPinFactory, Button as GpioButton, GPIOZeroError

from companion.drivers.chord import POWER_CHORD, ChordDetector
from companion.drivers.press import PressDetector
from companion.errors import DeviceError
from companion.inputs import Button, ButtonInput


def gpio_error(e: Exception, what: str) -> DeviceError:
    """A gpiozero failure as one line a person can act on."""
    if isinstance(e, BadPinFactory):
        return DeviceError(f"{what}: no GPIO pin library could be loaded (lgpio on a Raspberry "
                           "Pi; see hardware/README.md). Without GPIO pins, run the emulator: "
                           "companion run --emulator")
    return DeviceError(f"{what}: {e}")


class ButtonPanel:
    """All six buttons. A context manager: closing releases the pins and cancels timers.

    `pin_factory` is gpiozero's (a `MockFactory` in tests); `clock` is injectable for tests.
    BACK and NEXT held together for `chord_time` post a `ShutdownRequest` (drivers/chord.py);
    while they are held together neither posts its own gestures.
    """

    def __init__(self, pins: dict[str, int], *, post: Callable[[object], None],
                 debounce: float = 0.03, hold_time: float = 0.8, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic, chord_time: float = 5.0) -> None:
        self.post = post
        self.clock = clock
        self._lock = threading.Lock()
        self._timers: dict[Button, threading.Timer] = {}
        self.chord = ChordDetector(POWER_CHORD, hold_time=chord_time)
        self._chord_timer: threading.Timer | None = None
        self.detectors: dict[Button, PressDetector] = {}
        self.devices: dict[Button, GpioButton] = {}
        try:
            for name, pin in pins.items():
                b = Button[name.upper()]
                self.detectors[b] = PressDetector(debounce=debounce, hold_time=hold_time)
                try:
                    dev = GpioButton(pin, pull_up=True, bounce_time=None,
                                     pin_factory=pin_factory)
                except GPIOZeroError as e:
                    raise gpio_error(e, f"button {name.upper()} on GPIO {pin}") from None
                dev.when_pressed = lambda _d=None, b=b: self._edge(b, True)
                dev.when_released = lambda _d=None, b=b: self._edge(b, False)
                self.devices[b] = dev
        except Exception:
            self.close()
            raise

    def _edge(self, button: Button, pressed: bool) -> None:
        with self._lock:
            det = self.detectors[button]
            now = self.clock()
            gestures = det.edge(pressed, now)
            self._arm(button, det)
            gestures, extra = self._chord_step(button, det, gestures, now)
        for g in gestures:
            self.post(ButtonInput(button, g))
        for item in extra:
            self.post(item)

    def _tick(self, button: Button) -> None:
        with self._lock:
            det = self.detectors[button]
            now = self.clock()
            gestures = det.tick(now)
            self._arm(button, det)
            gestures, extra = self._chord_step(button, det, gestures, now)
        for g in gestures:
            self.post(ButtonInput(button, g))
        for item in extra:
            self.post(item)

    def _chord_step(self, button: Button, det: PressDetector, gestures: list,
                    now: float) -> tuple[list, list]:
        """Pass `button`'s news through the chord and (re)arm the chord's timer. Lock held."""
        gestures, extra = self.chord.step(button, det.stable, gestures, now)
        self._arm_chord(now)
        return gestures, extra

    def _arm_chord(self, now: float) -> None:
        if self._chord_timer is not None:
            self._chord_timer.cancel()
            self._chord_timer = None
        due = self.chord.due()
        if due is not None:
            self._chord_timer = threading.Timer(max(0.0, due - now), self._chord_tick)
            self._chord_timer.daemon = True
            self._chord_timer.start()

    def _chord_tick(self) -> None:
        with self._lock:
            now = self.clock()
            extra = self.chord.tick(now)
            self._arm_chord(now)
        for item in extra:
            self.post(item)

    def _arm(self, button: Button, det: PressDetector) -> None:
        old = self._timers.pop(button, None)
        if old is not None:
            old.cancel()
        due = det.due()
        if due is not None:
            t = threading.Timer(max(0.0, due - self.clock()), self._tick, args=(button,))
            t.daemon = True
            self._timers[button] = t
            t.start()

    def is_pressed(self, button: Button) -> bool:
        return self.detectors[button].stable

    def close(self) -> None:
        with self._lock:
            for t in self._timers.values():
                t.cancel()
            self._timers.clear()
            if self._chord_timer is not None:
                self._chord_timer.cancel()
                self._chord_timer = None
        for dev in self.devices.values():
            dev.close()
        self.devices.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
