"""The engine against third-party data: FForum endgame problems and real WTHOR tournament games.

See tests/data/reversi/README.md for where each file comes from.
"""

from __future__ import annotations

from pathlib import Path
from time import perf_counter

import pytest

from games.reversi.board import SQUARE_NAMES, parse_board
from games.reversi.bot import SCALE, Searcher, best_square
from games.reversi.endgame import Budget
from games.reversi.rules import Passed, State, engine

DATA = Path(__file__).resolve().parents[2] / "data" / "reversi"


# --- FForum problems ------------------------------------------------------------------------------


def ffo_problems() -> list[tuple[int, str, str, dict[str, int]]]:
    """(number, board in our notation, side to move B/W, {move: exact score}) for #1-#79."""
    problems = []
    for first, name in (
        (1, "fforum-1-19.obf"),
        (20, "fforum-20-39.obf"),
        (40, "fforum-40-59.obf"),
        (60, "fforum-60-79.obf"),
    ):
        lines = [line for line in (DATA / name).read_text().splitlines() if line.strip()]
        for k, line in enumerate(lines):
            head, *pairs = (part.strip() for part in line.split(";"))
            board, side = head.split()
            scores = {}
            for pair in filter(None, pairs):
                move, score = pair.split(":")
                scores[move.lower()] = int(score)
            ours = board.translate(str.maketrans("XO-", "BW."))
            problems.append((first + k, ours, {"X": "B", "O": "W"}[side], scores))
    return problems


FFO = ffo_problems()
ANSWERS = {
    int(n): (int(score), set(best.split(",")))
    for n, score, best in (line.split() for line in (DATA / "ffo_best_egaroucid.txt").read_text().splitlines())
}


def ffo_state(board: str, side: str) -> State:
    return engine.new_game(2, 0, {"board": board, "to_move": side})


def test_all_79_problems_are_loaded() -> None:
    assert [n for n, *_ in FFO] == list(range(1, 80))


@pytest.mark.parametrize(("number", "board", "side", "scores"), FFO, ids=[f"ffo{n}" for n, *_ in FFO])
def test_ffo_legal_moves_and_counts_match_the_problem(
    number: int, board: str, side: str, scores: dict[str, int]
) -> None:
    v = engine.view(ffo_state(board, side), None)
    # Every problem has a move for the side to move, so no pass happened at the start.
    assert v["to_move"] == side
    assert v["legal"] == sorted(scores), f"FFO #{number}"
    assert v["counts"] == {"B": board.count("B"), "W": board.count("W")}
    assert v["board"] == board
    best_score, best_moves = ANSWERS[number]
    assert max(scores.values()) == best_score
    assert best_moves <= set(v["legal"])
    assert best_moves == {m for m, s in scores.items() if s == best_score}


def exact_scores(board: str, side: str) -> dict[str, int]:
    """Exact final margin after every legal move, empties to the winner, by full search."""
    seat = 0 if side == "B" else 1
    state = ffo_state(board, side)
    searcher = Searcher(Budget(10**12, float("inf"), perf_counter))
    out = {}
    for action in engine.legal_actions(state, seat):
        child = engine.apply(state, seat, action)
        mine, theirs = child.discs(seat)
        # Scored from the opponent's side; the solver itself handles a pass or the end.
        value = -searcher.solve(theirs, mine, -65 * SCALE, 65 * SCALE)
        out[action["square"]] = value // SCALE
    return out


def test_ffo_20_every_move_scores_exactly_as_published() -> None:
    number, board, side, scores = FFO[19]
    assert number == 20 and board.count(".") == 6
    assert exact_scores(board, side) == scores


@pytest.mark.parametrize("number", [5, 20])
def test_bot_solves_small_ffo_endgames_exactly(number: int) -> None:
    _, board, side, scores = FFO[number - 1]
    black, white = parse_board(board)
    p, o = (black, white) if side == "B" else (white, black)
    # Unlimited nodes; the 30 s wall-clock guard only stops a runaway search.
    square, value, depth = best_square(p, o, budget=Budget(10**12, perf_counter() + 30, perf_counter))
    assert depth == board.count(".")
    assert value // SCALE == max(scores.values())
    assert SQUARE_NAMES[square] in ANSWERS[number][1]


@pytest.mark.slow
@pytest.mark.parametrize("number", [2, 4, 7])
def test_bot_solves_14_empty_ffo_endgames_exactly(number: int) -> None:
    test_bot_solves_small_ffo_endgames_exactly(number)


# --- WTHOR games ----------------------------------------------------------------------------------


def wthor(name: str) -> list[tuple[list[str], int]]:
    games = []
    for line in (DATA / name).read_text().splitlines():
        moves_text, score = line.split()
        games.append(([moves_text[i : i + 2] for i in range(0, len(moves_text), 2)], int(score)))
    return games


def replay(game: list[str]) -> State:
    """Play the recorded squares, whoever's turn it is after forced passes; any illegal move raises."""
    state = engine.new_game(2, 0)
    for number, square in enumerate(game, 1):
        assert state.to_move is not None, f"game over before move {number} ({square})"
        state = engine.apply(state, state.to_move, {"type": "place", "square": square})
    return state


def test_wthor_sample_games_replay_legally_and_reproduce_the_recorded_score() -> None:
    games = wthor("wthor_sample.txt")
    assert len(games) > 400
    passes = 0
    for index, (game, recorded) in enumerate(games):
        state = replay(game)
        v = engine.view(state, None)
        assert v["over"], f"game {index} not over"
        # WTHOR gives the empties to the winner, as REV-11's tournament score does.
        assert v["tournament_score"]["B"] == recorded, f"game {index}"
        passes += sum(1 for e in state.events if isinstance(e, Passed))
    assert passes > 0  # the sample does exercise forced passes


def test_wthor_games_ending_early_score_empties_to_the_winner_rev_e2_e4() -> None:
    games = wthor("wthor_early_end_sample.txt")
    assert len(games) > 200
    raw_differs = 0
    for index, (game, recorded) in enumerate(games):
        v = engine.view(replay(game), None)
        assert v["over"], f"game {index}"
        counts = v["counts"]
        assert counts["B"] + counts["W"] < 64
        assert v["result"]["scores"] == [counts["B"], counts["W"]]
        assert v["tournament_score"]["B"] == recorded, f"game {index}"
        raw_differs += counts["B"] != recorded
    assert raw_differs > 50  # black wins and draws, where the two conventions differ


def test_wthor_incomplete_games_are_legal_but_not_over() -> None:
    games = wthor("wthor_incomplete_sample.txt")
    assert len(games) > 40
    for index, (game, _) in enumerate(games):
        assert not replay(game).over, f"game {index}"
