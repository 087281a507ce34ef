"""Reversi bot strength: FFO #40-59 and matches between the levels and two baselines.

    nice -n 5 .venv/bin/python bench/bots/reversi.py [--quick] [--games N] [--budget S] [--ffo-budget S]

- FFO #40-59 (exact scores of every move from the FFO files): per position the chosen move, the best
  moves and the disc loss (best score minus the chosen move's score), for the hard level at
  ``--ffo-budget`` (2 s) and at the in-game budget (0.5 s), and for medium (the previous bot) at both.
- Matches: each level against the one below and against a random and a greedy (most discs flipped)
  player, from varied openings (the first 4-6 moves of distinct WTHOR games), each opening played
  with both colours. Win rate counts a draw as half a win; the 95% interval is Wilson's.
- Nodes per CPU-second per level (CPU time, not wall time: the machine is shared).

Budgets are node budgets (budget_s * the level's reference rate) with the wall-clock guard off, so the
figures do not depend on how busy the machine is; only the run time does.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from stats import LOG, Tally, log_run, only_option, seed_option  # noqa: E402

from games.reversi import bot, endgame  # noqa: E402
from games.reversi.bitboard import bits, flips, moves  # noqa: E402
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES  # noqa: E402
from games.reversi.state import START_BLACK, START_WHITE  # noqa: E402

SHARED = REPO.parent / "shared" / "data" / "reversi"
LOCAL = REPO / "tests" / "data" / "reversi"
# The FFO sets by their first problem: #40-59 is the usual benchmark; #60-79 (harder, 24-36 empties) was
# never used for tuning anything, so it is the check that the search was not fitted to #40-59.
FFO_SETS = {"40-59": ("fforum-40-59.obf", 40), "60-79": ("fforum-60-79.obf", 60)}

Player = Callable[[int, int, random.Random], int]
CPU: dict[str, list[float]] = {}  # level -> [nodes, cpu seconds]


def data_file(name: str, shared_sub: str) -> Path:
    shared = SHARED / shared_sub / name
    return shared if shared.exists() else LOCAL / name


def forget() -> None:
    """Empty the tables kept between moves, so each measurement starts cold."""
    bot.forget()


def level_player(level: str, budget_s: float) -> Player:
    def play(p: int, o: int, rng: random.Random) -> int:
        start = time.process_time()
        d = bot.decide(p, o, level=level, budget_s=budget_s, rng=rng, wall_safety=math.inf)
        tally = CPU.setdefault(level, [0.0, 0.0])
        tally[0] += d.nodes
        tally[1] += time.process_time() - start
        return d.square

    return play


def random_player(p: int, o: int, rng: random.Random) -> int:
    return rng.choice(bits(moves(p, o)))


def greedy_player(p: int, o: int, rng: random.Random) -> int:
    options = [(flips(sq, p, o).bit_count(), rng.random(), sq) for sq in bits(moves(p, o))]
    return max(options)[2]


def openings(n: int, seed: int) -> list[list[int]]:
    """``n`` distinct openings of 4-6 moves, taken from WTHOR games."""
    lines = data_file("wthor_games.txt", "wthor").read_text().splitlines()
    if not (SHARED / "wthor").exists():
        lines = data_file("wthor_sample.txt", "wthor").read_text().splitlines()
    rng = random.Random(seed)
    seen: set[tuple[int, ...]] = set()
    out: list[list[int]] = []
    for _ in range(50 * n):
        text = rng.choice(lines).split()[0]
        plies = rng.randint(4, 6)
        seq = tuple(SQUARE_INDEX[text[2 * i : 2 * i + 2]] for i in range(plies))
        if seq not in seen:
            seen.add(seq)
            out.append(list(seq))
            if len(out) == n:
                break
    return out


def play(first: Player, second: Player, opening: list[int], seed: int) -> int:
    """Final margin (empties to the winner) for ``first``, which moves first after the opening."""
    p, o = START_BLACK, START_WHITE
    for sq in opening:
        f = flips(sq, p, o)
        p, o = o ^ f, p | f | (1 << sq)
    rng = random.Random(seed)
    players = (first, second)
    turn = 0
    while True:
        if not moves(p, o):
            if not moves(o, p):
                margin = endgame.final_margin(p, o)
                return margin if turn == 0 else -margin
            p, o, turn = o, p, 1 - turn
            continue
        sq = players[turn](p, o, rng)
        f = flips(sq, p, o)
        p, o, turn = o ^ f, p | f | (1 << sq), 1 - turn


def match(name_a: str, a: Player, name_b: str, b: Player, games: int, seed: int) -> None:
    tally = Tally(f"{name_a} vs {name_b}")
    margin_sum = 0
    start = time.process_time()
    for i, opening in enumerate(openings(max(1, games // 2), seed)):
        for a_first in (True, False):
            forget()
            m = play(a, b, opening, seed + i) if a_first else -play(b, a, opening, seed + i)
            tally.add(1.0 if m > 0 else 0.5 if m == 0 else 0.0)
            margin_sum += m
    LOG.append(tally)
    print(
        f"{tally.line()}  mean margin {margin_sum / tally.games:+5.1f}  ({time.process_time() - start:.0f} s CPU)",
        flush=True,
    )


def ffo_positions(which: str = "40-59") -> list[tuple[int, int, int, dict[str, int]]]:
    """(number, p, o, exact score of every move) for the FFO set ``which`` (see FFO_SETS)."""
    name, first = FFO_SETS[which]
    out = []
    for k, line in enumerate(data_file(name, "ffo").read_text().strip().splitlines()):
        board, rest = line[:64], line[65:]
        black = sum(1 << i for i, c in enumerate(board) if c == "X")
        white = sum(1 << i for i, c in enumerate(board) if c == "O")
        p, o = (black, white) if rest[0] == "X" else (white, black)
        scores = {}
        for pair in rest[2:].split(";"):
            if ":" in pair:
                mv, sc = pair.strip().split(":")
                scores[mv.lower()] = int(sc)
        out.append((first + k, p, o, scores))
    return out


def ffo(level: str, budget_s: float, verbose: bool, which: str = "40-59") -> None:
    best_count = 0
    loss_sum = 0
    nodes = 0
    cpu = 0.0
    positions = ffo_positions(which)
    print(f"FFO #{which}, {level} at {budget_s} s ({int(budget_s * bot.NODES_PER_SECOND[level])} nodes):", flush=True)
    for number, p, o, scores in positions:
        forget()
        start = time.process_time()
        d = bot.decide(p, o, level=level, budget_s=budget_s, rng=random.Random(number), wall_safety=math.inf)
        used = time.process_time() - start
        chosen = SQUARE_NAMES[d.square]
        top = max(scores.values())
        loss = top - scores[chosen]
        best = sorted(m for m, s in scores.items() if s == top)
        best_count += loss == 0
        loss_sum += loss
        nodes += d.nodes
        cpu += used
        if verbose:
            print(
                f"  #{number} {64 - (p | o).bit_count()} empties: played {chosen} (best {','.join(best)} {top:+d})"
                f" loss {loss:2d}  depth {d.depth:2d} {d.source:<12} {d.nodes:6d} nodes {used:5.2f} s CPU",
                flush=True,
            )
    print(
        f"  => best move {best_count}/{len(positions)}, mean disc loss {loss_sum / len(positions):.2f}, "
        f"{nodes / max(cpu, 1e-9):,.0f} nodes per CPU-second",
        flush=True,
    )


def versus(patterns: Path, probcut: Path, budget_s: float, games: int, seed: int) -> None:
    """Hard with the shipped evaluation against hard with another one (``patterns``, ``probcut``: the
    files of an earlier fit, e.g. from ``git show <commit>:games/reversi/data/patterns.npz``), at equal
    budgets, each with tables of its own."""
    shipped = bot._core()
    cached = bot._core
    saved = bot.PATTERNS, bot.PROBCUT
    bot.PATTERNS, bot.PROBCUT = patterns, probcut
    try:
        other = cached.__wrapped__()
    finally:
        bot.PATTERNS, bot.PROBCUT = saved
    current = [shipped]

    def core() -> object:
        return current[0]

    core.cache_info = cached.cache_info  # type: ignore[attr-defined]  # bot.forget asks it
    bot._core = core  # type: ignore[assignment]

    def with_core(chosen: object) -> Player:
        hard = level_player("hard", budget_s)

        def play(p: int, o: int, rng: random.Random) -> int:
            current[0] = chosen
            return hard(p, o, rng)

        return play

    def forget_both() -> None:
        for chosen in (shipped, other):
            current[0] = chosen
            bot.forget()

    global forget
    plain_forget, forget = forget, forget_both
    try:
        match("hard (shipped)", with_core(shipped), f"hard ({patterns.name})", with_core(other), games, seed)
    finally:
        forget, bot._core = plain_forget, cached


def wthor_position(line: str, empties: int) -> tuple[int, int] | None:
    """(mover, opponent) of one WTHOR game when ``empties`` squares are left (None if it ended before)."""
    text = line.split()[0]
    p, o = START_BLACK, START_WHITE
    for i in range(0, len(text), 2):
        if 64 - (p | o).bit_count() == empties:
            return (p, o) if moves(p, o) else None
        sq = SQUARE_INDEX[text[i : i + 2]]
        if not moves(p, o) >> sq & 1:
            p, o = o, p  # a forced pass: the other side plays this move
        f = flips(sq, p, o)
        p, o = o ^ f, p | f | (1 << sq)
    return None


def exact_reach(budget_s: float, per_count: int, counts: list[int]) -> None:
    """How often hard solves a real position exactly within ``budget_s``, by empties (WTHOR games)."""
    lines = data_file("wthor_games.txt", "wthor").read_text().splitlines()
    rng = random.Random(7)
    print(f"Exact solving, hard at {budget_s} s ({int(budget_s * bot.NODES_PER_SECOND['hard'])} nodes):", flush=True)
    for empties in counts:
        solved = 0
        tried = 0
        nodes = []
        start = time.process_time()
        while tried < per_count:
            pos = wthor_position(rng.choice(lines), empties)
            if pos is None:
                continue
            tried += 1
            forget()
            d = bot.decide(*pos, level="hard", budget_s=budget_s, rng=random.Random(tried), wall_safety=math.inf)
            solved += d.source == "exact"
            nodes.append(d.nodes)
        print(
            f"  {empties} empties: exact in {solved}/{tried}, median {sorted(nodes)[len(nodes) // 2]:,} nodes"
            f" ({time.process_time() - start:.1f} s CPU)",
            flush=True,
        )


def wall_time(budgets: list[float], count: int) -> None:
    """Hard as a live match runs it (the wall-clock deadline on) on the first ``count`` FFO positions:
    wall time per decision against its budget. These figures, unlike the others, depend on the load."""
    bot.warm_up()
    for budget_s in budgets:
        walls = []
        for number, p, o, _scores in ffo_positions()[:count]:
            forget()
            start = time.perf_counter()
            d = bot.decide(p, o, level="hard", budget_s=budget_s, rng=random.Random(number))
            walls.append(time.perf_counter() - start)
            print(f"  #{number} hard at {budget_s} s: {walls[-1]:.3f} s wall, {d.nodes:,} units ({d.source})")
        load = os.getloadavg()[0]
        print(f"  => {budget_s} s budget: wall {min(walls):.3f}-{max(walls):.3f} s, load average {load:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, FFO at the in-game budget only")
    parser.add_argument("--games", type=int, default=40, help="games per pairing (even: both colours)")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds of budget per move in matches")
    parser.add_argument("--ffo-budget", type=float, default=2.0)
    parser.add_argument("--in-game-budget", type=float, default=0.5)
    parser.add_argument("--ffo-levels", default="hard,medium", help="levels to run on FFO, comma-separated")
    parser.add_argument("--ffo-set", choices=sorted(FFO_SETS), default="40-59", help="which FFO positions")
    parser.add_argument("--skip-ffo", action="store_true")
    parser.add_argument("--skip-matches", action="store_true")
    only_option(parser)
    parser.add_argument("--exact", action="store_true", help="only: how many empties hard solves exactly")
    parser.add_argument("--wall-time", action="store_true", help="only: hard's wall time per move, deadline on")
    parser.add_argument(
        "--versus",
        nargs=2,
        type=Path,
        metavar=("PATTERNS", "PROBCUT"),
        help="only: hard against hard with these evaluation files, --games games at --budget",
    )
    seed_option(parser, default=1)  # the seed of the figures in docs/bots.md
    args = parser.parse_args()
    games = 10 if args.quick and args.games == 40 else args.games

    print(f"Reversi bots, node budgets per level: {bot.NODES_PER_SECOND} nodes per budget second")
    if args.versus:
        versus(*args.versus, args.budget, games, args.seed)
        return
    if args.wall_time:
        wall_time([args.in_game_budget, args.ffo_budget], 5 if args.quick else 20)
        return
    if args.exact:
        exact_reach(args.ffo_budget, 5 if args.quick else 10, [14, 16, 17, 18, 19, 20])
        return
    if not args.skip_ffo:
        budgets = [args.in_game_budget] if args.quick else [args.ffo_budget, args.in_game_budget]
        for level in args.ffo_levels.split(","):
            for budget_s in budgets:
                ffo(level, budget_s, verbose=level == "hard" or not args.quick, which=args.ffo_set)
    if not args.skip_matches:
        print(f"Matches at {args.budget} s per move, openings of 4-6 WTHOR moves, both colours:", flush=True)
        levels = {name: level_player(name, args.budget) for name in bot.LEVELS}
        baselines = {"random": random_player, "greedy": greedy_player}
        seed = args.seed
        # Each pairing keeps its seeds whether or not --only leaves it out: a pairing run alone plays
        # the games it plays in a whole run.
        planned = [
            (upper, levels[upper], lower, levels[lower]) for lower, upper in (("medium", "hard"), ("easy", "medium"))
        ]
        planned += [
            (level, levels[level], name, baseline) for level in bot.LEVELS for name, baseline in baselines.items()
        ]
        for name_a, a, name_b, b in planned:
            if args.only in f"{name_a} vs {name_b}":
                match(name_a, a, name_b, b, games, seed)
            seed += 1000
    for level, (n, cpu) in CPU.items():
        print(f"  {level}: {n / max(cpu, 1e-9):,.0f} nodes per CPU-second in matches")
    if args.log and LOG:
        log_run(args.log, "Reversi", args, f"budget {args.budget} s a move, {games} games per pairing")


if __name__ == "__main__":
    main()
