"""Fit the pattern weights of the hard Reversi bot from WTHOR games; writes games/reversi/data/patterns.bin.

    nice -n 5 .venv/bin/python tools/fit_reversi_patterns.py [GAMES.txt ...] [--lam 4] [--iters 60]

Input: decoded WTHOR games, one a line, ``moves final_black_count`` (passes not written; empties go to
the winner), by default the two complete-game files of ``../shared/data/reversi/wthor/``. Every
position of every game becomes one example: its 46 pattern placements (games/reversi/patterns.py) in
its phase, labelled with the game's final disc difference for the side to move. The weights solve a
ridge regression (conjugate gradient on the normal equations; ``--lam`` is the L2 penalty per weight),
so a pattern state seen rarely stays near zero. 5% of the games are held out
(not fitted) to report an honest error.

Needs numpy (requirements-dev.txt); the bot reads the result with the standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from array import array
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.reversi import patterns  # noqa: E402
from games.reversi.bitboard import flips, moves  # noqa: E402
from games.reversi.notation import SQUARE_INDEX  # noqa: E402
from games.reversi.rules import START_BLACK, START_WHITE  # noqa: E402

WTHOR = REPO.parent.parent / "shared" / "data" / "reversi" / "wthor"
DEFAULT_GAMES = [WTHOR / "wthor_games.txt", WTHOR / "wthor_early_end.txt"]
OUT = REPO / "games" / "reversi" / "data" / "patterns.bin"
MAGIC = b"TWPAT1\n"
# Weights are stored as int16 in 1/UNIT of a disc: 1/32 disc is far below the noise of a game result.
UNIT = 32


def positions(line: str) -> list[tuple[int, int, int]]:
    """(mover's discs, opponent's discs, final margin for the mover) before every move of one game."""
    text, black_final = line.split()
    margin_black = 2 * int(black_final) - 64
    p, o, black_to_move = START_BLACK, START_WHITE, True
    out: list[tuple[int, int, int]] = []
    for i in range(0, len(text), 2):
        sq = SQUARE_INDEX[text[i : i + 2]]
        if not moves(p, o) >> sq & 1:
            # A forced pass: the other side plays this move.
            p, o, black_to_move = o, p, not black_to_move
            if not moves(p, o) >> sq & 1:
                raise ValueError(f"illegal move {text[i : i + 2]} in {text}")
        out.append((p, o, margin_black if black_to_move else -margin_black))
        f = flips(sq, p, o)
        p, o, black_to_move = o ^ f, p | f | (1 << sq), not black_to_move
    return out


def symmetric_index() -> list[np.ndarray]:
    """Per pattern, each base-3 index mapped to the smallest index of its mirror images.

    Some patterns map onto themselves under a board symmetry with their cells permuted (an edge read
    backwards, a corner square mirrored in its diagonal). Tying those weights makes the evaluation of a
    position the same in all eight orientations.
    """
    out = []
    for name in patterns.NAMES:
        n, gather = patterns.GATHERS[name]
        cells = [next(s for s in range(64) if gather(1 << s) == 1 << k) for k in range(n)]
        where = {s: k for k, s in enumerate(cells)}
        idx = np.arange(3**n)
        digits = (idx[:, None] // 3 ** np.arange(n)) % 3
        best = idx.copy()
        for g in range(8):
            moved = [patterns.images(1 << s)[g].bit_length() - 1 for s in cells]
            if set(moved) != set(cells):
                continue
            perm = [where[m] for m in moved]  # cell k lands on cell perm[k]
            image = np.zeros_like(idx)
            for k in range(n):
                image += digits[:, k] * 3 ** perm[k]
            best = np.minimum(best, image)
        out.append(best)
    return out


def placement_cells() -> list[list[list[int]]]:
    """Per pattern, per placement: the square of each cell (cell k is base-3 digit k)."""
    out = []
    for name in patterns.NAMES:
        n, gather = patterns.GATHERS[name]
        per = []
        for k in patterns.PLACEMENTS[name]:
            where = {gather(patterns.images(1 << s)[k]): s for s in range(64)}
            per.append([where[1 << cell] for cell in range(n)])
        out.append(per)
    return out


def build(lines: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global weight indices (examples x placements + bias), targets, and each example's game number.

    Games are replayed with the bot's bitboards; the pattern indices are then computed for all
    positions at once with numpy, and checked against ``patterns.features`` on a sample.
    """
    movers = array("Q")
    others = array("Q")
    ys = array("i")
    games = array("i")
    for g, line in enumerate(lines):
        for p, o, margin in positions(line):
            movers.append(p)
            others.append(o)
            ys.append(margin)
            games.append(g)
    p_arr = np.frombuffer(movers, dtype="<u8")
    o_arr = np.frombuffer(others, dtype="<u8")
    bit_order = np.arange(64, dtype=np.uint64)
    state = ((p_arr[:, None] >> bit_order) & 1).astype(np.int32) + 2 * ((o_arr[:, None] >> bit_order) & 1).astype(
        np.int32
    )
    empties = 64 - (state > 0).sum(axis=1)
    phase = np.minimum(empties, 59) // patterns.PHASE_WIDTH

    offsets = [0]
    for size in patterns.SIZES:
        offsets.append(offsets[-1] + size)
    per_phase = offsets[-1] + 1  # the last slot of a phase is its bias
    tied = symmetric_index()
    columns = []
    raw = []
    for n, per in enumerate(placement_cells()):
        powers = 3 ** np.arange(len(per[0]), dtype=np.int32)
        for cells in per:
            idx = state[:, cells] @ powers
            raw.append(idx)
            columns.append(phase * per_phase + offsets[n] + tied[n][idx])
    columns.append(phase * per_phase + per_phase - 1)
    x = np.stack(columns, axis=1).astype(np.int32)
    # The vectorised indices must be the ones the bot computes.
    for i in range(0, len(p_arr), max(1, len(p_arr) // 200)):
        expected = [idx for _, idx in patterns.features(int(p_arr[i]), int(o_arr[i]))]
        assert [int(r[i]) for r in raw] == expected, f"pattern index mismatch at example {i}"
    return x, np.frombuffer(ys, dtype=np.int32).astype(np.float64), np.frombuffer(games, dtype=np.int32)


def ridge(x: np.ndarray, y: np.ndarray, n_weights: int, lam: float, iters: int) -> np.ndarray:
    """Minimise |Aw - y|^2 + lam |w|^2 where row i of A has ones at x[i] (conjugate gradient)."""
    flat = x.ravel()
    width = x.shape[1]

    def normal(w: np.ndarray) -> np.ndarray:
        r = w[x].sum(axis=1)
        return np.bincount(flat, weights=np.repeat(r, width), minlength=n_weights) + lam * w

    w = np.zeros(n_weights)
    r = np.bincount(flat, weights=np.repeat(y, width), minlength=n_weights)
    d = r.copy()
    rr = r @ r
    for it in range(iters):
        q = normal(d)
        step = rr / (d @ q)
        w += step * d
        r -= step * q
        rr_new = r @ r
        if it % 25 == 0:
            print(f"  cg {it}: residual {rr_new**0.5:.1f}", flush=True)
        d = r + (rr_new / rr) * d
        rr = rr_new
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--lam", type=float, default=4.0, help="L2 penalty per weight")
    parser.add_argument("--iters", type=int, default=60, help="conjugate-gradient iterations")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    lines = [ln for path in args.games for ln in path.read_text().splitlines() if ln.strip()]
    start = time.process_time()
    x, y, game = build(lines)
    print(f"{len(lines)} games, {len(y)} positions, features in {time.process_time() - start:.0f} s CPU", flush=True)
    per_phase = sum(patterns.SIZES) + 1
    n_weights = per_phase * patterns.N_PHASES

    held = game % 20 == 0
    w = ridge(x[~held], y[~held], n_weights, args.lam, args.iters)
    # The shipped weights are these (fitted without the held-out games), so the error below is honest.
    for name, rows in (("training", ~held), ("held-out", held)):
        err = np.abs(w[x[rows]].sum(axis=1) - y[rows]).mean()
        print(f"{name} games: mean absolute error {err:.2f} discs (predicting 0: {np.abs(y[rows]).mean():.2f})")

    # Every index gets the weight of its tied representative.
    expand = []
    at = 0
    for m in symmetric_index():
        expand.append(at + m)
        at += len(m)
    expand.append(np.array([at]))
    full_index = np.concatenate([np.concatenate(expand) + ph * per_phase for ph in range(patterns.N_PHASES)])
    q = np.clip(np.rint(w[full_index] * UNIT), -32767, 32767).astype("<i2")
    header = {
        "patterns": list(patterns.NAMES),
        "sizes": list(patterns.SIZES),
        "phases": patterns.N_PHASES,
        "phase_width": patterns.PHASE_WIDTH,
        "unit": UNIT,
        "games": len(lines),
        "positions": len(y),
        "lam": args.lam,
        "sources": [p.name for p in args.games],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + zlib.compress(q.tobytes(), 9))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes), CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
