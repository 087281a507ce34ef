"""Determinized playouts for the hard DOS level: what the rest of the table might hold, and how the next
few turns might go if everyone played like the medium level.

A seat's view shows its own hand, the Center Row (with the cards matched onto it this turn), how many
cards every other hand, the draw pile and the discard pile hold. Every other card is unseen: a sample
deals the unseen cards, shuffled, to the other hands, the draw pile and the discard pile in those
numbers, so it never uses a card the seat cannot see. Work is counted in plays (actions simulated).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from games.dos import rules
from games.dos.actions import parse_action
from games.dos.cards import DECK_COUNTS, WILD_DOS, sort_cards
from games.dos.state import MATCH, OVER, CenterCard, Played, State, load_checkpoint

Action = dict[str, Any]
Policy = Callable[[dict[str, Any], list[Action]], Action]

# Heads-up: a round won within the horizon is worth this many cards of hand difference, plus a tenth of
# the points it scores (the game is a race to the target score).
ROUND_WON = 8.0
# Three and four players: the hands at the horizon read as each seat's chance of winning the round, a
# softmax over the seats of -CARD x cards + WILD_NUMBER x Wild # + WILD_DOS x Wild DOS + the seat's place
# in the turn order (0 = about to play). Fitted by maximum likelihood to medium playing itself (6,000
# rounds per table size, every turn's start; tools/fit_dos_win_model.py). The others' mean hand minus
# one's own, kept heads-up, is blind to where a seat sits in the turn order and to the wild cards it
# holds (a Wild # is worth about 1.6 cards less in hand), and a card each for three opponents is not
# a card less for oneself: at four players it measured no better than medium (24.8% of 1,600 paired
# rounds), this value 27.0% of the same (docs/bots.md, `bench/bots/dos.py --rounds`).
WIN_MODEL: dict[int, tuple[float, float, float, tuple[float, ...]]] = {
    # players: (CARD, WILD_NUMBER, WILD_DOS, turn order)
    3: (0.364, 0.599, 0.412, (0.0, -0.284, -0.626)),
    4: (0.407, 0.650, 0.481, (0.0, -0.256, -0.548, -0.889)),
}


def unseen_cards(view: dict[str, Any], known_hands: Sequence[Sequence[str]] | None = None) -> list[str]:
    """The deck minus what the seat can see, in canonical order (so the sample depends on the rng only);
    with ``known_hands`` (every seat's hand), minus the other hands too: the draw and discard piles."""
    left = Counter(DECK_COUNTS)
    left.subtract(view["hand"])
    for cr in view["center_row"]:
        left[cr["card"]] -= 1
        left.subtract(p["card"] for p in cr["played"])
    if known_hands is not None:
        for seat, hand in enumerate(known_hands):
            if seat != view["seat"]:
                left.subtract(hand)
    return list(sort_cards(left.elements()))


def sample_state(
    view: dict[str, Any], unseen: list[str], rng: Random, known_hands: Sequence[Sequence[str]] | None = None
) -> State | None:
    """One state consistent with ``view``: the unseen cards dealt at random. ``None`` if the counts
    shown do not add up (never for a view of a real game).

    With ``known_hands`` (every seat's hand, as a finished match reveals them, for the analysis's
    "every hand known" question; ``unseen`` then leaves them out) the other hands are those, and only
    the draw and discard piles are dealt at random: their order stays unknown."""
    me = view["seat"]
    counts = view["hand_counts"]
    others = 0 if known_hands is not None else sum(n for seat, n in enumerate(counts) if seat != me)
    if others + view["draw_count"] + view["discard_count"] != len(unseen):
        return None
    cards = unseen[:]
    rng.shuffle(cards)
    hands: list[tuple[str, ...]] = []
    start = 0
    for seat, n in enumerate(counts):
        if seat == me:
            hands.append(tuple(view["hand"]))
        elif known_hands is not None:
            hands.append(sort_cards(known_hands[seat]))
        else:
            hands.append(sort_cards(cards[start : start + n]))
            start += n
    draw = tuple(cards[start : start + view["draw_count"]])
    discard = tuple(cards[start + view["draw_count"] :])
    center = tuple(
        CenterCard(
            card=cr["card"],
            new=cr["new"],
            declared=cr["declared"],
            played=tuple(Played(p["card"], p["declared"]) for p in cr["played"]),
            kind=cr["kind"],
        )
        for cr in view["center_row"]
    )
    return State(
        players=view["players"],
        # Only the reshuffles of the discard pile use it; a sampled seed keeps them unknown too.
        seed=rng.getrandbits(32),
        target=view["target"],
        round=view["round"],
        dealer=view["dealer"],
        current=view["current"],
        phase=view["phase"],
        hands=tuple(hands),
        draw_pile=draw,
        discard=discard,
        center=center,
        scores=tuple(view["scores"]),
        drawn=view["drawn_this_turn"],
        drawn_card=view["drawn_card"],
        matches=view["matches_this_turn"],
        bonus=view["bonus_left"],
        penalties=view["penalties"],
        undo=tuple(load_checkpoint(c) for c in view["undo"]),
    )


def light_view(state: State) -> dict[str, Any]:
    """The part of a view the medium level reads, without the event log."""
    return {
        "seat": state.current,
        "players": state.players,
        "hand": list(state.hands[state.current]),
        "hand_counts": [len(hand) for hand in state.hands],
        "center_row": [{"card": cr.card} for cr in state.center],
    }


def step(state: State, action: Action) -> State:
    return rules.resolve(rules.perform(state, parse_action(action)))


def hand_features(hand: tuple[str, ...]) -> tuple[int, int, int]:
    """What ``WIN_MODEL`` reads of a hand: its cards, its Wild # and its Wild DOS (the fitting script
    reads the same, so the weights and the hands they are applied to cannot drift apart)."""
    return len(hand), sum(code.endswith("#") for code in hand), hand.count(WILD_DOS)


def win_chance(state: State, me: int) -> float:
    """``me``'s chance of winning the round from the hands (``WIN_MODEL``), at three or four players."""
    card, wild_number, wild_dos, order = WIN_MODEL[state.players]
    weights = []
    for seat, hand in enumerate(state.hands):
        cards, wild_numbers, wild_doses = hand_features(hand)
        place = (seat - state.current) % state.players
        weights.append(math.exp(-card * cards + wild_number * wild_numbers + wild_dos * wild_doses + order[place]))
    return weights[me] / sum(weights)


def value(state: State, me: int) -> float:
    """How good ``state`` is for ``me``: the round's result if it is over, else what the hands promise
    (the chance of winning the round at three or four players, the hand difference heads-up)."""
    if state.history:
        record = state.history[-1]
        if state.players in WIN_MODEL:
            return 1.0 if record.winner == me else 0.0
        won = ROUND_WON + record.points / 10
        return won if record.winner == me else -won
    if state.players in WIN_MODEL:
        return win_chance(state, me)
    mine = len(state.hands[me])
    others = [len(hand) for seat, hand in enumerate(state.hands) if seat != me]
    return sum(others) / len(others) - mine


def playout(state: State, me: int, policy: Policy, turns: int, plays: int) -> tuple[float, int]:
    """Play ``policy`` for every seat until ``turns`` more turns have started, the round is over, or
    ``plays`` actions are spent; the value for ``me`` and the plays spent."""
    spent = 0
    started = 0
    while spent < plays and state.phase != OVER and not state.history:
        before = state.current
        state = step(state, policy(light_view(state), rules.legal(state)))
        spent += 1
        if state.current != before and state.phase == MATCH:
            started += 1
            if started > turns:
                break
    return value(state, me), spent
