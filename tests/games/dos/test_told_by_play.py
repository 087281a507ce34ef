"""What the others' play tells the hard level about their hands (``simulate.told_by_play``): a seat that
drew had nothing that matched, a seat that ended its turn had nothing left that matched. Read from the
public events alone, true of every real hand in medium's games, and kept by every sampled deal."""

from __future__ import annotations

from random import Random

import pytest

from games.dos import simulate
from games.dos.positions import position, scramble
from games.dos.rules import engine
from games.dos.state import State
from tests.games.dos.dos_support import bot_policy, playout


def scripted() -> State:
    """Seat 1 cannot match R7 or B9, draws Y5, still cannot, and places Y10; seat 2 matches the Y10 with
    R1 + G9 and ends its turn holding Y1, which matches neither target left. Seat 0 is to play."""
    state = position(
        hands=[["R5", "G5", "B6"], ["G1", "Y10", "B10"], ["R1", "G9", "Y1"]],
        center=["R7", "B9"],
        draw=["Y5"],
        current=1,
    )
    for seat, action in [
        (1, {"type": "draw"}),
        (1, {"type": "place", "card": "Y10"}),
        (2, {"type": "match", "target": 2, "cards": ["R1", "G9"]}),
        (2, {"type": "finish"}),
    ]:
        state = engine.apply(state, seat, action)
    assert state.current == 0
    return state


def test_a_seat_that_drew_or_stopped_matching_tells_what_it_does_not_hold() -> None:
    told = simulate.told_by_play(engine.view(scripted(), 0))
    assert told == [
        simulate.Told(seat=1, kept=3, shown=("Y10",), targets=("R7", "B9")),
        simulate.Told(seat=2, kept=1, shown=(), targets=("R7", "B9")),
    ]


def test_every_sampled_deal_keeps_what_the_play_told() -> None:
    view = engine.view(scripted(), 0)
    told = simulate.told_by_play(view)
    unseen = simulate.unseen_cards(view)
    rng = Random(3)

    def broken(sample: State) -> bool:
        return any(simulate.matches_any([*sample.hands[t.seat], *t.shown], t.targets) for t in told)

    kept = [simulate.sample_state(view, unseen, rng, told=told) for _ in range(300)]
    assert not any(broken(sample) for sample in kept if sample is not None)
    # Without it, uniform deals often give a seat what it showed it did not have.
    uniform = [simulate.sample_state(view, unseen, rng) for _ in range(300)]
    assert sum(broken(sample) for sample in uniform if sample is not None) > 100


def test_a_turn_that_took_a_match_back_tells_nothing() -> None:
    state = position(hands=[["R5", "G5"], ["G1", "Y6", "B10"]], center=["R7", "B9"], draw=["Y5"], current=1)
    for action in [
        {"type": "match", "target": 0, "cards": ["G1", "Y6"]},
        {"type": "undo"},
        {"type": "draw"},
        {"type": "place", "card": "B10"},
    ]:
        state = engine.apply(state, 1, action)
    assert simulate.told_by_play(engine.view(state, 0)) == []


def test_the_matches_a_matching_card_in_the_row_or_shown_rule_out() -> None:
    assert simulate.matches_any(["G3", "Y4"], ["R7"])  # two cards adding up
    assert simulate.matches_any(["W2"], ["W2"])  # the Wild DOS is a 2
    assert simulate.matches_any(["W2", "R1"], ["G3"])
    assert simulate.matches_any(["B#"], ["R9"])  # a Wild # is any number
    assert simulate.matches_any(["R10"], ["Y#"])  # a Wild # in the row takes anything
    assert not simulate.matches_any(["G5"], ["R10"])  # one 5 is not two
    assert simulate.matches_any(["G5", "B5"], ["R10"])
    assert not simulate.matches_any(["G1", "Y10", "B10"], ["R7", "B9"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_what_the_play_told_holds_for_every_real_hand_in_medium_games(players: int) -> None:
    """Medium matches while it can and draws only when nothing matches, so wherever a seat has drawn no
    penalty card since its turn, its whole hand (with what it put in the row) matches none of the targets
    told. Rounds run past the events a view keeps, so this also checks the row worked out backwards."""
    checked = cut = 0
    for seed in range(2):
        for before, seat, _action, _after in playout(players, 70 + 10 * players + seed, bot_policy):
            view = engine.view(before, seat)
            told = simulate.told_by_play(view)
            cut += bool(told) and not any(event["type"] == "deal" for event in view["events"])
            for item in told:
                hand = before.hands[item.seat]
                assert item.seat != seat and item.kept <= len(hand)
                if item.kept == len(hand):
                    assert not simulate.matches_any([*hand, *item.shown], item.targets)
                    checked += 1
    assert checked > 50 and cut > 5


def test_what_the_play_told_comes_from_the_view_alone() -> None:
    rng = Random(5)
    for before, seat, _action, _after in playout(3, 91, bot_policy):
        view = engine.view(before, seat)
        other = engine.view(scramble(before, seat, rng), seat)
        assert simulate.told_by_play(other) == simulate.told_by_play(view)
