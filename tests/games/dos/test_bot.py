"""The greedy DOS bot: always legal, sensible choices, better than random, fast."""

from __future__ import annotations

from random import Random
from typing import Any

from games.dos import bot
from games.dos.actions import UNDO
from games.dos.cards import CODES
from games.dos.positions import position
from games.dos.rules import engine
from games.dos.state import State
from tests.games.dos.dos_support import DRAW, FINISH, Q, V, act, bonus, match, place, playout, random_policy
from tests.workcount import calls_made


def choose(state: State) -> dict[str, Any]:
    seat = state.current
    return bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng=Random(0), budget_s=0.5)


def test_the_bot_always_picks_one_of_the_legal_actions() -> None:
    for players in (2, 3, 4):
        for before, seat, _action, _after in playout(players, players, random_policy):
            legal = engine.legal_actions(before, seat)
            assert bot.choose(engine.view(before, seat), legal, rng=Random(1), budget_s=0.1) in legal


def test_the_bot_matches_rather_than_draws() -> None:
    state = position(hands=[["Y7", "G3", "B10"], Q, V], center=["R7", "B9"])
    assert choose(state) == match(0, "Y7")


def test_the_bot_prefers_a_double_colour_match() -> None:
    """B4+B5 on B9 sheds as many cards as G4+Y5 but earns a bonus card and penalises both opponents."""
    state = position(hands=[["G4", "B4", "B5", "Y5", "R10"], Q, V], center=["R3", "B9"])
    assert choose(state) == match(1, "B4", "B5")


def test_the_bot_plans_its_matches_together() -> None:
    """B4+B5 on B9 scores best alone, but B4 on B4 and B5 on B5 are two colour matches: two bonus
    cards, four cards shed in all. The bot starts the better plan."""
    state = position(hands=[["B4", "B5", "G10", "R10", "Y10"], Q, V], center=["B9", "B4", "B5"])
    assert choose(state) in (match(1, "B4"), match(2, "B5"))
    state = act(state, choose(state))
    assert choose(state) in (match(1, "B4"), match(2, "B5"))


def test_the_bot_finishes_when_nothing_is_left_to_match() -> None:
    state = act(position(hands=[["Y7", "G3", "B10"], Q, V], center=["R7", "B9"]), match(0, "Y7"))
    # The match can be taken back, but the bot ends its matching.
    assert engine.legal_actions(state, 0) == [FINISH, UNDO]
    assert choose(state) == FINISH
    state = position(hands=[["G3", "Y10"], Q, V], center=["R7", "B9"])
    assert choose(state) == DRAW


def test_the_bot_gives_up_a_wild_dos_first_and_a_wild_number_last() -> None:
    state = act(position(hands=[["G3", "Y10", "W2"], Q, V], center=["R7", "B9"], draw=["Y8"]), DRAW)
    assert choose(state) == place("W2")
    state = act(position(hands=[["R7", "B9", "G3", "Y#"], Q, V], center=["R7", "B9"]), match(0, "R7"))
    state = act(state, match(1, "B9"))
    assert engine.view(state, 0)["phase"] == "bonus"
    assert choose(state) == bonus("G3")


def test_the_bot_places_its_highest_number_as_a_bonus_card() -> None:
    state = act(act(position(hands=[["R7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"]), match(0, "R7")), FINISH)
    assert choose(state) == bonus("B10")


def _bot_wins(players: int, games: int) -> int:
    wins = 0
    for seed in range(games):
        bot_seat = seed % players
        rng = Random(seed)
        state = engine.new_game(players, 1000 + seed)
        while engine.result(state) is None:
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            if seat == bot_seat:
                action = bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.1)
            else:
                action = rng.choice(legal)
            state = engine.apply(state, seat, action)
        wins += engine.result(state)["ranks"][bot_seat] == 1  # type: ignore[index]
    return wins


def test_the_bot_beats_random_players() -> None:
    assert _bot_wins(2, 16) >= 14
    assert _bot_wins(4, 12) >= 8


def test_the_bot_is_fast_even_on_the_largest_choice() -> None:
    """A hand of 78 cards against four Wild # and three Wild DOS: thousands of legal matches."""
    hand = [c for c in CODES if not c.endswith("#") and c != "W2" for _ in range(2)]
    hand += ["R#", "G#", "B#", "Y#", "W2", "W2"]
    state = position(hands=[hand, ["W2"]], center=["R#", "G#", "B#", "Y#", "W2", "W2", "W2"], resolve=False)
    legal = engine.legal_actions(state, 0)
    assert len(legal) > 6000
    view = engine.view(state, 0)
    action, calls = calls_made(lambda: bot.choose(view, legal, rng=Random(0), budget_s=0.5))
    assert action in legal
    # Work linear in the legal list (each action scored once, a short fixed plan): about 29 calls per
    # action today. Its time is measured in bench/bench_dos.py ("Built worst case").
    assert calls < 60 * len(legal), calls
