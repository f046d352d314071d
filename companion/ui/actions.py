"""What a screen asks the app to do. Plain data; the app carries them out.

A screen's handlers return one Action, a list of them (done in order), or None. `Pop`, the
answer of every screen's BACK, is declared with the screens (companion/ui/screen.py) and is
one of these: the actions name the screens they carry (`Push`, `Replace`), and the screens
import nothing of this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from companion.ui.screen import Pop as Pop  # one of the actions, declared with the screens

if TYPE_CHECKING:
    from companion.rules.game import Header
    from companion.ui.screen import Screen


@dataclass(frozen=True)
class Emit:
    """Append `event` to the journal (committed before anything is shown).

    If the engine refuses it, the refusal is shown as a toast and `then` is not done.
    """

    event: dict[str, Any]
    then: Any = None  # an Action (or list) done after a successful append


@dataclass(frozen=True)
class Push:
    screen: Screen


@dataclass(frozen=True)
class Replace:
    """Replace the top screen."""

    screen: Screen


@dataclass(frozen=True)
class Home:
    """Back to the game's own main screen (or the start menu outside a game)."""


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Redo:
    pass


@dataclass(frozen=True)
class PauseClock:
    """Stop (`on`) or start the turn clock of the game being played; None: the other way
    round from how it is (docs/clock.md)."""

    on: bool | None = None


@dataclass(frozen=True)
class Roll:
    """Roll `dice` (through the roller if attached), animate, then append an event.

    `make_event(dice)` builds the event from the result; by default a `roll` event. It may
    return None: the roll is shown but not appended (one roll of a roll-off, whose rolls are
    recorded together in one event). `then` is done after the event is appended.
    `who` is the seat the roll is for, when it is not the current player's.
    """

    dice: tuple[str, ...]
    make_event: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
    then: Any = None
    title: str = ""
    who: int | None = None


@dataclass(frozen=True)
class NewGame:
    header: Header


@dataclass(frozen=True)
class ResumeGame:
    """Continue an unfinished game of the journal: `game` (its id), or the one whose move is
    newest (None). The game open until now is parked when unfinished. A game that cannot be
    resumed is a toast, or for a phone's request (`from_phone`) CannotResume, its answer."""

    game: int | None = None
    from_phone: bool = False


@dataclass(frozen=True)
class PlayAgain:
    """A new game of the finished one's kind, players and house rules (App.play_again)."""


@dataclass(frozen=True)
class LeaveGame:
    """Return to the start menu; the game stays in the journal (Resume brings it back)."""


@dataclass(frozen=True)
class Toast:
    text: str
    seconds: float = 2.0


@dataclass(frozen=True)
class After:
    """Call the current screen's `on_tick(token)` after `seconds`, if it is still on the
    stack: covered by a menu or a question or not, its timer runs on (App.as_top)."""

    seconds: float
    token: str = "tick"
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Beep:
    """Sound the buzzer (if one is fitted)."""

    seconds: float = 0.2


@dataclass(frozen=True)
class QuitApp:
    pass


@dataclass(frozen=True)
class WebSwitch:
    """Start (on) or stop the table web (the device menu's "Web on" / "Web off")."""

    on: bool


@dataclass(frozen=True)
class ForgetPhones:
    """Un-pair every phone paired with the table web."""
