"""Tacocat bot strength: each level against the level below and against random and greedy players.

Run: ``nice -n 5 .venv/bin/python bench/bots/tacocat.py [--quick] [--games N]``. No Django.
Whole games on the default board and deck (the rules file's assumed ones), the players changing seats
every other game, at the site's default budget of 0.5 s a decision (counted in positions visited, not wall time). Also
reports the most positions any decision visited against what its budget allows. ``--only "hard vs"`` runs
the pairings whose label contains the text.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from random import Random
from typing import Any

from baselines import pairings, tacocat_greedy
from stats import Tally, arguments, log_run, only_option, report

from games.tacocat import bot
from games.tacocat.rules import engine

Player = Callable[..., dict[str, Any]]
BUDGET_S = 0.5
most_nodes = 0


def level(name: str) -> Player:
    def player(view: dict[str, Any], legal: list[dict[str, Any]], *, rng: Random, budget_s: float) -> dict[str, Any]:
        global most_nodes
        decision = bot.decide(view, legal, rng=rng, budget_s=budget_s, level=name)
        most_nodes = max(most_nodes, decision.nodes)
        return decision.action

    return player


def play(seed: int, players: tuple[Player, Player]) -> int | None:
    """One game; the winning seat (None for a draw)."""
    rng = Random(seed)
    state = engine.new_game(2, seed)
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        action = players[seat](engine.view(state, seat), engine.legal_actions(state, seat), rng=rng, budget_s=BUDGET_S)
        state = engine.apply(state, seat, action)
    return state.winner


def heads_up(label: str, mine: Player, theirs: Player, games: int, seed: int) -> Tally:
    tally = Tally(label)
    for g in range(games):
        me = g % 2
        winner = play(seed + g, (mine, theirs) if me == 0 else (theirs, mine))
        tally.add(0.5 if winner is None else 1.0 if winner == me else 0.0)
    return tally


def main() -> None:
    args = arguments(__doc__.splitlines()[0], full=100, quick=20, extra=only_option)
    started = time.perf_counter()
    print(f"Tacocat: {args.games} games per pairing, budget {BUDGET_S}s ({bot.node_budget(BUDGET_S)} positions)")
    report(
        pairings(level, tacocat_greedy),
        args.only,
        lambda label, mine, theirs: heads_up(label, mine, theirs, args.games, args.seed),
    )
    print(f"  most positions visited by one decision: {most_nodes} (budget {bot.node_budget(BUDGET_S)})")
    print(f"  ({time.perf_counter() - started:.0f} s)")
    if args.log:
        log_run(args.log, "Tacocat", args, f"budget {BUDGET_S} s, {args.games} games per pairing")


if __name__ == "__main__":
    main()
