"""Build an exact Back Alley deal, for tests, tutorials and bug reports; and ``scramble`` for the
hidden-information tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from random import Random

from games.backalley.cards import ALL_CARDS, code, deck_for, hand_size
from games.backalley.rules import engine
from games.backalley.state import State
from games.engine import InvalidAction
from games.engine import gettext_noop as _
from games.kit.events import fields

#: Seat numbers by compass point, as the rules file names them.
N, E, S, W = 0, 1, 2, 3


def position(
    hands: Sequence[str],
    upcard: str,
    *,
    dealer: int = W,
    deal: int = 1,
    stock: Sequence[str] = (),
    seed: int = 0,
) -> State:
    """A match whose first deal (deal number ``deal``) gives ``hands[seat]`` (space-separated codes,
    seats N E S W) and turns up ``upcard``. Dealer W by default, so N bids first (section 3.9)."""
    split = [h.split() for h in hands]
    if any(len(h) != hand_size(deal) for h in split):
        raise InvalidAction(
            _("Deal %(deal)s gives %(hand_size)s cards to each hand."), {"deal": deal, "hand_size": hand_size(deal)}
        )
    deck = deck_for(split, upcard, dealer=dealer, stock=stock)
    return engine.new_game(4, seed, {"deck": deck, "dealer": dealer, "first_deal": deal})


def scramble(state: State, seat: int | None, rng: Random) -> State:
    """Reshuffle everything ``seat`` cannot know: the other hands (partner's too), the stock, the card
    another seat's joker swap took, the other seats' secrets and the seed, keeping every count."""
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.stock)
    rng.shuffle(pool)
    hands = list(state.hands)
    i = 0
    for s in others:
        n = len(state.hands[s])
        hands[s] = tuple(sorted(pool[i : i + n]))
        i += n
    events = tuple(
        replace(e, secret=fields({key: code(rng.choice(ALL_CARDS)) for key, _value in e.secret}))
        if e.owner is not None and e.owner != seat
        else e
        for e in state.events
    )
    swap = state.swap
    if swap is not None and swap.seat != seat and swap.took in state.hands[swap.seat]:
        # Which card the swapper took is the swapper's secret: any card now in their hand may be it.
        swap = replace(swap, took=rng.choice(hands[swap.seat]))
    return replace(
        state, hands=tuple(hands), stock=tuple(pool[i:]), swap=swap, events=events, seed=rng.randrange(2**31)
    )
