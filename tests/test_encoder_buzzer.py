"""The optional rotary encoder and buzzer on gpiozero's MockFactory."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from companion.drivers.buzzer import Buzzer
from companion.drivers.encoder import Encoder
from companion.inputs import Button, ButtonInput, Gesture


def turn(a, b, clockwise: bool) -> None:
    """One detent of quadrature: A leads B clockwise, B leads A counter-clockwise."""
    first, second = (a, b) if clockwise else (b, a)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def test_turns_are_up_and_down_and_the_push_is_ok():
    factory = MockFactory()
    q: queue.Queue = queue.Queue()
    clock = [0.0]
    with Encoder(a=5, b=6, push=13, post=q.put, pin_factory=factory,
                 clock=lambda: clock[0]):
        a, b, push = factory.pin(5), factory.pin(6), factory.pin(13)
        turn(a, b, clockwise=True)
        turn(a, b, clockwise=True)
        turn(a, b, clockwise=False)
        assert [q.get(timeout=30) for _ in range(3)] == [
            ButtonInput(Button.DOWN), ButtonInput(Button.DOWN), ButtonInput(Button.UP)]
        push.drive_low()
        clock[0] = 0.1
        push.drive_high()
        assert q.get(timeout=30) == ButtonInput(Button.OK, Gesture.PRESS)
    # Closed: the pins are free again.
    Encoder(a=5, b=6, push=13, post=q.put, pin_factory=factory).close()


def test_an_encoder_on_a_pin_in_use_releases_the_push_pin():
    from gpiozero import Button as GpioButton

    from companion.errors import DeviceError

    factory = MockFactory()
    held = GpioButton(5, pin_factory=factory)
    with pytest.raises(DeviceError, match="rotary encoder on GPIO 5 and 6"):
        Encoder(a=5, b=6, push=13, post=lambda _: None, pin_factory=factory)
    held.close()
    Encoder(a=5, b=6, push=13, post=lambda _: None, pin_factory=factory).close()


def test_buzzer_beeps_without_blocking():
    import time

    factory = MockFactory()
    with Buzzer(12, pin_factory=factory) as buzzer:
        pin = factory.pin(12)
        buzzer.beep(0.05)  # returns at once; gpiozero's background thread does the beep
        deadline = time.monotonic() + 30  # a bound on the wait, not a speed requirement
        while [s.state for s in pin.states][-2:] != [True, False] \
                and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [s.state for s in pin.states] == [False, True, False]
