"""The frame the table web may show: the panel's last frame, or a stand-in while a secret
screen (Pair a phone) is up, numbered so that a page's stream asks only for a new one.

`PublicFrame` owns that frame, its number (which grows only when the picture changes) and the
web's `on_frame` callback (told each new number; None: no web). It is given each frame the
panel drew (`show`, on the app thread); the web's threads only read `last`.
"""

from __future__ import annotations

from typing import Any, Callable


class PublicFrame:
    """The last public frame, and who is told of a new one."""

    def __init__(self) -> None:
        # (frame number, PIL image), None until the first frame is drawn. Set here only (the
        # app thread); the web thread only reads it.
        self.last: tuple[int, Any] | None = None
        self._raw = b""
        self.on_frame: Callable[[int], None] | None = None  # the web's push (attach)

    def show(self, image: Any) -> None:
        """The frame the web may show now (a PIL image): a new number when it changed."""
        raw = image.tobytes()
        if self.last is None or raw != self._raw:
            self._raw = raw
            self.last = (self.last[0] + 1 if self.last else 1, image)
            if self.on_frame is not None:
                self.on_frame(self.last[0])
