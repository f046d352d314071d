"""The host driver against a simulated roller on a pty pair (tests/mpy/boardsim.py: the
firmware's own pure code playing the board): handshake, rolls, PRESS, timeout and fallback,
late answers, unplug and replug, and garbage on the line.

No timed asserts: every wait is on a queue or an event with a generous timeout.
"""

from __future__ import annotations

import queue
import random
import sys
from pathlib import Path

import pytest

from companion.drivers import rollerproto as rp
from companion.drivers.dice import SoftwareDice
from companion.drivers.roller import DiceRoller, open_roller
from companion.errors import IllegalEvent, RollerError
from companion.inputs import Notice, RollerPress, RollResult
from companion.rules.dice import check_roll

sys.path.insert(0, str(Path(__file__).resolve().parent / "mpy"))
import boardsim  # noqa: E402

WAIT = 10  # s: only ever reached when something is broken


class Inbox:
    """The app's input queue, as the driver sees it (a `post` callable)."""

    def __init__(self) -> None:
        self.q: queue.Queue = queue.Queue()

    def post(self, item) -> None:
        self.q.put(item)

    def get(self, kind=object, timeout: float = WAIT):
        """The next item, which must be a `kind`."""
        item = self.q.get(timeout=timeout)
        assert isinstance(item, kind), item
        return item

    def empty(self) -> bool:
        return self.q.empty()


@pytest.fixture
def board():
    b = boardsim.Board(seed=5)
    yield b
    b.close()


@pytest.fixture
def inbox():
    return Inbox()


def make(board, inbox, **kw) -> DiceRoller:
    options = dict(post=inbox.post, fallback=SoftwareDice(post=inbox.post, rng=random.Random(1)),
                   comports=board.ports, backoff=(0.02, 0.1), timeout=2.0)
    options.update(kw)
    return DiceRoller(**options)


@pytest.fixture
def roller(board, inbox):
    with make(board, inbox) as r:
        assert inbox.get(Notice).text == "Dice roller connected (firmware 1.0.0)"
        yield r


def test_handshake_finds_the_roller_by_vid_pid(roller, board):
    assert roller.connected and roller.firmware == "1.0.0"
    assert b"".join(board.received).startswith(rp.frame("HELLO"))


def test_rolls_through_the_roller(roller, inbox):
    for seq, names in enumerate([["colors", "shapes"], ["d8"], ["d6", "colors", "shapes", "d8"]], 1):
        roller.roll(seq, names)
        r = inbox.get(RollResult)
        assert (r.seq, r.source, r.note) == (seq, "roller", "")
        assert list(r.dice) == names
        check_roll(r.dice)  # real faces, numbers as ints


def test_press_is_a_request_to_roll(roller, board, inbox):
    board.press()
    assert inbox.get() == RollerPress()


def test_silent_roller_falls_back_to_software_with_a_note(board, inbox):
    with make(board, inbox, timeout=0.3) as roller:
        inbox.get(Notice)
        board.silent = True
        roller.roll(7, ["colors", "d8"])
        assert inbox.empty()  # roll() returned at once; the answer comes later
        r = inbox.get(RollResult)
        assert (r.seq, r.source, r.note) == (7, "software", "Roller silent: software roll")
        check_roll(r.dice)
        board.silent = False
        roller.roll(8, ["d8"])
        assert inbox.get(RollResult).source == "roller"


def test_late_answer_for_an_old_roll_is_ignored(board, inbox):
    with make(board, inbox, timeout=0.3) as roller:
        inbox.get(Notice)
        board.hold = True
        roller.roll(1, ["d6"])
        assert inbox.get(RollResult).source == "software"
        board.release()  # ROLLED 1 arrives after the fallback
        roller.roll(2, ["d6"])
        r = inbox.get(RollResult)
        assert (r.seq, r.source) == (2, "roller")
        assert inbox.empty()


def test_refused_roll_falls_back_at_once(roller, board, inbox):
    board.hold = True  # keep the board's own answer back and refuse in its place
    roller.roll(4, ["d8"])
    board.write(rp.frame("ERR", ["4", "die"]))
    r = inbox.get(RollResult)
    assert (r.seq, r.source, r.note) == (4, "software", "Roller refused (die): software roll")


def test_unplug_and_replug(roller, board, inbox):
    board.unplug()
    assert inbox.get(Notice).text == "Dice roller unplugged: software rolls"
    roller.roll(1, ["colors"])
    r = inbox.get(RollResult)
    assert (r.source, r.note) == ("software", "Roller unplugged: software roll")
    board.plug()
    assert inbox.get(Notice).text == "Dice roller connected (firmware 1.0.0)"
    roller.roll(2, ["colors"])
    assert inbox.get(RollResult).source == "roller"


def test_unplug_mid_roll_falls_back(roller, board, inbox):
    board.hold = True
    roller.roll(3, ["shapes"])
    board.unplug()
    items = [inbox.get(), inbox.get()]
    assert Notice("Dice roller unplugged: software rolls") in items
    r = next(i for i in items if isinstance(i, RollResult))
    assert (r.seq, r.source) == (3, "software")


def test_started_before_the_roller_is_plugged_in(board, inbox):
    board.unplug()
    with make(board, inbox) as roller:
        assert not roller.wait_ready(WAIT)
        roller.roll(1, ["d8"])
        r = inbox.get(RollResult)
        assert (r.source, r.note) == ("software", "")  # never had a roller: nothing to say
        board.plug()
        assert inbox.get(Notice).text.startswith("Dice roller connected")
        roller.roll(2, ["d8"])
        assert inbox.get(RollResult).source == "roller"


def test_configured_port_path(board, inbox):
    with make(board, inbox, port=board.path, comports=lambda: []) as roller:
        assert roller.wait_ready(WAIT)
        inbox.get(Notice)
        roller.roll(1, ["d6"])
        assert inbox.get(RollResult).source == "roller"


def test_a_device_that_is_not_a_roller(inbox):
    """Something answers with the wrong talk (a MicroPython REPL, say): never connected."""
    with DiceRoller(post=inbox.post, fallback=SoftwareDice(post=inbox.post), port="loop://",
                    timeout=0.2, backoff=(0.05, 0.1)) as roller:
        assert not roller.wait_ready(WAIT)  # loop:// echoes HELLO back: not a HELLO reply
        roller.roll(1, ["colors"])
        assert inbox.get(RollResult).source == "software"


def test_port_none_is_software_only(inbox):
    with DiceRoller(post=inbox.post, fallback=SoftwareDice(post=inbox.post), port="none") as roller:
        assert not roller.wait_ready(0)
        roller.roll(1, ["d6"])
        r = inbox.get(RollResult)
        assert (r.source, r.note) == ("software", "")


def test_bad_die_name_is_the_callers_mistake(roller):
    with pytest.raises(IllegalEvent):
        roller.roll(1, ["d20"])


def test_bad_vid_pid(inbox):
    with pytest.raises(RollerError, match="VID:PID"):
        DiceRoller(post=inbox.post, fallback=SoftwareDice(post=inbox.post), vid_pid="pico")


def test_open_roller_reads_the_config(inbox, board):
    from companion import config

    cfg = config.Config(config.check({"roller": {"port": board.path, "timeout": 1.5}}))
    with open_roller(cfg, post=inbox.post, fallback=SoftwareDice(post=inbox.post)) as roller:
        assert roller.wait_ready(WAIT)
        assert roller._timeout == 1.5


def test_show_puts_a_result_on_the_roller(roller, board, inbox):
    roller.show(9, {"colors": "blue", "d8": 3})
    roller.roll(10, ["d6"])  # answered after the SHOW, so the SHOW has been handled
    inbox.get(RollResult)
    assert rp.show_line(9, {"colors": "blue", "d8": 3}) in b"".join(board.received)
    assert rp.frame("OK", ["9"]) in board.sent


def test_close_is_prompt_and_idempotent(board, inbox):
    r = make(board, inbox, backoff=(5.0, 5.0))
    board.unplug()
    r.close()
    r.close()
    assert r._thread is not None and not r._thread.is_alive()


def test_fuzz_garbage_never_reaches_the_app(roller, board, inbox):
    rng = random.Random(1234)
    good = rp.frame("ROLLED", ["99", "colors=red"])  # a well-formed answer nobody asked for
    for i in range(200):
        kind = i % 5
        if kind == 0:
            data = rng.randbytes(rng.randint(1, 300))
        elif kind == 1:
            data = b"ROLLED 1 " + b"x" * rng.randint(80, 500) + b"\n"
        elif kind == 2:
            data = good[:-4] + b"%02X\n" % (good[-3] ^ 0x55)  # bad checksum
        elif kind == 3:
            data = good
        else:
            data = bytes(rng.choice(b"\n\r*=0123456789ABCDEF ROLLEDPRESS") for _ in range(60))
        board.write(data)
    board.write(b"\n")
    roller.roll(1, ["colors", "shapes"])
    r = inbox.get(RollResult)
    assert (r.seq, r.source) == (1, "roller")
    assert roller.connected and roller._thread.is_alive()
    assert roller.dropped > 50
    while not inbox.empty():  # only buttons could sneak in (a PRESS spelled by chance)
        assert isinstance(inbox.get(), RollerPress)


def test_the_link_thread_sleeps_while_idle(roller, inbox):
    """Event-driven: connected and idle, the link thread wakes about once a second (a 20 Hz
    polling loop would wake about 40 times in 2 s); a roll still goes out at once."""
    import threading
    from pathlib import Path as P

    tid = next(t.native_id for t in threading.enumerate() if t.name == "dice-roller")
    status = P(f"/proc/self/task/{tid}/status")
    if not status.exists():
        pytest.skip("needs Linux /proc to count a thread's wakeups")

    def wakeups() -> int:
        for line in status.read_text().splitlines():
            if line.startswith("voluntary_ctxt_switches"):
                return int(line.split()[1])
        raise AssertionError("no voluntary_ctxt_switches line")

    before = wakeups()
    __import__("time").sleep(2)
    assert wakeups() - before < 10
    roller.roll(1, ["d8"])
    assert inbox.get(RollResult).source == "roller"
