"""A greedy DOS computer player. It sees one seat's view and the legal actions, nothing else.

Shedding cards wins rounds, so it always matches when it can, choosing the set of matches (on distinct
Center Row cards, with cards it holds) that sheds the most; colour matches count extra because each
earns a bonus placement, and double colour matches more because every opponent draws. A Wild # is
worth keeping while the hand is large (it matches anything), so spending one costs a little.
When it must place a card, or places a bonus card, it gives up what it can least use: a Wild DOS
first (20 points, and only matches a 2), then its highest number, a Wild # last.

That is the medium level. Easy (``novice.py``) plays like a beginner. Hard also watches the others'
hands: a double colour match is worth more for every opponent close to going out (each must draw),
and its wild cards are kept while nobody is close and spent to race when someone is.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random
from typing import Any

from games.dos import novice
from games.dos.cards import WILD_DOS, colour_of, points

Action = dict[str, Any]

CARD_SHED = 100
COLOUR_BONUS = 80
PENALTY_PER_OPPONENT = 30
WILD_NUMBER_KEEP = 30
WILD_DOS_KEEP = 5
FIRST_MOVES = 12
LEVELS = ("easy", "medium", "hard")
# Hard: an opponent this close to going out is a threat (cards in hand).
THREAT = 2
# Hard: what each penalty card given to a threatening opponent is worth, on top of the usual.
PENALTY_ON_THREAT = 120


@dataclass(frozen=True, slots=True)
class Outlook:
    """What the hard level reads from the table besides its own hand."""

    threats: int  # opponents with THREAT cards or fewer
    keep_wilds: bool  # nobody is close to going out: wild cards are worth saving for later


def _outlook(view: dict[str, Any]) -> Outlook:
    me = view["seat"]
    counts = [n for s, n in enumerate(view["hand_counts"]) if s != me]
    threats = sum(1 for n in counts if n <= THREAT)
    return Outlook(threats=threats, keep_wilds=threats == 0)


def _colour(card: str, declaration: Any) -> str | None:
    return declaration if card == WILD_DOS else colour_of(card)


def _match_score(action: Action, view: dict[str, Any], outlook: Outlook | None = None) -> float:
    cards: list[str] = action["cards"]
    declared = action.get("declare") or [None] * len(cards)
    target = view["center_row"][action["target"]]["card"]
    target_colour = _colour(target, action.get("target_declare"))
    coloured = all(_colour(card, d) == target_colour for card, d in zip(cards, declared, strict=True))
    hand_after = len(view["hand"]) - len(cards)
    score = CARD_SHED * len(cards) + sum(points(card) for card in cards)
    if coloured:
        score += COLOUR_BONUS if hand_after > 0 else 0
        if len(cards) == 2:
            score += PENALTY_PER_OPPONENT * (view["players"] - 1)
    keep_wilds = outlook.keep_wilds if outlook is not None else True
    if keep_wilds and hand_after > 2:
        score -= sum(WILD_NUMBER_KEEP for card in cards if card.endswith("#"))
        score -= sum(WILD_DOS_KEEP for card in cards if card == WILD_DOS)
    if outlook is not None and coloured and len(cards) == 2:
        score += PENALTY_ON_THREAT * outlook.threats
    return score


def _best_match(view: dict[str, Any], matches: list[Action], outlook: Outlook | None = None) -> Action:
    """The first step of the best plan: disjoint matches on distinct targets, completed greedily."""
    best_variant: dict[tuple[int, tuple[str, ...]], tuple[float, Action]] = {}
    for action in matches:
        key = (action["target"], tuple(action["cards"]))
        score = _match_score(action, view, outlook)
        if key not in best_variant or score > best_variant[key][0]:
            best_variant[key] = (score, action)
    ranked = sorted(best_variant.values(), key=lambda item: -item[0])
    hand = Counter(view["hand"])
    best_total, best_action = float("-inf"), ranked[0][1]
    for first_score, first in ranked[:FIRST_MOVES]:
        left = hand.copy()
        left.subtract(first["cards"])
        used = {first["target"]}
        total = first_score
        for score, action in ranked:
            if action["target"] in used:
                continue
            need = Counter(action["cards"])
            if all(left[card] >= count for card, count in need.items()):
                left.subtract(need)
                used.add(action["target"])
                total += score
        if total > best_total:
            best_total, best_action = total, first
    return best_action


def _give_up_order(card: str) -> tuple[int, int]:
    """Sort key: the card the bot would rather lose comes first."""
    if card == WILD_DOS:
        return (0, 0)
    if card.endswith("#"):
        return (2, 0)
    return (1, -points(card))


def choose(view: dict[str, Any], legal: list[Action], *, rng: Random, budget_s: float, level: str = "medium") -> Action:
    """One of ``legal``, from ``view`` alone. ``level`` is "easy", "medium" or "hard". Every level scores
    each legal match once and tries at most ``FIRST_MOVES`` plans, far quicker than any ``budget_s``."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
    if level == "easy":
        return novice.choose(view, legal)
    outlook = _outlook(view) if level == "hard" else None
    matches = [action for action in legal if action["type"] == "match"]
    if matches:
        return _best_match(view, matches, outlook)
    placements = [action for action in legal if action["type"] in ("place", "bonus")]
    if placements:
        # Placing a number instead of the Wild DOS (as the issue suggested) measured no better.
        return min(placements, key=lambda action: _give_up_order(action["card"]))
    for kind in ("draw", "finish", "skip_bonus"):
        for action in legal:
            if action["type"] == kind:
                return action
    return rng.choice(legal)
