"""Whose turn it is, which bids and cards are allowed, and why other cards are refused (BA-8, BA-9,
BA-13..BA-15)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.backalley.cards import BB, LB, SUIT_NAMES, follow_suit, is_trump, label, rank
from games.backalley.scoring import TEAMS, team_of
from games.backalley.state import BID, PLAY, PLAYERS, State
from games.engine import Text
from games.engine import gettext_noop as _
from games.kit.seats import next_seat


@dataclass(frozen=True, slots=True)
class PlayRule:
    """The cards of a hand that may be played now; every other card of the hand is refused for
    ``reason`` (one situation gives one reason for all refused cards)."""

    legal: tuple[int, ...]
    reason: Text | None = None

    def why_not(self, card: int) -> Text | None:
        return None if card in self.legal else self.reason


def _power(card: int) -> int:
    # Only used among trumps: rank() already puts BB (16) over LB (15) over the ace (14).
    return rank(card)


def play_rule(
    hand: Sequence[int],
    trick: Sequence[int],
    trump: int | None,
    *,
    trump_broken: bool,
    team_board: bool,
) -> PlayRule:
    """The rule in force for a seat holding ``hand`` when ``trick`` (play order) is on the table.

    ``team_board`` is whether the seat's team holds a board contract (BA-13 (b)).
    """
    if not trick:
        # BA-13: trump may be led once broken, by a team with a board contract, or from a hand that
        # holds nothing else. In a no-trump deal there is no trump to restrict.
        if trump is None or trump_broken or team_board:
            return PlayRule(tuple(hand))
        plain = tuple(c for c in hand if not is_trump(c, trump))
        if not plain:
            return PlayRule(tuple(hand))
        return PlayRule(
            plain, Text(_("Trump may not be led yet: no trump has been played in an earlier trick of this deal."))
        )
    led = trick[0]
    if trump is not None and led in (BB, LB):
        # BA-15: a Blooper lead forces the highest (BB) or lowest (LB) trump; LB counts as a trump.
        trumps = [c for c in hand if is_trump(c, trump)]
        if not trumps:
            return PlayRule(tuple(hand))
        if led == BB:
            forced = max(trumps, key=_power)
            why = Text(_("Big Blooper was led: you must play your highest trump, %(card)s."), {"card": label(forced)})
        else:
            forced = min(trumps, key=_power)
            why = Text(_("Little Blooper was led: you must play your lowest trump, %(card)s."), {"card": label(forced)})
        return PlayRule((forced,), why)
    if is_trump(led, trump):
        # BA-14: a trump lead must be followed with any trump, jokers included.
        trumps = tuple(c for c in hand if is_trump(c, trump))
        if not trumps:
            return PlayRule(tuple(hand))
        return PlayRule(trumps, Text(_("A trump was led: you must play a trump.")))
    suit = follow_suit(led, trump)
    # BA-14 / BA-E11: a joker is a trump, never a card of the led plain suit.
    same = tuple(c for c in hand if c < 52 and c // 13 == suit)
    if not same:
        return PlayRule(tuple(hand))
    name = Text(SUIT_NAMES[suit]) if suit is not None else Text(_("that suit"))
    return PlayRule(same, Text(_("You must follow suit: %(suit)s were led."), {"suit": name}))


def current(state: State) -> int | None:
    """The seat that must act now (BA-8 while bidding, the trick order in play); None once over."""
    if state.phase == BID:
        return next_seat(state.dealer, PLAYERS, 1 + sum(b is not None for b in state.bids))
    if state.phase == PLAY:
        assert state.leader is not None
        return next_seat(state.leader, PLAYERS, len(state.trick))
    return None


def team_board(state: State, seat: int) -> bool:
    """BA-13 (b): does the seat's team hold a board contract?"""
    return any(b is not None and b.board for b in (state.bids[s] for s in TEAMS[team_of(seat)]))


def rule_for(state: State, seat: int) -> PlayRule:
    """The BA-13..BA-15 rule for ``seat`` playing now to the current trick."""
    return play_rule(
        state.hands[seat],
        state.trick,
        state.trump,
        trump_broken=state.trump_broken,
        team_board=team_board(state, seat),
    )


def next_board_level(state: State) -> int:
    """The level a board bid would get now (BA-9): one above the board bids already made."""
    return 1 + sum(1 for b in state.bids if b is not None and b.board)


def bid_options(cards: int) -> list[str | int]:
    """BA-9: pass, 1..cards-1, board (so only pass or board with one card)."""
    return ["pass", *range(1, cards), "board"]
