"""The rule vote screens, offered in every game's menu (docs/rules.md, "Common to all games").

How many versions (2-4, named A-D), then one ballot per player in seat order, then the
result. Counting is `companion.rules.vote.count`; nothing is journaled (docs/rules-readings.md).
The deck owner comes from the house rules (`deck_owner`); when a tie needs it and none is set,
the result screen asks who owns the deck.
"""

from __future__ import annotations

from typing import Any

from companion.inputs import Button
from companion.rules import vote
from companion.ui import draw
from companion.ui.actions import Home, Pop, Push, Replace
from companion.ui.screen import Context, Item, Menu, NumberEntry, Result, Screen


def start_vote(ctx: Context) -> Screen:
    def describe(n: int) -> str:
        return "Versions " + ", ".join(vote.LETTERS[:n])

    entry = NumberEntry("Rule vote: versions", value=2, lo=vote.MIN_VERSIONS,
                        hi=vote.MAX_VERSIONS, describe=describe,
                        done=lambda n: Replace(Ballot(n)))
    entry.asks_table = True  # the vote is the whole table's: nobody's turn runs
    return entry


def deck_owner(ctx: Context) -> int | None:
    return ctx.journal.header.rules.get("deck_owner") if ctx.journal else None


class Ballot(Screen):
    """One player at a time picks a version: UP/DOWN move, OK votes, BACK takes a vote back."""

    asks_table = True

    def __init__(self, versions: int) -> None:
        self.versions = vote.check_versions(versions)
        self.votes: list[int] = []
        self.cursor = 0

    def draw_on(self, d, ctx: Context) -> None:
        n = len(ctx.playing.header.players)
        seat = len(self.votes)
        top = draw.title_bar(d, "Rule vote", f"{seat + 1}/{n}")
        draw.centered(d, (0, top, draw.WIDTH, top + 20), ctx.name(seat), largest=20)
        w = draw.WIDTH // self.versions
        for v in range(self.versions):
            box = (v * w + 2, 36, (v + 1) * w - 3, 63)
            chosen = v == self.cursor
            if chosen:
                d.rectangle(box, fill=1)
            else:
                d.rectangle(box, outline=1)
            draw.centered(d, (box[0] + 1, box[1] + 1, box[2], box[3]), vote.letter(v),
                          largest=24, fill=0 if chosen else 1)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button in (Button.UP, Button.NEXT):
            self.cursor = (self.cursor + (1 if button is Button.NEXT else -1)) % self.versions
        elif button is Button.DOWN:
            self.cursor = (self.cursor + 1) % self.versions
        elif button is Button.OK:
            self.votes.append(self.cursor)
            self.cursor = 0
            if len(self.votes) == len(ctx.playing.header.players):
                return Replace(VoteResult(self.versions, tuple(self.votes),
                                          owner=deck_owner(ctx)))
        elif button is Button.BACK:
            if not self.votes:
                return Pop()
            self.cursor = self.votes.pop()
        return None


class VoteResult(Screen):
    """The winning version, or a tie to vote again; asks for the deck owner when needed."""

    asks_table = True

    def __init__(self, versions: int, votes: tuple[int, ...], *, owner: int | None) -> None:
        self.versions = versions
        self.votes = votes
        self.owner = owner
        self.asked = owner is not None  # nobody owns the deck: a tie is voted again

    def outcome(self) -> vote.Outcome:
        return vote.count(self.votes, versions=self.versions, deck_owner=self.owner)

    @property
    def needs_owner(self) -> bool:
        o = self.outcome()
        return o.tie and self.owner is None and not self.asked

    def draw_on(self, d, ctx: Context) -> None:
        o = self.outcome()
        top = draw.title_bar(d, "Rule vote")
        tied = " & ".join(vote.letter(v) for v in o.tied)
        if o.winner is not None:
            big = f"{vote.letter(o.winner)} wins"
        elif self.needs_owner:
            big = f"Tie: {tied}"
        else:
            big = "Tie: vote again"
        draw.centered(d, (0, top, draw.WIDTH, 40), big, largest=26)
        points = "  ".join(f"{vote.letter(v)} {p}" for v, p in enumerate(o.final_points))
        draw.centered(d, (0, 41, draw.WIDTH, 52), points, largest=12)
        if o.by_deck_owner:
            assert self.owner is not None  # only a deck owner's vote breaks a tie
            line = f"{ctx.name(self.owner)}'s deck: vote x2"
        elif self.needs_owner:
            line = "OK: who owns the deck?"
        elif o.revote:
            line = "OK: vote again"
        else:
            line = "Most votes. OK: done"
        draw.centered(d, (0, 53, draw.WIDTH, 64), line, largest=draw.SMALL + 1)

    def on_press(self, button: Button, ctx: Context) -> Result:
        if button is Button.OK:
            if self.needs_owner:
                return Push(self._owner_menu(ctx))
            if self.outcome().revote:
                return Replace(Ballot(self.versions))
            return Home()
        if button is Button.BACK:
            return Home()
        return None

    def _owner_menu(self, ctx: Context) -> Menu:
        seats = range(len(ctx.playing.header.players))
        items = [Item(ctx.name(s), (lambda c, s=s: self._set_owner(s))) for s in seats]
        items.append(Item("Nobody here", lambda c: self._set_owner(None)))
        return Menu("Who owns the deck?", items)

    def _set_owner(self, seat: int | None) -> Any:
        self.owner = seat
        self.asked = True
        return Pop()
