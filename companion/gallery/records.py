"""Records and the end screens' line of history, for docs/screens (`companion screens`), from
made-up finished games: Records for one kind and for all games, paged, empty and counting;
the end screens with their line of history. The kinds shown are those whose statistics keep
records of their own (`Scoring.extras`: Penny Badger and Pig Farm today), chosen from the
kinds' declarations, not by name."""

from __future__ import annotations

from companion import games
from companion.gallery import sample
from companion.inputs import Button
from companion.rules.game import Game
from companion.session.journal import NullSink
from companion.session.stats import GameRecord, compute, record_of
from companion.ui.records import ALL, RecordsScreen
from companion.ui.screen import Context
from companion.ui.start import default_names


def shots(config):
    """(name, image) of each screen."""
    names = default_names(config.names, 7)
    fake: list[GameRecord] = []

    def add(kind: str, players, winners) -> None:
        fake.append(GameRecord(len(fake) + 1, kind, tuple(players), 0.0, True,
                               tuple(players.index(w) for w in winners), 40, 600.0, None))

    first, latest = sample.featured()[:2]
    add(Game.kind, names[:4], [])  # the base kind: played, not scored
    for i in range(4):
        add(first, names[:5], [names[(i * 2) % 5]])
    for i in range(9):  # the latest kind: Records opens on it
        add(latest, names[:5 + i % 3], [names[(i * 5) % (5 + i % 3)]])
    stats = compute(fake)
    ctx = Context(config=config, stats=lambda: stats)
    screen = RecordsScreen(ctx)
    yield "records", screen.render(ctx)
    screen.on_press(Button.DOWN, ctx)
    yield "records-page-2", screen.render(ctx)
    while screen.kind != ALL:
        screen.on_press(Button.OK, ctx)
    yield "records-all", screen.render(ctx)
    empty = compute([])
    ectx = Context(config=config, stats=lambda: empty)
    yield "records-empty", RecordsScreen(ectx).render(ectx)
    cctx = Context(config=config, stats=lambda: None)  # a background replay is counting
    yield "records-counting", RecordsScreen(cctx).render(cctx)

    class _Sink(NullSink):
        game_id = 999

    for kind in (latest, first):
        gallery = games.get(kind).gallery
        for name, journal, stack in gallery(config) if gallery else ():
            if name != "end":
                continue
            journal.sink = _Sink()
            mine = record_of(999, journal.header, journal.state, events=len(journal.events),
                             created=0.0)
            past = [g for g in fake if g.kind != kind] + [
                GameRecord(900 + i, kind, mine.players, 0.0, True,
                           mine.winners if i % 2 else (), 30, None, None) for i in range(4)]
            end_stats = compute([*past, mine])
            jctx = Context(config=config, journal=journal,
                           stats=lambda s=end_stats: s)  # type: ignore[misc]  # a default argument mypy cannot type
            yield f"{kind}-end-history", stack[-1].render(jctx)
