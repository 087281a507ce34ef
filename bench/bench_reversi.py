"""Reversi benchmark: perft speed, the bot's time per move, its win rate against a random player.

Run from anywhere:  .venv/bin/python bench/bench_reversi.py [--games N] [--quick]
Needs no Django. Numbers are wall-clock on this machine, single-threaded CPython.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.reversi import bot  # noqa: E402
from games.reversi.bitboard import perft  # noqa: E402
from games.reversi.rules import State, engine  # noqa: E402
from games.reversi.state import START_BLACK, START_WHITE  # noqa: E402


def engine_perft(state: State, depth: int) -> int:
    if depth == 0 or state.to_move is None:
        return 1
    seat = state.to_move
    return sum(engine_perft(engine.apply(state, seat, a), depth - 1) for a in engine.legal_actions(state, seat))


def timed(label: str, fn: Callable[..., int], *args: Any) -> None:
    start = time.perf_counter()
    nodes = fn(*args)
    elapsed = time.perf_counter() - start
    print(f"  {label:<44} {nodes:>10,} leaves in {elapsed:6.2f} s = {nodes / elapsed:>12,.0f} leaves/s")


def play(
    seed: int, bot_seat: int, budget_s: float, times: list[float], cpu: list[float] | None = None
) -> tuple[int, int]:
    """Bot against a uniformly random player; appends the bot's wall (and CPU) think times."""
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    while state.to_move is not None:
        seat = state.to_move
        legal = engine.legal_actions(state, seat)
        if seat == bot_seat:
            view = engine.view(state, seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            action = bot.choose(view, legal, rng=rng, budget_s=budget_s)
            times.append(time.perf_counter() - start)
            if cpu is not None:
                cpu.append(time.process_time() - start_cpu)
        else:
            action = rng.choice(legal)
        state = engine.apply(state, seat, action)
    result = engine.result(state)
    assert result is not None
    return result["scores"][bot_seat], result["scores"][1 - bot_seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per budget for the timing runs")
    parser.add_argument("--win-games", type=int, default=10, help="games for the win rate against random")
    parser.add_argument("--quick", action="store_true", help="smaller perft and fewer games")
    args = parser.parse_args()
    depth = 7 if args.quick else 8

    print("Perft from the start position (mode 1):")
    timed(f"bitboard, bulk-counted last ply, depth {depth}", perft, START_BLACK, START_WHITE, depth)
    timed("bitboard, every leaf played, depth 7", partial(perft, bulk=False), START_BLACK, START_WHITE, 7)
    timed("engine API (legal_actions/apply), depth 5", engine_perft, engine.new_game(2, 0), 5)

    print("\nBot time per move against a random player:")
    for budget in (0.5, 0.1):
        times: list[float] = []
        cpu: list[float] = []
        for game in range(1 if args.quick else args.games):
            play(game, game % 2, budget, times, cpu)
        # CPU time shows what the bot itself spends; wall time also counts other processes' load.
        for label, values in (("wall", sorted(times)), ("cpu ", sorted(cpu))):
            p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
            print(
                f"  budget {budget:>4} s, {label}: {len(values)} moves, mean {statistics.mean(values):.3f} s, "
                f"p95 {p95:.3f} s, max {values[-1]:.3f} s"
            )

    budget = 0.05
    games = 4 if args.quick else args.win_games
    wins = draws = 0
    margins: list[int] = []
    times = []
    for game in range(games):
        mine, theirs = play(1000 + game, game % 2, budget, times)
        wins += mine > theirs
        draws += mine == theirs
        margins.append(mine - theirs)
    print(
        f"\nWin rate against random at budget {budget} s: {wins}/{games} won, {draws} drawn, "
        f"mean disc margin {statistics.mean(margins):+.1f}"
    )


if __name__ == "__main__":
    main()
