"""Pairing phones with the box: a 6-digit code shown on the panel, then a session cookie.

A code exists only while someone asked for one (Pair a phone, or "New code" on its screen);
it is single use and lives 5 minutes (then the open screen shows a fresh one by itself).
Used, it is closed: the panel says "Phone paired" and makes no new code until asked, and the
used code answers "this code was already used" (not a wrong try). Wrong tries are counted per
code: 5 from one address make that address wait 30 s; 20 in all void the code (the panel
then offers a new one). So a guest hammering codes from one address never locks out a phone
at another, and a guess stays under 1 in 50,000 per code.

A successful code gives a random 256-bit session token. Only its SHA-256 is kept, with its
creation time (wall clock): in memory here, and in the journal database (table `phones`,
written by the app thread: companion/session/phones.py), so a phone stays paired across a
restart for 30 days, until "Forget all phones".

Thread-safe: the web thread checks codes and sessions, the app thread draws the code.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable

CODE_TTL = 300.0  # seconds a code is valid
TRIES_PER_ADDRESS = 5  # wrong codes from one address (per code) before it must wait
WAIT = 30.0  # seconds that address then waits (HTTP 429 with Retry-After)
MAX_WRONG = 20  # wrong codes in all that void the code
SESSION_TTL = 30 * 24 * 3600.0  # seconds a phone stays paired (wall clock)
MAX_SESSIONS = 64  # the oldest session is dropped beyond this (a table has a few phones)
USED_KEPT = 16  # used codes remembered, to answer "already used"
MAX_WAITING = 1024  # addresses kept waiting at once (the oldest wait is dropped past it)

OPEN, CLOSED, PAIRED, VOID = "open", "closed", "paired", "void"


def digest(token: str) -> str:
    """What is kept of a session token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Attempt:
    ok: bool
    token: str = ""
    error: str = ""
    retry_after: float = 0.0  # > 0: this address waits this many seconds (HTTP 429)
    created: float = 0.0  # the new session's creation time (wall clock), when ok


@dataclass(frozen=True)
class Shown:
    """What the pairing screen shows: `status` is open (with `code`), paired, void or closed."""

    status: str
    code: str = ""
    seconds_left: float = 0.0


class Pairing:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 on_change: Callable[[str], None] | None = None,
                 on_code: Callable[[str], None] | None = None,
                 randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self.clock = clock  # code lifetimes and waits
        self.wall = wall  # session ages (they outlive the process)
        self.randbelow = randbelow  # a fixed one only for the screenshots
        # Called (from any thread) with a short note when the code shown changed state (a
        # phone paired, voided) or "" for a plain redraw: the app redraws the panel.
        self.on_change = on_change
        self.on_code = on_code  # called with each new code (`companion run --ack`: "pair CODE")
        self._lock = threading.Lock()
        self._status = CLOSED
        self._code = ""
        self._born = 0.0
        self._wrong = 0  # wrong tries on this code, in all
        self._tries: dict[str, int] = {}  # wrong tries on this code, by address
        self._waits: dict[str, float] = {}  # address -> clock() until which it waits
        self._used: deque[str] = deque(maxlen=USED_KEPT)
        self._sessions: dict[str, float] = {}  # sha256(token) -> created (wall clock)

    # --- the code (panel side) ----------------------------------------------------------------

    def open(self) -> str:
        """A fresh code, now (Pair a phone opened, or a new code asked for)."""
        with self._lock:
            code = self._new_code(self.clock())
        if self.on_code is not None:
            self.on_code(code)
        return code

    def close(self) -> None:
        """No code any more (the pairing screen was left)."""
        with self._lock:
            self._status, self._code = CLOSED, ""

    def shown(self) -> Shown:
        """What the pairing screen draws; an open code that expired is renewed here."""
        fresh = ""
        with self._lock:
            now = self.clock()
            if self._status == OPEN and now - self._born >= CODE_TTL:
                fresh = self._new_code(now)
            shown = Shown(self._status, self._code,
                          max(0.0, CODE_TTL - (now - self._born)) if self._status == OPEN else 0.0)
        if fresh and self.on_code is not None:
            self.on_code(fresh)
        return shown

    def code(self) -> str:
        """The open code, or a fresh one when none is open (tests, scripts, screenshots)."""
        s = self.shown()
        return s.code if s.status == OPEN else self.open()

    def _new_code(self, now: float) -> str:
        code = f"{self.randbelow(10**6):06d}"
        for _ in range(8):  # never a used one (it would answer "already used")
            if code not in self._used:
                break
            code = f"{self.randbelow(10**6):06d}"
        self._status, self._code, self._born = OPEN, code, now
        self._wrong = 0
        self._tries.clear()
        return code

    # --- attempts (web side) ------------------------------------------------------------------

    def attempt(self, code: str, address: str = "") -> Attempt:
        """A phone at `address` sends `code`."""
        note = fresh = ""
        with self._lock:
            now = self.clock()
            is_current = self._status == OPEN and bool(self._code) and \
                secrets.compare_digest(code.encode(), self._code.encode())
            if not is_current and any(secrets.compare_digest(code.encode(), u.encode())
                                      for u in self._used):
                # A second tap, or the landing page opened twice: not a guess.
                return Attempt(False, error="this code was already used: to pair another "
                               "phone, open Pair a phone on the box for a new code")
            until = self._waits.get(address, 0.0)
            if now < until:
                return Attempt(False, error=f"too many wrong codes from this phone: wait "
                               f"{int(until - now + 0.999)} s, then try again",
                               retry_after=until - now)
            self._waits.pop(address, None)
            if self._status == OPEN and now - self._born >= CODE_TTL:
                # Renewed here, as the screen's own redraw would (shown()): the box does show
                # a new one, as the answer says.
                fresh = self._new_code(now)
                result = Attempt(False, error="no valid code: the code expired; the box shows "
                                 "a new one")
            elif self._status == VOID:
                return Attempt(False, error="no valid code: 20 wrong tries voided it; make a "
                               "new one on the box (Pair a phone)")
            elif self._status != OPEN:
                return Attempt(False, error="no valid code: open Pair a phone on the box")
            elif is_current:
                self._used.append(self._code)
                self._status, self._code = PAIRED, ""
                token = secrets.token_urlsafe(32)
                created = self.wall()
                self._remember(digest(token), created)
                result, note = Attempt(True, token=token, created=created), "Phone paired"
            else:
                self._wrong += 1
                tries = self._tries[address] = self._tries.get(address, 0) + 1
                if self._wrong >= MAX_WRONG:
                    self._status, self._code = VOID, ""
                    result = Attempt(False, error=f"wrong code; {MAX_WRONG} wrong tries voided "
                                     "it: make a new one on the box")
                    note = "Code void: make a new one"
                elif tries >= TRIES_PER_ADDRESS:
                    self._tries[address] = 0
                    self._wait(address, now + WAIT)
                    result = Attempt(False, error=f"wrong code, {TRIES_PER_ADDRESS} times: wait "
                                     f"{int(WAIT)} s, then try again", retry_after=WAIT)
                else:
                    result = Attempt(False, error="wrong code")
        if fresh and self.on_code is not None:
            self.on_code(fresh)
        if note and self.on_change is not None:
            self.on_change(note)
        return result

    def _wait(self, address: str, until: float) -> None:
        if len(self._waits) >= MAX_WAITING:
            now = self.clock()
            for a in [a for a, t in self._waits.items() if t <= now]:
                del self._waits[a]
            while len(self._waits) >= MAX_WAITING:
                self._waits.pop(next(iter(self._waits)))
        self._waits[address] = until

    # --- sessions -----------------------------------------------------------------------------

    def _remember(self, h: str, created: float) -> None:
        self._sessions[h] = created
        while len(self._sessions) > MAX_SESSIONS:
            oldest = min(self._sessions, key=self._sessions.__getitem__)
            del self._sessions[oldest]

    def load(self, rows: Iterable[tuple[str, float]]) -> None:
        """Sessions kept in the journal (hash, created), as the companion starts."""
        with self._lock:
            for h, created in rows:
                self._remember(h, float(created))

    def knows(self, h: str) -> bool:
        """Whether session hash `h` is still paired (not forgotten since it paired)."""
        with self._lock:
            return h in self._sessions

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        h = digest(token)
        with self._lock:
            created = self._sessions.get(h)
            if created is None:
                return False
            # A clock set back (a Pi without a real-time clock, before NTP) keeps a session.
            if self.wall() - created >= SESSION_TTL:
                del self._sessions[h]
                return False
            return True

    @property
    def phones(self) -> int:
        with self._lock:
            now = self.wall()
            return sum(1 for c in self._sessions.values() if now - c < SESSION_TTL)

    def forget_all(self) -> int:
        """Un-pair every phone (and close the code on show); returns how many there were.
        The caller clears the journal's copy (the app thread: App.perform ForgetPhones)."""
        n = self.phones
        with self._lock:
            self._sessions.clear()
            self._status, self._code = CLOSED, ""
        if self.on_change is not None:
            self.on_change("")
        return n
