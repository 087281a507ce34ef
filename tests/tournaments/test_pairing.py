"""The pure pairing module: round-robin schedules, Swiss rounds, and tables of three or four."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.pairing import SwissPlayer, colour_difference, swiss_players, swiss_round

# --- round-robin ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 11))
def test_a_round_robin_is_complete_and_balanced(n: int) -> None:
    """Every pair meets exactly once; each round seats everyone once; odd counts give each player one
    bye; first and second seats differ by at most one for everyone."""
    players = list(range(10, 10 + n))
    rounds = pairing.round_robin(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    met: Counter[frozenset[int]] = Counter()
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for table in rounds:
        seated = [p for pair in table for p in pair if p is not None]
        assert sorted(seated) == players
        for first, second in table:
            if second is None:
                byes[first] += 1
                continue
            met[frozenset((first, second))] += 1
            firsts[first] += 1
            seconds[second] += 1
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(dict.fromkeys(players, 1)) if n % 2 else Counter())
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)


@pytest.mark.parametrize("n", range(3, 11))
def test_a_double_round_robin_meets_twice_with_seats_swapped(n: int) -> None:
    players = list(range(1, n + 1))
    rounds = pairing.round_robin(players, double=True)
    games = [pair for table in rounds for pair in table if pair[1] is not None]
    assert Counter(games) == Counter({(a, b): 1 for a in players for b in players if a != b})
    firsts = Counter(a for a, _b in games)
    assert set(firsts.values()) == {n - 1}


def test_a_round_robin_of_fewer_than_two_has_no_rounds() -> None:
    assert pairing.round_robin([7]) == []


# --- Swiss ---------------------------------------------------------------------------------------


def test_the_first_swiss_round_pairs_everyone_once() -> None:
    pairs = swiss_round(swiss_players([1, 2, 3, 4, 5], []))
    assert sorted(p for pair in pairs for p in pair if p is not None) == [1, 2, 3, 4, 5]
    assert [pair for pair in pairs if pair[1] is None] == [pairs[-1]]


def test_equal_scores_are_paired() -> None:
    """After round one, the winners meet and the losers meet."""
    games = [(1, 2, 2), (3, 4, 0)]  # 1 beat 2, 4 beat 3
    pairs = swiss_round(swiss_players([1, 2, 3, 4], games))
    assert {frozenset(p) for p in pairs} == {frozenset((1, 4)), frozenset((2, 3))}
    # Each plays the seat they did not have: 1 and 3 had the first seat.
    assert set(pairs) == {(4, 1), (2, 3)}


def test_the_bye_goes_to_the_lowest_score_without_one_and_counts_as_a_win() -> None:
    games = [(1, 2, 2), (3, 4, 2), (5, None, 2)]
    players = swiss_players([1, 2, 3, 4, 5], games)
    assert {p.id: p.score for p in players} == {1: 2, 2: 0, 3: 2, 4: 0, 5: 2}
    bye = [a for a, b in swiss_round(players) if b is None]
    assert bye in ([2], [4])


def test_a_player_who_withdrew_is_not_paired() -> None:
    players = swiss_players([1, 2, 3, 4], [(1, 2, 2), (3, 4, 1)], active=[1, 2, 3])
    pairs = swiss_round(players)
    assert 4 not in {p for pair in pairs for p in pair}
    assert len(pairs) == 2


def _matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for more in _matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def _legal(players: dict[int, SwissPlayer], a: int, b: int) -> bool:
    if pairing.BYE in (a, b):
        return True
    return not pairing._orient(players[a], players[b])[2]


def _repeats(players: dict[int, SwissPlayer], pairs: Sequence[tuple[int, int | None]]) -> int:
    count = 0
    for a, b in pairs:
        if b is None or b == pairing.BYE or a == pairing.BYE:
            count += players[a if b in (None, pairing.BYE) else b].had_bye
        else:
            count += b in players[a].opponents
    return count


@given(
    n=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=8),
    results=st.lists(st.sampled_from([0, 1, 2]), min_size=40, max_size=40),
)
def test_swiss_never_repeats_while_it_can_and_keeps_colours_within_two(n: int, rounds: int, results: list[int]) -> None:
    """Over random events: every round seats everyone once; colour differences stay within two; a
    pairing repeats (or a second bye is given) only when no pairing that keeps the colour rules
    avoids it (checked by trying every pairing)."""
    ids = list(range(1, n + 1))
    games: list[tuple[int, int | None, int]] = []
    outcomes = iter(results * 10)
    for _ in range(min(rounds, n)):
        players = {p.id: p for p in swiss_players(ids, games)}
        pairs = swiss_round(list(players.values()))
        assert sorted(p for pair in pairs for p in pair if p is not None) == ids
        assert sum(b is None for _a, b in pairs) == n % 2
        nodes = ids + ([pairing.BYE] if n % 2 else [])
        legal = [m for m in _matchings(nodes) if all(_legal(players, a, b) for a, b in m)]
        assert legal, "some pairing keeps the colour rules"
        fewest = min(_repeats(players, m) for m in legal)
        assert _repeats(players, pairs) == fewest
        games += [(a, b, next(outcomes) if b is not None else 2) for a, b in pairs]
        for player in swiss_players(ids, games):
            assert abs(colour_difference(player.colours)) <= 2
            assert "WWW" not in player.colours and "BBB" not in player.colours


def test_swiss_with_more_rounds_than_opponents_repeats_rather_than_stall() -> None:
    games: list[tuple[int, int | None, int]] = []
    for _ in range(3):
        pairs = swiss_round(swiss_players([1, 2], games))
        assert len(pairs) == 1
        games += [(pairs[0][0], pairs[0][1], 1)]
    assert [sorted((a, b)) for a, b, _p in games] == [[1, 2]] * 3  # type: ignore[type-var]


# --- tables --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sizes"),
    [(3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (10, [4, 3, 3]), (13, [4, 3, 3, 3])],
)
def test_table_sizes(count: int, sizes: list[int]) -> None:
    assert sorted(pairing.table_sizes(count), reverse=True) == sizes


def test_five_cannot_sit_at_tables_of_three_or_four() -> None:
    with pytest.raises(ValueError):
        pairing.table_sizes(5)


def _fewest_repeats(players: list[int], sizes: list[int], met: dict[tuple[int, int], int]) -> int:
    """The best cost of any seating, by trying them all (small counts only)."""
    best = None
    for order in itertools.permutations(players):
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        cost = sum(pairing._table_cost(t, met) for t in tables)
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


@pytest.mark.parametrize("n", [6, 7, 8])
def test_dos_tables_meet_new_opponents_as_far_as_possible(n: int) -> None:
    """Round by round, the draw is as good as the best seating found by trying every one."""
    players = list(range(1, n + 1))
    sizes = pairing.table_sizes(n)
    history: list[list[int]] = []
    for round_no in range(4):
        met = pairing.meetings(history)
        tables = pairing.draw_tables(players, met, seed=round_no)
        assert sorted(len(t) for t in tables) == sorted(sizes)
        assert sorted(p for t in tables for p in t) == players
        assert sum(pairing._table_cost(t, met) for t in tables) == _fewest_repeats(players, sizes, met)
        history += tables


def test_nine_players_at_tables_of_three_meet_everyone_once_in_four_rounds() -> None:
    """Nine players, tables of three: four rounds can seat every pair together exactly once."""
    players = list(range(1, 10))
    history: list[list[int]] = []
    for round_no in range(4):
        history += pairing.draw_tables(players, pairing.meetings(history), seed=round_no, sizes=[3, 3, 3])
    assert set(pairing.meetings(history).values()) == {1}
    assert len(pairing.meetings(history)) == 36


def test_a_table_draw_is_repeatable_from_its_seed() -> None:
    players = list(range(1, 11))
    assert pairing.draw_tables(players, {}, seed=5) == pairing.draw_tables(players, {}, seed=5)


# --- Back Alley ----------------------------------------------------------------------------------


def test_back_alley_pairs_is_a_round_robin_of_teams() -> None:
    """Fixed partnerships are entries like players: four teams meet each other once in three rounds."""
    teams = [101, 102, 103, 104]
    rounds = pairing.round_robin(teams)
    assert len(rounds) == 3
    assert {frozenset(p) for table in rounds for p in table} == {frozenset(p) for p in itertools.combinations(teams, 2)}


def test_back_alley_individual_rotates_partners() -> None:
    """Four players over three rounds: each partners each other player exactly once; eight players
    over seven rounds never partner anyone twice."""
    for players, rounds in (([1, 2, 3, 4], 3), (list(range(1, 9)), 7)):
        seatings: list[list[int]] = []
        for round_no in range(rounds):
            tables = pairing.draw_partner_tables(
                players, pairing.partnerships(seatings), pairing.meetings(seatings), seed=round_no
            )
            assert all(len(t) == 4 for t in tables)
            assert sorted(p for t in tables for p in t) == players
            seatings += tables
        partners = pairing.partnerships(seatings)
        assert set(partners.values()) == {1}
        assert len(partners) == len(players) * (len(players) - 1) // 2


def test_back_alley_individual_needs_a_multiple_of_four() -> None:
    with pytest.raises(ValueError):
        pairing.draw_partner_tables([1, 2, 3, 4, 5, 6], {}, {}, seed=0)


def test_the_pairing_and_standings_modules_need_no_django() -> None:
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'django' or name.startswith('django.'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import tournaments.pairing, tournaments.standings\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", script], cwd=root, check=True)
