"""A design game on the table web (docs/web.md, "A designed game on the phones and the TV"),
made from the design's data alone: `web_for(design)` is the `KindWeb` of one design.

The phone: a button per move that needs nothing typed (one tap, one move), a form per move
that asks a number (its "ask" range), a chosen player or the dice it rolls; the round score's
form (a number per player, the players' input) when the game asks for it (or at any time,
for a round the group ends); the roll for who goes first while the table rolls for it. The
game view: a column per tally in the players' table, named in the design's words; the pot,
the rounds (or, where rounds count for nothing, the turns), the target and who is out as the
game panel's figures. A move the engine refuses is said in the move's own words (`WORDS`).
"""

from __future__ import annotations

import re
from typing import Any

from companion.rules import dice as dicemod
from companion.rules.design import Design, rule_keys
from companion.rules.design.format import MoveDesign
from companion.web.kinds import (
    Action,
    Choice,
    Column,
    Field,
    Form,
    KindWeb,
    Name,
    Note,
    PerSeat,
    Quick,
    Seen,
    Send,
    Stat,
    View,
    Whole,
    Widget,
    Words,
    named,
    options,
)

SCORE_TITLE = "Round scores"
MAIN_MOVES = 6  # moves at hand under NEXT on a phone (the round score's form besides)


def _pays_chosen(m: MoveDesign) -> bool:
    """The chosen player pays or is paid: it cannot be the current player (the engine
    refuses a player paying themselves)."""
    return any(e.do == "pay" and "chosen" in (e.source, e.target) for e in m.effects)


def chosen_label(m: MoveDesign) -> str:
    """What the chosen player is for, from the move's first effect that names them: "Take
    from" (a take from them, or a payment from them), "Pay to", "Give to" (an add to them)."""
    for e in m.effects:
        if e.do == "take" and e.who == "chosen" or e.do == "pay" and e.source == "chosen":
            return "Take from"
        if e.do == "pay" and e.target == "chosen":
            return "Pay to"
        if e.do == "add" and e.who == "chosen":
            return "Give to"
    return "Player"


def _die(name: str) -> Choice:
    d = dicemod.die(name)
    return Choice(f"die-{name}", options(*d.faces), key=f"dice.{name}", label=f"{d.label} die")


def move_form(m: MoveDesign, s: Seen, *, main: bool = True) -> Form:
    """The form of a move that asks something: the chosen player, the amount, the dice."""
    fields: list[Field] = []
    if m.chooses:
        seats = s.seats(others=_pays_chosen(m), active=True)
        fields.append(Choice("player", seats, label=chosen_label(m)))
    if m.ask is not None:
        fields.append(Whole("amount", "Amount", m.ask.min, m.ask.max))
    fields += [_die(d) for d in m.rolls]
    return Form(_form_name(m), m.name, tuple(fields),
                submit=Send(m.name, {"type": "move", "name": m.name}), main=main)


def _form_name(m: MoveDesign) -> str:
    """A data-form name for a move: its name in lower case, dashes for the rest."""
    return "move-" + (re.sub(r"[^a-z0-9]+", "-", m.name.casefold()).strip("-") or "x")


def _asks(m: MoveDesign) -> bool:
    return m.chooses or m.ask is not None or bool(m.rolls)


def score_form(design: Design, s: Seen, *, ask: bool) -> Form:
    """A number per player added to the round score's tally (the players' input, empty until
    typed); who is out types 0."""
    rs = design.round_score
    assert rs is not None
    fields: list[Field] = [PerSeat("scores", rs.tally, rs.min, rs.max)]
    out = [s.name(k) for k in range(len(s.players)) if not s.active(k)]
    if out:
        fields.insert(0, Note(f"Out: type 0 for {', '.join(out)}."))
    return Form("score", f"Round {s.state.get('round', 0) + 1}: {rs.tally}", tuple(fields),
                submit=Send("Score the round", {"type": "score"}), ask=ask, main=True,
                short=SCORE_TITLE)


def roll_off_form(s: Seen) -> Form:
    """The roll for who goes first: the next player to roll records the 8-sided die."""
    seats = (s.ask or {}).get("seats") or [s.current]
    seat = int(seats[0])
    return Form("roll-off", f"Who goes first: {s.name(seat)} rolls the 8-sided die",
                (_die("d8"),), submit=Send("Record the roll", {"type": "roll", "player": seat}),
                ask=True)


def web_for(design: Design) -> KindWeb:
    """The web part of one design: its forms, its view and its words, from its data."""

    # The first MAIN_MOVES moves are the main actions, at hand under NEXT on a phone (a
    # 360x640 screen holds them all); the others wait below, with the forms.
    main = {m.name for m in design.moves[:MAIN_MOVES]}

    def actions(s: Seen) -> list[Action]:
        out: list[Action] = []
        for at_hand, title in ((True, ""), (False, "More moves")):
            quick = tuple(Send(m.name, {"type": "move", "name": m.name}) for m in design.moves
                          if not _asks(m) and (m.name in main) == at_hand)
            if quick:
                out.append(Quick(quick, title=title, main=at_hand))
        out += [move_form(m, s, main=m.name in main) for m in design.moves if _asks(m)]
        rs = design.round_score
        if rs is not None and rs.when == "group":
            out.append(score_form(design, s, ask=False))
        return out

    def view(s: Seen) -> View:
        st: Any = s.state
        stats: list[Widget] = []
        if st.get("pot") is not None:
            stats.append(Stat("pot", str(st["pot"]), "huge"))
        rules = s.rules
        reach = design.end_when("reach")
        if reach is not None:
            stats.append(Stat("target", f"{rules.get('target', reach.target)} {reach.tally}"))
        rounds = design.end_when("rounds")
        if design.round_score is None and rounds is None:
            # Rounds count for nothing in this design: the engine's round (as many turns as
            # players still in, ended by NEXT or by a skip) read as if everyone had had a
            # turn when not everyone had. The turns ended are the true count.
            stats.append(Stat("turns played", str(st.get("turns", 0))))
        else:
            played = str(st.get("round", 0))
            if rounds is not None:
                played += f" of {rules.get('rounds', rounds.rounds)}"
            stats.append(Stat("rounds played", played))
        out = st.get("eliminated") or []
        if any(t.out_at is not None for t in design.tallies):
            stats.append(Stat("out", ", ".join(s.name(k) for k in out) if out else "nobody"))
        if st.get("scoring") and not st.get("over"):
            stats.append(Note("The round is over: type its scores."))
        tallies = st.get("tallies") or {}
        # "(out)" beside the tally that puts a player out (its out_at), not in every column:
        # the row says so already (struck through), and four columns of it were too wide
        # for a 16 players' table on a 720p TV.
        columns = tuple(Column(t.name.capitalize(), tuple(
            str(v) + (" (out)" if k in out and t.out_at is not None else "")
            for k, v in enumerate(tallies.get(t.name, []))))
            for t in design.tallies)
        return View(tuple(stats), columns)

    return KindWeb(view=view, actions=actions,
                   asks={"round_score": lambda s: score_form(design, s, ask=True),
                         "roll_off": roll_off_form},
                   titles={"move": "Move", "score": SCORE_TITLE},
                   words=WORDS,
                   rules=rule_labels(design))


def rule_labels(design: Design) -> dict[str, str]:
    """New game's labels for the design's house rules, in its words."""
    labels = {f"{t.name} start": f"{t.name.capitalize()} at the start" for t in design.tallies}
    reach = design.end_when("reach")
    labels.update({"pot start": "The pot at the start", "rounds": "Rounds to play",
                   "target": f"{(reach.tally or '').capitalize()} to win" if reach else ""})
    return {k: labels[k] for k in rule_keys(design)}


def _move_said(m: re.Match[str], name: Name) -> str:
    """"move Steal: ..." as "Steal: ..." with the amount's range in words."""
    rest = m["rest"]
    if (n := re.fullmatch(r"amount must be a whole number (-?\d+)-(-?\d+), not (.*)", rest)):
        got = "nothing" if n[3] == "None" else n[3]
        return f"{m['move']}: the amount is a whole number {n[1]} to {n[2]}, not {got}"
    if rest.startswith("choose a player ("):
        return f"{m['move']}: choose a player"
    if rest.startswith("choose another player than the current one"):
        return f"{m['move']}: choose a player other than the one whose turn it is"
    return f"{m['move']}: {named(rest, name)}"


WORDS = (
    Words(re.compile(r"move (?P<move>.+?): (?P<rest>.*)"), _move_said),
    Words(re.compile(r"\w+: the table is rolling for who goes first .*"),
          lambda m, name: "First roll for who goes first: each player rolls the 8-sided die "
                          "(or the group picks, Who goes first)"),
    Words(re.compile(r"\w+: the round is over: type its scores first"),
          lambda m, name: f"The round is over: type its scores first ({SCORE_TITLE})"),
    Words(re.compile(r"score: seat (\d+) is out: its score must be 0"),
          lambda m, name: f"{SCORE_TITLE}: {name(m[1])} is out: type 0 for them"),
)
