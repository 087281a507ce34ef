"""Who meets whom in each round: round-robin, Swiss, and tables of 3-4 (DOS, Back Alley individual).

Pure: no Django, no clock, no global random generator. Players are plain ints (entry ids); a pairing
is ``(first, second)`` where ``first`` takes seat 0 (Reversi's Black, the first to move, called "white"
in chess terms) and ``second`` is None for a bye. The page and the services decide what the ids are.
Randomness, where a draw needs it, comes from the ``seed`` a caller passes.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

Pair = tuple[int, int | None]


# --- round-robin ---------------------------------------------------------------------------------


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pair]]:
    """Every round of a round-robin by the circle method (Berger tables).

    With an odd number of players, one sits out each round (a bye: ``(player, None)``); every player
    sits out exactly once per cycle. A double round-robin plays the cycle again with every pairing's
    seats swapped, so each pair meets twice, once in each seat. Within a cycle no player's count of
    first seats differs from their count of second seats by more than one.
    """
    ids: list[int | None] = list(players)
    if len(ids) < 2:
        return []
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds: list[list[Pair]] = []
    # ids[-1] stays fixed; the others turn one place each round.
    wheel = ids[:-1]
    fixed = ids[-1]
    for r in range(n - 1):
        table: list[Pair] = []
        pairs = [(wheel[0], fixed)] + [(wheel[i], wheel[n - 1 - i]) for i in range(1, n // 2)]
        for i, (a, b) in enumerate(pairs):
            # The fixed player alternates seats round by round; in the other pairs the seat follows
            # the pair's place on the wheel, which is what balances everyone's seats (Berger).
            first, second = (b, a) if (r % 2 if i == 0 else i % 2 == 0) else (a, b)
            table.append(_with_bye(first, second))
        rounds.append(table)
        wheel = wheel[-1:] + wheel[:-1]
    if double:
        rounds += [[(b, a) if b is not None else (a, None) for a, b in table] for table in rounds]
    return rounds


def _with_bye(a: int | None, b: int | None) -> Pair:
    if a is None:
        assert b is not None
        return (b, None)
    return (a, b)


# --- Swiss ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissPlayer:
    """What the Swiss pairing knows of a player before a round."""

    id: int
    # Points in half-points (a win 2, a draw 1), so that sums stay exact.
    score: int
    opponents: frozenset[int] = frozenset()
    # Seats played so far, in order: "W" the first seat, "B" the second; a bye adds nothing.
    colours: str = ""
    had_bye: bool = False


MAX_COLOUR_DIFFERENCE = 2


def colour_difference(colours: str) -> int:
    return colours.count("W") - colours.count("B")


def _colour_cost(first: SwissPlayer, second: SwissPlayer) -> tuple[bool, int]:
    """Playing ``first`` in the first seat: (breaks the colour rules, how much it goes against wishes)."""
    cost = 0
    broken = False
    for player, colour in ((first, "W"), (second, "B")):
        history = player.colours + colour
        difference = abs(colour_difference(history))
        broken |= difference > MAX_COLOUR_DIFFERENCE or history.endswith(colour * 3)
        cost += difference + (2 if history.endswith(colour * 2) else 0)
    return broken, cost


def _orient(a: SwissPlayer, b: SwissPlayer) -> tuple[SwissPlayer, SwissPlayer, bool, int]:
    """The better way round for a pair: (first, second, breaks the rules, cost).

    Ties go to the higher score, then the lower id (the earlier entry), so the draw is repeatable.
    """
    options = []
    for first, second in ((a, b), (b, a)):
        broken, cost = _colour_cost(first, second)
        options.append((broken, cost, -first.score, first.id, first, second))
    broken, cost, _score, _id, first, second = min(options)
    return first, second, broken, cost


BYE = -1  # the bye's node in the pairing graph (entry ids are positive)


def swiss_round(players: Sequence[SwissPlayer]) -> list[Pair]:
    """Pair one Swiss round by a maximum-weight matching (networkx, Edmonds' blossom algorithm).

    Every pair of players is an edge; its weight ranks, most important first:
      1. the colour rules hold (no one more than two first seats ahead or behind, nor three in a row);
      2. the two have not met (and the bye goes to someone who has not had one);
      3. their scores are as close as can be (the bye to the lowest score);
      4. each gets the seat they are due.
    The matching is of maximum cardinality, so everyone is paired (one bye when the count is odd),
    and among those the sum of weights is the greatest: so a lower tier never outweighs a higher one
    (each tier's unit is larger than everything below it summed over a whole round). A rule is broken
    only when no pairing keeps it.
    """
    if len(players) < 2:
        return [(p.id, None) for p in players]
    by_id = {p.id: p for p in players}
    if BYE in by_id:
        raise ValueError("entry ids must not be -1")
    top = max(p.score for p in players)
    low = min(p.score for p in players)
    spread = top - low
    edges = len(players) // 2 + 1
    colour_unit = 1
    score_unit = colour_unit * (12 * edges + 1)
    repeat_unit = score_unit * ((spread + 1) ** 2 * edges + 1)
    rule_unit = repeat_unit * (edges + 1)
    base = rule_unit * (edges + 1)
    graph = nx.Graph()
    for a, b in itertools.combinations(players, 2):
        _first, _second, broken, cost = _orient(a, b)
        penalty = (
            rule_unit * broken
            + repeat_unit * (b.id in a.opponents)
            + score_unit * (a.score - b.score) ** 2
            + colour_unit * cost
        )
        graph.add_edge(a.id, b.id, weight=base - penalty)
    if len(players) % 2:
        for p in players:
            penalty = repeat_unit * p.had_bye + score_unit * (p.score - low) ** 2
            graph.add_edge(p.id, BYE, weight=base - penalty)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[Pair] = []
    for u, v in matching:
        if BYE in (u, v):
            pairs.append((v if u == BYE else u, None))
            continue
        first, second, _broken, _cost = _orient(by_id[u], by_id[v])
        pairs.append((first.id, second.id))
    # Top boards first: the highest score, then the earlier entry; the bye last.
    return sorted(pairs, key=lambda p: (p[1] is None, -max(_score(by_id, p)), min(x for x in p if x is not None)))


def _score(by_id: Mapping[int, SwissPlayer], pair: Pair) -> list[int]:
    return [by_id[x].score for x in pair if x is not None]


def swiss_players(
    ids: Iterable[int], games: Iterable[tuple[int, ...]], *, active: Iterable[int] | None = None
) -> list[SwissPlayer]:
    """The pairing's view of each player from the games so far, in order of play: ``(first, second,
    first's half-points)``, or with the second's half-points after them where they are not the rest
    of two (a game called off scores nothing for either); ``second`` None: a bye, worth a win.
    ``active``: who is still playing (a player who withdrew is not paired again)."""
    ids = list(ids)
    score = dict.fromkeys(ids, 0)
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    colours = dict.fromkeys(ids, "")
    byes: set[int] = set()
    for first, second, points, *rest in games:
        if second is None:
            score[first] += 2
            byes.add(first)
            continue
        score[first] += points
        score[second] += rest[0] if rest else 2 - points
        opponents[first].add(second)
        opponents[second].add(first)
        colours[first] += "W"
        colours[second] += "B"
    keep = set(ids if active is None else active)
    return [SwissPlayer(i, score[i], frozenset(opponents[i]), colours[i], i in byes) for i in ids if i in keep]


# --- tables of three or four ---------------------------------------------------------------------


def table_sizes(count: int, *, smallest: int = 3, largest: int = 4) -> list[int]:
    """How to seat ``count`` players at tables of ``smallest`` to ``largest``: as many of the largest
    as can be, the rest one smaller (e.g. 10 -> [4, 3, 3]). Raises ValueError if it cannot be done."""
    for big in range(count // largest, -1, -1):
        rest = count - big * largest
        for size in range(largest - 1, smallest - 1, -1):
            if rest % size == 0:
                return [largest] * big + [size] * (rest // size)
    raise ValueError(f"{count} players cannot sit at tables of {smallest} to {largest}")


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _table_cost(table: Sequence[int], met: Mapping[tuple[int, int], int]) -> int:
    # Meeting someone again costs more the more often it has already happened.
    return sum(met.get(_key(a, b), 0) ** 2 * 2 + met.get(_key(a, b), 0) for a, b in itertools.combinations(table, 2))


# (a table's players, the meetings so far) -> how bad that table is
TableCost = Callable[[Sequence[int], Mapping[tuple[int, int], int]], int]


def draw_tables(
    players: Sequence[int],
    met: Mapping[tuple[int, int], int],
    *,
    seed: int,
    sizes: Sequence[int] | None = None,
    restarts: int = 8,
    cost: TableCost | None = None,
) -> list[list[int]]:
    """Seat players at tables so that they meet as many new opponents as can be.

    ``met[(a, b)]`` (a < b) counts how often a and b have sat at one table. The draw minimises the
    repeated meetings (a pair's second meeting weighs less than its third), by swapping players
    between tables while that lowers the cost, from several seeded random starts; for the small
    events tested it finds the optimum an exhaustive search finds. Each table's seats are in a random
    (seeded) order, so no one always plays first.
    """
    table_cost = cost or _table_cost
    sizes = list(sizes or table_sizes(len(players)))
    if sum(sizes) != len(players):
        raise ValueError("the table sizes do not add up to the players")
    rng = random.Random(seed)
    best: list[list[int]] | None = None
    best_cost = 0
    for _ in range(max(1, restarts)):
        order = list(players)
        rng.shuffle(order)
        tables = []
        start = 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        costs = [table_cost(t, met) for t in tables]
        improved = True
        while improved:
            improved = False
            for i, j in itertools.combinations(range(len(tables)), 2):
                for x, y in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                    a, b = tables[i][x], tables[j][y]
                    ti = [*tables[i][:x], b, *tables[i][x + 1 :]]
                    tj = [*tables[j][:y], a, *tables[j][y + 1 :]]
                    ci, cj = table_cost(ti, met), table_cost(tj, met)
                    if ci + cj < costs[i] + costs[j]:
                        tables[i], tables[j], costs[i], costs[j] = ti, tj, ci, cj
                        improved = True
        total = sum(costs)
        if best is None or total < best_cost:
            best, best_cost = [list(t) for t in tables], total
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return best


def meetings(tables: Iterable[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How often each pair sat at one table, over ``tables`` (every round's tables together)."""
    met: dict[tuple[int, int], int] = {}
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[_key(a, b)] = met.get(_key(a, b), 0) + 1
    return met


# --- Back Alley individual: rotating partners ----------------------------------------------------

# Back Alley's partnerships: seats 0 and 2 against seats 1 and 3.
PARTNER_SEATS = ((0, 2), (1, 3))


def _partnership_cost(
    table: Sequence[int], partnered: Mapping[tuple[int, int], int], met: Mapping[tuple[int, int], int]
) -> int:
    best = None
    for seating in _splits(table):
        cost = _seating_cost(seating, partnered, met)
        best = cost if best is None else min(best, cost)
    return best or 0


def _splits(table: Sequence[int]) -> list[list[int]]:
    """The three ways to split four players into two partnerships, as seat orders (0&2 vs 1&3)."""
    a, b, c, d = table
    return [[a, c, b, d], [a, b, c, d], [a, b, d, c]]


def _seating_cost(
    seating: Sequence[int], partnered: Mapping[tuple[int, int], int], met: Mapping[tuple[int, int], int]
) -> int:
    # A repeated partner weighs far more than a repeated opponent: the event is about rotating partners.
    partners = [_key(seating[0], seating[2]), _key(seating[1], seating[3])]
    cost = sum(100 * partnered.get(p, 0) ** 2 for p in partners)
    return cost + sum(met.get(_key(a, b), 0) for a, b in itertools.combinations(seating, 2))


def draw_partner_tables(
    players: Sequence[int],
    partnered: Mapping[tuple[int, int], int],
    met: Mapping[tuple[int, int], int],
    *,
    seed: int,
) -> list[list[int]]:
    """Tables of four for an individual Back Alley event, seats in order (partners: seats 0&2, 1&3).

    Chooses the tables and, at each, the split into partnerships so that players have new partners
    first, and new opponents next, wherever that can be done. The count must be a multiple of four.
    """
    if len(players) % 4:
        raise ValueError("an individual Back Alley event needs a multiple of four players")

    def cost(table: Sequence[int], _met: Mapping[tuple[int, int], int]) -> int:
        return _partnership_cost(table, partnered, met)

    tables = draw_tables(players, {}, seed=seed, sizes=[4] * (len(players) // 4), cost=cost)
    return [min(_splits(t), key=lambda s: _seating_cost(s, partnered, met)) for t in tables]


def partnerships(seatings: Iterable[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How often each pair were partners, over Back Alley seatings (seat orders)."""
    counts: dict[tuple[int, int], int] = {}
    for seating in seatings:
        for x, y in PARTNER_SEATS:
            key = _key(seating[x], seating[y])
            counts[key] = counts.get(key, 0) + 1
    return counts
