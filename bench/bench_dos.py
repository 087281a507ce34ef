"""DOS benchmark: whole games between four bots, the bot's time per move, and legal_actions sizes.

Run from anywhere: ``.venv/bin/python bench/bench_dos.py [--seeds 20]``. No Django needed.
A game here is what the bot runner does for four computer seats: for each move, the acting seat's
view, its legal actions, the bot's choice, and ``apply``. The largest legal_actions list is reported
as observed in bot games, in random-play games (hands grow larger there), and for a built worst case.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import p95, timed_bot_game
from games.dos import bot
from games.dos.cards import CODES
from games.dos.positions import position
from games.dos.rules import engine


def bot_games(seeds: int, players: int = 4) -> dict[str, float]:
    games = [timed_bot_game(engine, bot.choose, players, seed) for seed in range(seeds)]
    state = games[-1].state
    bot_times = [t for g in games for t in g.bot_times]
    engine_times = [t for g in games for t in g.engine_times]
    game_times = [g.seconds for g in games]
    moves = sum(g.moves for g in games)
    rounds = sum(g.state.round for g in games)
    legal_sizes = [n for g in games for n in g.legal_sizes]
    t0 = time.perf_counter()
    engine.load(json.loads(json.dumps(engine.dump(state))))
    store = time.perf_counter() - t0
    return {
        "seeds": seeds,
        "moves_per_game": moves / seeds,
        "rounds_per_game": rounds / seeds,
        "game_mean_s": statistics.mean(game_times),
        "game_max_s": max(game_times),
        "bot_mean_us": statistics.mean(bot_times) * 1e6,
        "bot_p95_us": p95(bot_times) * 1e6,
        "bot_max_us": max(bot_times) * 1e6,
        "engine_mean_us": statistics.mean(engine_times) * 1e6,
        "legal_max": max(legal_sizes),
        "store_us": store * 1e6,
        "dump_bytes": len(json.dumps(engine.dump(state))),
    }


def random_games(seeds: int) -> dict[str, float]:
    """Random play lets hands grow: the largest legal_actions lists seen in real play."""
    sizes: list[int] = []
    legal_times: list[float] = []
    hand_max = 0
    for seed in range(seeds):
        players = 2 + seed % 3
        rng = random.Random(seed)
        state = engine.new_game(players, seed)
        while engine.result(state) is None:
            (seat,) = engine.to_act(state)
            t0 = time.perf_counter()
            legal = engine.legal_actions(state, seat)
            legal_times.append(time.perf_counter() - t0)
            sizes.append(len(legal))
            hand_max = max(hand_max, max(len(hand) for hand in state.hands))
            state = engine.apply(state, seat, rng.choice(legal))
    return {
        "legal_max": max(sizes),
        "legal_p95": p95([float(s) for s in sizes]),
        "legal_max_ms": max(legal_times) * 1000,
        "hand_max": hand_max,
    }


def built_worst_case() -> dict[str, float]:
    """Two of every number card, four Wild # and two Wild DOS in hand; four Wild # and three Wild DOS in the row."""
    hand = [c for c in CODES if not c.endswith("#") and c != "W2" for _ in range(2)]
    hand += ["R#", "G#", "B#", "Y#", "W2", "W2"]
    state = position(hands=[hand, ["W2"]], center=["R#", "G#", "B#", "Y#", "W2", "W2", "W2"], resolve=False)
    t0 = time.perf_counter()
    legal = engine.legal_actions(state, 0)
    t1 = time.perf_counter()
    bot.choose(engine.view(state, 0), legal, rng=random.Random(0), budget_s=1.0)
    t2 = time.perf_counter()
    return {"size": len(legal), "legal_ms": (t1 - t0) * 1000, "bot_ms": (t2 - t1) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="games to simulate (default 20)")
    args = parser.parse_args()
    r = bot_games(args.seeds)
    print(
        f"DOS, {r['seeds']} four-bot games to 200: {r['moves_per_game']:.0f} moves, "
        f"{r['rounds_per_game']:.1f} rounds each"
    )
    print(
        f"  full game (view + legal + bot + apply per move): mean {r['game_mean_s'] * 1000:.1f} ms, "
        f"max {r['game_max_s'] * 1000:.1f} ms"
    )
    print(f"  bot per move: mean {r['bot_mean_us']:.0f} us, p95 {r['bot_p95_us']:.0f} us, max {r['bot_max_us']:.0f} us")
    print(f"  engine per move (view + legal_actions + apply): mean {r['engine_mean_us']:.0f} us")
    print(f"  dump + JSON + load of a final state: {r['store_us']:.0f} us, {r['dump_bytes']} bytes")
    print(f"  legal_actions size, largest in these bot games: {r['legal_max']}")
    w = random_games(args.seeds)
    print(
        f"Random play, {args.seeds} games of 2-4 players: legal_actions largest {w['legal_max']} "
        f"(p95 {w['legal_p95']:.0f}, slowest {w['legal_max_ms']:.1f} ms), largest hand {w['hand_max']}"
    )
    b = built_worst_case()
    print(
        f"Built worst case: {b['size']} legal actions, legal_actions {b['legal_ms']:.1f} ms (cold cache), "
        f"bot {b['bot_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
