"""What the card-game benchmarks share: a percentile, and one bot-vs-bot game timed move by move."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


@dataclass
class TimedGame:
    state: Any
    seconds: float
    moves: int = 0
    bot_times: list[float] = field(default_factory=list)
    engine_times: list[float] = field(default_factory=list)
    legal_sizes: list[int] = field(default_factory=list)


def timed_bot_game(engine: Any, choose: Callable[..., dict[str, Any]], players: int, seed: int) -> TimedGame:
    """What the bot runner does for every seat: the seat's view, its legal actions, the bot, ``apply``."""
    rng = random.Random(seed)
    game = TimedGame(state=engine.new_game(players, seed), seconds=0.0)
    started = time.perf_counter()
    while engine.result(game.state) is None:
        t0 = time.perf_counter()
        (seat,) = engine.to_act(game.state)
        view = engine.view(game.state, seat)
        legal = engine.legal_actions(game.state, seat)
        t1 = time.perf_counter()
        action = choose(view, legal, rng=rng, budget_s=1.0)
        t2 = time.perf_counter()
        game.state = engine.apply(game.state, seat, action)
        t3 = time.perf_counter()
        game.bot_times.append(t2 - t1)
        game.engine_times.append((t1 - t0) + (t3 - t2))
        game.legal_sizes.append(len(legal))
        game.moves += 1
    game.seconds = time.perf_counter() - started
    return game
