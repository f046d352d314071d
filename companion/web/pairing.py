"""Pairing phones with the box: a 6-digit code shown on the panel, then a session cookie.

A code is single-use and lives 5 minutes. Five wrong codes void it (the panel shows a new
one) and every attempt is refused for 30 s: no IP bans, so a guest on the LAN cannot lock a
particular phone out, and guessing stays at 5 tries per code. A successful code gives a
random session token (kept in memory only: a restart, or "Forget all phones", un-pairs every
phone). Thread-safe: the web thread checks codes, the app thread draws the current one.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from typing import Callable

CODE_TTL = 300.0  # seconds a code is valid
MAX_WRONG = 5  # wrong codes that void the current one
LOCKOUT = 30.0  # seconds every attempt is refused after MAX_WRONG wrong codes
MAX_SESSIONS = 64  # the oldest session is dropped beyond this (a table has a few phones)


@dataclass(frozen=True)
class Attempt:
    ok: bool
    token: str = ""
    error: str = ""
    retry_after: float = 0.0  # > 0: locked out for this many seconds (HTTP 429)


class Pairing:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str], None] | None = None,
                 randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self.clock = clock
        self.randbelow = randbelow  # a fixed one only for the screenshots
        # Called (from any thread) with a short note when the code shown must change or a
        # phone paired: the app redraws the panel.
        self.on_change = on_change
        self._lock = threading.Lock()
        self._code = ""
        self._born = 0.0
        self._wrong = 0
        self._locked_until = 0.0
        self._sessions: dict[str, float] = {}

    # --- the code (panel side) ----------------------------------------------------------------

    def code(self) -> str:
        """The code to show: a fresh one when there is none, it was used, voided or expired."""
        with self._lock:
            now = self.clock()
            if not self._code or now - self._born >= CODE_TTL:
                self._new_code(now)
            return self._code

    def seconds_left(self) -> float:
        with self._lock:
            if not self._code:
                return 0.0
            return max(0.0, CODE_TTL - (self.clock() - self._born))

    def _new_code(self, now: float) -> None:
        self._code = f"{self.randbelow(10**6):06d}"
        self._born = now
        self._wrong = 0

    # --- attempts (web side) ------------------------------------------------------------------

    def attempt(self, code: str) -> Attempt:
        note = ""
        with self._lock:
            now = self.clock()
            if now < self._locked_until:
                return Attempt(False, error="too many wrong codes: wait, then use the new "
                               "code on the panel", retry_after=self._locked_until - now)
            if not self._code or now - self._born >= CODE_TTL:
                self._code = ""
                result = Attempt(False, error="no valid code: open Pair a phone on the box")
            elif secrets.compare_digest(code.encode(), self._code.encode()):
                self._code = ""  # single use
                token = secrets.token_urlsafe(32)
                self._sessions[token] = now
                while len(self._sessions) > MAX_SESSIONS:
                    self._sessions.pop(next(iter(self._sessions)))
                result, note = Attempt(True, token=token), "Phone paired"
            else:
                self._wrong += 1
                if self._wrong >= MAX_WRONG:
                    self._locked_until = now + LOCKOUT
                    # Void it. The panel draws a new one if it is showing the pairing screen;
                    # otherwise there is no code at all to guess until someone opens it.
                    self._code, self._wrong = "", 0
                    result = Attempt(False, error="too many wrong codes: wait 30 s, then use "
                                     "the new code on the panel", retry_after=LOCKOUT)
                    note = "Wrong codes: new code"
                else:
                    result = Attempt(False, error="wrong code")
        if note and self.on_change is not None:
            self.on_change(note)
        return result

    # --- sessions -----------------------------------------------------------------------------

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return token in self._sessions

    @property
    def phones(self) -> int:
        with self._lock:
            return len(self._sessions)

    def forget_all(self) -> int:
        """Un-pair every phone (and void the code on show); returns how many there were."""
        with self._lock:
            n = len(self._sessions)
            self._sessions.clear()
            self._code = ""
        if self.on_change is not None:
            self.on_change("")
        return n
