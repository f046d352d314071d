"""The box's voice (companion/drivers/speech.py): the queue, the stale calls it drops, its one
log line when espeak-ng or the audio device is missing, with a fake runner; and Debian's
espeak-ng itself, rendering a call to a WAV that is not silence and is as long as the words.

Without espeak-ng (and aplay) the tests that run them skip, saying why; under CI (CI=true)
they fail instead: `make test` installs both where apt exists and it runs as root."""

from __future__ import annotations

import array
import logging
import math
import os
import shutil
import subprocess
import threading
import wave

import pytest

from companion import config as configmod
from companion.drivers import speech
from companion.drivers.speech import Speaker, commands, open_speaker, run_pipeline
from companion.session.calls import Call

ALL = configmod.CALLS


def turn(n: int, name: str) -> Call:
    return Call("turn", f"{name}'s turn", n)


class Runner:
    """A fake runner: records the words of each call; `hold()` makes the next call wait for
    `release()`, so the test can queue more while the speaker is busy."""

    def __init__(self, answer: str = "") -> None:
        self.said: list[str] = []
        self.pipelines: list[list[list[str]]] = []
        self.answer = answer
        self.started = threading.Event()
        self.gate = threading.Event()
        self.gate.set()
        self.stuck = False

    def hold(self) -> None:
        self.gate.clear()
        self.started.clear()

    def release(self) -> None:
        self.gate.set()

    def __call__(self, cmds):
        self.pipelines.append([list(c) for c in cmds])
        self.said.append(cmds[0][-1])
        self.started.set()
        if not self.gate.wait(timeout=30):  # a safety net, never reached when say() is right
            self.stuck = True
        return self.answer


def speaker(runner, **kw) -> Speaker:
    kw.setdefault("calls", ALL)
    return Speaker(runner=runner, **kw)


def test_say_returns_while_a_call_is_being_said():
    runner = Runner()
    runner.hold()
    with speaker(runner) as sp:
        sp.say([turn(1, "Ann")])
        assert runner.started.wait(timeout=30)
        # The runner is blocked on the gate: say() must still return, every time.
        for n in range(2, 30):
            sp.say([Call("move", f"move {n}", n)])
        assert sp.waiting() == [f"move {n}" for n in range(30 - speech.MAX_QUEUED, 30)]
        runner.release()
        assert sp.wait_idle(timeout=30)
    assert not runner.stuck
    assert runner.said[0] == "Ann's turn" and len(runner.said) == 1 + speech.MAX_QUEUED


def test_a_queue_behind_drops_turn_calls_whose_turn_is_over():
    runner = Runner()
    runner.hold()
    with speaker(runner) as sp:
        sp.say([turn(1, "Ann")])
        assert runner.started.wait(timeout=30)
        sp.say([Call("move", "Ann sold the farm for 230", 2), turn(3, "Ben")])
        sp.say([Call("reverse", "Reverse: Cy's turn", 4)])
        sp.say([Call("skip", "Dee is skipped", 5), turn(6, "Eve")])  # one commit: both kept
        assert sp.waiting() == ["Ann sold the farm for 230", "Dee is skipped", "Eve's turn"]
        sp.say([Call("time", "Time!", 7)])  # not about the turn: stale calls stay
        runner.release()
        assert sp.wait_idle(timeout=30)
    assert runner.said == ["Ann's turn", "Ann sold the farm for 230", "Dee is skipped",
                           "Eve's turn", "Time!"]


def test_an_undone_skip_and_a_game_over_make_the_waiting_turn_calls_stale(tmp_path):
    """From a review: a skip taken back by undo was still said ("Dee is skipped"), and so
    was a turn call still waiting when the next move ended the game. The calls here are the
    app's own (companion/session/calls.py), from a real journal."""
    from companion.testing import close, make_app, press

    runner = Runner()
    runner.hold()
    with speaker(runner) as sp:
        app = make_app(tmp_path, kind="chaos", players=("Ann", "Ben", "Cy", "Dee"),
                       setup=False, speaker=sp)
        try:
            app.caller.say([Call("move", "Ann picked red", 0)])  # the runner holds it
            assert runner.started.wait(timeout=30)
            assert app.emit({"type": "skip"})
            assert sp.waiting() == ["Ben is skipped"]
            press(app, "BACK", hold=True)  # undo the skip: nobody is skipped now
            # "Undone: " and the skip's history line (who it had passed over), then the turn
            assert sp.waiting() == ["Undone: Skip: Ben is skipped", "Ann's turn"]
            assert app.emit({"type": "next"})
            assert sp.waiting() == ["Undone: Skip: Ben is skipped", "Ben's turn"]
            app.journal.append({"type": "end"})
            app.committed("append", {"type": "end"})
            assert sp.waiting() == ["Undone: Skip: Ben is skipped", "Game over"]
        finally:
            close(app)
        runner.release()
        assert sp.wait_idle(timeout=30)


def test_a_turn_call_not_spoken_still_makes_the_waiting_ones_stale():
    """`[speech] calls` without "turn": a later turn is still a later turn."""
    runner = Runner()
    runner.hold()
    with speaker(runner, calls=["skip", "move"]) as sp:
        sp.say([Call("move", "Bluff called: Ben pays 4", 1)])
        assert runner.started.wait(timeout=30)
        sp.say([Call("skip", "Ann is skipped", 2), turn(3, "Ben")])
        assert sp.waiting() == ["Ann is skipped"]
        sp.say([turn(4, "Cy")])
        assert sp.waiting() == []
        runner.release()
        assert sp.wait_idle(timeout=30)
    assert runner.said == ["Bluff called: Ben pays 4"]


def test_only_the_configured_kinds_are_spoken_in_order():
    runner = Runner()
    with speaker(runner, calls=["turn", "time"]) as sp:
        sp.say([Call("roll", "Red, star", 1)])
        sp.say([Call("move", "Chaos: draw four", 2), turn(3, "Ben")])
        sp.say([Call("time", "Time!", 4)])
        assert sp.wait_idle(timeout=30)
    assert runner.said == ["Ben's turn", "Time!"]


def test_the_commands_are_espeak_ng_alone_or_into_aplay():
    runner = Runner()
    with speaker(runner, voice="en-us", rate=200, volume=150) as sp:
        sp.say([turn(1, "-Ann")])  # a leading dash is words, not an option
        assert sp.wait_idle(timeout=30)
    assert runner.pipelines == [[["espeak-ng", "-v", "en-us", "-s", "200", "-a", "150", "--",
                                  "-Ann's turn"]]]
    assert commands("Time!", voice="en", rate=170, volume=100, device="plughw:1,0") == [
        ["espeak-ng", "-v", "en", "-s", "170", "-a", "100", "--stdout", "--", "Time!"],
        ["aplay", "-q", "-D", "plughw:1,0"]]


def test_no_espeak_ng_is_one_log_line_and_the_speaker_goes_quiet(caplog):
    calls: list[object] = []

    def missing(cmds):
        calls.append(cmds)
        raise FileNotFoundError(2, "No such file or directory", "espeak-ng")

    caplog.set_level(logging.INFO, logger="companion.drivers.speech")
    with Speaker(calls=ALL, runner=missing) as sp:
        sp.say([turn(1, "Ann")])
        assert sp.wait_idle(timeout=30)
        for n in range(2, 6):
            sp.say([turn(n, "Ben")])  # returns, says nothing, logs nothing
        assert sp.wait_idle(timeout=30)
    assert len(calls) == 1
    assert [r.getMessage() for r in caplog.records] == [
        "speech off: espeak-ng is not installed (sudo apt-get install espeak-ng); the game "
        "goes on without the box's voice"]


def test_no_aplay_names_alsa_utils(caplog):
    def missing(cmds):
        raise FileNotFoundError(2, "No such file or directory", "aplay")

    with Speaker(calls=ALL, device="plughw:1,0", runner=missing) as sp:
        sp.say([turn(1, "Ann")])
        assert sp.wait_idle(timeout=30)
    assert "aplay is not installed (sudo apt-get install alsa-utils)" in caplog.text


def test_a_failing_device_is_one_log_line_per_outage(caplog):
    runner = Runner(answer="aplay ended with status 1: aplay: main:831: audio open error")
    caplog.set_level(logging.INFO, logger="companion.drivers.speech")
    with speaker(runner, device="plughw:1,0") as sp:
        for n in range(1, 4):
            sp.say([turn(n, "Ann")])
            assert sp.wait_idle(timeout=30)
            runner.answer = f"aplay ended with status 1: another reason {n}"
        runner.answer = ""  # plugged back in
        sp.say([turn(4, "Ben")])
        assert sp.wait_idle(timeout=30)
        runner.answer = "aplay ended with status 1: again"
        sp.say([turn(5, "Cy")])
        assert sp.wait_idle(timeout=30)
    assert [r.getMessage() for r in caplog.records] == [
        "speech: cannot say calls through ALSA device plughw:1,0: aplay ended with status 1: "
        "aplay: main:831: audio open error (companion doctor checks the audio; the game goes on)",
        "speech: speaking again",
        "speech: cannot say calls through ALSA device plughw:1,0: aplay ended with status 1: "
        "again (companion doctor checks the audio; the game goes on)"]


def test_a_runner_that_raises_is_logged_and_the_thread_lives_on(caplog):
    said = []

    def flaky(cmds):
        said.append(cmds[0][-1])
        if len(said) == 1:
            raise RuntimeError("boom")
        return ""

    with Speaker(calls=ALL, runner=flaky) as sp:
        sp.say([turn(1, "Ann")])
        assert sp.wait_idle(timeout=30)
        sp.say([turn(2, "Ben")])
        assert sp.wait_idle(timeout=30)
    assert said == ["Ann's turn", "Ben's turn"]
    assert "RuntimeError: boom" in caplog.text


def test_after_close_say_does_nothing():
    runner = Runner()
    sp = speaker(runner)
    sp.close()
    sp.say([turn(1, "Ann")])
    assert sp.waiting() == [] and runner.said == []


def test_open_speaker_follows_the_config():
    assert open_speaker(configmod.Config(configmod.check({}))) is None
    cfg = configmod.Config(configmod.check({"speech": {
        "enabled": True, "voice": "de", "rate": 140, "volume": 80, "device": "plughw:1,0",
        "calls": ["turn", "time"]}}))
    sp = open_speaker(cfg)
    assert sp is not None
    with sp:
        assert (sp.voice, sp.rate, sp.volume, sp.device) == ("de", 140, 80, "plughw:1,0")
        assert sp.kinds == {"turn", "time"} and sp.runner == sp._pipeline  # run_pipeline


# --- run_pipeline, on plain programs ---------------------------------------------------------

def test_run_pipeline_pipes_and_reports_failures():
    assert run_pipeline([["printf", "abc"], ["grep", "-q", "abc"]]) == ""
    assert run_pipeline([["printf", "abc"], ["grep", "-q", "xyz"]]) == \
        "grep ended with status 1: "
    assert run_pipeline([["sh", "-c", "echo 'ALSA lib noise' >&2; echo 'cannot open' >&2; "
                                      "exit 3"]]) == "sh ended with status 3: cannot open"
    # espeak-ng's own output ends 0 when it finds no device, saying "error: ..." on stderr
    assert run_pipeline([["sh", "-c", "echo 'ALSA lib x' >&2; echo 'error: No such file' >&2"]]) \
        == "sh: error: No such file"
    with pytest.raises(FileNotFoundError):
        run_pipeline([["no-such-program-here"]])
    with pytest.raises(FileNotFoundError) as missing:  # the one missing is named (the log line)
        run_pipeline([["sleep", "30"], ["no-such-player-here"]])
    assert missing.value.filename == "no-such-player-here"


def test_run_pipeline_kills_a_stuck_process():
    assert run_pipeline([["sleep", "30"]], timeout=0.2) == \
        "sleep did not finish within 0.2 s (a busy or stuck device?)"


def stuck_tools(tmp_path, monkeypatch) -> None:
    """espeak-ng and aplay on the PATH that never end, as on a stuck audio device."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("espeak-ng", "aplay"):
        tool = bin_dir / name
        tool.write_text("#!/bin/sh\nexec sleep 300\n")
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")


def started(sp: Speaker, count: int) -> list[subprocess.Popen]:
    """The speaker's running processes once `count` of them have started."""
    for _ in range(600):  # a safety net for a slow machine, not a timing
        procs = sp.running.procs()
        if len(procs) >= count:
            return procs
        threading.Event().wait(0.05)
    raise AssertionError(f"the speaker did not start {count} process(es)")


def gone(proc: subprocess.Popen) -> bool:
    if proc.poll() is None:
        return False
    try:
        os.kill(proc.pid, 0)  # reaped: no such process any more
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("device", ["", "plughw:1,0"])
def test_close_kills_the_call_being_said(tmp_path, monkeypatch, caplog, device):
    """A stuck device: espeak-ng (and aplay) never end. Closing the speaker kills them, so
    they do not outlive the companion (parent 1 after its exit), and logs no outage."""
    stuck_tools(tmp_path, monkeypatch)
    caplog.set_level(logging.INFO, logger="companion.drivers.speech")
    sp = Speaker(calls=ALL, device=device)
    sp.say([turn(1, "Ann")])
    procs = started(sp, 2 if device else 1)
    assert not any(gone(p) for p in procs)
    sp.close()
    assert all(gone(p) for p in procs), [p.args for p in procs if not gone(p)]
    assert sp.running.procs() == [] and not sp._thread.is_alive()
    assert caplog.records == []


def test_running_stop_kills_a_pipeline_and_what_starts_after_it():
    running = speech.Running()
    out: list[str] = []
    worker = threading.Thread(target=lambda: out.append(run_pipeline(
        [["sleep", "300"], ["sleep", "300"]], running=running)))
    worker.start()
    for _ in range(600):  # a safety net, not a timing
        if len(running.procs()) == 2:
            break
        threading.Event().wait(0.05)
    procs = running.procs()
    running.stop()
    worker.join(timeout=30)
    assert out == ["sleep ended with status -9: "] and all(gone(p) for p in procs)
    assert running.procs() == []
    late = subprocess.Popen(["sleep", "300"])
    running.add(late)  # started while closing: killed at once
    assert late.wait(timeout=30) == -9


# --- Debian's espeak-ng ----------------------------------------------------------------------

def need(program: str, package: str) -> None:
    if shutil.which(program) is None:
        why = f"{program} is not installed (apt-get install {package}; make test does it as root)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the espeak-ng tests, but {why}")
        pytest.skip(why)


def wav_facts(path) -> tuple[float, float]:
    """(seconds, RMS of the samples as a fraction of full scale) of a 16-bit mono WAV."""
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array.array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / max(len(samples), 1)) / 32768
    return seconds, rms


@pytest.mark.parametrize("text", ["Ben's turn", "Time!", "Ann sold the farm for 230"])
def test_espeak_ng_renders_a_call_that_is_words_not_silence(tmp_path, text):
    need("espeak-ng", "espeak-ng")
    out = tmp_path / "call.wav"
    cmd = commands(text, voice="en", rate=170, volume=100, device="")[0]
    subprocess.run([*cmd[:-2], "-w", str(out), "--", text], check=True, timeout=60)
    seconds, rms = wav_facts(out)
    assert rms > 0.02, f"{text!r} came out as silence (RMS {rms:.4f})"
    words = len(text.split())
    assert 0.3 <= seconds <= 1.2 * words + 0.6, f"{text!r} took {seconds:.2f} s"
    # A quieter volume is quieter: the config's volume reaches espeak-ng.
    quiet = tmp_path / "quiet.wav"
    cmd = commands(text, voice="en", rate=170, volume=20, device="")[0]
    subprocess.run([*cmd[:-2], "-w", str(quiet), "--", text], check=True, timeout=60)
    assert 0 < wav_facts(quiet)[1] < rms


def test_the_speaker_says_a_call_through_espeak_ng_and_aplay(caplog):
    """The real pipeline, into ALSA's null device (no sound card needed, nothing heard)."""
    need("espeak-ng", "espeak-ng")
    need("aplay", "alsa-utils")
    caplog.set_level(logging.INFO, logger="companion.drivers.speech")
    with Speaker(calls=ALL, device="null") as sp:
        sp.say([turn(1, "Ben")])
        assert sp.wait_idle(timeout=60)
    assert caplog.records == []


def test_an_unknown_device_is_logged_not_raised(caplog):
    need("espeak-ng", "espeak-ng")
    need("aplay", "alsa-utils")
    with Speaker(calls=ALL, device="nosuchdevice") as sp:
        sp.say([turn(1, "Ben")])
        assert sp.wait_idle(timeout=60)
    [record] = caplog.records
    assert record.getMessage().startswith(
        "speech: cannot say calls through ALSA device nosuchdevice: aplay ended with status 1")


# --- companion run ---------------------------------------------------------------------------

def test_companion_run_opens_the_speaker_only_when_enabled_and_closes_it_at_exit():
    from contextlib import ExitStack

    from companion.cli.run import _speaker
    with ExitStack() as stack:
        assert _speaker(configmod.Config(configmod.check({})), stack) is None
        sp = _speaker(configmod.Config(configmod.check({"speech": {"enabled": True}})), stack)
        assert isinstance(sp, Speaker) and sp.kinds == set(configmod.DEFAULTS["speech"]["calls"])
        sp.say([turn(1, "Ann")])  # no espeak-ng needed: say() only queues
    assert sp._closed and sp.waiting() == []


def test_the_headless_companion_says_the_turn_through_espeak_ng(tmp_path):
    """`companion run` with [speech] on: NEXT is said by a stand-in espeak-ng on the PATH,
    which writes its arguments down (the app's calls come from the calls branch's
    companion/app/calls.py; the box's half is this file's)."""
    pytest.importorskip("companion.app.calls", reason="the App's calls (app/calls.py) are "
                        "not here: the speaker has nobody to hand it calls")
    import sys
    import time
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    said = tmp_path / "said.txt"
    fake = bin_dir / "espeak-ng"
    fake.write_text(f'#!/bin/sh\nfor a; do last="$a"; done\nprintf "%s\\n" "$last" >> {said}\n')
    fake.chmod(0o755)
    (tmp_path / "config.toml").write_text("[speech]\nenabled = true\n")
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    p = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--display", "dummy", "--input", "stdin",
         "--ack", "--no-web", "--journal", str(tmp_path / "j.db"), "--config",
         str(tmp_path / "config.toml")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "ready"
        p.stdin.write("OK\n" * 5 + "NEXT\n")  # a table game, Ann first; then Ben's turn
        p.stdin.flush()
        while not p.stdout.readline().startswith("ack append 2"):
            pass
        for _ in range(600):  # the speech thread's own pace (a safety net, not a timing)
            if said.exists() and "Ben's turn" in said.read_text():
                break
            time.sleep(0.05)
    finally:
        out, err = p.communicate("QUIT\n", timeout=30)
    assert p.returncode == 0, err
    assert "Ben's turn" in said.read_text().splitlines()
