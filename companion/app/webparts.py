"""The web snapshot's pieces that other parts own: the turn clock (clock.py), the calls and
how they are said (calls.py), the seat lights (lights.py), who is favourite (favourite.py,
from the skill ratings of statscache.py, which `warm` has folded off the app thread from the
first frame on). The web bridge is handed
`Pieces(host)`, a callable it asks for them at each snapshot, so it imports none of them; the
parts are read from the host at each call (a benchmark replaces the App's turn clock)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.app.calls import speech
from companion.app.clock import snapshot
from companion.app.favourite import Favourite

if TYPE_CHECKING:
    from companion.app.calls import Caller
    from companion.app.clock import TurnClock
    from companion.app.lights import Lights
    from companion.app.statscache import StatsCache
    from companion.session.journal import Journal
    from companion.session.ratings import Ratings
    from companion.session.store import Store


class Served(Protocol):
    """The table web, as far as the pieces care (companion.web.server.Web)."""

    @property
    def running(self) -> bool: ...


class Owners(Protocol):
    """The parts that own the pieces (the App holds them)."""

    config: Any
    turn_clock: TurnClock
    caller: Caller
    lights: Lights
    statscache: StatsCache

    @property
    def journal(self) -> Journal | None: ...  # the open game

    @property
    def store(self) -> Store: ...  # its id

    @property
    def web(self) -> Served | None: ...  # the table web, once attached

    @property
    def last_frame(self) -> tuple[int, Any] | None: ...  # None before the first frame


class Pieces:
    """What the snapshot's "clock", "calls", "speech", "ring" and "favourite" are, read when
    called (the favourite is predicted once per game and kept here)."""

    def __init__(self, owners: Owners) -> None:
        self.owners = owners

        def ratings() -> Ratings | None:
            # Not before the first frame (the snapshot made when the web is attached): the
            # thread that folds them must not slow it; `warm` starts it after, and its
            # landing brings the prediction to the pages.
            if owners.last_frame is None:
                owners.statscache.wanted()
                return None
            return owners.statscache.ratings()

        self.favourite = Favourite(ratings, lambda: bool(owners.config["stats"]["favourite"]))

    def _favourite(self) -> dict[str, Any] | None:
        j = self.owners.journal
        return self.favourite.snapshot(j, None if j is None else self.owners.store.game_id(j))

    def __call__(self) -> dict[str, Any]:
        owners = self.owners
        tc, caller = owners.turn_clock, owners.caller
        return {"clock": snapshot(tc.reading(), tc.limits, at=tc.now()),
                "calls": caller.snapshot(), "speech": speech(owners.config, caller.run),
                "ring": owners.lights.snapshot(), "favourite": self._favourite()}

    def landing(self, due: Callable[[], None]) -> Callable[[], None]:
        """StatsCache's `landed`: the ratings a snapshot went out without are ready, and the
        pages are due a snapshot (`due`) when the open game now has a prediction to show.
        Not when it has none (most players new, turned off): a snapshot the same but for its
        number would only make a tap at that instant "behind the box"."""
        def landed() -> None:
            if self._favourite() is not None:
                due()
        return landed


def warm(owners: Owners) -> None:
    """After the box's first frame: when the web is on and the group wants the favourite,
    have the skill ratings read and folded off the app thread now (StatsCache.warm), so that
    they are ready when the first game starts, not asked for then."""
    web = owners.web
    if web is not None and web.running and owners.config["stats"]["favourite"]:
        owners.statscache.warm()
