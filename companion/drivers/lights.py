"""The seat light ring: WS2812B ("NeoPixel") LEDs driven from SPI's MOSI line (GPIO 10 on
bus 0) through Linux's spidev, so it needs no root and runs on every Pi from the Zero 2 W to
the Pi 5 (docs/lights.md says why not a library).

A WS2812B reads one data bit per 1.25 us: a long high pulse is a 1, a short one a 0, and a
low line for longer than its reset time latches the colours. At an SPI clock of 6.4 MHz eight
SPI bits last 1.25 us, so each data bit is one SPI byte: 0xF8 (5 bits high, 781 ns) for a 1
and 0xC0 (2 bits high, 313 ns) for a 0. Each LED takes 24 data bits, most significant bit
first, in its own colour order (GRB on a WS2812B); the frame ends with 240 zero bytes, 300 us
low, in the same transfer (the WS2812B V5's reset is at least 280 us). A 64-LED frame is
1,776 bytes, one spidev transfer (its buffer is 4,096 bytes), 2.2 ms on the wire.

The ring's surface, the same as `companion.testing.RecordingRing`'s: `count`, `brightness`
(0-1, settable; it scales every colour of the frames shown after it), `show(pixels)` with one
(r, g, b) of 0-255 per LED, `close()` (dark, then released), and a context manager.
"""

from __future__ import annotations

import errno
import logging
import os
from typing import Any, Protocol, Sequence

from companion.errors import LightsBadValue, LightsClosed, LightsDeviceError, LightsNoDriver

RGB = tuple[int, int, int]

SPI_HZ = 6_400_000  # 8 SPI bits = one WS2812B bit of 1.25 us
ONE = 0xF8  # 11111000: high 5/8 of the bit
ZERO = 0xC0  # 11000000: high 2/8 of the bit
RESET_US = 300  # the low that latches a frame (WS2812B V5: >= 280 us)
RESET_BYTES = -(-RESET_US * SPI_HZ // (8 * 1_000_000))  # 240 zero bytes
SPIDEV_BUFSIZ = 4096  # spidev's default buffer: a frame longer than this would be split
MAX_COUNT = (SPIDEV_BUFSIZ - RESET_BYTES) // 24  # 160 LEDs in one transfer
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
FULL_WHITE_MA = 60  # one WS2812B at full white: 20 mA for each of its three LEDs

log = logging.getLogger("companion")


def _expand(value: int) -> bytes:
    """One colour byte as eight SPI bytes, most significant bit first."""
    return bytes(ONE if value & (0x80 >> i) else ZERO for i in range(8))


_TABLE = tuple(_expand(v) for v in range(256))


def scaled(value: int, brightness: float) -> int:
    """`value` (0-255) at `brightness` (0-1), rounded to the nearest step."""
    return int(value * brightness + 0.5)


def seen(p: Sequence[int]) -> RGB:
    """How bright a LED looks, for a picture of it on a screen (the emulator, the
    screenshots; the TV page's table.js has the same in JavaScript): the eye sees a LED at a
    tenth of its power as far more than a tenth as bright (a gamma of about 2.2), so a seat's
    dim LED (24 of 255) is drawn at about 88, not as a black dot."""
    r, g, b = (round(255 * (v / 255) ** 0.45) for v in p[:3])
    return (r, g, b)


def encode(pixels: Sequence[Sequence[int]], brightness: float, order: str) -> bytes:
    """The SPI byte stream of one frame: every LED's colour scaled by `brightness`, in the
    LEDs' colour `order`, eight SPI bytes a colour byte, then the reset low."""
    if order not in ORDERS:
        raise LightsBadValue(f"colour order {order!r} is not one of {', '.join(ORDERS)}")
    _check_brightness(brightness)
    picks = ["RGB".index(c) for c in order]
    out = bytearray()
    for n, pixel in enumerate(pixels):
        if len(pixel) != 3 or not all(isinstance(v, int) and not isinstance(v, bool)
                                      and 0 <= v <= 255 for v in pixel):
            raise LightsBadValue(f"LED {n}: {tuple(pixel)!r} is not an (r, g, b) of 0-255 each")
        for i in picks:
            out += _TABLE[scaled(pixel[i], brightness)]
    out += bytes(RESET_BYTES)
    return bytes(out)


def _check_brightness(brightness: float) -> None:
    if isinstance(brightness, bool) or not isinstance(brightness, (int, float)) \
            or not 0 <= brightness <= 1:
        raise LightsBadValue(f"brightness {brightness!r} is outside 0-1")


def device_path(bus: int, device: int) -> str:
    return f"/dev/spidev{bus}.{device}"


def enable_hint(bus: int) -> str:
    """How to switch SPI bus `bus` on (it takes a reboot)."""
    if bus == 0:
        return ("enable SPI: sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in "
                "config.txt), then reboot")
    return f"enable SPI bus {bus}: dtoverlay=spi{bus}-1cs in config.txt, then reboot"


def ring_milliamps(count: int, brightness: float) -> int:
    """The most the ring draws: every LED at full white, at `brightness`."""
    return round(count * FULL_WHITE_MA * brightness)


class Spi(Protocol):
    """What the ring needs of a `spidev.SpiDev` (a fake in the tests)."""

    def writebytes2(self, data: Any) -> None: ...

    def close(self) -> None: ...


def open_spi(bus: int, device: int) -> Any:
    """spidev's device `bus`.`device`, set up for the ring. LightsNoDriver without the spidev
    module, LightsDeviceError when the device is missing (SPI off) or refuses us."""
    try:
        import spidev  # type: ignore[import-not-found]
    except ImportError as e:
        raise LightsNoDriver("the spidev module is not installed (on the Pi: sudo apt-get "
                             "install python3-spidev; elsewhere: pip install spidev)") from e
    path = device_path(bus, device)
    if not os.path.exists(path):
        raise LightsDeviceError(f"{path} does not exist: SPI is off ({enable_hint(bus)})")
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except OSError as e:
        hint = ""
        if e.errno in (errno.EACCES, errno.EPERM):
            hint = (" (add the user to the spi group: sudo usermod -aG spi USER; "
                    "hardware/pi/install.sh does it for the service's user)")
        raise LightsDeviceError(f"{path} cannot be opened: {e.strerror or e}{hint}") from e
    spi.mode = 0
    spi.bits_per_word = 8
    spi.max_speed_hz = SPI_HZ
    return spi


class SpiRing:
    """A ring of `count` WS2812B LEDs on SPI `bus`.`device`. `spi` is the opened device (a
    fake in the tests); None opens spidev's."""

    def __init__(self, count: int, *, bus: int = 0, device: int = 0, order: str = "GRB",
                 brightness: float = 1.0, spi: Spi | None = None) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise LightsBadValue(f"{count!r} LEDs: a ring has 1-{MAX_COUNT}")
        if order not in ORDERS:
            raise LightsBadValue(f"colour order {order!r} is not one of {', '.join(ORDERS)}")
        _check_brightness(brightness)
        self.count = count
        self.order = order
        self._brightness = float(brightness)
        self.where = device_path(bus, device)
        self._spi = spi if spi is not None else open_spi(bus, device)
        self._closed = False
        self._failing = False
        # Dark from the start: the LEDs keep their last colours while powered, so a ring
        # left lit (a companion that was killed, the doctor's test pattern) goes out here.
        self.show([(0, 0, 0)] * count)

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        _check_brightness(value)
        self._brightness = float(value)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def failing(self) -> bool:
        """Whether the last write failed (the doctor's question)."""
        return self._failing

    def show(self, pixels: Sequence[RGB]) -> None:
        """Light the ring: one (r, g, b) of 0-255 per LED, at the ring's brightness. A write
        the device refuses is logged once (until one succeeds again), never raised: the
        game goes on without its lights."""
        if self._closed:
            raise LightsClosed(f"the ring on {self.where} is closed")
        if len(pixels) != self.count:
            raise LightsBadValue(f"{len(pixels)} pixels for a ring of {self.count}")
        data = encode(pixels, self._brightness, self.order)
        try:
            self._spi.writebytes2(data)
        except OSError as e:
            if not self._failing:
                log.warning("lights: a write to %s failed (%s); the game goes on without "
                            "them until one succeeds", self.where, e.strerror or e)
            self._failing = True
        else:
            if self._failing:
                log.info("lights: %s writes again", self.where)
            self._failing = False

    def close(self, *, dark: bool = True) -> None:
        """Dark (unless `dark` is False: the doctor leaves its test pattern up), then the
        device released. A second close does nothing."""
        if self._closed:
            return
        try:
            if dark:
                self.show([(0, 0, 0)] * self.count)
        finally:
            self._closed = True
            try:
                self._spi.close()
            except OSError:
                pass

    def __enter__(self) -> SpiRing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_ring(cfg: Any, *, spi: Spi | None = None) -> SpiRing | None:
    """The ring `[lights]` configures, or None when it is off. Raises LightsError (one line
    naming what is missing) when it is on and cannot be opened. `spi`: the device already
    opened (the doctor's), or None to open spidev's."""
    li = cfg["lights"]
    if not li["enabled"]:
        return None
    return SpiRing(li["count"], bus=li["spi_bus"], device=li["spi_device"], order=li["order"],
                   brightness=li["brightness"], spi=spi)
