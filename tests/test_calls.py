"""The spoken calls (docs/speech.md): the words of every kind's moves, built from the history
lines' pieces; undo and redo; the app hands them to its speaker, keeps the last few for the
snapshot, and calls "Time!" when the turn clock runs out."""

from __future__ import annotations

from companion.rules.game import Header
from companion.session import calls
from companion.session.calls import Call
from companion.session.journal import Journal
from companion.testing import FakeClock, RecordingSpeaker, close, drain, make_app, press

NAMES = ("Ann", "Ben", "Cy", "Dee")


def said(j: Journal, event: dict, last: int = 0) -> list[str]:
    """Append `event` and return the words of its calls."""
    j.append(event)
    return [c.text for c in calls.of_change(j, "append", event, last)]


def kinds(j: Journal, event: dict) -> list[tuple[str, str]]:
    j.append(event)
    return [(c.kind, c.text) for c in calls.of_change(j, "append", event, 0)]


def test_the_issues_turn_calls_in_a_game_of_chaos():
    j = Journal(Header("chaos", NAMES))
    assert kinds(j, {"type": "next"}) == [("turn", "Ben's turn")]
    assert kinds(j, {"type": "skip"}) == [("skip", "Cy is skipped")]
    assert kinds(j, {"type": "next"}) == [("turn", "Dee's turn")]
    assert kinds(j, {"type": "reverse"}) == [("reverse", "Reverse: Cy's turn")]
    assert kinds(j, {"type": "next"}) == [("turn", "Cy's turn")]
    assert kinds(j, {"type": "draw_four", "color": "red"}) == [
        ("move", "Chaos: draw four"), ("turn", "Ben's turn")]
    assert kinds(j, {"type": "draw_four", "color": "blue"}) == [
        ("move", "Chaos: draw eight"), ("turn", "Ann's turn")]
    assert kinds(j, {"type": "take_draw_four"}) == [("move", "Ann drew 8")]
    assert kinds(j, {"type": "skip"}) == [("skip", "Dee is skipped")]
    # Skips add up: the second names every seat now passed over (the ring blinks both).
    assert kinds(j, {"type": "skip"}) == [("skip", "Dee and Cy are skipped")]
    assert kinds(j, {"type": "next"}) == [("turn", "Ben's turn")]


def test_ann_is_skipped_and_double_skip_and_reverse_skip():
    j = Journal(Header("table", NAMES, first=3))
    assert said(j, {"type": "skip"}) == ["Ann is skipped"]
    j = Journal(Header("table", NAMES))
    assert said(j, {"type": "double_skip"}) == ["Ben and Cy are skipped"]
    j = Journal(Header("table", NAMES))
    # Reverse, then the next player in the new direction (Dee) loses a turn.
    assert kinds(j, {"type": "reverse_skip"}) == [("reverse", "Reverse + skip: Dee is skipped")]
    assert said(j, {"type": "next"}) == ["Cy's turn"]


def test_the_issues_skip_then_reverse_names_who_is_really_skipped():
    """Issue 34.2: Table, 5 players, Ann's turn: Skip says "Ben is skipped", then Reverse
    said "Reverse: Dee's turn", but Eve is the one skipped now (the ring and the next turn
    agree). The words come from the state after the move."""
    five = (*NAMES, "Eve")
    j = Journal(Header("table", five))
    assert kinds(j, {"type": "skip"}) == [("skip", "Ben is skipped")]
    assert kinds(j, {"type": "reverse"}) == [
        ("reverse", "Reverse: Eve is skipped, Dee's turn")]
    # Undone, the skip passes over Ben again: said so, after whose turn it is.
    event = j.undo()
    assert [(c.kind, c.text) for c in calls.of_change(j, "undo", event, 0)] == [
        ("move", "Undone: Reverse"), ("turn", "Ann's turn, Ben is skipped")]
    j.redo()
    assert kinds(j, {"type": "next"}) == [("turn", "Dee's turn")]
    # Likewise Skip then Reverse + skip: Eve and Dee lose their turns, Cy plays.
    j = Journal(Header("table", five))
    said(j, {"type": "skip"})
    assert kinds(j, {"type": "reverse_skip"}) == [
        ("reverse", "Reverse + skip: Eve and Dee are skipped")]
    assert kinds(j, {"type": "next"}) == [("turn", "Cy's turn")]


def test_skip_to_first_roll_and_end_of_the_table_kind():
    j = Journal(Header("table", NAMES))
    assert kinds(j, {"type": "first", "player": 2}) == [("turn", "Cy goes first")]
    assert kinds(j, {"type": "skip_to", "player": 0}) == [("turn", "Ann's turn")]
    # The faces in capitals on the panel are said in lower case (no engine spells them).
    assert kinds(j, {"type": "roll", "dice": {"colors": "red", "shapes": "star"}}) == [
        ("roll", "Ann rolled red star")]
    assert j.describe(len(j.events) - 1) == "Ann rolled RED STAR"  # the history line's words
    assert kinds(j, {"type": "end"}) == [("end", "Game over")]


def test_pig_farm_sale_says_the_sellers_points_then_whose_turn():
    j = Journal(Header("pig-farm", NAMES[:3], 0, {"target": 500}))
    hand = {"sets": [3, 3, 2], "unmatched": 0}
    other = {"sets": [], "unmatched": 3}
    assert kinds(j, {"type": "sell", "hands": [hand, other, other]}) == [
        ("move", "Ann sold the farm for 230"), ("turn", "Ben's turn")]
    assert j.describe(0).startswith("Ann sold the farm (round 1): Ann 230")


def test_pig_farm_sale_that_ends_the_game_names_the_winner():
    j = Journal(Header("pig-farm", NAMES[:2], 0, {"target": 200}))
    hand = {"sets": [3, 3, 2], "unmatched": 0}
    assert said(j, {"type": "sell", "hands": [hand, {"sets": [], "unmatched": 1}]}) == [
        "Ann sold the farm for 230", "Game over: Ann wins"]


def test_penny_badger_bluff_true_claim_plain_claim_and_pass():
    j = Journal(Header("penny-badger", NAMES[:3], 1, {"bank": 100, "savings": 20}))
    # Ben claims a pair, Ann challenges, it was a bluff: Ben pays the bank 2 and Ann 2.
    assert kinds(j, {"type": "claim", "cards": 2, "challengers": [0], "truthful": False}) == [
        ("move", "Bluff called: Ben pays 4"), ("turn", "Cy's turn")]
    assert said(j, {"type": "claim", "cards": 2, "challengers": [0, 1], "truthful": True}) == [
        "True claim: Ann pays 4 and Ben pays 4", "Ann's turn"]
    assert said(j, {"type": "claim", "cards": 2}) == [
        "Ann claimed a pair: bank paid Ann 4", "Ben's turn"]
    assert said(j, {"type": "pass"}) == ["Cy's turn"]  # the turn call says it all


def test_penny_badger_a_badger_out_and_the_game_over():
    j = Journal(Header("penny-badger", NAMES[:2], 0, {"bank": 100, "savings": 2}))
    assert said(j, {"type": "claim", "cards": 2, "challengers": [1], "truthful": False}) == [
        "Bluff called: Ann pays 2; Ann is out", "Game over: Ben wins"]


def test_every_other_kinds_move_is_said_as_its_history_line():
    cases = [
        ("flower-power", {"type": "petals", "color": "red", "count": 3}, "Ann: 3 red petals"),
        ("drop-rainbow", {"type": "reveal", "color": "red"}, "First card red"),
        ("match-patch", {"type": "pair"}, "Pair for Ann"),
        ("rainbow-rush", {"type": "wild_replace"}, "Wild replaced a card"),
        ("dice-factor", {"type": "add_card"}, "Ann: add a card"),
    ]
    for kind, event, words in cases:
        j = Journal(Header(kind, NAMES[:3]))
        out = [(c.kind, c.text) for c in (j.append(event) and
                                          calls.of_change(j, "append", event, 0))]
        assert out[0] == ("move", words), kind
        assert calls.spoken(j.describe(0)) == words, kind  # the same words as the history


def test_a_win_is_said_once_as_the_game_over_call():
    """Rainbow Rush's and Dice Factor's winning move says "Ben wins" in the history; said
    aloud, it is the game over alone, not "Ben wins. Game over: Ben wins"."""
    j = Journal(Header("rainbow-rush", NAMES[:3]))
    assert said(j, {"type": "win", "player": 1}) == ["Game over: Ben wins"]
    assert j.describe(0) == "Ben wins"  # the history line keeps its words


def test_undo_says_what_it_took_back_and_whose_turn_it_is_again():
    j = Journal(Header("table", NAMES))
    j.append({"type": "next"})
    event = j.undo()
    out = calls.of_change(j, "undo", event, 5)
    assert [(c.kind, c.text, c.n) for c in out] == [
        ("move", "Undone: Ann's turn ended", 6), ("turn", "Ann's turn", 7)]
    event = j.redo()
    assert [c.text for c in calls.of_change(j, "redo", event, 7)] == ["Ben's turn"]
    j.append({"type": "skip"})
    event = j.undo()  # the turn did not move, but it is said: "Ben is skipped" is stale
    # The history line of the skip names who it passed over (from the state after it).
    assert [c.text for c in calls.of_change(j, "undo", event, 0)] == [
        "Undone: Skip: Cy is skipped", "Ben's turn"]


def test_calls_numbers_and_staleness():
    out = [Call("turn", "Ben's turn", 1), Call("move", "Ann drew 8", 2)]
    assert [c.about_turn for c in out] == [True, False]
    assert out[0].to_json() == {"kind": "turn", "text": "Ben's turn", "n": 1}
    assert calls.time_call(4) == Call("time", "Time!", 5)


# --- the app: its speaker and the snapshot's calls ---------------------------------------------

def test_the_app_hands_each_commits_calls_to_its_speaker(tmp_path):
    speaker = RecordingSpeaker()
    app = make_app(tmp_path, kind="table", players=NAMES, setup=False, speaker=speaker)
    try:
        press(app, "NEXT")
        press(app, "NEXT")
        press(app, "BACK", hold=True)
        drain(app)
        assert speaker.texts == ["Ben's turn", "Cy's turn", "Undone: Ben's turn ended",
                                 "Ben's turn"]
        assert [c.n for c in speaker.said] == [1, 2, 3, 4]
        assert [c["text"] for c in app.caller.snapshot()] == speaker.texts
    finally:
        close(app)


def test_the_app_without_a_speaker_still_keeps_the_last_few_calls(tmp_path):
    app = make_app(tmp_path, kind="table", players=NAMES, setup=False)
    try:
        for _ in range(12):
            press(app, "NEXT")
        drain(app)
        kept = app.caller.snapshot()
        assert len(kept) == 8 and kept[-1]["n"] == 12 and kept[0]["n"] == 5
    finally:
        close(app)


def test_time_is_called_once_when_the_turn_limit_runs_out(tmp_path):
    speaker = RecordingSpeaker()
    clock = FakeClock()
    app = make_app(tmp_path, kind="table", players=NAMES, setup=False, speaker=speaker,
                   clock=clock, rules={"turn_limit": 30})
    try:
        app.render()  # the turn clock starts ticking with the first frame
        clock.advance(29)
        drain(app)
        assert speaker.texts == []
        clock.advance(5)
        drain(app)
        assert speaker.texts == ["Time!"]
        clock.advance(20)
        drain(app)
        assert speaker.texts == ["Time!"]  # once a turn
        press(app, "NEXT")
        drain(app)
        assert speaker.texts == ["Time!", "Ben's turn"]
    finally:
        close(app)


def test_a_speaker_that_fails_does_not_stop_the_game(tmp_path):
    class Broken(RecordingSpeaker):
        def say(self, calls):
            raise OSError("no audio device")

    app = make_app(tmp_path, kind="table", players=NAMES, setup=False, speaker=Broken())
    try:
        press(app, "NEXT")
        drain(app)
        assert app.journal.state.table.current == 1
        assert app.caller.snapshot()[-1]["text"] == "Ben's turn"
    finally:
        close(app)


def test_a_new_game_says_whose_turn_it_is_once_its_setup_is_done(tmp_path):
    """On the panel, "who goes first" says it ("Cy goes first"), and nothing more; from a
    phone, which chose the first player itself, the game starts with "Cy's turn"."""
    from companion.testing import choose

    speaker = RecordingSpeaker()
    app = make_app(tmp_path, speaker=speaker)
    try:
        choose(app, "New game")
        while app.journal is None or app.journal.events == [] and len(app.stack) > 1:
            top = app.top
            labels = [i.text(app.ctx()) for i in getattr(top, "items", [])]
            if "Cy" in labels:  # who goes first
                choose(app, "Cy")
            else:
                press(app, "OK")
            if app.journal is not None and app.journal.events:
                break
        drain(app)
        assert speaker.texts == ["Cy goes first"]
        result = app.bridge.changes.new_game({"game": "table", "players": ["Ann", "Ben", "Cy"],
                                              "first": 2, "rules": {},
                                              "replaces": app.journal.sink.game_id})
        assert result.get("ok"), result
        assert speaker.texts[-1] == "Cy's turn" and len(speaker.texts) == 2
        press(app, "NEXT")
        assert speaker.texts[-1] == "Ann's turn"
    finally:
        close(app)


# --- the snapshot's "speech": the browser's language and the run ------------------------------

def test_the_pages_language_is_a_browser_tag_made_from_the_espeak_voice():
    from companion.app.calls import lang_tag
    assert [lang_tag(v) for v in ("en", "en-us", "de", "en+f3", "en-us+m2", "en-GB-x-rp",
                                  "es-419", "zh-hans", "fr-be")] == [
        "en", "en-US", "de", "en", "en-US", "en-GB", "es-419", "zh-Hans", "fr-BE"]
    # Not a language tag: "" (the page then leaves the utterance's language unset).
    assert [lang_tag(v) for v in ("mb-en1", "mb-de2", "en_us", "e", "english+", "1en",
                                  "en-", "+f3")] == [""] * 8


def test_the_snapshots_speech_carries_the_tag_and_this_runs_token(tmp_path):
    from companion import config as configmod
    from companion.app.calls import speech
    cfg = configmod.Config(configmod.check({"speech": {"voice": "en-us+f3"}}))
    assert speech(cfg, "abc") == {"calls": list(configmod.DEFAULTS["speech"]["calls"]),
                                  "rate": 170, "volume": 100, "lang": "en-US", "run": "abc"}
    # One token a run: the same all the run long, another when the companion starts again.
    first = make_app(tmp_path, kind="table", players=NAMES, setup=False)
    try:
        run = first.caller.run
        press(first, "NEXT")
        drain(first)
        assert first.caller.run == run and len(run) >= 8
    finally:
        close(first)
    again = make_app(tmp_path, kind="table", players=NAMES, setup=False)
    try:
        assert again.caller.run != run
    finally:
        close(again)


def test_dice_factor_roll_off_says_each_roll_and_who_goes_first():
    """Issue 34.11: the roll-off was said "Roll-off 4 6". docs/rules.md, "Dice Factor": "8,
    8, 6, 3 -> the player with 6 goes first"."""
    j = Journal(Header("dice-factor", NAMES))
    event = {"type": "roll_off", "rolls": [8, 8, 6, 3]}
    assert kinds(j, event) == [("turn", "Roll-off: Ann 8, Ben 8, Cy 6, Dee 3: Cy goes first")]
    assert j.state.table.current == 2  # the words name the state after the move
    assert j.describe(0) == "Roll-off: Ann 8, Ben 8, Cy 6, Dee 3: Cy goes first"
    j = Journal(Header("dice-factor", NAMES[:2]))
    assert said(j, {"type": "roll_off", "rolls": [4, 6]}) == ["Roll-off: Ann 4, Ben 6: Ben goes "
                                                               "first"]
    j = Journal(Header("dice-factor", NAMES[:2]))
    # Every roll shared: nobody goes first, so no turn call (a move: said, never stale).
    assert kinds(j, {"type": "roll_off", "rolls": [4, 4]}) == [
        ("move", "Roll-off: Ann 4, Ben 4: a tie, roll again")]


def test_dice_factor_a_lost_turn_says_why_when_roll_calls_are_off():
    """Issue 34.11: with roll calls off (the default), an 8-sided 1-5 was said only as
    "Ben's turn": the reason is a move call, said whatever `[speech] calls` leaves out."""
    j = Journal(Header("dice-factor", NAMES[:3]))
    j.append({"type": "roll", "dice": {"colors": "red", "shapes": "star"}})
    assert kinds(j, {"type": "roll", "dice": {"d8": 3}}) == [
        ("move", "Ann rolled 3: Ann loses the turn"), ("turn", "Ben's turn")]
    assert kinds(j, {"type": "roll", "dice": {"d8": 7}}) == [("roll", "Ben rolled 7")]
