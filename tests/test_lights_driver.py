"""The SPI ring driver (companion/drivers/lights.py): the byte stream checked bit by bit and as
the waveform a WS2812B sees on MOSI, brightness and colour order, a fake spidev, and the
errors (one line naming what is missing, each also the built-in a caller may catch)."""

from __future__ import annotations

import errno
import logging
import sys
import types

import pytest

from companion import config as configmod
from companion.drivers import lights
from companion.drivers.lights import ONE, RESET_BYTES, SPI_HZ, ZERO, SpiRing, encode, open_ring
from companion.errors import (
    CompanionError,
    DeviceError,
    LightsBadValue,
    LightsClosed,
    LightsDeviceError,
    LightsError,
    LightsNoDriver,
)


class FakeSpi:
    """What SpiRing needs of spidev.SpiDev: every write kept; `fail` makes writes raise."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False
        self.fail: OSError | None = None

    def writebytes2(self, data) -> None:
        if self.closed:
            raise OSError(errno.EBADF, "closed")
        if self.fail is not None:
            raise self.fail
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def bits_of(stream: bytes) -> list[int]:
    """The data bits a stream carries, read back one SPI byte at a time: each must be
    exactly 0xF8 (a 1) or 0xC0 (a 0) up to the reset's zeros."""
    data = stream[:-RESET_BYTES]
    assert stream[-RESET_BYTES:] == bytes(RESET_BYTES)
    out = []
    for i, b in enumerate(data):
        assert b in (ONE, ZERO), f"SPI byte {i} is {b:#04x}, neither 0xF8 nor 0xC0"
        out.append(1 if b == ONE else 0)
    return out


def colour_bytes(stream: bytes) -> list[int]:
    bits = bits_of(stream)
    assert len(bits) % 8 == 0
    return [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]


# --- the encoder ----------------------------------------------------------------------------

def test_one_led_spelt_out_byte_by_byte():
    # r=0x01, g=0x80, b=0xFF in GRB order: G first, most significant bit first.
    f, c = 0xF8, 0xC0
    want = bytes([f, c, c, c, c, c, c, c,  # G 0x80 = 1000 0000
                  c, c, c, c, c, c, c, f,  # R 0x01 = 0000 0001
                  f, f, f, f, f, f, f, f])  # B 0xFF
    assert encode([(0x01, 0x80, 0xFF)], 1.0, "GRB") == want + bytes(240)


def test_every_value_of_every_channel_round_trips_bit_by_bit():
    pixels = [(v, (v * 7) % 256, 255 - v) for v in range(256)]
    stream = encode(pixels, 1.0, "RGB")
    assert len(stream) == 256 * 24 + RESET_BYTES
    assert colour_bytes(stream) == [c for p in pixels for c in p]


@pytest.mark.parametrize("order", configmod.LIGHT_ORDERS)
def test_colour_order_puts_each_channel_where_the_led_wants_it(order):
    r, g, b = 0x12, 0x34, 0x56
    got = colour_bytes(encode([(r, g, b), (0, 0, 0)], 1.0, order))
    assert got[:3] == [{"R": r, "G": g, "B": b}[ch] for ch in order]
    assert got[3:] == [0, 0, 0]
    assert set(lights.ORDERS) == set(configmod.LIGHT_ORDERS)


def test_brightness_scales_every_channel_and_rounds():
    assert colour_bytes(encode([(255, 100, 1)], 0.5, "RGB")) == [128, 50, 1]
    assert colour_bytes(encode([(255, 100, 1)], 0.25, "RGB")) == [64, 25, 0]
    assert colour_bytes(encode([(255, 255, 255)], 0.0, "RGB")) == [0, 0, 0]
    assert colour_bytes(encode([(255, 7, 200)], 1.0, "RGB")) == [255, 7, 200]


def test_the_reset_low_is_at_least_280_us_in_the_same_transfer():
    assert RESET_BYTES * 8 / SPI_HZ >= 280e-6
    stream = encode([(255, 255, 255)] * 3, 1.0, "GRB")
    assert stream.endswith(bytes(RESET_BYTES)) and len(stream) == 3 * 24 + RESET_BYTES


def pulses(stream: bytes, hz: float) -> list[tuple[int, float]]:
    """MOSI as runs of (level, nanoseconds) at an SPI clock of `hz`."""
    line = "".join(f"{b:08b}" for b in stream)
    runs: list[tuple[int, float]] = []
    start = 0
    for i in range(1, len(line) + 1):
        if i == len(line) or line[i] != line[start]:
            runs.append((int(line[start]), (i - start) * 1e9 / hz))
            start = i
    return runs


# The Pi sets 6.4 MHz as a core clock over an even divider: 6.25 MHz on a Pi 3 / Zero 2 W at
# core_freq=250 (/40), a Pi 4 at 500 MHz (/80), a Pi 5's RP1 at 200 MHz (/32).
@pytest.mark.parametrize("hz", [6_400_000, 6_250_000])
def test_the_waveform_meets_the_ws2812b_timing(hz):
    stream = encode([(0xA5, 0x0F, 0xF0), (0, 255, 1)], 1.0, "GRB")
    bits = bits_of(stream)
    runs = pulses(stream, hz)
    highs = [ns for level, ns in runs if level == 1]
    assert len(highs) == len(bits)
    for bit, ns in zip(bits, highs):
        if bit:
            assert 580 <= ns <= 1000, ns  # T1H (WS2812B V5: 580-1000 ns)
        else:
            assert 220 <= ns <= 380, ns  # T0H (220-380 ns)
    lows = [ns for level, ns in runs if level == 0]
    assert all(ns < 5_000 for ns in lows[:-1])  # far under the reset between bits
    assert lows[-1] >= 280_000  # the frame's last low latches it
    period = 8e9 / hz
    assert 1_200 <= period <= 1_300


def test_bad_input_is_a_clear_value_error():
    with pytest.raises(LightsBadValue, match="LED 1"):
        encode([(0, 0, 0), (0, 256, 0)], 1.0, "GRB")
    with pytest.raises(ValueError, match="outside 0-1"):
        encode([(0, 0, 0)], 1.5, "GRB")
    with pytest.raises(ValueError, match="colour order"):
        encode([(0, 0, 0)], 1.0, "GRBW")


# --- the ring on a fake spidev --------------------------------------------------------------

def test_a_new_ring_goes_dark_at_once():
    spi = FakeSpi()
    SpiRing(12, spi=spi)
    assert len(spi.writes) == 1 and colour_bytes(spi.writes[0]) == [0] * 36


def test_show_writes_one_transfer_per_frame_at_the_rings_brightness():
    spi = FakeSpi()
    ring = SpiRing(12, order="GRB", brightness=0.5, spi=spi)
    spi.writes.clear()  # the dark frame it starts with
    frame = [(200, 0, 0)] * 12
    ring.show(frame)
    assert len(spi.writes) == 1
    assert colour_bytes(spi.writes[0]) == [0, 100, 0] * 12
    ring.brightness = 1.0
    assert len(spi.writes) == 1  # a new brightness shows with the next frame
    ring.show(frame)
    assert colour_bytes(spi.writes[1]) == [0, 200, 0] * 12
    with pytest.raises(LightsBadValue):
        ring.brightness = -0.1
    assert ring.brightness == 1.0 and ring.count == 12


def test_close_goes_dark_then_releases_and_a_closed_ring_refuses_frames():
    spi = FakeSpi()
    with SpiRing(8, spi=spi) as ring:
        ring.show([(9, 9, 9)] * 8)
    assert colour_bytes(spi.writes[-1]) == [0] * 24 and spi.closed
    ring.close()  # twice: nothing more
    assert len(spi.writes) == 3  # dark at the start, the frame, dark at the end
    with pytest.raises(LightsClosed):
        ring.show([(0, 0, 0)] * 8)
    with pytest.raises(RuntimeError):
        ring.show([(0, 0, 0)] * 8)


def test_close_can_leave_the_last_frame_up():
    spi = FakeSpi()
    ring = SpiRing(8, spi=spi)
    ring.show([(1, 2, 3)] * 8)
    ring.close(dark=False)
    assert len(spi.writes) == 2 and spi.closed  # dark at the start, then the frame stays


def test_a_frame_of_the_wrong_size_or_colour_is_refused_and_nothing_is_sent():
    spi = FakeSpi()
    ring = SpiRing(8, spi=spi)
    spi.writes.clear()
    with pytest.raises(LightsBadValue, match="7 pixels for a ring of 8"):
        ring.show([(0, 0, 0)] * 7)
    with pytest.raises(ValueError):
        ring.show([(0, 0, 0)] * 7 + [(0, 0, -1)])
    assert spi.writes == []
    with pytest.raises(LightsBadValue):
        SpiRing(0, spi=spi)
    with pytest.raises(LightsBadValue):
        SpiRing(8, order="XYZ", spi=spi)


def test_a_failing_write_is_logged_once_and_the_game_goes_on(caplog):
    spi = FakeSpi()
    ring = SpiRing(8, spi=spi)
    spi.fail = OSError(errno.EIO, "Input/output error")
    with caplog.at_level(logging.INFO, logger="companion"):
        ring.show([(1, 1, 1)] * 8)
        ring.show([(2, 2, 2)] * 8)
        assert ring.failing
        spi.fail = None
        ring.show([(3, 3, 3)] * 8)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "/dev/spidev0.0" in warnings[0].getMessage()
    assert "Input/output error" in warnings[0].getMessage()
    assert any("writes again" in r.getMessage() for r in caplog.records)
    assert colour_bytes(spi.writes[-1]) == [3, 3, 3] * 8 and not ring.failing


def test_a_64_led_frame_fits_one_spidev_transfer():
    stream = encode([(255, 255, 255)] * 64, 1.0, "GRB")
    assert len(stream) == 1_776 <= lights.SPIDEV_BUFSIZ


# --- opening spidev -------------------------------------------------------------------------

def fake_spidev(monkeypatch, *, open_error: OSError | None = None) -> list:
    """A stand-in `spidev` module; returns the list of devices it opened."""
    opened: list = []

    class SpiDev(FakeSpi):
        def open(self, bus: int, device: int) -> None:
            if open_error is not None:
                raise open_error
            self.at = (bus, device)
            opened.append(self)

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=SpiDev))
    return opened


def test_open_spi_sets_mode_0_8_bits_and_6_4_mhz(monkeypatch, tmp_path):
    opened = fake_spidev(monkeypatch)
    (tmp_path / "spidev1.2").touch()
    monkeypatch.setattr(lights, "device_path", lambda bus, dev: str(tmp_path / f"spidev{bus}.{dev}"))
    spi = lights.open_spi(1, 2)
    assert opened == [spi] and spi.at == (1, 2)
    assert (spi.mode, spi.bits_per_word, spi.max_speed_hz) == (0, 8, 6_400_000)


def test_no_spi_device_says_how_to_enable_spi(monkeypatch, tmp_path):
    fake_spidev(monkeypatch)
    monkeypatch.setattr(lights, "device_path", lambda bus, dev: str(tmp_path / "none"))
    with pytest.raises(LightsDeviceError) as e:
        lights.open_spi(0, 0)
    assert "does not exist: SPI is off" in str(e.value)
    assert "raspi-config nonint do_spi 0" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(LightsDeviceError, match="dtoverlay=spi1-1cs"):
        lights.open_spi(1, 0)


def test_a_device_we_may_not_open_names_the_spi_group(monkeypatch, tmp_path):
    fake_spidev(monkeypatch, open_error=PermissionError(errno.EACCES, "Permission denied"))
    (tmp_path / "d").touch()
    monkeypatch.setattr(lights, "device_path", lambda bus, dev: str(tmp_path / "d"))
    with pytest.raises(LightsDeviceError, match="Permission denied .*spi group"):
        lights.open_spi(0, 0)


def test_no_spidev_module_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(LightsNoDriver, match="python3-spidev") as e:
        lights.open_spi(0, 0)
    assert isinstance(e.value, ImportError)


def test_the_error_tree_subclasses_the_builtins():
    assert issubclass(LightsError, CompanionError)
    assert issubclass(LightsDeviceError, DeviceError) and issubclass(LightsDeviceError, OSError)
    assert issubclass(LightsBadValue, ValueError) and issubclass(LightsClosed, RuntimeError)
    assert issubclass(LightsNoDriver, ImportError)
    for cls in (LightsBadValue, LightsClosed, LightsDeviceError, LightsNoDriver):
        assert issubclass(cls, LightsError)


def test_open_ring_follows_the_config(monkeypatch):
    assert open_ring(configmod.Config(configmod.check({}))) is None  # off by default
    cfg = configmod.Config(configmod.check({"lights": {
        "enabled": True, "count": 24, "brightness": 0.3, "spi_bus": 0, "spi_device": 1,
        "order": "RGB"}}))
    calls = []

    def opener(bus: int, device: int) -> FakeSpi:
        calls.append((bus, device))
        return FakeSpi()

    monkeypatch.setattr(lights, "open_spi", opener)
    ring = open_ring(cfg)
    assert ring is not None and calls == [(0, 1)]
    assert (ring.count, ring.brightness, ring.order, ring.where) == (24, 0.3, "RGB",
                                                                     "/dev/spidev0.1")


def test_ring_current_at_full_white():
    assert lights.ring_milliamps(24, 1.0) == 1440
    assert lights.ring_milliamps(16, 0.25) == 240


# --- companion run --------------------------------------------------------------------------

def test_run_with_lights_that_cannot_open_says_so_in_one_line_and_plays_on(tmp_path):
    """No spidev module (or no SPI) on this machine: `companion run` says why the lights are
    off and the game goes on."""
    import os
    import subprocess

    if importlib_util_find_spec("spidev") is not None and os.path.exists("/dev/spidev0.0"):
        pytest.skip("this machine has SPI and spidev: the ring would open")
    (tmp_path / "c.toml").write_text("[lights]\nenabled = true\n")
    p = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--display", "dummy", "--input", "stdin",
         "--ack", "--no-web", "--journal", str(tmp_path / "j.db"), "--config",
         str(tmp_path / "c.toml")], input="OK\nOK\nOK\nOK\nOK\nNEXT\n", capture_output=True,
        text=True, timeout=120)
    out, err = p.stdout, p.stderr
    assert out.splitlines()[0] == "ready", out
    acks = [ln.split()[:2] for ln in out.splitlines() if ln.startswith("ack")]
    assert len(acks) >= 2 and acks[-1] == ["ack", "append"] and '"next"' in out, out  # played on
    assert p.returncode == 0, err
    lines = [ln for ln in err.splitlines() if "lights" in ln]
    assert len(lines) == 1 and lines[0].startswith("companion: lights off: "), err
    assert ("python3-spidev" in lines[0]) or ("raspi-config" in lines[0])
    assert "Traceback" not in err


def importlib_util_find_spec(name: str):
    import importlib.util
    return importlib.util.find_spec(name)


def test_run_opens_the_configured_ring_and_leaves_it_dark_at_exit(monkeypatch):
    from contextlib import ExitStack

    from companion.cli import run as runmod

    spi = FakeSpi()
    monkeypatch.setattr(lights, "open_spi", lambda bus, device: spi)
    cfg = configmod.Config(configmod.check({"lights": {"enabled": True, "count": 12}}))
    with ExitStack() as stack:
        ring, problem = runmod._ring(cfg, stack)
        assert problem == "" and ring is not None and ring.count == 12
        ring.show([(255, 0, 0)] * 12)
    assert spi.closed and colour_bytes(spi.writes[-1]) == [0] * 36
    with ExitStack() as stack:  # off: no ring, no problem
        assert runmod._ring(configmod.Config(configmod.check({})), stack) == (None, "")
