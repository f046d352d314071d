"""Chaos on the table web: the color cards, the two stacks, swap hands and round points from a
phone, and who deals the next round (the question the game asks after a round is scored); a
refused move in the words of its form."""

from __future__ import annotations

import re

from companion.games.chaos.rules import COLORS
from companion.web.kinds import (
    Action,
    ChipStat,
    Choice,
    Column,
    Form,
    KindWeb,
    Note,
    Option,
    PerSeat,
    Quick,
    Row,
    Seen,
    Send,
    Stat,
    View,
    Words,
    options,
)


def actions(s: Seen) -> list[Action]:
    st = s.state
    stack, train = st["draw_stack"], st["train"]
    return [
        Quick((Send("Take the Draw 4 stack" + (f" ({stack})" if stack else ""),
                    {"type": "take_draw_four"}),
               Send("Two Train", {"type": "two_train"}),
               Send("Take the train" + (f" ({train})" if train else ""), {"type": "take_train"})),
              main=True),
        Form("color", "Color cards",
             (Choice("color", options(*COLORS), label="Color"),),
             buttons=(Send("Pick a Color", {"type": "pick_color"}),
                      Send("Draw 4", {"type": "draw_four"}),
                      Send("Color Dump", {"type": "color_dump"})), main=True),
        Form("swap", "Swap Hands", (Row((Choice("a", s.seats(), key="players.0",
                                                label="Player"),
                                         Choice("b", s.seats(), key="players.1",
                                                label="Swaps hands with"))),),
             submit=Send("Swap", {"type": "swap_hands"})),
        Form("round_points", "Round points", (
            Note("Points left in each hand; 0 for who went out."),
            PerSeat("points", "points", 0, 999, need=0,
                    need_message="Round points: enter 0 for the player who went out"),
        ), submit=Send("Score the round", {"type": "round_points"}), main=True),
    ]


def dealer(s: Seen) -> Form:
    """After a round is scored the box asks who deals the next one (the snapshot's "ask"): the
    phone asks too. The player after the dealer, in the current direction, goes first."""
    def after(seat: int) -> int:
        n = len(s.players)
        for i in range(1, n + 1):
            k = (seat + s.state["direction"] * i) % n
            if s.active(k):
                return k
        return seat

    seats = tuple(Option(k, n, note=f"{s.name(after(k))} goes first", send=after(k))
                  for k, n in enumerate(s.players))
    # The players choose the dealer: the select starts empty (issue 34, item 9); the seat the
    # game suggests is said, not chosen for them.
    suggested = (s.ask or {}).get("suggested")
    hint = (Note(f"The deal passes on: usually {s.name(suggested)}, who went first last "
                 f"round"),) \
        if isinstance(suggested, int) and 0 <= suggested < len(s.players) else ()
    return Form("dealer", "Next round: who deals?",
                (*hint, Choice("dealer", seats, key="player", label="Dealer")),
                submit=Send("Deals", {"type": "first"}), ask=True)


def view(s: Seen) -> View:
    st = s.state
    stack, train = st["draw_stack"], st["train"]
    return View(
        (ChipStat("color", st["color"] or None),
         Stat("Draw 4 stack", str(stack), "alert" if stack else ""),
         Stat("Two Train", str(train), "alert" if train else ""),
         Stat("rounds scored", str(st["rounds"]))),
        (Column("Points", tuple(str(p) for p in st["scores"])),),
        turn=(f"{s.name(s.current)} owes {stack} cards (Draw 4)",) if stack else ())


TITLES = {
    "round_points": "Round points", "swap_hands": "Swap Hands", "pick_color": "Pick a Color",
    "draw_four": "Draw 4", "color_dump": "Color Dump", "take_draw_four": "Take the Draw 4 stack",
    "two_train": "Two Train", "take_train": "Take the train",
}

WORDS = (
    Words(re.compile(r"\w+: seat (\d+) must first take the (\d+) cards of the Draw 4 stack.*"),
          lambda m, name: f"{name(m[1])} must first take the {m[2]} cards of the Draw 4 stack "
                          f"(Take the Draw 4 stack), or answer with a Draw 4"),
    Words(re.compile(r"round_points: the round ends when a player is out of cards.*"),
          lambda m, name: "Round points: enter 0 for the player who went out (the round ends "
                          "when someone is out of cards)"),
    Words(re.compile(r"round_points: seat (\d+)'s points must be a whole number 0 or more, "
                     r"not (.*)"),
          lambda m, name: f"Round points: {name(m[1])}'s points must be a whole number 0 or "
                          f"more, not {m[2]}"),
)

WEB = KindWeb(view=view, actions=actions, asks={"dealer": dealer}, titles=TITLES, words=WORDS)
