"""A computer player for Tacocat Spelled Backwards. It sees only its seat's view and the legal actions.

The round is won by the lower last card, so the bot treats its lowest cards as the prize and its
high cards as weapons: it replaces middle cards, duels and attacks with high cards (jumbo attacks when
the opponent is unlikely to answer them), and when defending weighs the high cards a defence costs
against the low card a sacrifice costs. Near the end of a round (few cards left) it samples the
opponent's hand from the unseen cards and solves the rest of the round exactly for each sample.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from functools import lru_cache, partial

from games.engine import Action, View
from games.tacocat.moves import defence_options, legal_attacks, remove

Hand = tuple[int, ...]

SEARCH_MAX_HAND = 4  # solve exactly from this many cards each; above, heuristics
SAMPLES = 24
INITIATIVE = 1.5  # worth of attacking next, in the units of hand_value


def _values(codes: list[str]) -> Hand:
    return tuple(sorted(int(c) for c in codes))


def hand_value(hand: Hand) -> float:
    """How good a hand is for the rest of the round: low cards win the showdown, high cards fight."""
    if not hand:
        return 0.0
    low = -3.0 * hand[0]
    backup = -1.0 * hand[1] if len(hand) > 1 else 0.0
    weapons = 0.6 * sum(max(0, v - 8) for v in hand[1:])
    return low + backup + weapons


def unseen(view: View) -> list[int]:
    """Cards the bot cannot see: the opponent's hand and the draw pile, as a multiset."""
    pool = Counter({int(v): n for v, n in view["distribution"].items()})
    seen = [*view["hand"], *view["discard"], *((view["attack"] or {}).get("cards", []))]
    pool.subtract(int(c) for c in seen)
    return sorted(pool.elements())


@lru_cache(maxsize=50_000)
def solve(mine: Hand, theirs: Hand, my_attack: bool) -> float:
    """My chance (1 win, 0.5 tie, 0 loss) at the showdown if both play the rest of the round perfectly
    with open hands; hands are equal in size outside an exchange (TAC-INV1)."""
    if len(mine) == 1:
        return 1.0 if mine[0] < theirs[0] else 0.0 if mine[0] > theirs[0] else 0.5
    if not my_attack:
        return 1.0 - solve(theirs, mine, True)
    best = 0.0
    for attack in legal_attacks(mine):
        left = remove(mine, attack)
        assert left is not None
        best = max(best, _attack_value(left, attack, theirs))
    return best


def _sample_hands(pool: list[int], size: int, rng: random.Random) -> list[Hand]:
    return [tuple(sorted(rng.sample(pool, size))) for _ in range(SAMPLES)]


def _by_samples(options: list[tuple[Action, Callable[[Hand], float]]], samples: list[Hand], deadline: float) -> Action:
    """The action with the best total value over the samples evaluated before the deadline (at least one).

    Samples are the outer loop so that running out of time still compares every action on equal terms.
    """
    totals = [0.0] * len(options)
    for n, theirs in enumerate(samples):
        if n and time.perf_counter() > deadline:
            break
        for i, (_, value) in enumerate(options):
            totals[i] += value(theirs)
    return options[max(range(len(options)), key=totals.__getitem__)][0]


def _best(scored: list[tuple[float, Action]]) -> Action:
    return max(scored, key=lambda pair: pair[0])[1]


def _replace(hand: Hand, legal: list[Action]) -> Action:
    """Discard the middle cards: neither the low card kept for the showdown nor a high weapon."""
    keep_low = {hand[0]} if hand[0] <= 5 else set()
    limit = max(len(a["cards"]) for a in legal)
    doomed = sorted(
        (v for v in hand if 4 <= v <= 8 and v not in keep_low),
        key=lambda v: abs(v - 6.5),
    )[:limit]
    wanted = sorted(map(str, doomed), key=int)
    for action in legal:
        if action["cards"] == wanted:
            return action
    return legal[0]


def _duel_value(left: Hand, mine: int, theirs: Hand) -> float:
    """My chance after duelling ``mine``, the opponent's duel card being any card of ``theirs``."""
    total = 0.0
    for card in theirs:
        kept = remove(theirs, (card,))
        assert kept is not None
        if len(left) == 1 or mine == card:
            # A tie repeats the duel; approximated by attacking half the time.
            total += (solve(left, kept, True) + solve(left, kept, False)) / 2
        else:
            total += solve(left, kept, mine > card)
    return total / len(theirs)


def _duel(view: View, hand: Hand, legal: list[Action], rng: random.Random, deadline: float) -> Action:
    pool = unseen(view)
    options = []
    for action in legal:
        mine = int(action["card"])
        left = remove(hand, (mine,))
        assert left is not None
        options.append((action, mine, left))
    if len(hand) <= 3:
        samples = _sample_hands(pool, len(hand), rng)
        return _by_samples(
            [(action, partial(_duel_value, left, mine)) for action, mine, left in options], samples, deadline
        )
    scored = []
    for action, mine, left in options:
        win = sum(1.0 if c < mine else 0.5 if c == mine else 0.0 for c in pool) / max(1, len(pool))
        scored.append((hand_value(left) + INITIATIVE * win, action))
    return _best(scored)


def _forced_sacrifices(theirs: Hand, attack: Hand) -> int:
    """How many attack cards ``theirs`` cannot beat, matching its highest cards to the highest attacks."""
    top = sorted(theirs, reverse=True)[: len(attack)]
    return sum(1 for v, a in zip(top, sorted(attack, reverse=True), strict=False) if v < a)


def _attack_value(left: Hand, attack: Hand, theirs: Hand) -> float:
    """My chance after attacking; the defender answers knowing the attack, so it picks its best answer."""
    worst = 1.0
    for answers, won in defence_options(theirs, attack):
        kept = remove(theirs, answers)
        assert kept is not None
        worst = min(worst, solve(left, kept, not won))
    return worst


def _attack(view: View, hand: Hand, legal: list[Action], rng: random.Random, deadline: float) -> Action:
    samples = _sample_hands(unseen(view), view["hand_counts"][1 - view["seat"]], rng)
    options = []
    for action in legal:
        attack = _values(action["cards"])
        left = remove(hand, attack)
        assert left is not None
        options.append((action, attack, left))
    if len(hand) <= SEARCH_MAX_HAND:
        return _by_samples(
            [(action, partial(_attack_value, left, attack)) for action, attack, left in options], samples, deadline
        )
    scored = []
    for action, attack, left in options:
        sacrifices = sum(_forced_sacrifices(theirs, attack) for theirs in samples) / len(samples)
        held = sum(1 for theirs in samples if _forced_sacrifices(theirs, attack) == 0) / len(samples)
        # A forced sacrifice costs the opponent its lowest card; a full defence hands it the attack.
        scored.append((hand_value(left) + 2.5 * sacrifices - INITIATIVE * held, action))
    return _best(scored)


def _defend_value(left: Hand, won: bool, theirs: Hand) -> float:
    return solve(left, theirs, won)


def _defend(view: View, hand: Hand, legal: list[Action], rng: random.Random, deadline: float) -> Action:
    attack = _values(view["attack"]["cards"])
    options = []
    for action in legal:
        answers = tuple(int(c) for c in action["answers"])
        left = remove(hand, answers)
        assert left is not None
        # Answers are aligned with the sorted attack cards.
        won = all(v >= a for v, a in zip(answers, attack, strict=True))
        options.append((action, left, won))
    if len(hand) <= SEARCH_MAX_HAND:
        samples = _sample_hands(unseen(view), len(hand) - len(attack), rng)
        return _by_samples(
            [(action, partial(_defend_value, left, won)) for action, left, won in options], samples, deadline
        )
    return _best([(hand_value(left) + (INITIATIVE if won else 0.0), action) for action, left, won in options])


def choose(
    view: View, legal: list[Action], *, rng: random.Random, budget_s: float = 1.0, level: str = "medium"
) -> Action:
    """One of ``legal`` for the seat whose ``view`` this is."""
    if len(legal) == 1:
        return legal[0]
    deadline = time.perf_counter() + budget_s
    hand = _values(view["hand"])
    kind = legal[0]["type"]
    if kind == "replace":
        pick = _replace(hand, legal)
    elif kind == "duel":
        pick = _duel(view, hand, legal, rng, deadline)
    elif kind == "attack":
        pick = _attack(view, hand, legal, rng, deadline)
    else:
        pick = _defend(view, hand, legal, rng, deadline)
    # The contract is one of ``legal``, whatever the heuristics above decide.
    return pick if pick in legal else rng.choice(legal)
