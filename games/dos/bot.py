"""A greedy DOS computer player. It sees one seat's view and the legal actions, nothing else.

Shedding cards wins rounds, so it always matches when it can, choosing the set of matches (on distinct
Center Row cards, with cards it holds) that sheds the most; colour matches count extra because each
earns a bonus placement, and double colour matches more because every opponent draws. A Wild # is
worth keeping while the hand is large (it matches anything), so spending one costs a little.
When it must place a card, or places a bonus card, it gives up what it can least use: a Wild DOS
first (20 points, and only matches a 2), then its highest number, a Wild # last.

That is the medium level. Easy (``novice.py``) plays like a beginner. Hard ranks its plans as medium
does, also watching the others' hands (a double colour match is worth more for every opponent close to
going out; wild cards kept while nobody is close), then plays out its few best plans, or the few cards
it would give up, on deals of the cards it cannot see (``simulate.py``), every seat playing as medium
through its own next turn, and takes the one that leaves it best placed: the others' replies decide,
not only its own turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from games.dos import novice, simulate
from games.dos.cards import WILD_DOS, colour_of, points
from games.support.deadline import Deadline

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
# Hard: the plans (or cards to give up) it plays out, the most plays one playout may take, and how many
# plays one second of budget buys (about 5,700 measured by `bench/bots/dos.py --calibrate` on the busy
# 2-core development host, rounded down). Plays are counted, so the same view gets the same move; on a
# host slower than that rate the clock ends the sampling at ``budget_s`` (checked after each playout,
# at most MAX_PLAYOUT plays). A playout looks one round of the table ahead (see ``_hard``).
CANDIDATES = 2
MAX_PLAYOUT = 40
PLAYS_PER_SECOND = 5000


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


def _plans(view: dict[str, Any], matches: list[Action], outlook: Outlook | None = None) -> list[tuple[float, Action]]:
    """The plans of the turn, best first, each as (score, its first match): disjoint matches on distinct
    targets, completed greedily from each of the FIRST_MOVES best first matches. Plans made of the same
    matches are listed once."""
    best_variant: dict[tuple[int, tuple[str, ...]], tuple[float, Action]] = {}
    for action in matches:
        key = (action["target"], tuple(action["cards"]))
        score = _match_score(action, view, outlook)
        if key not in best_variant or score > best_variant[key][0]:
            best_variant[key] = (score, action)
    ranked = sorted(best_variant.items(), key=lambda item: -item[1][0])
    hand = Counter(view["hand"])
    plans: dict[frozenset[tuple[int, tuple[str, ...]]], tuple[float, Action]] = {}
    for first_key, (first_score, first) in ranked[:FIRST_MOVES]:
        left = hand.copy()
        left.subtract(first["cards"])
        used = {first["target"]}
        keys = {first_key}
        total = first_score
        for key, (score, action) in ranked:
            if action["target"] in used:
                continue
            need = Counter(action["cards"])
            if all(left[card] >= count for card, count in need.items()):
                left.subtract(need)
                used.add(action["target"])
                keys.add(key)
                total += score
        plan = frozenset(keys)
        if plan not in plans or total > plans[plan][0]:
            plans[plan] = (total, first)
    # sorted() is stable: of equal plans the one built first (from the better first match) leads.
    return sorted(plans.values(), key=lambda item: -item[0])


def _best_match(view: dict[str, Any], matches: list[Action], outlook: Outlook | None = None) -> Action:
    """The first step of the best plan."""
    return _plans(view, matches, outlook)[0][1]


def _give_up_order(card: str) -> tuple[int, int]:
    """Sort key: the card the bot would rather lose comes first."""
    if card == WILD_DOS:
        return (0, 0)
    if card.endswith("#"):
        return (2, 0)
    return (1, -points(card))


def _candidates(view: dict[str, Any], legal: list[Action], outlook: Outlook) -> list[Action]:
    """What hard weighs by playouts: the first matches of its best plans, or the cards it would most
    readily give up, at most CANDIDATES of them, the one medium would pick first."""
    matches = [action for action in legal if action["type"] == "match"]
    if matches:
        return [first for _score, first in _plans(view, matches, outlook)[:CANDIDATES]]
    placements = [action for action in legal if action["type"] in ("place", "bonus")]
    return sorted(placements, key=lambda action: _give_up_order(action["card"]))[:CANDIDATES]


def _hard(
    view: dict[str, Any],
    legal: list[Action],
    rng: Random,
    budget_s: float,
    known_hands: Sequence[Sequence[str]] | None = None,
) -> Action | None:
    """Each candidate played out on the same sampled deals (the unseen cards dealt at random), every
    seat then playing as medium for the rest of the turn and one round of the table more (each other
    seat's turn and its own next one); the best mean value wins. Work: at most
    ``budget_s * PLAYS_PER_SECOND`` simulated plays; a sample the budget cuts short is left out, so
    every candidate is judged on the same deals. With ``known_hands`` the deals keep the other hands
    as they are and shuffle only the draw and discard piles."""
    # A horizon short of a full round left the seats just before this one out of every playout: at
    # four players, two turns ahead measured weaker than medium (14% of games against 25% by chance).
    turns = view["players"]
    outlook = _outlook(view)
    candidates = _candidates(view, legal, outlook)
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    budget = int(budget_s * PLAYS_PER_SECOND)
    deadline = Deadline(budget_s)
    unseen = simulate.unseen_cards(view, known_hands)
    me = view["seat"]
    totals = [0.0] * len(candidates)
    spent = 0
    while spent < budget:
        state = simulate.sample_state(view, unseen, rng, known_hands)
        if state is None:
            break
        scores: list[float] = []
        for action in candidates:
            cap = min(MAX_PLAYOUT, budget - spent) - 1
            if cap < 0:
                break
            score, used = simulate.playout(simulate.step(state, action), me, _rollout_policy, turns, cap)
            spent += 1 + used
            if used == cap < MAX_PLAYOUT - 1:
                break  # cut short by the budget, not by the horizon: not comparable
            if deadline.passed():
                break  # a busy host: the time is up before the plays are; this deal is left out too
            scores.append(score)
        if len(scores) < len(candidates):
            break
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def _rollout_policy(view: dict[str, Any], legal: list[Action]) -> Action:
    return _medium(view, legal) or legal[0]


def _medium(view: dict[str, Any], legal: list[Action], outlook: Outlook | None = None) -> Action | None:
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
    return None


def choose(
    view: dict[str, Any],
    legal: list[Action],
    *,
    rng: Random,
    budget_s: float,
    level: str = "medium",
    known_hands: Sequence[Sequence[str]] | None = None,
) -> Action:
    """One of ``legal``, from ``view`` alone. ``level`` is "easy", "medium" or "hard". Easy and medium
    score each legal match once and try at most ``FIRST_MOVES`` plans, far quicker than any ``budget_s``;
    hard adds at most ``budget_s * PLAYS_PER_SECOND`` simulated plays.

    ``known_hands`` (every seat's hand) is for the post-game analysis only, never given in play: hard
    then plays its candidates out with the other hands as they are (only the piles unknown); easy and
    medium do not read other hands at all."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
    if level == "easy":
        return novice.choose(view, legal)
    action = _hard(view, legal, rng, budget_s, known_hands) if level == "hard" else _medium(view, legal)
    if action is None:
        action = _medium(view, legal)
    return action if action is not None else rng.choice(legal)
