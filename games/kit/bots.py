"""A computer player a new perfect-information game can start with, before it has one of its own.

``one_ply`` plays a random legal move, except that it takes a move that wins at once when there is one,
and it avoids a move after which an opponent can win with their very next action. It looks one move of
its own and one reply ahead, so it costs about (legal moves) x (replies) ``apply`` calls: fine for small
games (Nim, Connect Four, Tic-tac-toe), too slow for a wide one (write a real search there).

It needs the state, and a bot's ``choose`` gets only the view: a game whose view shows everything
(perfect information) rebuilds its state from the view, then calls ``one_ply``::

    def choose(view, legal, *, rng, budget_s, level="medium"):
        return one_ply(engine, state_from_view(view), view["seat"], legal, rng=rng)

(``tests/nim/bot.py`` does so.) Never for a game with hidden cards: a view there does not give the state.
Pure: no Django, no I/O; all chance comes from ``rng``, so the same ``rng`` gives the same move.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from games.engine import Action, Engine, Result, is_draw, winners


def wins(result: Result | None, seat: int) -> bool:
    """The game is over and ``seat`` is among its winners (a draw is no win)."""
    return result is not None and not is_draw(result) and seat in winners(result)


def one_ply(engine: Engine, state: Any, seat: int, legal: Sequence[Action] | None = None, *, rng: Random) -> Action:
    """One of ``legal`` (by default ``engine.legal_actions(state, seat)``): a winning move if any, else a
    random one of those that leave no opponent an immediate win, else (every move loses) any of them."""
    moves = list(engine.legal_actions(state, seat) if legal is None else legal)
    if not moves:
        raise ValueError("one_ply needs at least one legal action.")
    winning: list[Action] = []
    safe: list[Action] = []
    for action in moves:
        after = engine.apply(state, seat, action)
        result = engine.result(after)
        if wins(result, seat):
            winning.append(action)
        elif result is None and not _a_reply_wins(engine, after, seat):
            safe.append(action)
        elif result is not None and not any(wins(result, other) for other in range(len(result["ranks"]))):
            safe.append(action)  # a draw: no win, but no loss either
    return rng.choice(winning or safe or moves)


def _a_reply_wins(engine: Engine, state: Any, seat: int) -> bool:
    """Can another seat, acting next, win at once?"""
    for other in engine.to_act(state):
        if other == seat:
            continue  # a forced pass gave the turn back: no reply to fear
        if any(
            wins(engine.result(engine.apply(state, other, reply)), other)
            for reply in engine.legal_actions(state, other)
        ):
            return True
    return False
