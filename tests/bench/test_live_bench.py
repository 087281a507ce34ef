"""The live-path benchmark keeps working: it reads today's pages, and a tiny run gives sane figures."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.live import scenario
from bench.live.client import legal_squares, versions_in
from tests.support import client_for

REPO = Path(__file__).resolve().parent.parent.parent


@pytest.mark.django_db
def test_the_harness_reads_version_and_legal_squares_from_the_real_fragment(reversi_match: Any) -> None:
    black, white = (seat.user for seat in reversi_match.seats.order_by("number"))
    url = f"/m/{reversi_match.pk}/"

    mover = client_for(black).get(url, headers={"HX-Request": "true"}).content.decode()
    waiting = client_for(white).get(url, headers={"HX-Request": "true"}).content.decode()

    assert versions_in(mover) == reversi_match.version
    assert sorted(legal_squares(mover)) == ["c4", "d3", "e6", "f5"]
    assert legal_squares(waiting) == []


def test_a_tiny_run_plays_moves_and_receives_their_pushes(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    tiny = [
        "--quick", "--no-postgres", "--no-ramp", "--matches", "2", "--spectators", "2", "--spectator-moves", "6",
        "--floor-requests", "20", "--sequential-moves", "4", "--steady-rate", "4", "--steady-seconds", "1",
        "--idle-seconds", "0.2", "--json", str(out),
    ]  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "bench.live", *tiny], cwd=REPO, capture_output=True, text=True, timeout=240
    )
    assert run.returncode == 0, run.stderr[-3000:]
    sqlite = json.loads(out.read_text())["sqlite"]

    sequential = sqlite["sequential"]
    assert sequential["completed"] == 4  # every move's push reached the opponent's socket
    assert sequential["queries_per_move"] > 0
    assert sequential["cpu_ms_per_move"] > 0
    assert sequential["push_ms_p50"] > 0
    assert sqlite["plain_page"]["requests"] == 20
    assert sqlite["plain_page"]["cpu_ms_per_request"] > 0
    assert sqlite["move_to_page_cpu_ratio"] > 0
    assert sqlite["steady"]["completed"] >= 1
    spectators = sqlite["spectators"]
    assert spectators["completed_watched"] == 6  # both spectators saw every move
    assert spectators["cpu_ms_per_move_alone"] > 0
    assert spectators["frame_chars"] > 1000  # the spectators' Reversi fragment, measured, not assumed
    # daphne's own frame, measured in the same run with as many sockets and frames of that size, in
    # rounds after each of the spectators' two turns (blocks of 5 moves), not all after them
    floor = sqlite["frame_floor"]
    assert (floor["sockets"], floor["size"]) == (2, spectators["frame_chars"])
    assert (floor["blocks"], floor["rounds"]) == (2, 2 * 3)  # --quick's 5 rounds, over 2 turns, rounded up
    # A tiny run's floor is a difference of two small CPU readings and may come out at or below zero on
    # a busy machine: then no ratio is claimed; otherwise the ratio is the two figures of this run.
    if floor["frame_us"] > 0:
        over = round(spectators["cpu_us_per_more_spectator_frame"] / floor["frame_us"], 2)
        assert sqlite["spectator_frame_over_floor"] == over
    else:
        assert sqlite["spectator_frame_over_floor"] is None
    assert spectators["cpu_ms_per_move_one_spectator"] > 0
    assert "server CPU per move" in run.stdout
    assert "A spectator's frame:" in run.stdout and "daphne alone, 2 sockets" in run.stdout


def test_two_processes_over_one_compares_cpu_per_move_with_and_without_the_idle_processes() -> None:
    from bench.live.__main__ import cpu_two_over_one

    # One process: 10 ms a move over 20 moves in 4 s, idle 5 ms/s; two: 12 ms a move in 4 s, idle 10 ms/s.
    one = {"idle_cpu_ms_per_s": 5.0, "sequential": {"cpu_ms_per_move": 10.0, "seconds": 4.0, "moves": 20}}
    two = {"idle_cpu_ms_per_s": 10.0, "sequential": {"cpu_ms_per_move": 12.0, "seconds": 4.0, "moves": 20}}
    one["steady"], two["steady"] = {"cpu_ms_per_move": 11.0}, {"cpu_ms_per_move": 11.0}
    assert cpu_two_over_one(one, two) == {
        "cpu_per_move_two_over_one": 1.2,
        "steady_cpu_per_move_two_over_one": 1.0,
        "busy_cpu_per_move_two_over_one": 1.11,  # (12 - 10 * 4 / 20) / (10 - 5 * 4 / 20) = 10 / 9
    }


def test_the_ramp_refines_between_the_last_step_sustained_and_the_one_that_failed(monkeypatch: Any) -> None:
    capacity = 60.0
    tried: list[float] = []

    async def at_rate(_site: Any, _pairs: Any, rate: float, _seconds: float, _timeout: float) -> dict[str, Any]:
        tried.append(rate)
        ok = rate <= capacity
        return {
            "offered_per_s": round(rate, 1),
            "achieved_per_s": round(rate, 1),
            "completion": 1.0 if ok else 0.7,
            "push_ms_p99": 50.0,
        }

    monkeypatch.setattr(scenario, "at_rate", at_rate)
    result = asyncio.run(scenario.saturation(None, [], [20.0, 40.0, 80.0], 1.0, 5.0, 1000.0, 0.95, 60.0, refine=2))
    # 40 holds, 80 fails; then 40 * 2 ** (1/3) = 50.4 holds and 40 * 2 ** (2/3) = 63.5 fails.
    assert [round(r, 1) for r in tried] == [20.0, 40.0, 80.0, 50.4, 63.5]
    assert result["saturation_moves_per_s"] == 50.4
    assert [s["sustained"] for s in result["steps"]] == [True, True, False, True, False]


def test_the_frame_floor_runs_daphne_bare_and_reports_a_cost_per_frame() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench.live.floor", "--sockets", "3", "--rounds", "3", "--size", "500"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "3 sockets, frames of 500 characters, 3 rounds" in run.stdout
    assert "us of server CPU per frame" in run.stdout
