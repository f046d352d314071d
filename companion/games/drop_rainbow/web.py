"""Drop Rainbow on the table web: reveal, then a tap per card turned up and bank the side pile
from a phone; the top card, the side pile and each player's colors."""

from __future__ import annotations

from companion.games.drop_rainbow.rules import DEFAULT_COLORS, RAINBOW
from companion.web.kinds import (
    Action,
    Chip,
    ChipsStat,
    ChipStat,
    Choice,
    Column,
    Form,
    KindWeb,
    Quick,
    Seen,
    Send,
    Stat,
    View,
    options,
)


def actions(s: Seen) -> list[Action]:
    st = s.state
    colors = list(s.rules.get("colors") or DEFAULT_COLORS)
    if not st["top"]:
        return [Form("reveal", "Reveal the first card", (Choice("color", options(*colors),
                                                                label="Color"),),
                     submit=Send("Reveal", {"type": "reveal"}), main=True)]
    return [
        Quick(tuple(Send(c, {"type": "draw", "color": c}, color=c) for c in [*colors, RAINBOW]),
              title="Draw: the card turned up", main=True),
        Quick((Send(f"Bank the side cards ({len(st['side'] or ())})", {"type": "bank"}),),
              main=True),
    ]


def view(s: Seen) -> View:
    st = s.state
    side = tuple(st["side"] or ())
    return View(
        (ChipStat("top card", st["top"] or None, none="—"),
         ChipsStat(f"side pile ({len(side)})", side),
         Stat("discarded", str(st["discarded"])),
         *((Stat("ended by", str(st["ended_by"])),) if st["ended_by"] else ())),
        (Column("Cards", tuple(str(n) for n in st["score_cards"])),
         Column("Colors", tuple(tuple(Chip(c, c[:1].upper()) for c in cs or ())
                                for cs in st["colors"]))))


WEB = KindWeb(view=view, actions=actions, titles={
    "reveal": "Reveal the first card", "draw": "Draw", "bank": "Bank the side cards"},
    rules={"colors": "The seven colors, in order (commas between)"})
