"""Contracts, the first lead and the points of a deal (BA-11, BA-12, BA-17..BA-20)."""

from __future__ import annotations

from collections.abc import Sequence

from games.backalley.state import PLAYERS, Bid, Contract, State
from games.engine import Result
from games.kit.seats import next_seat, round_robin

TEAMS = ((0, 2), (1, 3))


def team_of(seat: int) -> int:
    """BA-2: seats 0 and 2 are team 0 (A), seats 1 and 3 team 1 (B)."""
    return seat % 2


def contract(bids: Sequence[Bid], team: int, cards: int) -> Contract:
    """BA-11: board at the highest level a member bid, else the sum of both numbers (pass = 0)."""
    a, b = (bids[s] for s in TEAMS[team])
    level = max(a.board, b.board)
    if level:
        return Contract(tricks=cards, board=level)
    # A numeric total of `cards` or more stays a number (BA-11 [DECISION]); it simply cannot be made.
    return Contract(tricks=a.tricks + b.tricks)


def first_leader(bids: Sequence[Bid], dealer: int) -> int:
    """BA-12: the highest bid leads. Any board beats any number and a higher level beats a lower one
    (the last board bidder holds the highest level); among equal numbers the earliest bidder leads."""
    order = round_robin(next_seat(dealer, PLAYERS), PLAYERS)
    # max() keeps the first of equal keys, and `order` is bidding order.
    return max(order, key=lambda s: (bids[s].board, bids[s].tricks))


def points(c: Contract, tricks: int, cards: int) -> int:
    """BA-17 (numbers) and BA-18 (board) for one team of one deal."""
    if c.board:
        value = 10 * cards * c.board
        return value if tricks == cards else -value
    if tricks >= c.tricks:
        return 5 * c.tricks + (tricks - c.tricks)
    return -5 * c.tricks


def tricks_by_seat(state: State) -> list[int]:
    """Tricks each seat has taken in the current deal."""
    won = [0, 0, 0, 0]
    for t in state.tricks_played:
        won[t.winner] += 1
    return won


def totals(state: State) -> tuple[int, int]:
    """The running team totals after the last scored deal."""
    return state.score_sheet[-1].totals if state.score_sheet else (0, 0)


def match_result(team_totals: tuple[int, int]) -> Result:
    """BA-20: partners share their team's total and rank; equal totals are a draw (all rank 1)."""
    a, b = team_totals
    team_ranks = (1, 1) if a == b else ((1, 2) if a > b else (2, 1))
    return {
        "scores": [team_totals[team_of(s)] for s in range(4)],
        "ranks": [team_ranks[team_of(s)] for s in range(4)],
        "detail": {
            "teams": [{"seats": list(TEAMS[t]), "score": team_totals[t], "rank": team_ranks[t]} for t in (0, 1)],
            "draw": a == b,
        },
    }
