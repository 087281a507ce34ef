"""Rules REV-1..REV-11, scenarios REV-S1..S9 and edge cases REV-E1..E6 (shared/rules/reversi.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import Engine, IllegalAction, InvalidAction, is_draw, winners
from games.reversi.bitboard import flips, moves
from games.reversi.board import SQUARE_INDEX, parse_board
from games.reversi.rules import State, engine

MakeBoard = Callable[..., str]
START = "." * 27 + "WB" + "." * 6 + "BW" + "." * 27


def place(square: str) -> dict[str, Any]:
    return {"type": "place", "square": square}


def play(state: State, *squares: str) -> State:
    for square in squares:
        assert state.to_move is not None, f"game over before {square}"
        state = engine.apply(state, state.to_move, place(square))
    return state


def custom(board: str, to_move: str = "B") -> State:
    return engine.new_game(2, 0, {"board": board, "to_move": to_move})


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    return engine.view(state, seat)


# --- the protocol --------------------------------------------------------------------------------


def test_engine_satisfies_the_protocol_with_two_seats() -> None:
    assert isinstance(engine, Engine)
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == ("reversi", "Reversi", 2, 2)


@pytest.mark.parametrize("players", [1, 3])
def test_only_two_players_may_play(players: int) -> None:
    with pytest.raises(InvalidAction, match="exactly 2 players"):
        engine.new_game(players, 0)


# --- REV-1 / REV-2 / REV-3: board, notation, start --------------------------------------------------


def test_board_string_runs_a1_to_h1_then_down_the_rows_rev1() -> None:
    assert [SQUARE_INDEX[s] for s in ("a1", "h1", "a2", "h8")] == [0, 7, 8, 63]
    black, white = parse_board("B" + "." * 62 + "W")
    assert (black, white) == (1, 1 << 63)


def test_start_position_has_white_d4_e5_and_black_e4_d5_rev2() -> None:
    v = view(engine.new_game(2, 0))
    assert v["board"] == START
    board = v["board"]
    assert [board[SQUARE_INDEX[s]] for s in ("d4", "e5", "e4", "d5")] == ["W", "W", "B", "B"]
    assert v["counts"] == {"B": 2, "W": 2}


def test_black_seat_zero_moves_first_rev3() -> None:
    state = engine.new_game(2, 0)
    assert engine.to_act(state) == [0]
    assert view(state)["to_move"] == "B"
    assert engine.legal_actions(state, 1) == []


def test_disc_supply_is_unlimited_rev4(board: MakeBoard) -> None:
    # Black already has 33 discs (more than the table-top 32) and may still place one.
    rows_1_to_4 = " ".join(f"{c}{r}" for c in "abcdefgh" for r in "1234")
    state = custom(board(black=rows_1_to_4 + " a5", white="b5 h8"))
    assert view(state)["counts"]["B"] == 33
    after = play(state, "c5")
    assert view(after)["counts"]["B"] == 35


# --- REV-5 / REV-6: moves and flips --------------------------------------------------------------


def test_scenario_s1_black_opens_with_exactly_c4_d3_e6_f5() -> None:
    state = engine.new_game(2, 0)
    assert view(state)["legal"] == ["c4", "d3", "e6", "f5"]
    assert engine.legal_actions(state, 0) == [place(s) for s in ("c4", "d3", "e6", "f5")]


def test_scenario_s2_f5_flips_e5_only_and_white_answers_d6_f4_f6() -> None:
    v = view(play(engine.new_game(2, 0), "f5"))
    assert v["flipped"] == ["e5"]
    assert v["last_move"] == "f5"
    assert v["counts"] == {"B": 4, "W": 1}
    assert v["to_move"] == "W"
    assert v["legal"] == ["d6", "f4", "f6"]


def test_scenario_s3_every_bracketed_run_flips_in_all_directions_rev6(board: MakeBoard) -> None:
    state = custom(board(black="a4 d1 g4 d7", white="b4 c4 d2 d3 e4 f4 d5 d6 e5 c5 b6"))
    v = view(play(state, "d4"))
    assert v["flipped"] == sorted(["b4", "c4", "d2", "d3", "e4", "f4", "d5", "d6"])
    for square in ("e5", "c5", "b6"):  # nothing black behind them
        assert v["board"][SQUARE_INDEX[square]] == "W"
    assert v["counts"] == {"B": 13, "W": 3}


def test_scenario_s4_a_run_stops_at_the_first_own_disc_rev_e5(board: MakeBoard) -> None:
    state = custom(board(black="c1 e1", white="b1 d1"))
    v = view(play(state, "a1"))
    assert v["flipped"] == ["b1"]
    assert v["board"][:5] == "BBBWB"


def test_scenario_s5_a_gap_means_no_move(board: MakeBoard) -> None:
    black, white = parse_board(board(black="d1", white="b1"))
    assert moves(black, white) == 0
    assert flips(SQUARE_INDEX["c1"], black, white) == 0
    assert flips(SQUARE_INDEX["a1"], black, white) == 0
    # The same gap next to an unrelated legal move (h8): the engine names the square that fails.
    state = custom(board(black="d1 f8", white="b1 g8"))
    assert view(state)["legal"] == ["h8"]
    for square in ("c1", "a1"):
        with pytest.raises(IllegalAction, match=rf"^{square} flips nothing\.$"):
            engine.apply(state, 0, place(square))


def test_flipped_discs_do_not_flip_further_discs_rev6(board: MakeBoard) -> None:
    # d4 flips d3 (d2 behind it); the new black d3 would bracket c3 with b3, but there are no chains.
    state = custom(board(black="d2 b3", white="d3 c3"))
    v = view(play(state, "d4"))
    assert v["flipped"] == ["d3"]
    assert v["board"][SQUARE_INDEX["c3"]] == "W"


def test_placed_discs_never_move_rev8() -> None:
    state = engine.new_game(2, 0)
    for square in ("f5", "d6", "c3", "d3", "c4"):
        before = view(state)["board"]
        state = play(state, square)
        after = view(state)["board"]
        assert all(a != "." for b, a in zip(before, after, strict=True) if b != ".")


# --- REV-7: passes --------------------------------------------------------------------------------


def test_scenario_s6_forced_pass_then_wipe_out_ends_the_game(board: MakeBoard) -> None:
    state = custom(board(black="a1", white="b1"), to_move="W")
    v = view(state)
    assert v["to_move"] == "B"
    assert v["events"] == [{"type": "pass", "seat": 1}]
    v = view(play(state, "c1"))
    assert v["over"] is True
    assert v["to_move"] is None and v["to_act"] == [] and v["legal"] == []
    assert v["counts"] == {"B": 3, "W": 0}
    assert v["result"] == {"scores": [3, 0], "ranks": [1, 2], "detail": {"tournament_score": [64, 0]}}
    assert v["tournament_score"] == {"B": 64, "W": 0}
    assert v["events"][-1] == {"type": "end", "counts": {"B": 3, "W": 0}}


def test_scenario_s7_a_pass_request_is_rejected_at_the_start_rev_e1() -> None:
    state = engine.new_game(2, 0)
    before = engine.dump(state)
    with pytest.raises(InvalidAction, match="no pass action"):
        engine.apply(state, 0, {"type": "pass"})
    assert engine.dump(state) == before
    assert all(action["type"] == "place" for action in engine.legal_actions(state, 0))


def test_a_player_with_a_move_never_gets_a_pass_rev_e1() -> None:
    state = play(engine.new_game(2, 0), "f5", "d6", "c3")
    with pytest.raises(InvalidAction, match="no pass action"):
        engine.apply(state, 1, {"type": "pass"})


def test_the_same_player_may_pass_several_times_in_a_row_rev_e6(board: MakeBoard) -> None:
    # Three separate corners where only Black can ever play: White passes after each Black move.
    state = custom(board(black="a1 a8 h1", white="b1 b8 h2"))
    state = play(state, "c1", "c8", "h3")
    assert [e["type"] for e in view(state)["events"]] == ["place", "pass", "place", "pass", "place", "end"]
    assert [e.get("seat") for e in view(state)["events"][:5]] == [0, 1, 0, 1, 0]
    assert view(state)["counts"] == {"B": 9, "W": 0}


def test_a_custom_start_where_the_side_to_move_is_blocked_begins_with_a_pass(board: MakeBoard) -> None:
    state = custom(board(black="a1", white="b1"), to_move="W")
    assert engine.to_act(state) == [0]
    assert engine.legal_actions(state, 1) == []


# --- REV-9 / REV-10 / REV-11: end and scoring ------------------------------------------------------


def test_both_blocked_with_empties_left_ends_the_game_rev_e2(board: MakeBoard) -> None:
    state = custom(board(black="a1", white="b1 h8"))
    state = play(state, "c1")
    v = view(state)
    assert v["over"] is True
    assert v["counts"] == {"B": 3, "W": 1}
    assert engine.result(state) == {"scores": [3, 1], "ranks": [1, 2], "detail": {"tournament_score": [63, 1]}}


def test_a_wiped_out_colour_ends_the_game_at_once_rev_e3(board: MakeBoard) -> None:
    state = play(custom(board(black="a1", white="b1")), "c1")
    assert engine.to_act(state) == []
    assert view(state)["counts"] == {"B": 3, "W": 0}


def test_scenario_s8_a_full_board_at_32_each_is_a_draw(board: MakeBoard) -> None:
    state = custom("BW" * 32)
    result = engine.result(state)
    assert result is not None
    assert result["scores"] == [32, 32]
    assert is_draw(result) and winners(result) == [0, 1]
    assert view(state)["tournament_score"] == {"B": 32, "W": 32}


def test_a_draw_with_empties_splits_them_32_32_rev11(board: MakeBoard) -> None:
    drawn = custom(board(black="a1 a2", white="h8 h7"))
    assert view(drawn)["over"] is True
    assert engine.result(drawn) == {"scores": [2, 2], "ranks": [1, 1], "detail": {"tournament_score": [32, 32]}}


def s9_board() -> str:
    """Black owns every line through the 2x2 corner block a1 b1 a2 b2, which stays empty."""
    empties = {"a1", "b1", "a2", "b2"}
    black = {f"{c}{r}" for c in "abcdefgh" for r in "12"} | {f"{c}{r}" for c in "ab" for r in "12345678"}
    black |= {"c3", "d4", "e5", "f6", "g7", "h8", "d3", "e4", "f5", "g6", "h7", "c4", "d5", "e6", "f7", "g8"}
    black -= empties
    cells = ["B" if name in black else "." if name in empties else "W" for name in SQUARE_INDEX]
    return "".join(cells)


def test_scenario_s9_early_end_with_empties_raw_count_wins_and_tournament_score_adds_them() -> None:
    state = custom(s9_board())
    v = view(state)
    assert v["over"] is True
    assert v["counts"] == {"B": 40, "W": 20}
    assert v["result"] == {"scores": [40, 20], "ranks": [1, 2], "detail": {"tournament_score": [44, 20]}}
    assert v["tournament_score"] == {"B": 44, "W": 20}


def test_more_discs_wins_rev10_and_white_can_win_too() -> None:
    state = custom(s9_board().translate(str.maketrans("BW", "WB")))
    assert engine.result(state) == {"scores": [20, 40], "ranks": [2, 1], "detail": {"tournament_score": [20, 44]}}


def test_empties_go_to_the_winner_only_in_the_tournament_score_rev_e4() -> None:
    result = engine.result(custom(s9_board()))
    assert result is not None
    assert result["scores"] == [40, 20]
    assert sum(result["scores"]) == 60
    assert sum(result["detail"]["tournament_score"]) == 64


# --- action validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("d3", "must be an object"),
        ({}, "Unknown action type None"),
        ({"type": "move", "square": "d3"}, "Unknown action type 'move'"),
        ({"type": "place"}, "needs a 'square'"),
        ({"type": "place", "square": "D3"}, "'D3' is not a square"),
        ({"type": "place", "square": "i1"}, "'i1' is not a square"),
        ({"type": "place", "square": "a9"}, "'a9' is not a square"),
        ({"type": "place", "square": 19}, "19 is not a square"),
        ({"type": "place", "square": None}, "None is not a square"),
        ({"type": "place", "square": " d3"}, "' d3' is not a square"),
        ({"type": "place", "square": "d3", "colour": "B"}, "Unexpected field"),
    ],
)
def test_malformed_actions_raise_invalid_action_and_change_nothing(action: Any, message: str) -> None:
    state = engine.new_game(2, 0)
    before = engine.dump(state)
    with pytest.raises(InvalidAction, match=message):
        engine.apply(state, 0, action)
    assert engine.dump(state) == before


@pytest.mark.parametrize(
    ("seat", "square", "message"),
    [
        (0, "d4", r"^d4 is occupied\.$"),
        (0, "a1", r"^a1 flips nothing\.$"),
        (0, "c3", r"^c3 flips nothing\.$"),
        (1, "d3", r"^It is not your turn\.$"),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(seat: int, square: str, message: str) -> None:
    state = engine.new_game(2, 0)
    before = engine.dump(state)
    with pytest.raises(IllegalAction, match=message) as info:
        engine.apply(state, seat, place(square))
    assert not isinstance(info.value, InvalidAction)
    assert engine.dump(state) == before


@pytest.mark.parametrize("seat", [2, -1, True, "0"])
def test_a_seat_off_the_table_is_invalid_everywhere(seat: object) -> None:
    """games.kit.seats: a seat that is not 0 or 1 is malformed, for apply, legal_actions and view alike."""
    state = engine.new_game(2, 0)
    message = rf"^There is no seat {re.escape(repr(seat))}; seats are 0 to 1\.$"
    with pytest.raises(InvalidAction, match=message):
        engine.apply(state, seat, place("d3"))  # type: ignore[arg-type]
    with pytest.raises(InvalidAction, match=message):
        engine.legal_actions(state, seat)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction, match=message):
        engine.view(state, seat)  # type: ignore[arg-type]


def test_no_move_is_accepted_once_the_game_is_over(board: MakeBoard) -> None:
    state = play(custom(board(black="a1", white="b1")), "c1")
    with pytest.raises(IllegalAction, match=r"^The game is over\.$"):
        engine.apply(state, 0, place("d1"))
    assert engine.legal_actions(state, 0) == engine.legal_actions(state, 1) == []


# --- options --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"board": "B" * 63}, "64 squares, this one has 63"),
        ({"board": "x" + "." * 63}, "Square a1 holds 'x'"),
        ({"board": "b" + "." * 63}, "Square a1 holds 'b'"),
        ({"board": 5}, "64-character string"),
        ({"to_move": "black"}, "to_move must be 'B' or 'W'"),
        ({"to_move": None}, "to_move must be 'B' or 'W'"),
        ({"colour": "B"}, "Unknown option"),
        ("start", "Options must be an object"),
    ],
)
def test_bad_options_raise_invalid_action(options: Any, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        engine.new_game(2, 0, options)


def test_white_may_be_set_to_move_first_on_the_start_board() -> None:
    state = engine.new_game(2, 0, {"to_move": "W"})
    assert engine.to_act(state) == [1]
    assert view(state)["legal"] == ["c5", "d6", "e3", "f4"]


def test_an_empty_board_is_over_at_once_as_a_draw() -> None:
    state = custom("." * 64)
    assert engine.result(state) == {"scores": [0, 0], "ranks": [1, 1], "detail": {"tournament_score": [32, 32]}}


# --- view, result, dump ---------------------------------------------------------------------------

VIEW_KEYS = {
    "seat",
    "players",
    "to_act",
    "over",
    "result",
    "board",
    "to_move",
    "counts",
    "legal",
    "last_move",
    "flipped",
    "move_number",
    "events",
    "tournament_score",
}


def test_view_has_exactly_the_documented_keys_and_no_seed() -> None:
    state = engine.new_game(2, 123456789)
    for seat in (0, 1, None):
        v = view(state, seat)
        assert set(v) == VIEW_KEYS
        assert v["seat"] == seat
        assert "123456789" not in json.dumps(v)
    assert view(state)["last_move"] is None and view(state)["flipped"] == []
    assert view(state)["move_number"] == 0 and view(state)["result"] is None
    assert view(state)["tournament_score"] is None


def test_every_seat_sees_the_same_except_its_seat_number() -> None:
    state = play(engine.new_game(2, 0), "f5", "d6")
    views = [view(state, seat) for seat in (0, 1, None)]
    for v in views:
        v.pop("seat")
    assert views[0] == views[1] == views[2]


def test_view_keeps_the_last_30_events_oldest_first() -> None:
    state = engine.new_game(2, 0)
    placed = 0
    while state.to_move is not None:
        state = engine.apply(state, state.to_move, engine.legal_actions(state, state.to_move)[0])
        placed += 1
    events = view(state)["events"]
    assert len(events) == 30
    assert events[-1]["type"] == "end"
    assert view(state)["move_number"] == placed
    assert placed + 1 > 30  # more happened than the view shows


def test_the_stored_state_does_not_grow_with_the_game() -> None:
    """The full record is the action log: the state keeps what the view shows, not the whole past."""
    state = engine.new_game(2, 0)
    sizes = []
    while state.to_move is not None:
        state = engine.apply(state, state.to_move, engine.legal_actions(state, state.to_move)[0])
        sizes.append(len(engine.dump(state)["events"]))
    assert len(sizes) > 30
    assert max(sizes) == 30 and sizes[-1] == 30


def test_a_state_stored_with_the_whole_history_loads_as_the_same_position() -> None:
    state = play(engine.new_game(2, 0), "f5", "d6", "c3")
    old = {**engine.dump(state), "format": 1}  # format 1 kept every event and no placement count
    del old["placements"]
    earlier = [{"type": "place", "seat": 0, "square": "d3", "flipped": ["d4"]}] * 40
    old["events"] = earlier + old["events"]
    loaded = engine.load(old)
    assert (loaded.black, loaded.white, loaded.to_move) == (state.black, state.white, state.to_move)
    assert len(loaded.events) == 30 and loaded.events[-3:] == state.events
    assert loaded.placements == 43


def test_dump_and_load_round_trip_through_json() -> None:
    state = play(engine.new_game(2, 7), "f5", "d6", "c3")
    data = json.loads(json.dumps(engine.dump(state)))
    assert engine.load(data) == state
    over = play(custom(make_s6_board(), "W"), "c1")
    assert engine.load(json.loads(json.dumps(engine.dump(over)))) == over


def make_s6_board() -> str:
    return "BW" + "." * 62


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = engine.new_game(2, 0)
    before = engine.dump(state)
    after = play(state, "d3")
    assert engine.dump(state) == before
    assert after != state
