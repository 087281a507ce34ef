"""Fit the hard Reversi level's Multi-ProbCut relations; writes games/reversi/data/probcut.json.

    nice -n 10 .venv/bin/python tools/fit_reversi_probcut.py [GAMES.txt ...] [--per-phase 60] [--max-depth 10]

ProbCut (Buro) predicts a deep search's value from a shallow one: ``deep ~ slope * shallow + intercept``
with residual deviation ``sigma``. For each ProbCut phase (``fast.MPC_PHASES``, by empties) and each
deep depth, this script searches positions of the held-out WTHOR games (game number a multiple of 20,
the games tools/fit_reversi_patterns.py did not fit the evaluation on) full-width to every depth up to
``--max-depth``, and fits the relation by least squares between the values at ``shallow_depth(depth)``
and at ``depth``. Values the search proved exactly (a known final margin) are left out: ProbCut never
guesses those. Deeper nodes are not cut: full-width searches beyond depth 10 cost seconds each, and
relations fitted on searches that already cut (to depth 14) made FFO #40-59 worse (see docs/bots.md).
Deterministic: the same games and evaluation give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.reversi import bot, fast  # noqa: E402
from tools.fit_reversi_patterns import DEFAULT_GAMES, positions  # noqa: E402

MIN_PAIRS = 30  # fewer pairs than this leave the (phase, depth) without a cut
Rows = list[tuple[int, list[int | None]]]  # (ProbCut phase, value at each depth) per position


def shallow_depth(depth: int) -> int:
    """The shallow search that stands in for ``depth``: about half as deep, so it costs little."""
    return depth // 2


def sample(lines: list[str], per_phase: int) -> list[tuple[int, int]]:
    """Up to ``per_phase`` positions per ProbCut phase from the held-out games, one per game and phase."""
    chosen: dict[int, list[tuple[int, int]]] = {ph: [] for ph in range(1, fast.MPC_PHASES)}
    for g, line in enumerate(lines):
        if g % 20:
            continue
        for ph, picked in chosen.items():
            # A different number of empties from game to game, so each phase is covered evenly.
            want = 10 * ph + (g // 20) % 10
            for p, o, _ in positions(line):
                if 64 - (p | o).bit_count() == want and len(picked) < per_phase:
                    picked.append((p, o))
                    break
    return [pos for ph in sorted(chosen) for pos in chosen[ph]]


def values_by_depth(p: int, o: int, max_depth: int, core: SimpleNamespace, cut: np.ndarray) -> list[int | None]:
    """The search's value at depths 0..max_depth (None where the search is exact, not heuristic)."""
    for table in (core.mk, core.mv, core.ek, core.ev):
        table.fill(0)
    empties = 64 - (p | o).bit_count()
    big_p, big_o = np.uint64(p), np.uint64(o)
    out: list[int | None] = []
    for depth in range(max_depth + 1):
        ctr = np.array([0, 10**15, 0], dtype=np.int64)
        value = fast.search(big_p, big_o, depth, -fast.INF, fast.INF, ctr, (*core.tables[:7], cut))
        out.append(int(value) if depth < empties and abs(value) <= fast.HEURISTIC_CAP else None)
    return out


def search_all(picked: list[tuple[int, int]], max_depth: int, core: SimpleNamespace, cut: np.ndarray) -> Rows:
    start = time.process_time()
    rows: Rows = []
    for i, (p, o) in enumerate(picked):
        empties = 64 - (p | o).bit_count()
        rows.append((min(empties, 59) // 10, values_by_depth(p, o, max_depth, core, cut)))
        if i % 50 == 49:
            print(f"  {i + 1}/{len(picked)} positions to depth {max_depth}, {time.process_time() - start:.0f} s CPU")
    return rows


def fit(rows: Rows, depths: range) -> list[dict[str, Any]]:
    """The least-squares relation for every (phase, depth) with enough heuristic pairs."""
    fits = []
    for ph in range(fast.MPC_PHASES):
        for depth in depths:
            s = shallow_depth(depth)
            pairs = [(v[s], v[depth]) for q, v in rows if q == ph and v[s] is not None and v[depth] is not None]
            if len(pairs) < MIN_PAIRS:
                continue
            x, y = np.array(pairs, dtype=np.float64).T
            slope, intercept = np.polyfit(x, y, 1)
            sigma = float(np.std(y - (slope * x + intercept)))
            fits.append(
                {
                    "phase": ph,
                    "depth": depth,
                    "shallow": s,
                    "slope": round(float(slope), 4),
                    "intercept": round(float(intercept), 2),
                    "sigma": round(sigma, 2),
                    "pairs": len(pairs),
                }
            )
            print(f"  phase {ph} depth {depth} from {s}: slope {slope:.3f} intercept {intercept:.1f} sigma {sigma:.1f}")
    return fits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--per-phase", type=int, default=60, help="positions per ProbCut phase")
    parser.add_argument("--max-depth", type=int, default=10, help="deepest search fitted")
    parser.add_argument("--out", type=Path, default=bot.PROBCUT)
    args = parser.parse_args()
    if not 3 <= args.max_depth <= fast.MPC_MAX_DEPTH:
        parser.error(f"need 3 <= --max-depth <= {fast.MPC_MAX_DEPTH}")

    lines = [ln for path in args.games for ln in path.read_text().splitlines() if ln.strip()]
    picked = sample(lines, args.per_phase)
    core = bot._core()
    start = time.process_time()
    fits = fit(search_all(picked, args.max_depth, core, bot.probcut_table([], 0.0)), range(3, args.max_depth + 1))
    meta = {
        "positions": len(picked),
        "max_depth": args.max_depth,
        "units": "evaluation units (1/32 disc)",
        "source": "WTHOR held-out games (number a multiple of 20), full-width searches with patterns.npz",
    }
    args.out.write_text(json.dumps({"meta": meta, "fits": fits}, indent=1) + "\n")
    print(f"wrote {args.out}: {len(fits)} relations, {time.process_time() - start:.0f} s CPU")


if __name__ == "__main__":
    main()
