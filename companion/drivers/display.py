"""The display: a luma device behind a small wrapper that skips unchanged frames.

luma's ssd1306/sh1106 resend the whole frame on every `display()`; the wrapper compares
frames and sends nothing when nothing changed. A write that fails with OSError (a loose I2C
wire) is logged and retried on the next frame; the app keeps running.
"""

from __future__ import annotations

import logging

from PIL import Image

from companion.errors import DisplayMissing

log = logging.getLogger(__name__)


class Display:
    def __init__(self, device) -> None:
        self.device = device
        self.last: bytes | None = None
        self.frames_sent = 0
        self.frames_skipped = 0
        self.failed = False

    def show(self, image: Image.Image) -> bool:
        """Send `image` if it differs from what the panel shows; True if it was sent."""
        raw = image.tobytes()
        if raw == self.last:
            self.frames_skipped += 1
            return False
        try:
            self.device.display(image.convert(self.device.mode))
        except OSError as e:
            if not self.failed:
                log.warning("display write failed (%s); will retry on the next frame", e)
            self.failed = True
            self.last = None
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

    d = config["display"]
    try:
        serial = i2c(port=d["i2c_port"], address=d["address"])
        if d["kind"] == "sh1106":
            from luma.oled.device import sh1106 as chip
        else:
            from luma.oled.device import ssd1306 as chip
        device = chip(serial, width=128, height=64, rotate=d["rotate"])
        device.contrast(d["contrast"])
    except (DeviceNotFoundError, DevicePermissionError, OSError) as e:
        raise DisplayMissing(f"no {d['kind']} display answered on I2C bus {d['i2c_port']} at "
                             f"address {d['address']:#04x} ({e}). Check the wiring and that "
                             "I2C is enabled (raspi-config), or run the emulator: "
                             "companion run --emulator") from None
    return Display(device)
