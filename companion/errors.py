"""The companion's error tree.

As in gpiozero, each error also subclasses the matching built-in, so a caller that only knows
`ValueError` or `OSError` still catches it.
"""


def shown(text: str) -> str:
    """`text` safe to print on one line of a terminal or a log: every control, format or
    otherwise invisible character (ESC, a line break, a right-to-left override, a lone
    surrogate) written as its Python escape, so a config key or a file name from a user can
    neither move the cursor, recolour the terminal nor hide what it says."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class ConfigError(CompanionError, ValueError):
    """The config file is unreadable or has a bad key or value.

    `key` is the dotted path of the offending key (or "" for the file itself).
    """

    def __init__(self, key: str, problem: str) -> None:
        self.key = shown(key)
        self.problem = shown(problem)
        super().__init__(f"{self.key}: {self.problem}" if key else self.problem)


class RuleError(CompanionError, ValueError):
    """An event that breaks the rules of the game it is applied to."""


class IllegalEvent(RuleError):
    """An event the engine refuses: unknown type, bad field, or against the rules."""


class KindBroken(CompanionError, LookupError):
    """A game kind that is not installed, or whose package does not declare a proper
    `GameKind` (companion/games/__init__.py): reported by name."""


class LogFormatError(CompanionError, ValueError):
    """A game log (JSON Lines) that cannot be read; `line` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        self.problem = shown(problem)
        super().__init__(f"line {line}: {self.problem}")


class JournalError(CompanionError, OSError):
    """The journal database could not be opened or written."""


class DeviceError(CompanionError, OSError):
    """A piece of hardware is missing or does not answer."""


class DisplayMissing(DeviceError):
    """No display answered at the configured address."""


class RollerError(DeviceError):
    """The dice roller is missing, does not answer, or breaks the protocol."""


class RollerProtocolError(RollerError):
    """A line from the roller that must be dropped; `reason` is the protocol's word for why
    (checksum, long, unterminated, frame, verb, args, die, face; docs/protocol.md)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        super().__init__(f"{reason}: {detail}" if detail else reason)


class LightsError(CompanionError):
    """The seat light ring (companion/drivers/lights.py) cannot do what was asked. As in
    gpiozero, each kind below also subclasses the built-in a caller may already catch."""


class LightsBadValue(LightsError, ValueError):
    """Pixels of the wrong count, a colour outside 0-255, a brightness outside 0-1, an
    unknown colour order."""


class LightsClosed(LightsError, RuntimeError):
    """A frame sent to a ring that has been closed."""


class LightsNoDriver(LightsError, ImportError):
    """The `spidev` module is not installed (python3-spidev on the Pi)."""


class LightsDeviceError(LightsError, DeviceError):
    """The SPI device cannot be opened: missing (SPI is off), or not ours to open."""


class DesignError(CompanionError, ValueError):
    """A game design (companion/rules/design/) that is refused: `field` is the path of the
    field at fault ("moves[2].effects[0]", "" for the design as a whole: what a form
    highlights), `words` the whole refusal in plain words naming the field or the move
    ("move Steal: pays from 'the chosen player' but the game has no pot or tally to pay
    into"): what a person reads, and the error's text."""

    def __init__(self, field: str, words: str) -> None:
        self.field = shown(field)
        self.words = shown(words)
        super().__init__(self.words)
