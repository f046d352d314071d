"""Coin Toss on the table web, declared in the companion's vocabulary (companion/web/kinds.py):
on a paired phone, two buttons for the caller's call, right or wrong; on the pages, the target
and everyone's points.

The companion renders these declarations itself (the game has no JS of its own): the
snapshot carries them worked out for the game as it is, /api/kinds for a new game.
"""

from __future__ import annotations

from companion.web.kinds import Action, Column, KindWeb, Quick, Seen, Send, Stat, View


def _wins(s: Seen) -> bool:
    """A right call now wins the game (the caller is one point from the target)."""
    return s.state["points"][s.current] + 1 >= s.state["target"]


def actions(s: Seen) -> list[Action]:
    """One tap once the coin has landed. The title names the caller (a phone passed around the
    table records the right turn) and says when a right call ends the game."""
    title = f"{s.name(s.current)}'s call: a right one {'wins' if _wins(s) else 'scores'}"
    return [
        Quick((Send("Right call", {"type": "toss", "right": True}, color="green"),
               Send("Wrong call", {"type": "toss", "right": False}, color="red")),
              title=title),
    ]


def view(s: Seen) -> View:
    """The target, big; a Points column; beside the caller's name, when it is so, that a right
    call wins (the moment the table watches)."""
    turn = ("a right call wins",) if not s.state["over"] and _wins(s) else ()
    return View((Stat("points to win", str(s.state["target"]), "huge"),),
                (Column("Points", tuple(str(p) for p in s.state["points"])),),
                turn)


WEB = KindWeb(view=view, actions=actions)
