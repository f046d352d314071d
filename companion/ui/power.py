"""Powering the box off from its buttons: the "Power off?" question and the command.

Holding BACK and NEXT together for 5 s posts a `ShutdownRequest` (drivers/chord.py); the app
asks "Power off?" and OK runs `[power] command` from the config (default `systemctl poweroff`;
the install script lets the `companion` user do that through polkit). The journal needs no
saving first: every event is on disk when it is shown. When the command works, systemd stops
the service (SIGTERM -> Quit) and the screen goes dark; then the plug can be pulled.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from companion.inputs import Quit
from companion.ui import actions as A
from companion.ui.screen import Confirm, Screen, TextScreen

if TYPE_CHECKING:
    import subprocess

Runner = Callable[..., Any]  # subprocess.run's shape: runner(argv, ...) -> CompletedProcess


@dataclass(frozen=True)
class PowerOff:
    """Action: run the configured power-off command."""


def split_command(text: str) -> list[str]:
    """The `[power] command` as an argv; ValueError when it is empty or badly quoted."""
    import shlex
    argv = shlex.split(text)
    if not argv:
        raise ValueError("is empty")
    return argv


def ask(top: Screen) -> Any:
    """The action for a ShutdownRequest: the question, unless it is already showing."""
    if isinstance(top, Confirm) and top.yes == PowerOff():
        return None
    return A.Push(Confirm("Power off?", PowerOff(),
                          detail="Unplug when dark"))  # the screen: it fits whole


def power_off(config, *, runner: Runner | None = None) -> tuple[bool, str]:
    """Run the power-off command (with `runner`, else subprocess.run). Returns (worked, what
    to tell the player). subprocess is imported here, not at start-up: it is only ever needed
    at the end."""
    import subprocess
    argv = split_command(config["power"]["command"])
    runner = runner or subprocess.run
    try:
        done = runner(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        return False, f"Power off failed: {e}"
    if done.returncode != 0:
        why = (done.stderr or done.stdout or "").strip().splitlines()
        return False, "Power off failed: " + (why[-1] if why else f"exit {done.returncode}")
    return True, "Powering off..."


def emulated(post: Callable[[object], None], *, delay: float = 1.5) -> Runner:
    """The runner for the terminal emulator (its `p` key is the chord): the emulator is not
    the box, so the computer it runs on is not switched off. It runs nothing, lets the
    "Powering off" screen show for `delay` seconds, then quits the emulator the way the box
    would go dark; the game is kept, as after `q`."""

    def run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
        import subprocess
        timer = threading.Timer(delay, post, args=(Quit(),))
        timer.daemon = True
        timer.start()
        return subprocess.CompletedProcess(argv, 0, "", "")

    return run


def after(worked: bool, message: str) -> Any:
    """What the screen shows once the command ran."""
    if worked:
        return A.Replace(TextScreen("Power off", [message, "Unplug when the screen is dark."],
                                    done=None))
    return [A.Pop(), A.Toast(message, 4.0)]
