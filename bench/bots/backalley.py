"""Back Alley bot strength: each level against the level below and against random and greedy pairs.

Run: ``nice -n 5 .venv/bin/python bench/bots/backalley.py [--quick] [--games N] [--deals D]``. No Django.
A game is a match of the last ``--deals`` deals of the 25 (hand sizes ...3, 2, 1, 2, 3...; the full
match with ``--deals 25``): one team (seats 0 and 2) of the level under test against a pair of the
other kind, the teams changing seats every other game so neither has the first dealer's advantage.
It also reports, per level, the mean numeric contract and the tricks its team took in those deals, and
how many made contracts had 3 or more overtricks (worth 1 point each, against 5 for a bid trick).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from random import Random
from typing import Any

from baselines import backalley_greedy, pairings
from stats import Tally, arguments, log_run, only_option, report  # also puts the repo root on sys.path

from games.backalley import bot
from games.backalley.rules import engine

Player = Callable[..., dict[str, Any]]
BUDGET_S = 0.5


@dataclass
class Bidding:
    """Numeric contracts of one team kind: the contract and the tricks taken, per deal."""

    contracts: list[int] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    made: int = 0
    big_overtricks: int = 0

    def line(self, label: str) -> str:
        n = len(self.contracts)
        if not n:
            return f"  {label:<8} no numeric contracts"
        return (
            f"  {label:<8} deals {n:5d}  mean contract {sum(self.contracts) / n:5.2f}  "
            f"mean tricks {sum(self.tricks) / n:5.2f}  made {self.made / n:6.1%}  "
            f"made with 3+ overtricks {self.big_overtricks / max(1, self.made):6.1%} of made"
        )


def level(name: str) -> Player:
    return partial(bot.choose, level=name)


def play(seed: int, team_a: Player, team_b: Player, first_deal: int) -> tuple[Any, list[dict[str, Any]]]:
    """One match; team A holds seats 0 and 2. Returns the result and the score sheet."""
    rng = Random(seed)
    players = [team_a, team_b, team_a, team_b]
    state = engine.new_game(4, seed, {"first_deal": first_deal})
    while engine.result(state) is None:
        (seat,) = engine.to_act(state)
        action = players[seat](engine.view(state, seat), engine.legal_actions(state, seat), rng=rng, budget_s=BUDGET_S)
        state = engine.apply(state, seat, action)
    return engine.result(state), engine.view(state, 0)["score_sheet"]


def record(sheet: list[dict[str, Any]], team: int, into: Bidding) -> None:
    for row in sheet:
        contract = row["contracts"][team]
        if contract["board"]:
            continue
        tricks = row["tricks"][team]
        into.contracts.append(contract["tricks"])
        into.tricks.append(tricks)
        if tricks >= contract["tricks"]:
            into.made += 1
            if tricks - contract["tricks"] >= 3:
                into.big_overtricks += 1


def pairing(
    label: str, mine: Player, theirs: Player, games: int, seed: int, first_deal: int, bidding: Bidding | None
) -> Tally:
    tally = Tally(label)
    for g in range(games):
        swap = g % 2 == 1
        result, sheet = play(seed + g, theirs if swap else mine, mine if swap else theirs, first_deal)
        team = 1 if swap else 0
        ranks = result["ranks"]
        tally.add(0.5 if result["detail"]["draw"] else 1.0 if ranks[team] == 1 else 0.0)
        if bidding is not None:
            record(sheet, team, bidding)
    return tally


def main() -> None:
    args = arguments(
        __doc__.splitlines()[0],
        full=40,
        quick=12,
        extra=lambda p: (
            p.add_argument("--deals", type=int, default=13, help="deals per match, 1-25 (default 13)"),
            only_option(p),
        ),
    )
    first_deal = 26 - max(1, min(25, args.deals))
    started = time.perf_counter()
    print(
        f"Back Alley: {args.games} matches per pairing, deals {first_deal}-25 "
        f"({26 - first_deal} deals), budget {BUDGET_S}s"
    )
    bidding = {name: Bidding() for name in bot.LEVELS}
    # The bidding is tallied in the games against greedy only, per level: "easy vs greedy" counts easy's.
    report(
        pairings(level, backalley_greedy),
        args.only,
        lambda label, mine, theirs: pairing(
            label, mine, theirs, args.games, args.seed, first_deal, bidding.get(label.removesuffix(" vs greedy"))
        ),
    )
    print("Bids against tricks taken (numeric contracts of the level's team, in its games against greedy):")
    for name in bot.LEVELS:
        print(bidding[name].line(name))
    print(f"  ({time.perf_counter() - started:.0f} s)")
    if args.log:
        log_run(
            args.log,
            "Back Alley",
            args,
            f"budget {BUDGET_S} s, {args.games} matches of {26 - first_deal} deals per pairing",
        )


if __name__ == "__main__":
    main()
