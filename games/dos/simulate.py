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
from dataclasses import dataclass
from random import Random
from typing import Any

from games.dos import rules
from games.dos.actions import parse_action
from games.dos.cards import DECK_COUNTS, WILD_DOS, sort_cards
from games.dos.state import BONUS, MATCH, OVER, CenterCard, Played, State, load_checkpoint

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


@dataclass(frozen=True, slots=True)
class Told:
    """What a seat's latest turn told the table about the cards it still holds. A player matches while
    it can (DOS-9 lets anyone draw instead, or end a turn with a match left, but the levels here and
    nearly every person shed what they can), and draws only when nothing matches; after a draw the one
    match must use the drawn card. So when its turn ended, the cards it kept, with the cards it then put
    in the row (a placement, bonus cards), matched none of ``targets``: every target of a turn that began
    with a draw, the targets it left unmatched otherwise. ``kept`` of its cards in hand now are those;
    the rest came later, as penalty draws, and are unknown."""

    seat: int
    kept: int
    shown: tuple[str, ...]
    targets: tuple[str, ...]


def _value(code: str) -> int | None:
    """A card's one value, or ``None`` for a Wild #, which can be any."""
    if code == WILD_DOS:
        return 2
    return None if code.endswith("#") else int(code[1:])


def matches_any(cards: Sequence[str], targets: Sequence[str]) -> bool:
    """Whether a card or a pair of ``cards`` matches one of ``targets`` (DOS-7: equal value, or two
    cards adding up to it; a Wild # is any number, the Wild DOS a 2)."""
    if not targets or not cards:
        return False
    wanted: set[int] = set()
    for target in targets:
        value = _value(target)
        if value is None:
            return True  # a Wild # in the row is any number: every card matches it
        wanted.add(value)
    values: Counter[int] = Counter()
    for code in cards:
        value = _value(code)
        if value is None or value in wanted:
            return True
        values[value] += 1
    return any(
        total - value in values and (total - value != value or count >= 2)
        for total in wanted
        for value, count in values.items()
    )


_TURN_EVENTS = frozenset({"match", "draw", "no_draw", "undo", "place", "bonus", "skip_bonus"})


def told_by_play(view: dict[str, Any]) -> list[Told]:
    """For each other seat whose latest turn of this round the view's events still show, what that turn
    told the table (``Told``), from the view's public events alone.

    The view keeps only the last few events, so the Center Row each turn began with is worked out
    backwards from the row as it is now: a turn began with the row the next one began with, less what
    it added (the card placed, the refill, the bonus cards), plus the cards it matched."""
    events = view["events"]
    deal = max((i for i, event in enumerate(events) if event["type"] == "deal"), default=None)
    window = events if deal is None else events[deal + 1 :]
    turns: list[_Turn] = []
    for event in window:
        kind = event["type"]
        if kind in _TURN_EVENTS and (not turns or turns[-1].seat != event["seat"]):
            turns.append(_Turn(event["seat"]))
        if turns:
            turns[-1].add(event)
    # The first turn shown may have begun before the events kept, unless the deal, the game's first
    # event or an event that ended the turn before it (a refill, a penalty draw) is shown.
    whole = deal is not None or (window and (window[0]["n"] == 1 or window[0]["type"] not in _TURN_EVENTS))
    first = 0 if whole else 1
    now = view["current"]
    current = turns.pop() if turns and turns[-1].seat == now else _Turn(now)
    row = Counter(cr["card"] for cr in view["center_row"] if not cr["new"])
    if view["phase"] == BONUS:
        row.update(current.matched)  # the cards it matched have left the row already
    me = view["seat"]
    later: Counter[int] = Counter(current.penalties)
    told: list[Told] = []
    seen: set[int] = {me, now}
    for index in range(len(turns) - 1, first - 1, -1):
        turn = turns[index]
        row.update(turn.matched)
        row.subtract(turn.added())
        if min(row.values(), default=0) < 0:
            break  # the events do not add up to the row (never for a real game): stop reading them
        if turn.seat not in seen:
            seen.add(turn.seat)
            told_here = turn.told(+row, view["hand_counts"][turn.seat] - later[turn.seat])
            if told_here is not None:
                told.append(told_here)
        later.update(turn.penalties)
    return sorted(told, key=lambda item: item.seat)


class _Turn:
    """One seat's turn as its public events show it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.drew = False
        self.undone = False
        self.matched: list[str] = []  # the target of each match, in order
        self.shown: list[str] = []  # the card placed and the bonus cards
        self.refill: list[str] = []
        self.penalties: Counter[int] = Counter()  # penalty cards it made each other seat draw

    def add(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind in ("draw", "no_draw"):
            self.drew = True
        elif kind == "match":
            self.matched.append(event["target"])
        elif kind in ("place", "bonus"):
            self.shown.append(event["card"])
        elif kind == "undo":
            # It showed a match it then did not make: its "nothing matched" cannot be trusted.
            self.undone = True
            steps = self.matched if event["step"] == "match" else self.shown
            if steps:  # the step taken back may be older than the events kept
                steps.pop()
        elif kind == "refill":
            self.refill += event["cards"]
        elif kind == "penalty_draw":
            self.penalties[event["seat"]] += event["count"]

    def added(self) -> list[str]:
        return [*self.shown, *self.refill]

    def told(self, began: Counter[str], kept: int) -> Told | None:
        """What it told, given the row it began with: the targets its last hand matched none of, every
        one if it drew (its hand before the draw matched none), else the ones it left unmatched."""
        if self.undone or kept <= 0 or self.seat is None:
            return None
        left = began.copy()
        if not self.drew:
            left.subtract(self.matched)
        targets = tuple(sort_cards((+left).elements()))
        shown = tuple(self.shown)
        if not targets or any(_value(target) is None for target in targets):
            return None  # nothing to match, or a Wild # in the row, which anything matches: nothing told
        if matches_any(shown, targets):
            return None  # it put in the row a card that matched: it did not shed what it could
        return Told(self.seat, kept, shown, targets)


def sample_state(
    view: dict[str, Any],
    unseen: list[str],
    rng: Random,
    known_hands: Sequence[Sequence[str]] | None = None,
    told: Sequence[Told] = (),
) -> State | None:
    """One state consistent with ``view``: the unseen cards dealt at random. ``None`` if the counts
    shown do not add up (never for a view of a real game).

    With ``known_hands`` (every seat's hand, as a finished match reveals them, for the analysis's
    "every hand known" question; ``unseen`` then leaves them out) the other hands are those, and only
    the draw and discard piles are dealt at random: their order stays unknown.

    ``told`` (``told_by_play``) keeps the other seats from being dealt what they would have matched:
    the unseen cards are turned up in random order, and each such seat keeps the first ones that match
    none of its targets, alone, with one another or with the cards it put in the row. A seat that cannot be
    so dealt (a person who drew by choice) is dealt as the others are."""
    me = view["seat"]
    counts = view["hand_counts"]
    others = 0 if known_hands is not None else sum(n for seat, n in enumerate(counts) if seat != me)
    if others + view["draw_count"] + view["discard_count"] != len(unseen):
        return None
    cards = unseen[:]
    rng.shuffle(cards)
    kept: dict[int, list[str]] = {}
    for seat_told in told:
        chosen, rest = _keep_unmatched(cards, seat_told)
        if len(chosen) == seat_told.kept:
            kept[seat_told.seat] = chosen
            cards = rest
    hands: list[tuple[str, ...]] = []
    start = 0
    for seat, n in enumerate(counts):
        if seat == me:
            hands.append(tuple(view["hand"]))
        elif known_hands is not None:
            hands.append(sort_cards(known_hands[seat]))
        else:
            first = kept.get(seat, [])
            hands.append(sort_cards([*first, *cards[start : start + n - len(first)]]))
            start += n - len(first)
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


def _keep_unmatched(cards: list[str], told: Told) -> tuple[list[str], list[str]]:
    """The first ``told.kept`` of ``cards`` that match none of ``told.targets`` alone, with one another
    or with the cards shown, and the cards passed over, in order."""
    wanted = {_value(target) for target in told.targets}
    # A Wild # shown or among the targets matches anything: ``told_by_play`` never tells either.
    held: Counter[int | None] = Counter(_value(code) for code in told.shown)
    chosen: list[str] = []
    rest: list[str] = []
    for code in cards:
        value = _value(code)
        if (
            len(chosen) < told.kept
            and value is not None
            and value not in wanted
            and not any(held[total - value] for total in wanted if total is not None)
        ):
            chosen.append(code)
            held[value] += 1
        else:
            rest.append(code)
    return chosen, rest


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
