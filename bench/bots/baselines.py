"""The outside baselines the bots are measured against: a random player and a greedy player per game,
and the pairings of the levels with them that every game's benchmark runs.

Not a benchmark itself (``make bench-bots`` skips it). Every player here has the bots' signature,
``(view, legal, *, rng, budget_s) -> action``, and sees only the seat's view.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

Action = dict[str, Any]
Player = Callable[..., Action]


def pairings(level: Callable[[str], Player], greedy: Player) -> list[tuple[str, Player, Player]]:
    """(label, player under test, opponent), in the order the scripts report them: each level against
    the level below, then the levels against the random and the game's greedy player."""
    return [
        ("medium vs easy", level("medium"), level("easy")),
        ("hard vs medium", level("hard"), level("medium")),
        ("easy vs random", level("easy"), random_player),
        ("easy vs greedy", level("easy"), greedy),
        ("medium vs greedy", level("medium"), greedy),
        ("hard vs greedy", level("hard"), greedy),
        ("hard vs random", level("hard"), random_player),
    ]


def random_player(view: dict[str, Any], legal: list[Action], *, rng: Random, budget_s: float) -> Action:
    return rng.choice(legal)


def dos_greedy(view: dict[str, Any], legal: list[Action], *, rng: Random, budget_s: float) -> Action:
    """Sheds the most cards it can at once, matching before drawing; gives up its highest-scoring card."""
    from games.dos.cards import points

    matches = [a for a in legal if a["type"] == "match"]
    if matches:
        return max(matches, key=lambda a: len(a["cards"]))
    placements = [a for a in legal if a["type"] in ("place", "bonus")]
    if placements:
        return max(placements, key=lambda a: points(a["card"]))
    for kind in ("finish", "draw", "skip_bonus"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def tacocat_greedy(view: dict[str, Any], legal: list[Action], *, rng: Random, budget_s: float) -> Action:
    """Keeps its lowest card for the showdown and fights every exchange with the highest cards it has."""
    kind = legal[0]["type"]
    if kind == "replace":
        # Replace its highest cards, hoping for lower ones.
        return max(legal, key=lambda a: (sorted((int(c) for c in a["cards"]), reverse=True), len(a["cards"])))
    if kind == "duel":
        return max(legal, key=lambda a: int(a["card"]))
    if kind == "attack":
        return max(legal, key=lambda a: (len(a["cards"]), sum(int(c) for c in a["cards"])))
    return max(legal, key=lambda a: sum(int(c) for c in a["answers"]))


def backalley_greedy(view: dict[str, Any], legal: list[Action], *, rng: Random, budget_s: float) -> Action:
    """Bids its aces and high trumps; wins every trick it can as cheaply as it can, else throws its lowest."""
    from games.backalley.cards import follow_suit, is_trump, parse, rank, strength

    trump = None if view["trump"] is None else "SHDC".index(view["trump"])
    if legal[0]["type"] == "bid":
        hand = [parse(c) for c in view["hand"]]
        sure = sum(1 for c in hand if rank(c) == 14 or (is_trump(c, trump) and rank(c) >= 12))
        offered = {a["bid"]: a for a in legal}
        if sure >= len(hand) and "board" in offered:
            return offered["board"]
        return offered.get(sure, offered["pass"])
    cards = [parse(a["card"]) for a in legal]
    trick = [parse(p["card"]) for p in view["trick"]]
    if not trick:
        return legal[cards.index(max(cards, key=rank))]
    led = follow_suit(trick[0], trump)
    best = max(strength(c, led, trump) for c in trick)
    winners = [c for c in cards if strength(c, led, trump) > best]
    if winners:
        return legal[cards.index(min(winners, key=lambda c: strength(c, led, trump)))]
    return legal[cards.index(min(cards, key=lambda c: (is_trump(c, trump), rank(c))))]
