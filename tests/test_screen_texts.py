"""Issue 26, item 7: no text on the panel is cut where the fact matters.

Every screen is drawn with the longest names the config allows (sixteen of the widest letters)
and the largest numbers the games reach (the house rules' highest bank and savings, scores in
the thousands, game number 99999, sixteen players). Text that does not fit may be shortened
with "…" only inside a player's name (draw.clip records every shortening); no text may run off
the panel or over another text (draw.Draw records where each line of text went).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest
from PIL import Image

from companion import games, names
from companion.config import Config
from companion.gallery import screens
from companion.games import check_config as check
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui import draw
from companion.ui.screen import Context

# The example designs are kinds too (issue 37): New game offers them in these tests, so every
# kind's screens below include theirs.
pytestmark = pytest.mark.usefixtures("designs_offered")

# The longest a name may be (companion/names.py, the config's and a phone's limit alike), of
# the widest letters, sixteen different ones.
LONG = tuple(f"{'MW' * ((names.MAX_LENGTH - 2) // 2)}{c}{c}" for c in "ABCDEFGHIJKLMNOP")


def long_config() -> Config:
    return Config(check({"players": {"names": list(LONG)},
                         "rules": {"penny-badger": {"bank": 9999, "savings": 999}}}))


def problems(rec: draw.Recording) -> list[str]:
    """What is wrong with one drawn screen: a shortened text that is not a player's name, a
    text off the panel, two texts over each other."""
    out = [f"cut {whole!r} to {shown!r}" for whole, shown, name in rec.shortened if not name]
    for text, (x0, y0, x1, y1), _ink in rec.texts:
        if x0 < 0 or y0 < 0 or x1 > draw.WIDTH or y1 > draw.HEIGHT:
            out.append(f"{text!r} runs off the panel: {(x0, y0, x1, y1)}")
    for i, (t1, a, ink1) in enumerate(rec.texts):
        for t2, b, ink2 in rec.texts[i + 1:]:
            both = [(x, y) for x in range(max(a[0], b[0]), min(a[2], b[2]))
                    for y in range(max(a[1], b[1]), min(a[3], b[3])) if ink1(x, y) and ink2(x, y)]
            if both:
                out.append(f"{t1!r} {a} and {t2!r} {b} overlap at {both[0]}")
    return out


def drawn(shots: Iterator[tuple[str, Any]]) -> list[tuple[str, draw.Recording]]:
    """Each of `shots` (name, image) drawn while recording; the image is drawn when the
    iterator is asked for it."""
    out = []
    while True:
        with draw.recording() as rec:
            try:
                name, _image = next(shots)
            except StopIteration:
                return out
        out.append((name, rec))


def check_all(shots: Iterator[tuple[str, Any]]) -> None:
    found = [f"{name}: {p}" for name, rec in drawn(shots) for p in problems(rec)]
    assert not found, "\n".join(found)


def test_the_recording_sees_a_cut_an_overflow_and_an_overlap():
    """The checks below can fail: a cut label, a text past the edge, two texts on each other."""
    img, d = draw.blank()
    with draw.recording() as rec:
        with draw.players(["Bartholomew1"]):
            assert draw.clip("Bartholomew1 +103", 60, 12).endswith("+103")  # the name only
        draw.clip("No challenge: +103", 60, 12)
        d.text((100, 10), "Far too long", font=draw.font(12), fill=1)
        d.text((0, 30), "One", font=draw.font(12), fill=1)
        d.text((10, 32), "Two", font=draw.font(12), fill=1)
    found = problems(rec)
    assert rec.shortened[0][0] == "Bartholomew1" and rec.shortened[0][2]
    with draw.players(["Ann"]):  # a name inside a word is no name
        room = draw.text_size("Announcement of A…'s", 12)[0]
        assert draw.clip("Announcement of Ann's", room, 12) == "Announcement of A…'s"
    assert len(found) == 3, found
    assert "'No challenge: +103'" in found[0] and "runs off" in found[1] and "overlap" in found[2]


def test_every_screen_of_the_gallery_with_the_longest_names_and_highest_house_rules():
    check_all(screens.screens(long_config()))


def fresh_game_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    """Every kind's new game with the most players it takes: its setup (house rules, who goes
    first), home screen, menu, history and end (ended by the group where it can be)."""
    for kind in games.kinds().values():
        mode = games.mode_for(kind.kind)
        rules = kind.rules
        names = LONG[:rules.max_players]
        j = Journal(Header(kind.kind, names, 0, config.house_rules(kind.kind)))
        ctx = Context(config=config, journal=j)
        for i, screen in enumerate(mode.setup(ctx)):
            yield f"{kind.kind} setup {i}", screen.render(ctx)
        from companion.ui.modes import FirstPlayer
        yield f"{kind.kind} who goes first", FirstPlayer(mode, ctx).render(ctx)
        yield f"{kind.kind} home", mode.home(ctx).render(ctx)
        yield f"{kind.kind} menu", mode.menu(ctx).render(ctx)
        for i, item in enumerate(mode.menu(ctx).items):  # each line, and what it opens
            menu = mode.menu(ctx)
            menu.cursor = i
            yield f"{kind.kind} menu {i}", menu.render(ctx)
            for screen in opened(item.choose(ctx)):
                yield f"{kind.kind} menu {item.text(ctx)!r}", screen.render(ctx)
        from companion.ui.modes import history_screen
        if j.state.asks_table:  # a game that starts by asking the table: the group picks
            j.append({"type": "first", "player": 0})
            yield f"{kind.kind} home after the pick", mode.home(ctx).render(ctx)
        j.append({"type": "next"})
        yield f"{kind.kind} history", history_screen(ctx).render(ctx)
        try:
            j.append({"type": "end"})
        except Exception:  # a kind that ends only by its own rules
            continue
        yield f"{kind.kind} end", mode.end_screen(ctx).render(ctx)


def opened(result: Any) -> list[Any]:
    """The screens an action (or a list of them) pushes or puts on top."""
    from companion.ui.actions import Push, Replace
    results = result if isinstance(result, (list, tuple)) else [result]
    return [r.screen for r in results if isinstance(r, (Push, Replace))]


def test_every_kind_with_sixteen_long_names():
    check_all(fresh_game_shots(long_config()))


def start_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    """The start menu and the Resume list with the longest kind title, game number 99999 and
    sixteen long names; choosing players for the most seats of each kind."""
    from companion.ui.start import ResumeEntry, ResumeScreen, StartScreen, choose_players
    title = max((g.title for g in games.games().values()), key=lambda t: draw.text_size(t, 12))
    one = ResumeEntry(99999, title, LONG, "16:29")
    ctx = Context(config=config, unfinished=(one,))
    yield "start, one to resume", StartScreen(ctx).render(ctx)
    many = Context(config=config, unfinished=tuple(
        ResumeEntry(99999 - i, title, LONG, "12 Mar") for i in range(99)))
    yield "start, 99 to resume", StartScreen(many).render(many)
    yield "resume", ResumeScreen([one, *many.unfinished]).render(ctx)
    for g in games.games().values():
        entry = choose_players(ctx, g.kind)
        entry.value = g.max_players
        yield f"players of {g.kind}", entry.render(ctx)


def power_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    from companion.ui import power
    from companion.ui.start import StartScreen
    ctx = Context(config=config)
    yield "power off?", power.ask(StartScreen(ctx)).screen.render(ctx)
    yield "powering off", power.after(True, "Powering off...").screen.render(ctx)


def test_a_toast_shortens_the_names_in_it_before_its_end():
    """An undo toast of a long-named player's roll was cut before what was rolled."""
    from companion.ui.toast import toast_lines
    text = f"Undone: {LONG[0]} rolled GREEN STAR"
    lines = toast_lines(text, LONG)
    assert len(lines) == 2 and lines[-1] == "rolled GREEN STAR", lines
    assert lines[0].startswith("Undone: MWMW") and "…" in lines[0]
    assert all(draw.text_size(line, 12)[0] <= draw.WIDTH - 8 for line in lines)
    assert toast_lines("Undone: Skip", LONG) == ["Undone: Skip"]


def test_the_power_off_question_says_when_to_unplug():
    """The issue's "Unplug when the scree…"."""
    check_all(power_shots(long_config()))


def test_the_start_menu_and_resume_list_keep_the_game_number_and_time():
    """The issue's "Rainbow Ru… 16:29": the game number was lost."""
    check_all(start_shots(long_config()))


def records_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    """Records with thousands of games: 1234/1234 and 100%."""
    from companion.session.stats import GameRecord, compute
    from companion.ui.records import RecordsScreen
    kind = next(iter(games.games()))
    fake = [GameRecord(i + 1, kind, LONG[:4], 0.0, True, (0,), 40, 600.0, None)
            for i in range(1234)]
    stats = compute(fake)
    ctx = Context(config=config, stats=lambda: stats)
    yield "records", RecordsScreen(ctx).render(ctx)


def test_records_with_thousands_of_games():
    check_all(records_shots(long_config()))


# The biggest figures a game's own events reach: scores of thousands, plus and minus. These
# name the kinds' events, so they are given per kind, for the kinds that keep scores.
def scored_games() -> dict[str, Callable[[tuple[str, ...]], list[dict]]]:
    def pig(names: tuple[str, ...]) -> list[dict]:
        seller = {"sets": [5] * 12, "unmatched": 0}
        other = {"sets": [2] * 12, "unmatched": 9}
        return [{"type": "sell", "hands": [seller] + [other] * (len(names) - 1)},
                {"type": "next"}] * 9

    def chaos(names: tuple[str, ...]) -> list[dict]:
        n = len(names)  # a round ends when someone is out of cards: a 0 in each
        return [{"type": "round_points", "points": [499] * (n - 1) + [0]},
                {"type": "round_points", "points": [0] + [999 - i for i in range(n - 1)]}]

    return {"pig-farm": pig, "chaos": chaos}


def big_score_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    for kind_name, events in scored_games().items():
        kind = games.get(kind_name)
        mode = games.mode_for(kind_name)
        names = LONG[:kind.rules.max_players]
        rules = {"target": None} if "target" in kind.rules.default_rules else {}
        j = Journal(Header(kind_name, names, 0, rules))
        for e in events(names):
            j.append(e)
        ctx = Context(config=config, journal=j)
        yield f"{kind_name} home", mode.home(ctx).render(ctx)
        for name, _journal, stack in kind.gallery(config) if kind.gallery else ():
            top = stack[-1]
            if hasattr(top, "render"):  # the kind's own screens over these scores
                try:
                    yield f"{kind_name} {name} (big scores)", top.render(ctx)
                except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                    continue  # a screen made for another game's moment
        if not j.state.over:
            j.append({"type": "end"})
        yield f"{kind_name} end", mode.end_screen(ctx).render(ctx)


def test_scores_in_the_thousands():
    check_all(big_score_shots(long_config()))


@pytest.mark.parametrize("names", [("Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")])
def test_the_screenshots_with_the_default_names_are_clean_too(names):
    check_all(screens.screens(Config(check({"players": {"names": list(names)}}))))


def clock_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    """Every kind's home screen with the most players it takes, the longest names and the
    turn clock in each of its states (the widest: past an hour), and the Time screen with
    sixteen long names and figures past an hour."""
    from dataclasses import replace

    from companion.gallery.clock import STATES, reading
    from companion.ui.clock import TimeScreen
    for kind in games.kinds().values():
        mode = games.mode_for(kind.kind)
        names = LONG[:kind.rules.max_players]
        j = Journal(Header(kind.kind, names, 0, config.house_rules(kind.kind)))
        for state, changes in {**STATES, "bank": {"left": 35999.0}}.items():
            ctx = Context(config=config, journal=j, clock=reading(len(names), **changes))
            yield f"{kind.kind} home, clock {state}", mode.home(ctx).render(ctx)
    j = Journal(Header("table", LONG))
    r = reading(16)
    r = replace(r, totals=tuple(t * 40 for t in r.totals), longest=tuple(t * 30 for t in r.longest))
    ctx = Context(config=config, journal=j, clock=r)
    yield "time screen", TimeScreen().render(ctx)


def test_every_home_screen_keeps_room_for_the_turn_clock():
    check_all(clock_shots(long_config()))


def test_every_end_screens_hint_says_what_ok_opens():
    """Pig Farm's end screen said "OK: done", but OK opens "Play again / Start menu" (like
    every kind's end screen): the hint says what OK does, and fits the panel whole."""
    from companion.ui.again import end_menu
    from companion.ui.table import EndScreen
    assert [i.label for i in end_menu(None).items] == ["Play again", "Start menu"]  # type: ignore[arg-type]
    for kind in games.kinds():
        screen = games.mode_for(kind).end_screen(None)  # type: ignore[arg-type]
        if not isinstance(screen, EndScreen):
            continue  # Penny Badger's settles the bank first (its own hints)
        assert "OK: again / leave" in screen.hint or "OK: play again / leave" in screen.hint, \
            (kind, screen.hint)
        assert draw.text_size(screen.hint, draw.SMALL)[0] <= draw.WIDTH, (kind, screen.hint)


def settled_claims(config: Config) -> Iterator[tuple[str, Journal]]:
    """Penny Badger's settlement after a claim with sixteen long names, every other badger an
    accuser: a bluff and a true claim of 8 (all of a payer's savings: the widest amounts,
    "-999 out") and of a wild."""
    for cards in (8, 1):
        for truthful in (False, True):
            j = Journal(Header("penny-badger", LONG, 0, config.house_rules("penny-badger")))
            j.append({"type": "claim", "cards": cards, "challengers": list(range(1, 16)),
                      "truthful": truthful})
            yield f"claim {cards} {'true' if truthful else 'bluff'}", j


def settlement_shots(config: Config) -> Iterator[tuple[str, Image.Image]]:
    from companion.games.penny_badger.panel import SettlementScreen
    for name, j in settled_claims(config):
        ctx = Context(config=config, journal=j)
        screen = SettlementScreen()
        for first in range(len(screen.lines(ctx))):
            screen.first = first
            yield f"{name}, row {first} on top", screen.render(ctx)


def test_penny_badgers_settlement_with_sixteen_long_names():
    check_all(settlement_shots(long_config()))


def test_penny_badgers_settlement_shows_who_accused_at_the_longest_names():
    """After a claim the settlement's ": accuser" word cut the accuser's name to "MW…"
    (or was cut itself), and no tick box is drawn any more: only the amount showed who
    accused. An accuser's name is shortened no more than the name alone in its row, its
    row is marked (the pointer, not a box), and the word is there where the name fits."""
    from companion.games.penny_badger.panel import ROW_SIZE, settlement_rows
    config = long_config()
    for name, j in settled_claims(config):
        _title, _right, rows = settlement_rows(j.state, LONG)
        accusers = [(label, right) for label, box, right in rows if box]
        assert len(accusers) == 15 and not any(box for _l, box, _r in rows
                                               if _l.startswith(("TRUE", "BLUFF")))
        for seat, (label, right) in zip(range(1, 16), accusers):
            room = draw.WIDTH - 8 - 14 - ((draw.text_size(right, ROW_SIZE)[0] + 4)
                                          if right else 0)
            size = draw.fit(label, room, draw.HEIGHT, largest=ROW_SIZE,
                            smallest=ROW_SIZE - 1)
            shown = draw.clip(label, room, size, LONG)
            alone = draw.clip(LONG[seat], room, ROW_SIZE, LONG).removesuffix("…")
            assert shown.startswith(alone), (name, label, right, shown, alone)
    # With short names the word says it.
    j = Journal(Header("penny-badger", ("Ann", "Ben", "Cy", "Dee"), 2, {}))
    j.append({"type": "claim", "cards": 3, "challengers": [3, 0], "truthful": False})
    _t, _r, rows = settlement_rows(j.state, ("Ann", "Ben", "Cy", "Dee"))
    assert [(label, box) for label, box, _ in rows[1:4]] == \
        [("Dee: accuser", True), ("Ann: accuser", True), ("Ben", False)]
