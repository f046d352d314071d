"""`make bench ARGS="--only ring"`: what the seat light ring (issue 27, docs/lights.md) costs a
press. Its animations run on the app thread's own timers (a Tick("lights") a frame, 25 a
second during a chase), so a press can arrive while a frame of the ring is being shown: the
issue asks that press p99 with the ring on be no worse than off.

- press_to_frame_*_ring_off / _ring_on: bench/presses.py's press-to-frame (MockFactory pins, the
  real app thread, our partial ssd1306 driver) with no ring, and with a 24-LED ring whose
  `show` does what the SPI driver does for a frame (each colour bit as one SPI byte, 0xF8 for
  a 1 and 0xC0 for a 0, brightness scaled, GRB order, and the reset's low bytes: 576 + 180
  bytes). The two are measured in rounds, one after the other, so a busy machine slows them
  alike. ring_frames_per_press says the ring was busy: the frames it showed over the presses.
- ring_press_us / ring_press_us_off: the app thread's own time for a NEXT press and the turn
  change it commits (no frame drawn), with the ring
  and without, its timers threads as on the box; ring_frame_us: one frame of a chase (its Tick handled: the frame worked out
  and encoded). Means over many, less noisy than a p99 on a busy machine.
"""

from __future__ import annotations

import time
from pathlib import Path

from bench.common import Figure, pct
from bench.presses import PressTimes, press_times


class NullSpi:
    """An spidev stand-in that keeps the last transfer and sends nothing."""

    def __init__(self) -> None:
        self.wire = b""

    def writebytes2(self, data) -> None:
        self.wire = bytes(data)

    def close(self) -> None:
        pass


class BenchRing:
    """A 24-LED ring whose frames cost what the SPI driver's do: the driver itself
    (companion/drivers/lights.py SpiRing, its encoding included) on a NullSpi."""

    def __init__(self, count: int = 24) -> None:
        from companion.drivers.lights import SpiRing
        self.spi = NullSpi()
        self.ring = SpiRing(count, brightness=0.25, spi=self.spi)
        self.count = count
        self.frames = 0

    @property
    def brightness(self) -> float:
        return self.ring.brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        self.ring.brightness = value

    def show(self, pixels) -> None:
        self.ring.show(pixels)
        self.frames += 1

    def close(self) -> None:
        self.ring.close()


def bench_ring(tmp: Path, figure: Figure, *, quick: bool) -> None:
    presses, rounds = (60, 1) if quick else (600, 4)
    rings: list[BenchRing] = []

    def ring_on(app) -> None:
        ring = BenchRing()
        rings.append(ring)
        app.lights.attach(ring)

    variants = {"ring_off": None, "ring_on": ring_on}
    times = {name: PressTimes() for name in variants}
    for r in range(rounds):
        for name, attach in variants.items():
            d = tmp / f"ring-{name}-{r}"
            d.mkdir()
            press_times(d, presses=presses // rounds, attach=attach, times=times[name])
    notes = {"ring_off": "no ring", "ring_on": "a 24-LED ring, its frames SPI-encoded"}
    for name, t in times.items():
        note = f"{len(t.handed)} presses in {rounds} rounds; {notes[name]}"
        figure(f"press_to_frame_p50_ms_{name}", pct(t.handed, 50), "ms", None, note)
        figure(f"press_to_frame_p99_ms_{name}", pct(t.handed, 99), "ms", 3.0, note)
    shown = sum(r.frames for r in rings)
    figure("ring_frames_per_press", shown / max(1, len(times["ring_on"].handed)), "frames",
           None, "frames the ring showed over the presses (its animations ran)")
    costs = app_costs(tmp, presses=200 if quick else 2000)
    note = "app.handle of a NEXT press (its commit included), no frame drawn; mean"
    figure("ring_press_us_off", costs["off"], "us", None, note + ", no ring")
    figure("ring_press_us", costs["on"], "us", None, note + ", a 24-LED ring")
    figure("ring_frame_us", costs["frame"], "us", None,
           "app.handle of one Tick of a chase: the frame worked out and SPI-encoded; mean")


def app_costs(tmp: Path, *, presses: int) -> dict[str, float]:
    """Microseconds of the app thread: a NEXT press with and without the ring, a ring frame."""
    from companion.inputs import Button, ButtonInput, Gesture
    from companion.testing import close, make_app

    out: dict[str, float] = {}
    for name, ring in (("off", None), ("on", BenchRing())):
        # On the real clock: the app's timers are threads, as on the box (a fake clock's
        # would pile up here, never run, and make each new one slower).
        app = make_app(tmp / name, kind="table", setup=False, ring=ring, clock=time.monotonic)
        try:
            t = 0.0
            for _ in range(presses):
                t0 = time.perf_counter()
                app.handle(ButtonInput(Button.NEXT, Gesture.PRESS))
                t += time.perf_counter() - t0
            out[name] = t / presses * 1e6
            if ring is not None:
                lights = app.lights
                frames = 0
                t = 0.0
                for _ in range(presses):
                    app.handle(ButtonInput(Button.NEXT, Gesture.PRESS))
                    for i in range(1, len(lights.plan)):
                        from companion.inputs import Tick
                        tick = Tick("lights", {"gen": lights.gen, "i": i})
                        t0 = time.perf_counter()
                        app.handle(tick)
                        t += time.perf_counter() - t0
                        frames += 1
                out["frame"] = t / max(1, frames) * 1e6
        finally:
            close(app)
    return out
