"""The box's own voice: the calls ("Ben's turn", "Time!") spoken by espeak-ng through the
box's audio out (docs/speech.md, "On the box"). Optional, like the buzzer: `[speech] enabled`.

The app hands each commit's calls to `Speaker.say`, which only puts them on a queue and
returns: the speaking is done by the speaker's own thread, one call after another, each by
a short-lived espeak-ng process (piped into `aplay -D DEVICE` when `[speech] device` names an
ALSA output). So a press never waits for a word to be said.

A queue that falls behind (presses faster than the words) drops what is stale: a call about
whose turn it is ("Ben's turn", "Reverse: Cy's turn", "Ann is skipped") still waiting when a
later commit brings a call about the turn is not said, since its turn is over; the calls of one
commit are never stale to each other ("Ann is skipped" and then "Ben's turn" are both said).
Other calls ("Ann sold the farm for 230", "Time!") are said in order; beyond `MAX_QUEUED`
waiting, the oldest are dropped. The call being said is not cut short, unless the speaker
is closed (the companion stops): then its espeak-ng and aplay are killed, not left behind.

No espeak-ng, no sound card, a speaker unplugged: one log line (and one more when speech comes
back), never an exception into the app; the game goes on, silent. `companion doctor` says why.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from companion.config import alsa_device_problem

if TYPE_CHECKING:
    from companion.session.calls import Call

log = logging.getLogger(__name__)

MAX_QUEUED = 8  # calls waiting beyond this: the oldest go (a queue minutes behind helps nobody)
TIMEOUT = 20.0  # seconds one call may take before its processes are killed (a stuck device)

# A runner says one call: it runs the commands, each piping its output into the next, and
# returns "" when they did it or a one-line reason when not. FileNotFoundError: no such program.
Runner = Callable[[Sequence[Sequence[str]]], str]


def commands(text: str, *, voice: str, rate: int, volume: int, device: str) -> list[list[str]]:
    """The processes that say `text`: espeak-ng alone (its own audio output, the system's
    default), or espeak-ng writing a WAV stream into aplay on the ALSA `device`."""
    espeak = ["espeak-ng", "-v", voice, "-s", str(rate), "-a", str(volume)]
    if not device:
        return [[*espeak, "--", text]]
    return [[*espeak, "--stdout", "--", text], ["aplay", "-q", "-D", device]]


class Running:
    """The processes of the call being said, so that closing the speaker stops them: a
    stuck device keeps aplay (and espeak-ng writing into it) waiting, and they must not
    outlive the companion. `stop` kills those running and any started after it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._procs: list[subprocess.Popen[bytes]] = []
        self._stopped = False

    def add(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._procs.append(proc)
            stopped = self._stopped
        if stopped:  # started while the speaker was closing: it goes at once
            _kill(proc)

    def remove(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            if proc in self._procs:
                self._procs.remove(proc)

    def procs(self) -> list[subprocess.Popen[bytes]]:
        with self._lock:
            return list(self._procs)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            procs = list(self._procs)
        for proc in procs:
            _kill(proc)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        try:
            proc.kill()
        except OSError:  # it ended in between
            pass


def run_pipeline(cmds: Sequence[Sequence[str]], timeout: float = TIMEOUT,
                 running: Running | None = None) -> str:
    """Run `cmds` as a shell pipeline would (without a shell) and wait for it: "" when every
    process ended well, else one line of why. espeak-ng on its own audio output ends with
    status 0 even when it found no device, so a line of its stderr starting "error" counts.
    `running` (the speaker's) holds the processes while they run, for `Running.stop`."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for i, cmd in enumerate(cmds):
            last = i == len(cmds) - 1
            procs.append(subprocess.Popen(
                list(cmd), stdin=procs[-1].stdout if procs else subprocess.DEVNULL,
                stdout=subprocess.DEVNULL if last else subprocess.PIPE,
                stderr=subprocess.PIPE))
            if running is not None:
                running.add(procs[-1])
            if len(procs) > 1 and procs[-2].stdout is not None:
                procs[-2].stdout.close()  # the next process holds it now (SIGPIPE reaches us)
        errors: list[tuple[subprocess.Popen[bytes], str]] = []
        for proc in reversed(procs):
            _, raw = proc.communicate(timeout=timeout)
            errors.append((proc, raw.decode("utf-8", "replace")))
    except subprocess.TimeoutExpired:
        return f"{cmds[-1][0]} did not finish within {timeout:g} s (a busy or stuck device?)"
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if running is not None:
                running.remove(proc)
    for proc, err in reversed(errors):  # the first process's complaint first
        lines = [line.strip() for line in err.splitlines() if line.strip()]
        told = [line for line in lines if not line.startswith("ALSA lib")] or lines
        name = proc.args[0] if isinstance(proc.args, list) else str(proc.args)
        if proc.returncode not in (0, -13):  # -13: SIGPIPE, when the next one stopped first
            return f"{name} ended with status {proc.returncode}: {told[-1] if told else ''}"
        bad = [line for line in told if line.lower().startswith("error")]
        if bad:
            return f"{name}: {bad[-1]}"
    return ""


class Speaker:
    """Says calls on the box, on its own thread: those of the kinds in `calls` (`[speech]
    calls`, names from config.CALLS). `say` never blocks; `close` drops what is
    queued and stops the call being said: it kills its espeak-ng and aplay (a stuck device
    would keep them past the companion's exit) and waits for the thread a second at most.
    A context manager. `runner` is the test double for `run_pipeline`."""

    def __init__(self, *, calls: Iterable[str], voice: str = "en", rate: int = 170,
                 volume: int = 100, device: str = "", runner: Runner | None = None) -> None:
        if device and (why := alsa_device_problem(device)):
            # (config.py refuses it at load; this is for a Speaker made some other way.)
            raise ValueError(f"{device!r} is not an ALSA sound device: {why}")
        self.voice, self.rate, self.volume, self.device = voice, rate, volume, device
        self.kinds = frozenset(calls)
        self.running = Running()  # the processes of the call being said (close stops them)
        self.runner: Runner = runner or self._pipeline
        self._queue: deque[Call] = deque()
        self._cond = threading.Condition()
        self._busy = False  # a call is being said
        self._closed = False
        self._failing = ""  # why the last call was not said ("": it was)
        self._missing = False  # espeak-ng (or aplay) is not installed: nothing more is tried
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        self._thread.start()

    def say(self, calls: Sequence[Call]) -> None:
        """Queue one commit's calls (those of the configured kinds) and return at once.
        Calls about the turn still waiting from an earlier commit are dropped when this one
        has a call about the turn, or the game over (`Call.ends_turns`): that turn is over."""
        with self._cond:
            if self._closed or self._missing:
                return
            if any(c.ends_turns for c in calls):
                kept = [c for c in self._queue if not c.about_turn]
                self._queue.clear()
                self._queue.extend(kept)
            self._queue.extend(c for c in calls if c.kind in self.kinds)
            while len(self._queue) > MAX_QUEUED:
                self._queue.popleft()
            self._cond.notify()

    def waiting(self) -> list[str]:
        """The words still queued, in order (for the tests)."""
        with self._cond:
            return [c.text for c in self._queue]

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is queued or being said (tests, scripts); False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._closed or not (self._queue or self._busy),
                                       timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        self.running.stop()  # the call being said ends now: its processes are killed
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=1.0)  # a runner that is not run_pipeline may take longer

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the speech thread ---------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or bool(self._queue))
                if self._closed:
                    return
                call = self._queue.popleft()
                self._busy = True
            try:
                self._speak(call.text)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _pipeline(self, cmds: Sequence[Sequence[str]]) -> str:
        """The runner unless a test gives one: run_pipeline, its processes held in
        `running` for `close` to stop."""
        return run_pipeline(cmds, running=self.running)

    def _speak(self, text: str) -> None:
        cmds = commands(text, voice=self.voice, rate=self.rate, volume=self.volume,
                        device=self.device)
        try:
            problem = self.runner(cmds)
        except FileNotFoundError as e:
            program = e.filename or cmds[0][0]
            package = "alsa-utils" if program == "aplay" else "espeak-ng"
            log.warning("speech off: %s is not installed (sudo apt-get install %s); the game "
                        "goes on without the box's voice", program, package)
            with self._cond:
                self._missing = True
                self._queue.clear()
            return
        except Exception as e:  # whatever it is, the app's game must not hear of it
            problem = f"{type(e).__name__}: {e}"
        if self._closed:  # stopped by close(): killed, not an outage of the audio
            return
        if problem and not self._failing:  # the start of an outage; its end is said below
            where = f"ALSA device {self.device}" if self.device else "the default audio output"
            log.warning("speech: cannot say calls through %s: %s (companion doctor checks the "
                        "audio; the game goes on)", where, problem)
        elif not problem and self._failing:
            log.info("speech: speaking again")
        self._failing = problem


def open_speaker(cfg: Any) -> Speaker | None:
    """The speaker `[speech]` configures, or None when speech on the box is off."""
    sp = cfg["speech"]
    if not sp["enabled"]:
        return None
    return Speaker(voice=sp["voice"], rate=sp["rate"], volume=sp["volume"],
                   device=sp["device"], calls=sp["calls"])
