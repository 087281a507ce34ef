"""Standings and tie-breaks against examples worked out by hand (docs/tournaments.md shows them)."""

from __future__ import annotations

from fractions import Fraction

from tournaments.standings import Game, Seat, round_robin, swiss, tables

A, B, C, D = 1, 2, 3, 4
# Four players, three rounds, everyone meets everyone once (so it is a round-robin and a Swiss):
#   R1: A beats B, C draws D.  R2: A draws C, D beats B.  R3: D beats A, B beats C.
# Points: D 2.5, A 1.5, B 1, C 1.
GAMES = [
    Game(A, B, 2),
    Game(C, D, 1),
    Game(A, C, 1),
    Game(B, D, 0),
    Game(D, A, 2),
    Game(B, C, 2),
]


def _table(rows: list) -> list[tuple[int, int, Fraction, list[Fraction], int]]:
    return [(r.entry, r.place, r.score, r.tiebreaks, r.games) for r in rows]


def test_swiss_tiebreaks_by_hand() -> None:
    """Buchholz: A = 1+1+2.5 = 4.5, B = 1.5+2.5+1 = 5, C = 2.5+1.5+1 = 5, D = 1+1+1.5 = 3.5.
    Sonneborn-Berger: A = 1 (B) + ½·1 (C) = 1.5, B = 1 (C), C = ½·2.5 (D) + ½·1.5 (A) = 2,
    D = ½·1 (C) + 1 (B) + 1.5 (A) = 3. B and C tie on Buchholz; C is ahead on Sonneborn-Berger."""
    F = Fraction
    assert _table(swiss([A, B, C, D], GAMES)) == [
        (D, 1, F(5, 2), [F(7, 2), F(3)], 3),
        (A, 2, F(3, 2), [F(9, 2), F(3, 2)], 3),
        (C, 3, F(1), [F(5), F(2)], 3),
        (B, 4, F(1), [F(5), F(1)], 3),
    ]


def test_round_robin_tiebreaks_by_hand() -> None:
    """B and C tie on one point; B beat C, so head-to-head puts B ahead though C's Sonneborn-Berger
    is higher."""
    F = Fraction
    assert _table(round_robin([A, B, C, D], GAMES)) == [
        (D, 1, F(5, 2), [F(0), F(3)], 3),
        (A, 2, F(3, 2), [F(0), F(3, 2)], 3),
        (B, 3, F(1), [F(1), F(1)], 3),
        (C, 4, F(1), [F(0), F(2)], 3),
    ]


def test_a_bye_is_a_win_that_adds_no_tiebreak() -> None:
    rows = {r.entry: r for r in swiss([A, B, C], [Game(A, B, 2), Game(C, None, 2)])}
    assert rows[C].score == 1 and rows[C].tiebreaks == [0, 0]
    assert rows[A].tiebreaks == [0, 0]  # B scored nothing
    assert rows[B].tiebreaks == [1, 0]


def test_players_tied_on_everything_share_the_place() -> None:
    rows = swiss([A, B, C, D], [Game(A, B, 1), Game(C, D, 1)])
    assert [r.place for r in rows] == [1, 1, 1, 1]


def test_table_standings_by_hand() -> None:
    """Round 1, a table of four: A first, B second, C and D tied third; a table of three in round 2:
    D first, A second, B third. Placing points: A 3 + 1 = 4, B 2 + 0 = 2, C ½, D ½ + 2 = 2½.
    B and D: D ahead on placings. Game points break no tie here but are summed."""
    results = [
        [Seat(A, 1, 30), Seat(B, 2, 10), Seat(C, 3, 0), Seat(D, 3, 0)],
        [Seat(D, 1, 25), Seat(A, 2, 5), Seat(B, 3, 0)],
    ]
    F = Fraction
    assert _table(tables([A, B, C, D], results)) == [
        (A, 1, F(4), [F(35)], 2),
        (D, 2, F(5, 2), [F(25)], 2),
        (B, 3, F(2), [F(10)], 2),
        (C, 4, F(1, 2), [F(0)], 1),
    ]


def test_table_ties_on_placings_go_to_game_points() -> None:
    results = [[Seat(A, 1, 10), Seat(B, 2, 0), Seat(C, 3, 0)], [Seat(B, 1, 40), Seat(A, 2, 0), Seat(C, 3, 0)]]
    assert [r.entry for r in tables([A, B, C], results)] == [B, A, C]


def test_a_game_called_off_scores_nothing_for_either() -> None:
    rows = {r.entry: r for r in swiss([A, B], [Game(A, B, 0, 0)])}
    assert (rows[A].points, rows[B].points, rows[A].games) == (0, 0, 1)


def test_back_alley_partners_earn_nothing_for_finishing_level() -> None:
    """Seats 0 and 2 beat seats 1 and 3: each winner beat two opponents (two points), each loser none."""
    table = [Seat(A, 1, 300, team=0), Seat(B, 2, 120, team=1), Seat(C, 1, 300, team=0), Seat(D, 2, 120, team=1)]
    rows = {r.entry: r for r in tables([A, B, C, D], [table])}
    assert {e: r.score for e, r in rows.items()} == {A: 2, B: 0, C: 2, D: 0}
