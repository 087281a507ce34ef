"""DOS bot strength: each level against the level below and against random and greedy players.

Run: ``nice -n 5 .venv/bin/python bench/bots/dos.py [--quick] [--games N]``. No Django.
Heads-up games to 200 points, the two players changing seats every other game; then three- and
four-player games of one player of a level against the others of the level below or greedy players (a
win is finishing first; one in three or four by chance). ``--only "hard vs"`` runs the pairings whose
label contains the text.
``--rounds N`` instead screens hard against medium on N deals of four seats (``--table`` 2 or 3 for
fewer), paired (see ``rounds``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from random import Random
from typing import Any

from baselines import dos_greedy, pairings
from stats import Z95, Tally, arguments, log_run, only_option, report

from games.dos import bot, simulate
from games.dos.cards import hand_points
from games.dos.rules import engine

Player = Callable[..., dict[str, Any]]
BUDGET_S = 0.5


def budget_option(parser: argparse.ArgumentParser) -> None:
    only_option(parser)
    parser.add_argument(
        "--budget", type=float, default=BUDGET_S, help=f"seconds per decision, counted as work (default {BUDGET_S})"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="screen hard against medium on this many deals, one round each, paired, then stop",
    )
    parser.add_argument(
        "--table", type=int, choices=(2, 3, 4), default=4, help="seats of the --rounds deals (default 4)"
    )
    parser.add_argument(
        "--per-deal",
        type=Path,
        help="with --rounds, write each deal's hard wins and net points (a JSON line a deal) here, to pair variants",
    )
    parser.add_argument(
        "--calibrate", action="store_true", help="measure how many plays per second hard simulates, then stop"
    )


def calibrate(games: int, seed: int, budget_s: float) -> None:
    """Hard's simulated plays per second of its thinking, in heads-up games against medium: the rate
    ``bot.PLAYS_PER_SECOND`` is set from (rounded down, on a busy host)."""
    plays = 0
    real_step = simulate.step

    def counting(state: Any, action: dict[str, Any]) -> Any:
        nonlocal plays
        plays += 1
        return real_step(state, action)

    simulate.step = counting  # type: ignore[assignment]
    thinking = 0.0
    for g in range(games):
        rng = Random(seed + g)
        state = engine.new_game(2, seed + g)
        while engine.result(state) is None:
            (seat,) = engine.to_act(state)
            view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
            level = "hard" if seat == g % 2 else "medium"
            started = time.perf_counter()
            action = bot.choose(view, legal, rng=rng, budget_s=budget_s, level=level)
            if level == "hard":
                thinking += time.perf_counter() - started
            state = engine.apply(state, seat, action)
    simulate.step = real_step  # type: ignore[assignment]
    print(f"DOS hard: {plays} plays in {thinking:.1f} s of thinking: {plays / thinking:,.0f} plays per second")


def level(name: str) -> Player:
    return partial(bot.choose, level=name)


def play(seed: int, players: list[Player], budget_s: float = BUDGET_S) -> list[int]:
    """One game; the ranks per seat."""
    rng = Random(seed)
    state = engine.new_game(len(players), seed)
    while (result := engine.result(state)) is None:
        (seat,) = engine.to_act(state)
        action = players[seat](engine.view(state, seat), engine.legal_actions(state, seat), rng=rng, budget_s=budget_s)
        state = engine.apply(state, seat, action)
    return result["ranks"]


def heads_up(label: str, mine: Player, theirs: Player, games: int, seed: int, budget_s: float = BUDGET_S) -> Tally:
    tally = Tally(label)
    for g in range(games):
        me = g % 2
        players = [mine, theirs] if me == 0 else [theirs, mine]
        ranks = play(seed + g, players, budget_s)
        tally.add(1.0 if ranks[me] < ranks[1 - me] else 0.0 if ranks[me] > ranks[1 - me] else 0.5)
        so_far(tally, games)
    return tally


def so_far(tally: Tally, games: int) -> None:
    """Long runs: the partial tally on stderr every 25 games, so a run stopped early still tells something."""
    if tally.games % 25 == 0 and tally.games < games:
        print(f"{tally.line()}  (so far)", file=sys.stderr, flush=True)


def one_of(
    table: int, label: str, mine: Player, theirs: Player, games: int, seed: int, budget_s: float = BUDGET_S
) -> Tally:
    """One player of ``mine`` against ``table - 1`` of ``theirs``, the seat rotating; a win is finishing first."""
    tally = Tally(label, chance=1 / table)
    for g in range(games):
        me = g % table
        players = [mine if s == me else theirs for s in range(table)]
        tally.add(1.0 if play(seed + g, players, budget_s)[me] == 1 else 0.0)
        so_far(tally, games)
    return tally


def rounds(deals: int, seed: int, budget_s: float, table: int = 4, per_deal: Path | None = None) -> None:
    """Hard against medium on single rounds, paired: each deal's first round (the game seeds ``seed``
    on) played ``table`` times, hard in each seat and medium in the others. Medium in every seat wins
    exactly one round of a deal, so a deal's hard wins minus one is a paired difference against medium
    on the same cards; the interval is a normal one on those differences, narrower than a binomial
    interval on as many games, because the deal's luck cancels. ``per_deal`` gets each deal's wins and
    hard's net points per seat (``{"deal": seed, "wins": [0 or 1], "net": [points]}``: what it scored
    when it won, minus what the winner scored from its hand when it lost; heads-up that is the round's
    whole effect on the race to 200), so two variants can be paired on the same deals."""
    differences: list[int] = []
    all_nets: list[int] = []
    lines: list[str] = []
    for d in range(deals):
        seats: list[int] = []
        nets: list[int] = []
        for hard in range(table):
            rng = Random((seed + d) * 10 + hard)
            state = engine.new_game(table, seed + d)
            while not state.history:
                (seat,) = engine.to_act(state)
                name = "hard" if seat == hard else "medium"
                view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
                state = engine.apply(state, seat, bot.choose(view, legal, rng=rng, budget_s=budget_s, level=name))
            record = state.history[0]
            seats.append(int(record.winner == hard))
            nets.append(record.points if record.winner == hard else -hand_points(record.hands[hard]))
        differences.append(sum(seats) - 1)
        all_nets += nets
        lines.append(json.dumps({"deal": seed + d, "wins": seats, "net": nets}))
    if per_deal is not None:
        per_deal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    n = len(differences)
    mean = sum(differences) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in differences) / (n - 1)) if n > 1 else 0.0
    rate, half = (mean + 1) / table, Z95 * spread / math.sqrt(n) / table
    low, high = max(0.0, rate - half), min(1.0, rate + half)
    # A loser's hand always holds points, so the positive nets are exactly what hard scored.
    points = sum(net for net in all_nets if net > 0)
    print(
        f"DOS hard vs {table - 1} medium, {n} deals x {table} seats, one round each (budget {budget_s} s): hard "
        f"won {rate:.1%} of {table * n} rounds, paired 95% CI [{low:.1%}, {high:.1%}] (chance {1 / table:.0%}); "
        f"{points / (table * n):.1f} points per round, net {sum(all_nets) / (table * n):+.1f}"
    )


def main() -> None:
    args = arguments(__doc__.splitlines()[0], full=150, quick=30, extra=budget_option)
    if args.calibrate:
        calibrate(min(args.games, 5), args.seed, args.budget)
        return
    if args.rounds:
        rounds(args.rounds, args.seed, args.budget, args.table, args.per_deal)
        return
    started = time.perf_counter()
    print(f"DOS: {args.games} heads-up games per pairing (to 200 points), budget {args.budget} s per decision")
    report(
        pairings(level, dos_greedy),
        args.only,
        lambda label, mine, theirs: heads_up(label, mine, theirs, args.games, args.seed, args.budget),
    )
    for table, others in ((3, "two"), (4, "three")):
        print(f"DOS: {args.games // 2} {table}-player games per pairing, one player against {others}")
        tables = [
            (f"medium vs {table - 1} easy", level("medium"), level("easy")),
            (f"hard vs {table - 1} medium", level("hard"), level("medium")),
            *((f"{name} vs {table - 1} greedy", level(name), dos_greedy) for name in bot.LEVELS),
        ]
        report(
            tables,
            args.only,
            lambda label, mine, theirs, table=table: one_of(
                table, label, mine, theirs, args.games // 2, args.seed, args.budget
            ),
        )
    print(f"  ({time.perf_counter() - started:.0f} s)")
    if args.log:
        log_run(
            args.log,
            "DOS",
            args,
            f"budget {args.budget} s, {args.games} heads-up games and {args.games // 2} per table pairing",
        )


if __name__ == "__main__":
    main()
