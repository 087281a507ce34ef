"""Benchmark the Tacocat engine and bot: bot time per move, and a whole bot-vs-bot game.

Run from anywhere: ``python bench/bench_tacocat.py [--games N] [--seed S] [--budget SECONDS]``.
Pure Python, no Django.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# The repo root, so that ``games`` imports without installing anything.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tacocat import bot
from games.tacocat.rules import engine


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def play(seed: int, budget_s: float, move_times: list[float]) -> tuple[int, int]:
    """One bot-vs-bot game; returns (decisions, rounds)."""
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    moves = 0
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        started = time.perf_counter()
        action = bot.choose(view, legal, rng=rng, budget_s=budget_s)
        move_times.append(time.perf_counter() - started)
        state = engine.apply(state, seat, action)
        moves += 1
    return moves, state.round_no


def random_game(seed: int) -> int:
    """One random-vs-random game, to time the engine alone; returns the number of decisions."""
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    moves = 0
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.5, help="bot budget_s per move")
    args = parser.parse_args()

    move_times: list[float] = []
    game_times: list[float] = []
    moves = rounds = 0
    for i in range(args.games):
        started = time.perf_counter()
        m, r = play(args.seed + i, args.budget, move_times)
        game_times.append(time.perf_counter() - started)
        moves += m
        rounds += r
    move_times.sort()
    game_times.sort()

    started = time.perf_counter()
    engine_moves = sum(random_game(args.seed + i) for i in range(args.games))
    engine_s = time.perf_counter() - started

    ms = 1000.0
    print(f"Tacocat bench: {args.games} bot-vs-bot games (placeholder board), budget {args.budget}s")
    print(f"  decisions per game     {moves / args.games:8.1f}   rounds per game {rounds / args.games:.1f}")
    print(
        f"  bot time per move      mean {statistics.mean(move_times) * ms:7.2f} ms"
        f"   p95 {percentile(move_times, 0.95) * ms:7.2f} ms   max {move_times[-1] * ms:7.2f} ms"
    )
    print(
        f"  bot-vs-bot game        mean {statistics.mean(game_times) * ms:7.1f} ms"
        f"   p95 {percentile(game_times, 0.95) * ms:7.1f} ms"
    )
    print(
        f"  engine only (random)   {engine_s / engine_moves * 1e6:7.1f} us per decision"
        f"   {engine_s / args.games * ms:7.2f} ms per game"
    )


if __name__ == "__main__":
    main()
