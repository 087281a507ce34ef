"""Nim's computer player. Nim hides nothing, so the view gives the whole position and the kit's generic
player (``games.kit.bots.one_ply``: take a win, never hand one over) applies: it is the easy level, and
the fallback of the others, which leave the opponent a multiple of four stones when they can (perfect play)."""

from __future__ import annotations

from typing import Any

from games.engine import Action, View
from games.kit.bots import one_ply
from tests.nim.rules import State, engine


def state_from_view(view: View) -> State:
    """The position a view shows (the takes so far matter only for who won, which ``apply`` records)."""
    return State(stones=view["stones"], to_move=view["seat"])


def choose(view: View, legal: list[Action], *, rng: Any, budget_s: float, level: str = "medium") -> Action:
    if level != "easy":
        winning = [a for a in legal if (view["stones"] - int(a["count"])) % 4 == 0]
        if winning:
            return winning[0]
    return one_ply(engine, state_from_view(view), view["seat"], legal, rng=rng)
