"""The easy Back Alley player: a beginner's habits, from its own hand and the table only.

It bids the cards it thinks of as winners (aces, kings, high trumps and the jokers) without weighing
how many cards stay in the stock or how the partner bid, bids board only when it counts every card
as a winner, and in play it goes for
every trick it can win with its highest card, even over a partner who already holds the trick, and
leads its highest card. Mistakes a new player makes, but every move is a sensible one to make.
"""

from __future__ import annotations

from typing import Any

from games.backalley.cards import follow_suit, is_trump, parse, rank, strength
from games.engine import Action, View


def _winners(hand: tuple[int, ...], trump: int | None) -> int:
    """The cards a beginner counts as sure tricks."""
    return sum(1 for c in hand if rank(c) >= 13 or (is_trump(c, trump) and rank(c) >= 11))


def choose(view: View, hand: tuple[int, ...], trump: int | None, legal: list[Action]) -> Action:
    if legal[0]["type"] == "bid":
        offered = {a["bid"]: a for a in legal}
        sure = _winners(hand, trump)
        if sure >= len(hand) and "board" in offered:
            return offered["board"]
        bid: Any = min(sure, len(hand) - 1)
        return offered.get(bid, offered["pass"])
    cards = [parse(a["card"]) for a in legal]
    trick = [parse(p["card"]) for p in view["trick"]]
    if not trick:
        card = max(cards, key=lambda c: (is_trump(c, trump), rank(c)))
        return legal[cards.index(card)]
    led = follow_suit(trick[0], trump)
    best = max(strength(c, led, trump) for c in trick)
    winners = [c for c in cards if strength(c, led, trump) > best]
    if winners:
        card = max(winners, key=lambda c: strength(c, led, trump))
    else:
        card = min(cards, key=lambda c: (is_trump(c, trump), rank(c)))
    return legal[cards.index(card)]
