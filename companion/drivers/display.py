"""The display: a luma device behind a small wrapper that skips unchanged frames.

luma's ssd1306/sh1106 resend the whole frame on every `display()`; the wrapper compares
frames and sends nothing when nothing changed, and the real panel uses drivers/oled.py, which
sends only the changed pages. A write that fails with OSError (a loose I2C wire) is logged;
the app keeps running and retries with backoff: `schedule(seconds)` (set by the app to a timer
that wakes its queue) asks for a redraw, and frames before then are not tried.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from PIL import Image

from companion.errors import DisplayMissing

log = logging.getLogger(__name__)


class Display:
    def __init__(self, device, *, clock: Callable[[], float] = time.monotonic,
                 retry_first: float = 0.1, retry_max: float = 5.0) -> None:
        self.device = device
        self.last: bytes | None = None
        self.frames_sent = 0
        self.frames_skipped = 0
        self.failed = False
        self.clock = clock
        self.retry_first = retry_first
        self.retry_max = retry_max
        self.retry_delay = retry_first
        self.retry_at = float("-inf")
        self.schedule: Callable[[float], None] | None = None

    def show(self, image: Image.Image) -> bool:
        """Send `image` if it differs from what the panel shows; True if it was sent."""
        raw = image.tobytes()
        if raw == self.last:
            self.frames_skipped += 1
            return False
        if self.failed and self.clock() < self.retry_at:
            return False  # a retry is scheduled; a dead bus must not slow every input down
        try:
            self.device.display(image.convert(self.device.mode))
        except OSError as e:
            if not self.failed:
                log.warning("display write failed (%s); retrying with backoff", e)
                self.retry_delay = self.retry_first
            else:
                self.retry_delay = min(self.retry_delay * 2, self.retry_max)
            self.failed = True
            self.last = None
            self.retry_at = self.clock() + self.retry_delay
            if self.schedule is not None:
                self.schedule(self.retry_delay)
            return False
        if self.failed:
            log.warning("display is back")
            self.failed = False
        self.last = raw
        self.frames_sent += 1
        return True

    @property
    def image(self) -> Image.Image | None:
        return getattr(self.device, "image", None)

    def close(self) -> None:
        try:
            self.device.cleanup()
        except Exception:  # cleanup of a device that is already gone must not stop shutdown
            pass

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def dummy() -> Display:
    from luma.core.device import dummy as dummy_device
    return Display(dummy_device(width=128, height=64, mode="1"))


def oled(config) -> Display:
    """The real panel from the [display] config; DisplayMissing if nothing answers."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    from luma.core.interface.serial import i2c

    from companion.drivers import oled as partial

    d = config["display"]
    try:
        serial = i2c(port=d["i2c_port"], address=d["address"])
        device = partial.device(d["kind"], serial, rotate=d["rotate"])
        device.contrast(d["contrast"])
    except (DeviceNotFoundError, DevicePermissionError, OSError) as e:
        raise DisplayMissing(f"no {d['kind']} display answered on I2C bus {d['i2c_port']} at "
                             f"address {d['address']:#04x} ({e}). Check the wiring and that "
                             "I2C is enabled (raspi-config), or run the emulator: "
                             "companion run --emulator") from None
    return Display(device)
