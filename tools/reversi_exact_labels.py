"""Exact labels for the Reversi pattern fit: each WTHOR game's positions valued by perfect play from its endgame.

A game's final margin is a noisy label: between people, the last 18 moves alone move it by about 13-17
discs on average from what perfect play from there gives (measured on WTHOR: the mean absolute
difference between the exact value at 16 empties and the final margin is 13.2 discs over 40 games,
17.2 at 18 empties). So, for every game that reaches ``empties`` empty squares, the compiled solver
(``fast.solve``) gives every position from there on its exact margin, and every earlier position
takes the exact margin of the game's first position with ``empties`` left, for its own side to move.
Games that end before then keep their final margin, which is exact for a finished board.

The solves cost about 0.15 s a game at 18 empties, so the labels are kept in ``var/`` (never committed),
keyed by the games' text and the empties: the fit runs again in seconds once they are there.
Deterministic: the same games give the same labels, whatever ``jobs``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.reversi.bitboard import flips, moves  # noqa: E402
from games.reversi.board import SQUARE_INDEX  # noqa: E402
from games.reversi.state import START_BLACK, START_WHITE  # noqa: E402

CACHE = REPO / "var" / "reversi-labels"


def game_positions(text: str) -> list[tuple[int, int, bool]]:
    """(mover, opponent, black to move) before every move of one game, as fit_reversi_patterns reads it."""
    p, o, black_to_move = START_BLACK, START_WHITE, True
    out: list[tuple[int, int, bool]] = []
    for i in range(0, len(text), 2):
        sq = SQUARE_INDEX[text[i : i + 2]]
        if not moves(p, o) >> sq & 1:
            p, o, black_to_move = o, p, not black_to_move  # a forced pass: the other side plays this move
        out.append((p, o, black_to_move))
        f = flips(sq, p, o)
        p, o, black_to_move = o ^ f, p | f | (1 << sq), not black_to_move
    return out


_tables: tuple[object, np.ndarray, np.ndarray, np.ndarray] | None = None


def _solver() -> tuple[object, np.ndarray, np.ndarray, np.ndarray]:
    global _tables
    if _tables is None:
        from games.reversi import fast

        size = 1 << fast.TT_BITS
        keys, values = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 3), dtype=np.int64)
        _tables = (fast, keys, values, np.zeros(3, dtype=np.int64))
    return _tables


def game_labels(line: str, empties: int) -> list[int]:
    """The label of each position of one game (see the module's docstring)."""
    text, black_final = line.split()
    margin_black = 2 * int(black_final) - 64
    out = game_positions(text)
    labels = [margin_black if b else -margin_black for _p, _o, b in out]
    first = next((i for i, (p, o, _b) in enumerate(out) if 64 - (p | o).bit_count() <= empties), None)
    if first is None:
        return labels
    fast, keys, values, ctr = _solver()
    for i in range(first, len(out)):
        p, o, _b = out[i]
        ctr[:] = (0, 10**15, 0)
        labels[i] = int(fast.solve(np.uint64(p), np.uint64(o), -64, 64, ctr, keys, values))
    anchor_value, anchor_black = labels[first], out[first][2]
    for i in range(first):
        labels[i] = anchor_value if out[i][2] == anchor_black else -anchor_value
    return labels


def _work(job: tuple[list[str], int]) -> list[list[int]]:
    lines, empties = job
    return [game_labels(line, empties) for line in lines]


def exact_labels(lines: list[str], empties: int, jobs: int = 2) -> list[list[int]]:
    """Every game's labels, from the cache in var/ when the same games were labelled before."""
    digest = hashlib.sha256(("\n".join(lines) + f"\n{empties}").encode()).hexdigest()[:16]
    path = CACHE / f"exact-{empties}-{digest}.npz"
    if path.exists():
        data = np.load(path)
        flat, ends = data["labels"].tolist(), data["ends"].tolist()
        return [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    start = time.monotonic()
    chunks = [(lines[i : i + 50], empties) for i in range(0, len(lines), 50)]
    labelled: list[list[int]] = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for k, part in enumerate(pool.imap(_work, chunks)):
            labelled.extend(part)
            if k % 20 == 0:
                done = f"{len(labelled)}/{len(lines)} games"
                print(f"  exact labels: {done}, {time.monotonic() - start:.0f} s", flush=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    ends = np.cumsum([len(g) for g in labelled])
    np.savez_compressed(path, labels=np.array([v for g in labelled for v in g], dtype=np.int8), ends=ends)
    return labelled
