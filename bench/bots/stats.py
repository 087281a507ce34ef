"""What the bot strength benchmarks share: the Wilson interval, a tally of results, the report lines
and the run log.

Not a benchmark itself (``make bench-bots`` runs every other script in this folder). A game counts as a
win for the side under test, a loss, or a draw; draws count half, as in chess, so the reported rate is
the side's score per game.

A row is *ordered* when the whole 95% interval clears the equal player's share (one half heads-up, one
in three or four for one player of a table) by at least ``ORDER_MARGIN`` (5 points): clearing it by a
hair is not enough to call a level stronger.

Seeds: ``FRESH_SEEDS`` is kept for independent runs (``make bench-bots`` starts there); nothing may be
tuned on it. Tuning and exploring use seeds below it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The repo root, so that ``games`` and ``bench`` import without installing anything.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.support import deadline  # noqa: E402

Z95 = 1.959963984540054
ORDER_MARGIN = 0.05
# Seeds never used for tuning (every seed used so far, docs/bots.md, is below 3,000,000).
FRESH_SEEDS = range(10_000_000, 20_000_000)

# The searches' wall-clock deadline off: the figures must depend on the work counts alone, however
# busy the machine (only the run time does).
deadline.ENFORCED = False


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Results of one pairing, from the side under test's point of view."""

    label: str
    # The rate an equal player would score: one half heads-up, one in three or four for one player of a table.
    chance: float = 0.5
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, outcome: float) -> None:
        """``outcome`` 1 for a win, 0 for a loss, 0.5 for a draw."""
        if outcome == 1:
            self.wins += 1
        elif outcome == 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.draws, self.games)

    def significant(self) -> bool:
        """The whole 95% interval lies above chance: the side is stronger, not just lucky."""
        return self.interval()[0] > self.chance

    def ordered(self) -> bool:
        """The whole 95% interval clears chance by ``ORDER_MARGIN``: the levels are ordered."""
        return self.interval()[0] >= self.chance + ORDER_MARGIN

    def line(self) -> str:
        lo, hi = self.interval()
        verdict = "stronger" if self.significant() else ("weaker" if hi < self.chance else "not separated")
        if self.chance != 0.5:
            verdict += f" (chance {self.chance:.0%})"
        return (
            f"  {self.label:<28} games {self.games:4d}  W-L-D {self.wins}-{self.losses}-{self.draws}  "
            f"win rate {self.rate:6.1%}  95% CI [{lo:6.1%}, {hi:6.1%}]  {verdict}  "
            f"ordered: {'yes' if self.ordered() else 'no'}"
        )


# Every row this run reported, for ``log_run``.
LOG: list[Tally] = []


def log_run(path: Path, game: str, args: argparse.Namespace, settings: str) -> None:
    """Append this run's rows to the run log ``path`` (Markdown), ordered or not: a run that did not
    separate the levels is kept as much as one that did."""
    from datetime import UTC, datetime
    from os import getloadavg
    from subprocess import run

    commit = run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    fresh = "fresh" if args.seed in FRESH_SEEDS else "NOT fresh"
    lines = [
        f"\n### {game}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit or '?'}\n",
        f"{settings}; seeds from {args.seed} ({fresh}); load average {getloadavg()[0]:.1f}\n",
        "| pairing | games | W-L-D | score | 95% CI | equal share | ordered? |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in LOG:
        lo, hi = t.interval()
        lines.append(
            f"| {t.label} | {t.games} | {t.wins}-{t.losses}-{t.draws} | {t.rate:.1%} | [{lo:.1%}, {hi:.1%}] "
            f"| {t.chance:.0%} | {'yes' if t.ordered() else '**no**'} |"
        )
    with path.open("a", encoding="utf-8") as log:
        log.write("\n".join(lines) + "\n")


def report(pairings: list[tuple[str, Any, Any]], only: str, measure: Callable[[str, Any, Any], Tally]) -> None:
    """Measures each pairing ``(label, mine, theirs)`` whose label contains ``only`` and prints its line
    as soon as it is done (a long run shows its rows as they come)."""
    for label, mine, theirs in pairings:
        if only in label:
            tally = measure(label, mine, theirs)
            LOG.append(tally)
            print(tally.line(), flush=True)


def only_option(parser: argparse.ArgumentParser) -> None:
    """``--only TEXT``: run just the pairings whose label contains TEXT (all by default)."""
    parser.add_argument("--only", default="", help='run only the pairings whose label contains this, e.g. "hard vs"')


def seed_option(parser: argparse.ArgumentParser, default: int = 0) -> None:
    """``--seed S`` (the first seed) and ``--log FILE`` (append the rows to this run log)."""
    fresh = f"fresh, never tuned on: {FRESH_SEEDS[0]:,}-{FRESH_SEEDS[-1]:,}"
    parser.add_argument("--seed", type=int, default=default, help=f"first seed (default {default}; {fresh})")
    parser.add_argument("--log", type=Path, default=None, help="append this run's rows to this Markdown file")


def arguments(
    description: str, full: int, quick: int, extra: Callable[[argparse.ArgumentParser], None] | None = None
) -> argparse.Namespace:
    """The options every script takes: ``--quick`` for a short run, ``--games N`` to choose; ``extra``
    adds a script's own."""
    parser = argparse.ArgumentParser(description=description)
    if extra is not None:
        extra(parser)
    parser.add_argument("--quick", action="store_true", help=f"a short run ({quick} games per pairing)")
    parser.add_argument("--games", type=int, default=None, help=f"games per pairing (default {full})")
    seed_option(parser)
    args = parser.parse_args()
    if args.games is None:
        args.games = quick if args.quick else full
    return args
