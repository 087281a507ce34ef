"""Back Alley benchmark: a whole 25-deal match between four bots, and the bot's time per move.

Run from anywhere: ``.venv/bin/python bench/bench_backalley.py [--seeds 10]``. No Django needed.
A match here is what the bot runner does for four computer seats: for each move, the acting seat's
view, its legal actions, the bot's choice, and ``apply``. A dump/load round trip per move (what the
match core pays to store the state) is timed separately.
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

from games.backalley import bot
from games.backalley.rules import engine


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def run(seeds: int) -> dict[str, float]:
    match_times: list[float] = []
    bot_times: list[float] = []
    engine_times: list[float] = []
    store_times: list[float] = []
    moves = 0
    for seed in range(seeds):
        rng = random.Random(seed)
        started = time.perf_counter()
        state = engine.new_game(4, seed)
        while engine.result(state) is None:
            t0 = time.perf_counter()
            (seat,) = engine.to_act(state)
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = bot.choose(view, legal, rng=rng, budget_s=1.0)
            t2 = time.perf_counter()
            state = engine.apply(state, seat, action)
            t3 = time.perf_counter()
            bot_times.append(t2 - t1)
            engine_times.append((t1 - t0) + (t3 - t2))
            moves += 1
        match_times.append(time.perf_counter() - started)
        # Storage cost, outside the match timing: dump to JSON text and load it back.
        t0 = time.perf_counter()
        engine.load(json.loads(json.dumps(engine.dump(state))))
        store_times.append(time.perf_counter() - t0)
    return {
        "seeds": seeds,
        "moves_per_match": moves / seeds,
        "match_mean_s": statistics.mean(match_times),
        "match_max_s": max(match_times),
        "bot_mean_us": statistics.mean(bot_times) * 1e6,
        "bot_p95_us": _p95(bot_times) * 1e6,
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
