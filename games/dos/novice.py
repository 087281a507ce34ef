"""The easy DOS player: a beginner's habits, from its own view only.

It matches the first thing it sees that sheds the most cards, without planning its matches together,
weighing colour bonuses and penalties, or saving a wild card for later; when it must give a card up it
lets go of its smallest number and holds on to the high ones. Every move is one a new player makes.
"""

from __future__ import annotations

from typing import Any

from games.dos.cards import is_wild, points

Action = dict[str, Any]


def choose(view: dict[str, Any], legal: list[Action]) -> Action:
    matches = [action for action in legal if action["type"] == "match"]
    if matches:
        # max() keeps the first of equals: legal_actions lists the row left to right, singles first.
        return max(matches, key=lambda action: len(action["cards"]))
    placements = [action for action in legal if action["type"] in ("place", "bonus")]
    if placements:
        return min(placements, key=lambda action: (is_wild(action["card"]), points(action["card"])))
    for kind in ("finish", "draw", "skip_bonus"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]
