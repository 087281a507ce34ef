"""The bot strength benchmark keeps working: the ordering rule, fresh seeds, and a run that logs its rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "bench" / "bots"))

from stats import FRESH_SEEDS, Tally  # noqa: E402


def tally(wins: int, games: int, chance: float = 0.5) -> Tally:
    return Tally("x vs y", chance=chance, wins=wins, losses=games - wins)


@pytest.mark.parametrize(
    ("wins", "games", "chance", "stronger", "ordered"),
    [
        (60, 100, 0.5, True, False),  # [50.2%, 69.1%]: above one half, but by less than 5 points
        (70, 100, 0.5, True, True),  # [60.4%, 78.1%]
        (124, 200, 0.5, True, True),  # [55.1%, 68.4%]: just clears 55%
        (33, 100, 0.25, False, False),  # [24.6%, 42.7%] against one in four: not even above it
        (40, 100, 0.25, True, True),  # [30.9%, 49.8%] against one in four
    ],
)
def test_a_row_is_ordered_only_when_its_interval_clears_the_equal_share_by_five_points(
    wins: int, games: int, chance: float, stronger: bool, ordered: bool
) -> None:
    row = tally(wins, games, chance)
    assert row.significant() is stronger
    assert row.ordered() is ordered
    assert row.line().endswith(f"ordered: {'yes' if ordered else 'no'}")


def test_the_fresh_seeds_are_above_every_seed_the_docs_record_for_tuning() -> None:
    recorded = [0, 100, 2000, 5000, 10000, 20000, 30000, 40000, 70000, 2300000, 2400000]
    assert max(recorded) < FRESH_SEEDS[0]


def test_a_tiny_run_prints_the_ordered_column_and_appends_its_rows_to_the_log(tmp_path: Path) -> None:
    log = tmp_path / "runs.md"
    log.write_text("# earlier runs\n")
    run = subprocess.run(
        [sys.executable, "bench/bots/tacocat.py", "--games", "2", "--only", "medium vs easy",
         "--seed", str(FRESH_SEEDS[0]), "--log", str(log)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    (row,) = [line for line in run.stdout.splitlines() if "medium vs easy" in line]
    assert "games    2" in row and "ordered: no" in row  # two games cannot order anything
    text = log.read_text()
    assert text.startswith("# earlier runs\n")  # appended, not replaced
    assert "### Tacocat" in text and "(fresh)" in text
    assert "| medium vs easy | 2 |" in text and text.rstrip().endswith("| 50% | **no** |")


@pytest.mark.parametrize("table", [2, 3])
def test_the_dos_rounds_screen_pairs_a_deal_over_every_seat_and_writes_each_deals_wins(
    tmp_path: Path, table: int
) -> None:
    per_deal = tmp_path / "deals.jsonl"
    run = subprocess.run(
        [sys.executable, "bench/bots/dos.py", "--rounds", "2", "--table", str(table), "--budget", "0.01",
         "--seed", "5", "--per-deal", str(per_deal)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    rounds = 2 * table
    assert f"hard vs {table - 1} medium, 2 deals x {table} seats" in run.stdout
    assert f"of {rounds} rounds" in run.stdout
    deals = [json.loads(line) for line in per_deal.read_text().splitlines()]
    assert [deal["deal"] for deal in deals] == [5, 6]
    # One entry a seat: whether hard, playing in that seat, won the deal's first round.
    assert all(len(deal["wins"]) == table and set(deal["wins"]) <= {0, 1} for deal in deals)
    # The printed rate is the file's wins over every round.
    won = sum(sum(deal["wins"]) for deal in deals)
    assert f"won {won / rounds:.1%} of {rounds} rounds" in run.stdout
    # Net points: what hard scored where it won, what the winner took from its hand where it lost.
    assert all(len(deal["net"]) == table for deal in deals)
    assert all((net >= 0) == bool(win) for deal in deals for win, net in zip(deal["wins"], deal["net"], strict=True))
    net = sum(sum(deal["net"]) for deal in deals)
    scored = sum(points for deal in deals for points in deal["net"] if points > 0)
    assert f"{scored / rounds:.1f} points per round, net {net / rounds:+.1f}" in run.stdout
