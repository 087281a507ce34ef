"""Out check, round scoring, rounds and the end of the game (DOS-14, DOS-17, DOS-18, DOS-S9, DOS-S10)."""

from __future__ import annotations

from games.dos.positions import position
from games.dos.rules import engine
from tests.games.dos.dos_support import act, match

Q_HAND = ["R3", "W2", "B10"]  # 33 points
V_HAND = ["G#", "Y1"]  # 41 points


def test_s9_the_player_who_goes_out_scores_every_opponents_hand() -> None:
    """DOS-S9, DOS-14, DOS-17: Q holds 33, V holds 41 -> P scores 74."""
    state = act(position(hands=[["R7"], Q_HAND, V_HAND], center=["R7", "B9"]), match(0, "R7"))
    view = engine.view(state, 2)
    assert view["scores"] == [74, 0, 0]
    assert view["last_round"] == {
        "round": 1,
        "winner": 0,
        "points": 74,
        "hands": [
            {"cards": [], "value": 0},
            {"cards": ["R3", "B10", "W2"], "value": 33},
            {"cards": ["G#", "Y1"], "value": 41},
        ],
    }
    assert view["round_scores"] == [{"round": 1, "winner": 0, "points": 74, "hand_values": [0, 33, 41]}]
    round_end = [e for e in view["events"] if e["type"] == "round_end"]
    assert round_end[0] | {"n": 0} == {
        "type": "round_end",
        "n": 0,
        "round": 1,
        "winner": 0,
        "points": 74,
        "scores": [74, 0, 0],
    }
    assert view["over"] is False
    assert engine.result(state) is None


def test_a_new_round_is_dealt_with_the_deal_passed_left_and_scores_kept() -> None:
    """DOS-6, DOS-18: dealer 2 -> dealer 0; seat 1 starts; a fresh 7-card deal; totals carry over."""
    start = position(hands=[["R7"], Q_HAND, V_HAND], center=["R7", "B9"], scores=[20, 30, 40], dealer=2)
    state = act(start, match(0, "R7"))
    view = engine.view(state, 1)
    assert view["round"] == 2
    assert view["dealer"] == 0
    assert view["scores"] == [94, 30, 40]
    assert len(view["center_row"]) == 2
    deal = [e for e in view["events"] if e["type"] == "deal"][-1]
    assert (deal["round"], deal["dealer"]) == (2, 0)
    assert deal["center"] == [cr["card"] for cr in view["center_row"]]
    assert view["current"] == 1
    assert view["hand_counts"] == [7, 7, 7]
    assert view["phase"] == "match"


def test_s10_penalties_count_before_scoring_and_200_ends_the_game() -> None:
    """DOS-S10, DOS-17, DOS-18: out with B4+B5 on B9; Q draws G6, V draws W2; 74+6+20 = 100; 150 -> 250."""
    start = position(
        hands=[["B4", "B5"], Q_HAND, V_HAND], center=["R7", "B9"], draw=["R1", "G6", "W2"], scores=[150, 0, 0]
    )
    state = act(start, match(1, "B4", "B5"))
    view = engine.view(state, None)
    assert view["over"] is True
    assert view["to_act"] == []
    assert view["scores"] == [250, 0, 0]
    assert view["last_round"]["points"] == 100
    assert view["last_round"]["hands"][1] == {"cards": ["R3", "G6", "B10", "W2"], "value": 39}
    assert view["last_round"]["hands"][2] == {"cards": ["G#", "Y1", "W2"], "value": 61}
    kinds = [e["type"] for e in view["events"]]
    assert kinds == ["match", "refill", "penalty_draw", "penalty_draw", "round_end", "game_end"]
    assert engine.result(state) == {
        "scores": [250, 0, 0],
        "ranks": [1, 2, 2],
        "detail": {"rounds": 1, "target": 200},
    }
    assert view["result"] == engine.result(state)


def test_below_the_target_the_game_goes_on() -> None:
    """DOS-18: 199 is not enough."""
    state = act(position(hands=[["R7"], ["Y1"], ["G1"]], center=["R7", "B9"], scores=[197, 0, 0]), match(0, "R7"))
    assert engine.view(state, None)["scores"] == [199, 0, 0]
    assert engine.result(state) is None
    assert state.round == 2


def test_losers_are_ranked_by_score_and_ties_share_a_rank() -> None:
    state = act(
        position(hands=[["Y1"], ["R7"], ["G1"], ["B1"]], center=["R7", "B9"], scores=[50, 198, 80, 50], current=1),
        match(0, "R7"),
    )
    assert engine.result(state) == {
        "scores": [50, 201, 80, 50],
        "ranks": [3, 1, 2, 3],
        "detail": {"rounds": 1, "target": 200},
    }


def test_a_lower_target_option_ends_the_game_sooner() -> None:
    state = act(position(hands=[["R7"], Q_HAND, V_HAND], center=["R7", "B9"], target=50), match(0, "R7"))
    assert engine.result(state)["ranks"] == [1, 2, 2]  # type: ignore[index]
