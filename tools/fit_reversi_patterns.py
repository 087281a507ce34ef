"""Fit the hard Reversi level's pattern weights from WTHOR games; writes games/reversi/data/patterns.npz.

    nice -n 5 .venv/bin/python tools/fit_reversi_patterns.py [GAMES.txt ...] [--lam 4] [--iters 80] [--exact-from 16]

Input: decoded WTHOR games, one a line, ``moves final_black_count`` (passes not written; empties go to
the winner), by default the two game files of ``../shared/data/reversi/wthor/``. Every position of
every game is one example: the base-3 state of each pattern placement (``fast.placements()``) in its
game phase, labelled with what perfect play gives the side to move from the game's position with
``--exact-from`` empties (16; tools/reversi_exact_labels.py: each position from there on by its own
exact value), not with the game's final margin, which people's endgame errors move by about 13 discs
on average (``--exact-from 0`` labels by the final margin, as before 4 December 2026). The exact
labels cost about 17 minutes of CPU once and are kept in var/. The weights solve a ridge
regression (conjugate gradient on the normal equations; ``--lam`` is the L2 penalty per weight), so a
pattern state seen rarely stays near zero. Games whose number is a multiple of 20 are held out (not
fitted) to report an honest error. Deterministic: the same games give the same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from array import array
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.reversi import fast  # noqa: E402
from games.reversi.bitboard import flips, moves  # noqa: E402
from games.reversi.board import SQUARE_INDEX  # noqa: E402
from games.reversi.state import START_BLACK, START_WHITE  # noqa: E402
from tools.reversi_exact_labels import exact_labels  # noqa: E402

WTHOR = REPO.parent / "shared" / "data" / "reversi" / "wthor"
DEFAULT_GAMES = [WTHOR / "wthor_games.txt", WTHOR / "wthor_early_end.txt"]
OUT = REPO / "games" / "reversi" / "data" / "patterns.npz"
# Weights are stored as int16 in 1/UNIT of a disc: 1/32 disc is far below the noise of a game result.
UNIT = 32


def positions(line: str) -> list[tuple[int, int, int]]:
    """(mover's discs, opponent's discs, final margin for the mover) before every move of one game."""
    text, black_final = line.split()
    black = int(black_final)
    p, o, black_to_move = START_BLACK, START_WHITE, True
    out: list[tuple[int, int, int]] = []
    for i in range(0, len(text), 2):
        sq = SQUARE_INDEX[text[i : i + 2]]
        if not moves(p, o) >> sq & 1:
            # A forced pass: the other side plays this move.
            p, o, black_to_move = o, p, not black_to_move
            if not moves(p, o) >> sq & 1:
                raise ValueError(f"illegal move {text[i : i + 2]} in {text}")
        out.append((p, o, black_to_move))
        f = flips(sq, p, o)
        p, o, black_to_move = o ^ f, p | f | (1 << sq), not black_to_move
    # WTHOR's count already gives the empty squares to the winner (half each on a draw).
    margin_black = 2 * black - 64
    return [(q, r, margin_black if b else -margin_black) for q, r, b in out]


def build(lines: list[str], labels: list[list[int]] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global weight indices (examples x placements + bias), targets, and each example's game number.

    ``labels`` (one list per game, a value per position) replaces the games' final margins as targets.
    """
    movers = array("Q")
    others = array("Q")
    ys = array("i")
    games = array("i")
    for g, line in enumerate(lines):
        for k, (p, o, margin) in enumerate(positions(line)):
            movers.append(p)
            others.append(o)
            ys.append(margin if labels is None else labels[g][k])
            games.append(g)
    p_arr = np.frombuffer(movers, dtype="<u8")
    o_arr = np.frombuffer(others, dtype="<u8")
    bit_order = np.arange(64, dtype=np.uint64)
    state = ((p_arr[:, None] >> bit_order) & 1).astype(np.int64) + 2 * ((o_arr[:, None] >> bit_order) & 1).astype(
        np.int64
    )
    empties = 64 - (state > 0).sum(axis=1)
    phase = np.minimum(empties, 59) // 6
    cells, offsets, _ = fast.pattern_tables()
    columns = []
    for k in range(cells.shape[0]):
        squares = [int(s) for s in cells[k] if s >= 0]
        idx = state[:, squares] @ (3 ** np.arange(len(squares), dtype=np.int64))
        columns.append(offsets[phase, k] + idx)
    columns.append(offsets[phase, cells.shape[0]])
    x = np.stack(columns, axis=1)
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
        if it % 20 == 0:
            print(f"  cg {it}: residual {rr_new**0.5:.1f}", flush=True)
        d = r + (rr_new / rr) * d
        rr = rr_new
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--lam", type=float, default=4.0, help="L2 penalty per weight")
    parser.add_argument("--iters", type=int, default=80, help="conjugate-gradient iterations")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--exact-from",
        type=int,
        default=16,
        help="label positions by perfect play from this many empties (tools/reversi_exact_labels.py); 0: final margins",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes for the exact labels")
    args = parser.parse_args()

    lines = [ln for path in args.games for ln in path.read_text().splitlines() if ln.strip()]
    start = time.process_time()
    labels = exact_labels(lines, args.exact_from, args.jobs) if args.exact_from else None
    x, y, game = build(lines, labels)
    print(f"{len(lines)} games, {len(y)} positions, features in {time.process_time() - start:.0f} s CPU", flush=True)
    _, _, n_weights = fast.pattern_tables()
    held = game % 20 == 0
    w = ridge(x[~held], y[~held], n_weights, args.lam, args.iters)
    # The shipped weights are these (fitted without the held-out games), so the error below is honest.
    for name, rows in (("training", ~held), ("held-out", held)):
        err = np.abs(w[x[rows]].sum(axis=1) - y[rows]).mean()
        print(f"{name} games: mean absolute error {err:.2f} discs (predicting 0: {np.abs(y[rows]).mean():.2f})")
    q = np.clip(np.rint(w * UNIT), -32767, 32767).astype("<i2")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        weights=q,
        unit=np.int64(UNIT),
        patterns=np.array(list(fast.BASE_PATTERNS)),
        games=np.int64(len(lines)),
        positions=np.int64(len(y)),
        lam=np.float64(args.lam),
        exact_from=np.int64(args.exact_from),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes), CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
