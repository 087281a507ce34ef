"""Build the hard Reversi bot's opening book from WTHOR games; writes games/reversi/data/book.json.

    nice -n 5 .venv/bin/python tools/build_reversi_book.py [GAMES.txt ...] [--plies 20] [--min-games 12]

Every position of the first ``--plies`` moves of every game is put in its canonical orientation
(games/reversi/book.py). A position played in at least ``--min-games`` games enters the book with the
reply whose games ended best for the side to move: mean final disc margin, shrunk towards 0 by
``--prior`` phantom games so a reply seen twice cannot beat one seen fifty times by luck. Standard
library only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.reversi.bitboard import flips, moves  # noqa: E402
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES  # noqa: E402
from games.reversi.book import DATA, SQUARE_IMAGE, canonical  # noqa: E402
from games.reversi.state import START_BLACK, START_WHITE  # noqa: E402

WTHOR = REPO.parent / "shared" / "data" / "reversi" / "wthor"
DEFAULT_GAMES = [WTHOR / "wthor_games.txt", WTHOR / "wthor_early_end.txt"]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--min-games", type=int, default=12)
    parser.add_argument("--min-reply", type=int, default=3, help="games a reply needs to be chosen")
    parser.add_argument("--prior", type=float, default=4.0)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args()

    # canonical key -> canonical reply square -> [games, summed margin for the side to move]
    stats: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    n_games = 0
    for path in args.games:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            n_games += 1
            moves_text = line.split()[0]
            for ply, (p, o, margin) in enumerate(positions(line)[: args.plies]):
                key, k = canonical(p, o)
                sq = SQUARE_NAMES.index(moves_text[2 * ply : 2 * ply + 2])
                cell = stats[key][SQUARE_IMAGE[k][sq]]
                cell[0] += 1
                cell[1] += margin
    book: dict[str, str] = {}
    for key, replies in stats.items():
        if sum(n for n, _ in replies.values()) < args.min_games:
            continue
        scored = [(total / (n + args.prior), sq) for sq, (n, total) in replies.items() if n >= args.min_reply]
        if scored:
            book[key] = SQUARE_NAMES[max(scored)[1]]
    out = {"games": n_games, "plies": args.plies, "min_games": args.min_games, "moves": dict(sorted(book.items()))}
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"{n_games} games -> {len(book)} book positions, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
