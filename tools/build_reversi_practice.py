"""Build the Reversi practice positions from WTHOR games; writes games/reversi/data/practice.json.

    nice -n 5 .venv/bin/python tools/build_reversi_practice.py [GAMES.txt ...] [--every 150] [--empties 14]

From every ``--every``-th game, the position with ``--empties`` empty squares, if the side to move has
at least 3 moves and exactly one best move, ahead of the next by at least ``--margin`` discs: a
position with one answer. Every legal move's exact final margin (empties to the winner) is solved by
the hard level's compiled solver and stored, so the practice page checks an answer without searching.
Deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from games.reversi import fast  # noqa: E402
from games.reversi.bitboard import bits, flips, moves  # noqa: E402
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES, board_string  # noqa: E402
from games.reversi.state import START_BLACK, START_WHITE  # noqa: E402

WTHOR = REPO.parent / "shared" / "data" / "reversi" / "wthor"
OUT = REPO / "games" / "reversi" / "data" / "practice.json"


def position_at(line: str, empties: int) -> tuple[int, int, str] | None:
    """(Black's discs, White's discs, side to move) once ``empties`` squares are left, or None."""
    black, white, black_to_move = START_BLACK, START_WHITE, True
    text = line.split()[0]
    for i in range(0, len(text), 2):
        if 64 - (black | white).bit_count() == empties:
            return black, white, "B" if black_to_move else "W"
        p, o = (black, white) if black_to_move else (white, black)
        if not moves(p, o):  # a pass: the other side plays this move
            black_to_move = not black_to_move
            p, o = o, p
        sq = SQUARE_INDEX[text[i : i + 2]]
        f = flips(sq, p, o)
        p, o = p | f | (1 << sq), o ^ f
        black, white = (p, o) if black_to_move else (o, p)
        black_to_move = not black_to_move
    return None


def exact_values(p: int, o: int) -> dict[str, int]:
    size = 1 << fast.TT_BITS
    keys, values = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 3), dtype=np.int64)
    out = {}
    for sq in bits(moves(p, o)):
        f = flips(sq, p, o)
        ctr = np.array([0, 10**12, 0], dtype=np.int64)
        out[SQUARE_NAMES[sq]] = -int(
            fast.solve(np.uint64(o ^ f), np.uint64(p | f | (1 << sq)), -64, 64, ctr, keys, values)
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", type=Path, default=[WTHOR / "wthor_games.txt"])
    parser.add_argument("--every", type=int, default=150)
    parser.add_argument("--empties", type=int, default=14)
    parser.add_argument("--margin", type=int, default=4)
    args = parser.parse_args()
    lines = [line for path in args.games for line in path.read_text().splitlines() if line.strip()]
    positions = []
    for line in lines[:: args.every]:
        found = position_at(line, args.empties)
        if found is None:
            continue
        black, white, to_move = found
        p, o = (black, white) if to_move == "B" else (white, black)
        if len(bits(moves(p, o))) < 3:
            continue
        values = exact_values(p, o)
        ranked = sorted(values.values(), reverse=True)
        if ranked[0] - ranked[1] < args.margin:
            continue
        positions.append({"board": board_string(black, white), "to_move": to_move, "values": values})
    OUT.write_text(json.dumps({"source": "WTHOR", "empties": args.empties, "positions": positions}, indent=0) + "\n")
    print(f"{len(positions)} positions from {len(lines[:: args.every])} games -> {OUT}")


if __name__ == "__main__":
    main()
