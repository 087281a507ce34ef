"""Back Alley benchmark: a whole 25-deal match between four bots, and the bot's time per move.

Run from anywhere: ``.venv/bin/python bench/bench_backalley.py [--seeds 10]``. No Django needed.
A match here is what the bot runner does for four computer seats: for each move, the acting seat's
view, its legal actions, the bot's choice, and ``apply``. A dump/load round trip per move (what the
match core pays to store the state) is timed separately.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import p95, timed_bot_game
from games.backalley import bot
from games.backalley.rules import engine


def run(seeds: int) -> dict[str, float]:
    games = [timed_bot_game(engine, bot.choose, 4, seed) for seed in range(seeds)]
    state = games[-1].state
    bot_times = [t for g in games for t in g.bot_times]
    engine_times = [t for g in games for t in g.engine_times]
    match_times = [g.seconds for g in games]
    moves = sum(g.moves for g in games)
    store_times = []
    for game in games:
        # Storage cost, outside the match timing: dump to JSON text and load it back.
        t0 = time.perf_counter()
        engine.load(json.loads(json.dumps(engine.dump(game.state))))
        store_times.append(time.perf_counter() - t0)
    return {
        "seeds": seeds,
        "moves_per_match": moves / seeds,
        "match_mean_s": statistics.mean(match_times),
        "match_max_s": max(match_times),
        "bot_mean_us": statistics.mean(bot_times) * 1e6,
        "bot_p95_us": p95(bot_times) * 1e6,
        "bot_max_us": max(bot_times) * 1e6,
        "engine_mean_us": statistics.mean(engine_times) * 1e6,
        "store_mean_us": statistics.mean(store_times) * 1e6,
        "dump_bytes": len(json.dumps(engine.dump(state))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="matches to simulate (default 10)")
    args = parser.parse_args()
    r = run(args.seeds)
    print(f"Back Alley, {r['seeds']} four-bot matches, {r['moves_per_match']:.0f} moves each")
    print(
        f"  match (view + legal + bot + apply per move): mean {r['match_mean_s'] * 1000:.1f} ms, "
        f"max {r['match_max_s'] * 1000:.1f} ms"
    )
    print(f"  bot per move: mean {r['bot_mean_us']:.0f} us, p95 {r['bot_p95_us']:.0f} us, max {r['bot_max_us']:.0f} us")
    print(f"  engine per move (view + legal_actions + apply): mean {r['engine_mean_us']:.0f} us")
    print(f"  dump + JSON + load of a final state: mean {r['store_mean_us']:.0f} us, {r['dump_bytes']} bytes")


if __name__ == "__main__":
    main()
