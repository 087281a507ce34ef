"""A computer player for Tacocat Spelled Backwards. It sees only its seat's view and the legal actions.

The round is won by the lower last card, so the bot treats its lowest cards as the prize and its
high cards as weapons: it replaces middle cards, duels and attacks with high cards (jumbo attacks when
the opponent is unlikely to answer them), and when defending weighs the high cards a defence costs
against the low card a sacrifice costs. Near the end of a round (few cards left) it samples the
opponent's hand from the unseen cards and solves the rest of the round exactly for each sample.

Levels: easy plays a beginner's plan and never searches, medium searches from 4 cards
each with 24 samples (the duel from 3), hard from 6 cards (the duel from 5) with up to 96 samples and a
pruned, ordered search that solves the same positions in a fraction of the work; hard trusts its search
only when it solved at least 6 samples. The search's work is counted in nodes
(positions visited): a decision stops sampling before its node budget would be passed, so the same
view gets the same move. On a busy host, where the nodes come slower, the search also stops when
``budget_s`` of wall time has passed (``games.support.deadline``), so no decision overruns it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from games.engine import Action, View
from games.support.deadline import Deadline
from games.tacocat.moves import defence_options, legal_attacks, remove

Hand = tuple[int, ...]

INITIATIVE = 1.5  # worth of attacking next, in the units of hand_value
LEVELS = ("easy", "medium", "hard")
# Positions visited per second of budget: with an empty memo (the slowest case) a hard game ran at
# about 22 k per CPU-second on a busy 2-core host, so this keeps the search inside the budget even
# cold. The count bounds the work; the clock only cuts it short on a host slower than that.
NODES_PER_SECOND = 20_000
# Positions between two reads of the clock: a few milliseconds on a busy host.
CLOCK_EVERY = 64


def _strongest_first(hand: Hand) -> list[Hand]:
    """Attacks ordered so a winning one tends to come first, which pruning turns into fewer positions:
    the highest card first (a high attack forces a defence or a sacrifice), short before long."""
    return sorted(legal_attacks(hand), key=lambda attack: (-attack[-1], len(attack)))


@dataclass(frozen=True, slots=True)
class Level:
    search_max_hand: int  # solve exactly from this many cards each; above, heuristics
    samples: int  # opponent hands sampled per decision
    duel_max_hand: int  # search the duel from this many cards each
    prune: bool  # stop a search node once its side has a sure win: the same values for fewer positions
    min_samples: int  # trust the search only when it solved this many samples, else the rules of thumb


LEVEL_SETTINGS = {
    "medium": Level(search_max_hand=4, samples=24, duel_max_hand=3, prune=False, min_samples=1),
    "hard": Level(search_max_hand=6, samples=96, duel_max_hand=5, prune=True, min_samples=6),
}


class OutOfWork(Exception):
    """The node budget of the decision is spent."""


# Solved positions, shared by every decision of the process: a position's value is a fact of the
# open hands (of sampled hands, never of real hidden cards), so a later decision may reuse it; a warm
# memo visits fewer positions per sample, so more samples fit in a budget. Cleared past the cap.
_MEMO: dict[tuple[Hand, Hand, bool], float] = {}
MEMO_CAP = 200_000


class Search:
    """Exact play of the rest of a round with open hands, memoised, counting the positions it solves.

    It stops (``OutOfWork``) when ``max_nodes`` are spent or, read every ``CLOCK_EVERY`` positions,
    when ``deadline`` has passed (a busy host); the caller drops the sample it cut short.
    """

    def __init__(self, max_nodes: int, prune: bool = False, deadline: Deadline | None = None) -> None:
        self.max_nodes = max_nodes
        self.prune = prune
        self.deadline = deadline
        self.nodes = 0
        if len(_MEMO) > MEMO_CAP:
            _MEMO.clear()
        self._memo = _MEMO

    def solve(self, mine: Hand, theirs: Hand, my_attack: bool) -> float:
        """My chance (1 win, 0.5 tie, 0 loss) at the showdown if both play the rest of the round
        perfectly with open hands; hands are equal in size outside an exchange (TAC-INV1)."""
        # Every call counts, found in the memo or not, so the work (and so the move) of a decision
        # does not depend on what earlier decisions left in the memo.
        if self.nodes >= self.max_nodes:
            raise OutOfWork
        if self.nodes % CLOCK_EVERY == 0 and self.deadline is not None and self.deadline.passed():
            raise OutOfWork
        self.nodes += 1
        key = (mine, theirs, my_attack)
        known = self._memo.get(key)
        if known is not None:
            return known
        if len(mine) == 1:
            value = 1.0 if mine[0] < theirs[0] else 0.0 if mine[0] > theirs[0] else 0.5
        elif not my_attack:
            value = 1.0 - self.solve(theirs, mine, True)
        else:
            value = 0.0
            for attack in _strongest_first(mine) if self.prune else legal_attacks(mine):
                left = remove(mine, attack)
                assert left is not None
                value = max(value, self.attack_value(left, attack, theirs))
                if self.prune and value == 1.0:
                    break
        self._memo[key] = value
        return value

    def attack_value(self, left: Hand, attack: Hand, theirs: Hand) -> float:
        """My chance after attacking; the defender answers knowing the attack, so it picks its best."""
        worst = 1.0
        for answers, won in defence_options(theirs, attack):
            kept = remove(theirs, answers)
            assert kept is not None
            worst = min(worst, self.solve(left, kept, not won))
            if self.prune and worst == 0.0:
                break
        return worst

    def duel_value(self, left: Hand, mine: int, theirs: Hand) -> float:
        """My chance after duelling ``mine``, the opponent's duel card being any card of ``theirs``."""
        total = 0.0
        for card in theirs:
            kept = remove(theirs, (card,))
            assert kept is not None
            if len(left) == 1 or mine == card:
                # A tie repeats the duel; approximated by attacking half the time.
                total += (self.solve(left, kept, True) + self.solve(left, kept, False)) / 2
            else:
                total += self.solve(left, kept, mine > card)
        return total / len(theirs)

    def defend_value(self, left: Hand, won: bool, theirs: Hand) -> float:
        return self.solve(left, theirs, won)


def node_budget(budget_s: float) -> int:
    """The positions a decision may visit within ``budget_s`` seconds."""
    return max(1, int(budget_s * NODES_PER_SECOND))


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


def _sample_hands(pool: list[int], size: int, rng: random.Random, count: int) -> list[Hand]:
    return [tuple(sorted(rng.sample(pool, size))) for _ in range(count)]


def _opponent_hands(
    view: View, size: int, rng: random.Random, level: Level, known: Hand | None
) -> tuple[list[Hand], int]:
    """The opponent's hands the decision is weighed on, and how many must be solved to trust the
    search: ``level.samples`` drawn from the unseen cards; or, the hand being known (the analysis's
    "every hand known" question), that one hand, which is the truth and so is trusted alone."""
    if known is not None:
        return [known], 1
    return _sample_hands(unseen(view), size, rng, level.samples), level.min_samples


def _by_samples(
    options: list[tuple[Action, Callable[[Hand], float]]],
    samples: list[Hand],
    fallback: Callable[[], Action],
    min_samples: int = 1,
) -> Action:
    """The action with the best total value over the samples solved within the node budget.

    Samples are the outer loop, and a sample the budget cannot finish is dropped, so running out of
    work still compares every action on equal terms. With fewer than ``min_samples`` solved,
    ``fallback`` (the rules of thumb's choice): a handful of samples guides worse than the rules do.
    """
    totals = [0.0] * len(options)
    solved = 0
    for theirs in samples:
        values = []
        try:
            for _, value in options:
                values.append(value(theirs))
        except OutOfWork:
            break
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        solved += 1
    if solved < min_samples:
        return fallback()
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


def _duel(
    view: View,
    hand: Hand,
    legal: list[Action],
    rng: random.Random,
    search: Search,
    level: Level,
    known: Hand | None = None,
) -> Action:
    # The opponent duels with a card of its hand: any unseen card, or one of the known hand.
    pool = list(known) if known is not None else unseen(view)
    options = []
    for action in legal:
        mine = int(action["card"])
        left = remove(hand, (mine,))
        assert left is not None
        options.append((action, mine, left))

    def rule_of_thumb() -> Action:
        scored = []
        for action, mine, left in options:
            win = sum(1.0 if c < mine else 0.5 if c == mine else 0.0 for c in pool) / max(1, len(pool))
            scored.append((hand_value(left) + INITIATIVE * win, action))
        return _best(scored)

    if len(hand) <= level.duel_max_hand:
        samples, trusted = _opponent_hands(view, len(hand), rng, level, known)
        return _by_samples(
            [(action, partial(search.duel_value, left, mine)) for action, mine, left in options],
            samples,
            rule_of_thumb,
            trusted,
        )
    return rule_of_thumb()


def _forced_sacrifices(theirs: Hand, attack: Hand) -> int:
    """How many attack cards ``theirs`` cannot beat, matching its highest cards to the highest attacks."""
    top = sorted(theirs, reverse=True)[: len(attack)]
    return sum(1 for v, a in zip(top, sorted(attack, reverse=True), strict=False) if v < a)


def _attack(
    view: View,
    hand: Hand,
    legal: list[Action],
    rng: random.Random,
    search: Search,
    level: Level,
    known: Hand | None = None,
) -> Action:
    samples, trusted = _opponent_hands(view, view["hand_counts"][1 - view["seat"]], rng, level, known)
    options = []
    for action in legal:
        attack = _values(action["cards"])
        left = remove(hand, attack)
        assert left is not None
        options.append((action, attack, left))

    def rule_of_thumb() -> Action:
        scored = []
        for action, attack, left in options:
            sacrifices = sum(_forced_sacrifices(theirs, attack) for theirs in samples) / len(samples)
            held = sum(1 for theirs in samples if _forced_sacrifices(theirs, attack) == 0) / len(samples)
            # A forced sacrifice costs the opponent its lowest card; a full defence hands it the attack.
            scored.append((hand_value(left) + 2.5 * sacrifices - INITIATIVE * held, action))
        return _best(scored)

    if len(hand) <= level.search_max_hand:
        return _by_samples(
            [(action, partial(search.attack_value, left, attack)) for action, attack, left in options],
            samples,
            rule_of_thumb,
            trusted,
        )
    return rule_of_thumb()


def _defend(
    view: View,
    hand: Hand,
    legal: list[Action],
    rng: random.Random,
    search: Search,
    level: Level,
    known: Hand | None = None,
) -> Action:
    attack = _values(view["attack"]["cards"])
    options = []
    for action in legal:
        answers = tuple(int(c) for c in action["answers"])
        left = remove(hand, answers)
        assert left is not None
        # Answers are aligned with the sorted attack cards.
        won = all(v >= a for v, a in zip(answers, attack, strict=True))
        options.append((action, left, won))

    def rule_of_thumb() -> Action:
        return _best([(hand_value(left) + (INITIATIVE if won else 0.0), action) for action, left, won in options])

    if len(hand) <= level.search_max_hand:
        samples, trusted = _opponent_hands(view, len(hand) - len(attack), rng, level, known)
        return _by_samples(
            [(action, partial(search.defend_value, left, won)) for action, left, won in options],
            samples,
            rule_of_thumb,
            trusted,
        )
    return rule_of_thumb()


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    nodes: int  # positions visited to reach it: the work


def _beginner(hand: Hand, legal: list[Action]) -> Action:
    """Easy: a new player's plan. It knows the low card wins the showdown, so it throws its high cards
    back when replacing, fights every duel and exchange with its highest cards, never sees a set or a
    sequence as an attack, and defends whenever it can rather than sacrifice."""
    kind = legal[0]["type"]
    if kind == "replace":
        return max(legal, key=lambda a: (sorted((int(c) for c in a["cards"]), reverse=True), -len(a["cards"])))
    if kind == "duel":
        return max(legal, key=lambda a: int(a["card"]))
    if kind == "attack":
        singles = [a for a in legal if len(a["cards"]) == 1] or legal
        return max(singles, key=lambda a: int(a["cards"][0]))
    return max(legal, key=lambda a: sum(int(c) for c in a["answers"]))


def decide(
    view: View,
    legal: list[Action],
    *,
    rng: random.Random,
    budget_s: float = 1.0,
    level: str = "medium",
    known_hands: Sequence[Sequence[str]] | None = None,
) -> Decision:
    """The action ``choose`` returns, with the work spent on it."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
    if len(legal) == 1:
        return Decision(legal[0], 0)
    if level == "easy":
        return Decision(_beginner(_values(view["hand"]), legal), 0)
    settings = LEVEL_SETTINGS[level]
    search = Search(node_budget(budget_s), prune=settings.prune, deadline=Deadline(budget_s))
    hand = _values(view["hand"])
    # The opponent's hand as it is (during a defence, without the attack cards it has committed).
    known = _values(known_hands[1 - view["seat"]]) if known_hands is not None else None
    kind = legal[0]["type"]
    if kind == "replace":
        # Replacing reads only the own hand; what comes back is the draw pile's, unknown either way.
        pick = _replace(hand, legal)
    elif kind == "duel":
        pick = _duel(view, hand, legal, rng, search, settings, known)
    elif kind == "attack":
        pick = _attack(view, hand, legal, rng, search, settings, known)
    else:
        pick = _defend(view, hand, legal, rng, search, settings, known)
    # The contract is one of ``legal``, whatever the heuristics above decide.
    return Decision(pick if pick in legal else rng.choice(legal), search.nodes)


def choose(
    view: View,
    legal: list[Action],
    *,
    rng: random.Random,
    budget_s: float = 1.0,
    level: str = "medium",
    known_hands: Sequence[Sequence[str]] | None = None,
) -> Action:
    """One of ``legal`` for the seat whose ``view`` this is; ``level`` is "easy", "medium" or "hard".

    ``known_hands`` (both hands) is for the post-game analysis only, never given in play: medium and
    hard then weigh their choices on the opponent's true hand instead of samples of the unseen cards
    (the same searches, the same thresholds and budget; the draw pile stays unknown)."""
    return decide(view, legal, rng=rng, budget_s=budget_s, level=level, known_hands=known_hands).action
