"""Build an exact DOS position mid-round, for tests, tutorials and bug reports; and ``scramble`` for the
hidden-information tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from random import Random

from games.dos import rules
from games.dos.actions import DEFAULT_TARGET, check_code
from games.dos.cards import FULL_DECK, sort_cards
from games.dos.state import MATCH, CenterCard, State
from games.engine import InvalidAction
from games.engine import gettext_noop as _
from games.kit.events import fields
from games.kit.shuffle import shuffled


def position(
    *,
    hands: Sequence[Sequence[str]],
    center: Sequence[str],
    draw: Sequence[str] = (),
    discard: Sequence[str] = (),
    rest: str = "draw",
    current: int = 0,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    round_no: int = 1,
    target: int = DEFAULT_TARGET,
    seed: int = 0,
    resolve: bool = True,
) -> State:
    """A mid-round state at the start of ``current``'s turn, for tests and tutorials.

    ``draw`` lists the top of the draw pile (first drawn first) and ``discard`` the discard pile
    (last on top). The cards of the deck not named anywhere go, shuffled from ``seed``, under the
    draw pile (``rest="draw"``) or under the discard pile (``rest="discard"``). With ``resolve`` the
    publicly forced steps of the turn are taken, as ``apply`` would.
    """
    players = len(hands)
    if not 2 <= players <= 4 or not 0 <= current < players:
        raise InvalidAction(_("A position needs 2 to 4 hands and a current seat among them."))
    named = [*(c for hand in hands for c in hand), *center, *draw, *discard]
    for code in named:
        check_code(code)
    left = Counter(FULL_DECK)
    left.subtract(named)
    if min(left.values()) < 0:
        raise InvalidAction(_("The position uses more copies of a card than the deck has."))
    remaining = shuffled(sort_cards(left.elements()), seed, "position")
    state = State(
        players=players,
        seed=seed,
        target=target,
        round=round_no,
        dealer=(current - 1) % players if dealer is None else dealer,
        current=current,
        phase=MATCH,
        hands=tuple(sort_cards(hand) for hand in hands),
        draw_pile=tuple(draw) + (tuple(remaining) if rest == "draw" else ()),
        discard=(tuple(remaining) if rest == "discard" else ()) + tuple(discard),
        center=tuple(CenterCard(card) for card in center),
        scores=tuple(scores) if scores is not None else (0,) * players,
    )
    return rules.resolve(state) if resolve else state


def scramble(state: State, seat: int | None, rng: Random) -> State:
    """Reshuffle everything ``seat`` cannot know: other hands, the draw pile, others' secrets, the seed."""
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + list(state.draw_pile)
    rng.shuffle(hidden)
    hands = list(state.hands)
    taken = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            hands[s] = sort_cards(hidden[taken : taken + len(hand)])
            taken += len(hand)
    drawn_card = state.drawn_card
    if drawn_card is not None and state.current != seat and hands[state.current]:
        drawn_card = rng.choice(hands[state.current])
    events = tuple(
        replace(e, secret=fields({"noise": rng.random()})) if e.owner is not None and e.owner != seat else e
        for e in state.events
    )
    return replace(
        state,
        hands=tuple(hands),
        draw_pile=tuple(hidden[taken:]),
        drawn_card=drawn_card,
        events=events,
        seed=rng.randrange(2**31),
        reshuffles=rng.randrange(5),
    )
