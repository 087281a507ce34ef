"""The Back Alley rules engine (rule ids BA-n refer to shared/rules/backalley.md).

Four seats, seats 0 & 2 against 1 & 3, 25 deals of 13 cards down to 1 and back up to 13. Players act
with ``{"type": "bid", "bid": ...}`` and ``{"type": "play", "card": ...}``; dealing, the joker swap
(BA-7), the all-pass redeal (BA-10), collecting tricks, scoring a deal and the end of the match are
forced steps resolved inside :meth:`BackAlleyEngine.apply` and recorded as events. The wire format is
documented in docs/games/backalley.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.backalley.actions import parse_action, parse_options
from games.backalley.cards import (
    ALL_CARDS,
    BB,
    LB,
    SUITS,
    code,
    hand_size,
    is_joker,
    is_trump,
    label,
    sort_for_display,
    suit,
    winning_index,
)
from games.backalley.moves import bid_options, current, next_board_level, rule_for
from games.backalley.scoring import contract, first_leader, match_result, points, totals, tricks_by_seat
from games.backalley.seat_view import build_view
from games.backalley.state import (
    BID,
    DEALS,
    EVENT_WINDOW,
    OVER,
    PASS,
    PLAY,
    PLAYERS,
    Bid,
    Row,
    State,
    Swap,
    Trick,
    dump_state,
    load_state,
)
from games.engine import Action, IllegalAction, InvalidAction, Result, View
from games.engine import gettext_noop as _
from games.kit.events import Event, event
from games.kit.seats import check_seat, next_seat
from games.kit.shuffle import rng, shuffled

# --- Dealing --------------------------------------------------------------------------------------


def _shuffled(seed: int, deal_number: int, redeals: int) -> list[int]:
    return shuffled(ALL_CARDS, seed, "deal", deal_number, redeals)


def _stacked(seed: int, prefix: list[int]) -> list[int]:
    """The stacked prefix, then every other card in a seeded shuffle."""
    taken = set(prefix)
    return prefix + shuffled((c for c in ALL_CARDS if c not in taken), seed, "deck")


def _add_events(events: tuple[Event, ...], *new: Event) -> tuple[Event, ...]:
    return (*events, *new)[-EVENT_WINDOW:]


def _deal(
    *,
    seed: int,
    deal_number: int,
    dealer: int,
    redeals: int,
    order: list[int],
    score_sheet: tuple[Row, ...],
    last_trick: Trick | None,
    events: tuple[Event, ...],
) -> State:
    """BA-6 / BA-7: deal from ``order`` (first card first) and turn up the trump; bidding starts."""
    size = hand_size(deal_number)
    hands: list[list[int]] = [[], [], [], []]
    for i in range(4 * size):
        # One card at a time, starting with the seat left of the dealer (section 0.1).
        hands[next_seat(dealer, PLAYERS, 1 + i)].append(order[i])
    upcard = order[4 * size]
    stock = order[4 * size + 1 :]
    new_events = [
        event("deal", seat=dealer, deal_number=deal_number, cards=size),
        event("upcard", card=code(upcard), trump=None if is_joker(upcard) else SUITS[upcard // 13]),
    ]
    trump = suit(upcard)
    swap = None
    if is_joker(upcard):
        # BA-7: no trump; the holder of the other joker discards it face up and takes the top card of
        # the remaining stock. If the other joker is in the stock nobody swaps (BA-E2).
        other = BB if upcard == LB else LB
        holder = next((s for s in range(4) if other in hands[s]), None)
        if holder is not None:
            took = stock[0]
            stock = stock[1:]
            hands[holder].remove(other)
            hands[holder].append(took)
            swap = Swap(holder, other, took)
            new_events.append(
                event("joker_swap", seat=holder, card=code(other), owner=holder, secret={"took": code(took)})
            )
    return State(
        seed=seed,
        deal_number=deal_number,
        dealer=dealer,
        redeals=redeals,
        phase=BID,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(stock),
        upcard=upcard,
        trump=trump,
        swap=swap,
        bids=(None, None, None, None),
        leader=None,
        trick=(),
        tricks_played=(),
        trump_broken=False,
        last_trick=last_trick,
        score_sheet=score_sheet,
        events=_add_events(events, *new_events),
    )


# --- Steps ----------------------------------------------------------------------------------------


def _bid(state: State, seat: int, value: str | int) -> State:
    size = hand_size(state.deal_number)
    if value == "pass":
        bid = PASS
    elif value == "board":
        bid = Bid(board=next_board_level(state))
    else:
        assert isinstance(value, int)
        if value == 0:
            raise IllegalAction(_("Bid 'pass' to bid no tricks."))
        if value < 0:
            raise IllegalAction(_("A bid cannot be negative."))
        if value > size - 1:
            if size == 1:
                raise IllegalAction(_("With 1 card you may only pass or bid board."))
            raise IllegalAction(
                _("With %(size)s cards you may bid at most %(most)s; bid board to claim every trick."),
                {"size": size, "most": size - 1},
            )
        bid = Bid(tricks=value)
    bids = tuple(bid if s == seat else b for s, b in enumerate(state.bids))
    events = _add_events(state.events, event("bid", seat=seat, bid=bid.label()))
    if any(b is None for b in bids):
        return replace(state, bids=bids, events=events)
    if all(b == PASS for b in bids):
        # BA-10: the next dealer deals again with the same hand size; the deal number stays.
        events = _add_events(events, event("redeal", seat=state.dealer, deal_number=state.deal_number))
        return _deal(
            seed=state.seed,
            deal_number=state.deal_number,
            dealer=next_seat(state.dealer, PLAYERS),
            redeals=state.redeals + 1,
            order=_shuffled(state.seed, state.deal_number, state.redeals + 1),
            score_sheet=state.score_sheet,
            last_trick=state.last_trick,
            events=events,
        )
    leader = first_leader(tuple(b for b in bids if b is not None), state.dealer)
    events = _add_events(events, event("bidding_over", seat=leader))
    return replace(state, bids=bids, phase=PLAY, leader=leader, events=events)


def _play(state: State, seat: int, card: int) -> State:
    if card not in state.hands[seat]:
        raise IllegalAction(_("You do not hold %(label)s."), {"label": label(card)})
    why = rule_for(state, seat).why_not(card)
    if why is not None:
        raise IllegalAction(why)
    hands = tuple(tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(state.hands))
    trick = (*state.trick, card)
    events = _add_events(state.events, event("play", seat=seat, card=code(card)))
    if len(trick) < 4:
        return replace(state, hands=hands, trick=trick, events=events)
    assert state.leader is not None
    winner = next_seat(state.leader, PLAYERS, winning_index(trick, state.trump))
    done = Trick(state.leader, trick, winner)
    events = _add_events(
        events,
        event("trick", seat=winner, leader=state.leader, cards=tuple(code(c) for c in trick)),
    )
    state = replace(
        state,
        hands=hands,
        trick=(),
        leader=winner,
        tricks_played=(*state.tricks_played, done),
        # BA-13 (a): from the next trick on, trump may be led if one was played in this one.
        trump_broken=state.trump_broken or any(is_trump(c, state.trump) for c in trick),
        last_trick=done,
        events=events,
    )
    if any(hands):
        return state
    return _score_deal(state)


def _score_deal(state: State) -> State:
    size = hand_size(state.deal_number)
    bids = tuple(b for b in state.bids if b is not None)
    contracts = (contract(bids, 0, size), contract(bids, 1, size))
    won = tricks_by_seat(state)
    taken = (won[0] + won[2], won[1] + won[3])
    pts = (points(contracts[0], taken[0], size), points(contracts[1], taken[1], size))
    before = totals(state)
    running = (before[0] + pts[0], before[1] + pts[1])
    row = Row(
        deal=state.deal_number,
        dealer=state.dealer,
        cards=size,
        trump=state.trump,
        bids=bids,
        contracts=contracts,
        tricks=taken,
        points=pts,
        totals=running,
    )
    events = _add_events(
        state.events,
        event("deal_scored", deal_number=state.deal_number, tricks=taken, points=pts, totals=running),
    )
    sheet = (*state.score_sheet, row)
    if state.deal_number == DEALS:
        # BA-20: after deal 25 the higher total wins; equal totals draw.
        winner = None if running[0] == running[1] else (0 if running[0] > running[1] else 1)
        events = _add_events(events, event("game_end", totals=running, winner=winner))
        return replace(state, phase=OVER, leader=None, score_sheet=sheet, events=events)
    return _deal(
        seed=state.seed,
        deal_number=state.deal_number + 1,
        dealer=next_seat(state.dealer, PLAYERS),
        redeals=0,
        order=_shuffled(state.seed, state.deal_number + 1, 0),
        score_sheet=sheet,
        last_trick=state.last_trick,
        events=events,
    )


# --- The engine -----------------------------------------------------------------------------------


class BackAlleyEngine:
    slug = "backalley"
    name = "Back Alley"
    min_players = PLAYERS
    max_players = PLAYERS
    # Options that choose cards or a dealer instead of the seed: for tests and tutorials only. The
    # services refuse them for a real match and games.record.fairplay refuses a record that has them.
    stacking_options = frozenset({"deck", "dealer"})

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """Deal the first hand (BA-4..BA-7). ``options``: ``deck`` stacks it, ``dealer`` picks the first
        dealer (else drawn from the seed, BA-5), ``first_deal`` starts the match at a later deal."""
        if players != 4:
            raise InvalidAction(_("Back Alley is played by exactly 4 players."))
        prefix, dealer, first = parse_options(options)
        if dealer is None:
            dealer = rng(seed, "dealer").randrange(4)
        order = _shuffled(seed, first, 0) if prefix is None else _stacked(seed, prefix)
        return _deal(
            seed=seed,
            deal_number=first,
            dealer=dealer,
            redeals=0,
            order=order,
            score_sheet=(),
            last_trick=None,
            events=(),
        )

    def to_act(self, state: State) -> list[int]:
        seat = current(state)
        return [] if seat is None else [seat]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat(seat, PLAYERS)
        if seat != current(state):
            return []
        if state.phase == BID:
            return [{"type": "bid", "bid": b} for b in bid_options(hand_size(state.deal_number))]
        legal = rule_for(state, seat).legal
        return [{"type": "play", "card": code(c)} for c in sort_for_display(legal, state.trump)]

    def apply(self, state: State, seat: int, action: Action) -> State:
        """Check, in order: the seat, the action's form, that the match is live, that it is the seat's
        turn, the phase, then the rule; only then build the new state (the old one is untouched)."""
        check_seat(seat, PLAYERS)
        kind, value = parse_action(action)
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        if seat != current(state):
            raise IllegalAction(_("It is not your turn."))
        if kind == "bid":
            if state.phase != BID:
                raise IllegalAction(_("The bidding is over: play a card."))
            return _bid(state, seat, value)
        if state.phase != PLAY:
            raise IllegalAction(_("Cards are played after the bidding: make your bid first."))
        return _play(state, seat, value)

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)  # which checks the seat

    def reveal(self, state: State) -> dict[str, Any]:
        """Every card where it lies, for a finished match's face-up replay: never for a match in play."""
        return {
            "hands": [[code(card) for card in hand] for hand in state.hands],
            "piles": [{"pile": "stock", "cards": [code(card) for card in state.stock]}],
        }

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        return match_result(totals(state))

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)


engine = BackAlleyEngine()
