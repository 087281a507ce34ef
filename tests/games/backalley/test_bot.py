"""The computer player: always legal, fast, sensible in clear spots, and far better than random."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

from games.backalley import bot
from games.backalley.positions import E, S
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from games.backalley.state import State
from games.engine import Action
from tests.games.backalley.backalley_support import bid, play
from tests.workcount import calls_made


def bot_action(state: State) -> Action:
    (seat,) = engine.to_act(state)
    legal = engine.legal_actions(state, seat)
    action = bot.choose(engine.view(state, seat), legal, rng=random.Random(0), budget_s=0.5)
    assert action in legal
    return action


def _random(view: dict, legal: list[Action], *, rng: random.Random, budget_s: float) -> Action:
    return rng.choice(legal)


def play_match(seed: int, policies: list) -> tuple[State, list[int]]:
    """Play a match out; also the work (function calls) of each decision."""
    state = engine.new_game(4, seed)
    rng = random.Random(seed)
    work: list[int] = []
    while engine.result(state) is None:
        (seat,) = engine.to_act(state)
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        action, calls = calls_made(lambda: policies[seat](view, legal, rng=rng, budget_s=0.5))  # noqa: B023
        work.append(calls)
        assert action in legal
        state = engine.apply(state, seat, action)
    return state, work


def test_bots_beat_random_teams_in_a_clear_majority_of_matches() -> None:
    wins, margins = 0, []
    for seed in range(10):
        team = seed % 2
        policies = [bot.choose if s % 2 == team else _random for s in range(4)]
        final, _ = play_match(seed, policies)
        result = engine.result(final)
        assert result is not None
        totals = result["detail"]["teams"]
        wins += totals[team]["rank"] == 1 and not result["detail"]["draw"]
        margins.append(totals[team]["score"] - totals[1 - team]["score"])
    assert wins >= 9, margins
    assert statistics.mean(margins) > 300


def test_a_four_bot_match_is_quick() -> None:
    """A heuristic, not a search: a decision costs about a thousand function calls (p95 ~1,200, whole
    match ~270,000 today). The time per move is measured in bench/bench_backalley.py."""
    _, work = play_match(123, [bot.choose] * 4)
    assert sum(work) < 600_000
    work.sort()
    assert work[int(len(work) * 0.95)] < 3_000


def test_the_bot_reads_only_the_view() -> None:
    source = Path(bot.__file__).read_text()
    for forbidden in ("backalley.rules", "backalley.state", "backalley.view", "hands["):
        assert forbidden not in source


def test_a_single_legal_action_is_returned_as_is() -> None:
    only = [{"type": "play", "card": "2C"}]
    assert bot.choose({}, only, rng=random.Random(0), budget_s=0.1) is only[0]


# --- Bidding ----------------------------------------------------------------------------------------


def test_bids_board_holding_big_blooper_in_the_one_card_deal() -> None:
    state = stacked(["BB", "2C", "3C", "4C"], "9H", deal=13)
    assert bot_action(state) == {"type": "bid", "bid": "board"}


def test_passes_a_hopeless_one_card_hand() -> None:
    state = stacked(["2C", "BB", "3C", "4C"], "9H", deal=13)
    assert bot_action(state) == {"type": "bid", "bid": "pass"}


def test_passes_when_the_partner_already_bid_board() -> None:
    # Dealer S: W bids first, then N, then E, W's partner, who would bid board on its own.
    hands = ["2C 3C 4C", "BB LB AH", "5C 6C 7C", "KH QH JH"]
    alone = bid(stacked(hands, "9H", deal=11, dealer=S), "pass", "pass")
    assert bot_action(alone) == {"type": "bid", "bid": "board"}
    after_board = bid(stacked(hands, "9H", deal=11, dealer=S), "board", "pass")
    assert engine.to_act(after_board) == [E]
    assert bot_action(after_board) == {"type": "bid", "bid": "pass"}


def test_a_strong_hand_bids_many_tricks_and_a_weak_hand_passes() -> None:
    hands = [
        "BB LB AS KS QS AH KH AD KD AC 3S 4S 5S",
        "JS 10S 9S 8S 7S 6S QH JH 10H 9H 8H 7H 6H",
        "2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C 6C",
        "QD JD 10D 9D 8D 7D 6D KC QC JC 10C 9C 8C",
    ]
    state = stacked(hands, "2S", stock=["7C"])
    north = bot_action(state)["bid"]
    assert isinstance(north, int) and north >= 7
    state = bid(state, north, "pass")
    assert bot_action(state) == {"type": "bid", "bid": "pass"}


# --- Card play --------------------------------------------------------------------------------------


def test_follows_with_the_lowest_card_when_the_partner_holds_the_trick() -> None:
    hands = ["2D KH", "AH 3D", "5H 4D", "QH 7H"]
    state = bid(stacked(hands, "9S", deal=12), "pass", 1, "pass", "pass")  # E leads
    state = play(state, "AH", "5H")  # W plays third; its partner E holds the trick with the ace
    assert bot_action(state) == {"type": "play", "card": "7H"}


def test_keeps_high_cards_when_the_trick_cannot_be_won() -> None:
    hands = ["KH 2D", "5H 3D", "AH 4D", "QH 7H"]
    state = bid(stacked(hands, "9S", deal=12), 1, "pass", "pass", "pass")  # N leads
    state = play(state, "KH", "5H", "AH")  # W last; S's ace cannot be beaten
    assert bot_action(state) == {"type": "play", "card": "7H"}


def test_last_to_play_takes_the_trick_with_the_cheapest_winner() -> None:
    hands = ["9H 2D", "10H 3D", "2H 4D", "KH QH"]
    state = bid(stacked(hands, "9S", deal=12), 1, "pass", "pass", "pass")
    state = play(state, "9H", "10H", "2H")  # W last: opponent E winning with 10H
    assert bot_action(state) == {"type": "play", "card": "QH"}


def test_leads_a_master_trump_when_trump_may_be_led() -> None:
    hands = ["BB 2S 2H", "3S 3H 3C", "4H 4C 4D", "5S 5H 5C"]
    state = bid(stacked(hands, "9S", deal=11), "board", "pass", "pass", "pass")
    assert bot_action(state) == {"type": "play", "card": "BB"}


def test_does_not_lead_trump_while_it_is_not_allowed() -> None:
    hands = ["BB 2S 2H", "3S 3H 3C", "4H 4C 4D", "5S 5H 5C"]
    state = bid(stacked(hands, "9S", deal=11), 1, "pass", "pass", "pass")
    assert bot_action(state) == {"type": "play", "card": "2H"}
