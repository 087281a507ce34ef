"""Nim's computer player: leave the opponent a multiple of four stones when it can (perfect play)."""

from __future__ import annotations

from typing import Any

from games.engine import Action, View


def choose(view: View, legal: list[Action], *, rng: Any, budget_s: float, level: str = "medium") -> Action:
    winning = [a for a in legal if (view["stones"] - int(a["count"])) % 4 == 0]
    if winning and level != "easy":
        return winning[0]
    return rng.choice(legal)
