"""Dice roller firmware entry point: the only module that touches the hardware.

Wires the pins (see README.md for the table), seeds `random` from the RP2040's ring
oscillator, and runs the pure `rolling.Roller` in a loop over USB serial. Ctrl-C (0x03) from
the host stops it and leaves the REPL, as MicroPython always does: that is how mpremote gets
in to update the files. The companion never sends 0x03.
"""

import os
import random
import select
import sys
import time

import neopixel
from machine import I2C, Pin

import debounce
import ring
import rolling

BUTTON_PIN = 15  # big button to GND, internal pull-up
RING_PIN = 16  # WS2812 ring data in
RING_LEDS = 12
I2C_ID = 0
SDA_PIN = 4
SCL_PIN = 5
OLED_ADDR = 0x3C
POLL_MS = 2


def seed():
    # os.urandom on the RP2040 reads the ring oscillator's random bit: hardware entropy.
    random.seed(int.from_bytes(os.urandom(4), "big"))


def open_screen():
    """The SSD1306, or None if it is not on the bus (the roller works without it)."""
    try:
        import ssd1306  # micropython-lib: mpremote mip install ssd1306

        i2c = I2C(I2C_ID, sda=Pin(SDA_PIN), scl=Pin(SCL_PIN), freq=400000)
        if OLED_ADDR not in i2c.scan():
            return None
        return ssd1306.SSD1306_I2C(128, 64, i2c, addr=OLED_ADDR)
    except (ImportError, OSError):
        return None


def main():
    seed()
    np = neopixel.NeoPixel(Pin(RING_PIN), RING_LEDS)

    def lights(pixels):
        for i in range(RING_LEDS):
            np[i] = pixels[i]
        np.write()

    # Raw bytes, no "\n" -> "\r\n" translation (the host accepts "\r\n" all the same).
    out = getattr(sys.stdout, "buffer", sys.stdout)

    def send(data):
        try:
            out.write(data)
        except OSError:
            pass  # no host listening: the answer is lost, the host will time out and retry

    button = Pin(BUTTON_PIN, Pin.IN, Pin.PULL_UP)
    debouncer = debounce.Debouncer(diff=time.ticks_diff)
    roller = rolling.Roller(send, random.randint, lights, open_screen(), time.ticks_diff,
                            RING_LEDS)
    roller.start()

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    inp = getattr(sys.stdin, "buffer", sys.stdin)
    try:
        while True:
            ready = poller.poll(POLL_MS)
            now = time.ticks_ms()
            count = 0
            while ready and count < 128:  # bounded, so the button and animation keep running
                data = inp.read(1)
                if data:
                    roller.receive(data, now)
                count += 1
                ready = poller.poll(0)
            if debouncer.update(button.value(), now):
                roller.press(now)
            roller.tick(now)
    finally:
        lights(ring.dark(RING_LEDS))


main()
