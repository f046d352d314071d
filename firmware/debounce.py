"""Button debounce, pure: feed it the raw pin level and the time, it reports clean presses."""


def _sub(a, b):
    return a - b


class Debouncer:
    """An active-low button (pulled up, pressed = 0).

    A new level counts once it has held for `stable_ms`; `update` returns True exactly once
    per press (on the debounced falling edge). `diff` is `time.ticks_diff` on the board, so
    the millisecond counter may wrap.
    """

    def __init__(self, stable_ms=20, diff=None):
        self.stable_ms = stable_ms
        self.diff = diff or _sub
        self.stable = 1
        self.level = 1
        self.since = None

    def update(self, level, now):
        level = 1 if level else 0
        if self.since is None or level != self.level:
            self.level = level
            self.since = now
            return False
        if level != self.stable and self.diff(now, self.since) >= self.stable_ms:
            self.stable = level
            return level == 0
        return False

    def held(self):
        """True while the debounced state is pressed."""
        return self.stable == 0
