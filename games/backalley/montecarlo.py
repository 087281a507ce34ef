"""Monte Carlo bidding for the Back Alley bot: deal the unseen cards, play the deal out, count tricks.

Everything here works from what the bidder knows (its own hand, the upcard, a public joker swap, the
hand counts and the bids so far): the cards it cannot see are dealt at random, from the ``rng`` the bot
is given, to the other three hands in their public sizes, and each such deal is played out by a fast
rule-of-thumb policy in all four seats. The tricks the bidder's seat and team take over those deals
are the estimate its bid is chosen from. The work is counted in card plays, which the caller bounds,
so the same view gets the same bid; the caller's deadline, if any, cuts the deals short on a busy host.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from random import Random
from typing import TYPE_CHECKING

from games.backalley.cards import BB, is_trump, rank, strength
from games.backalley.scoring import points
from games.backalley.state import Contract

if TYPE_CHECKING:
    from games.support.deadline import Deadline


@dataclass(frozen=True, slots=True)
class Deals:
    """Tricks the bidder (``mine``) and its team (``team``) took in each simulated deal."""

    mine: tuple[int, ...]
    team: tuple[int, ...]
    plays: int  # card plays simulated: the work done

    def mean_mine(self) -> float:
        return sum(self.mine) / len(self.mine)


Powers = tuple[tuple[int, ...], ...]


@cache
def _powers(trump: int | None) -> Powers:
    """``strength`` as a table: ``_powers(trump)[led][card]``, the led suit 0-3, or 4 for none."""
    return tuple(tuple(strength(c, led if led < 4 else None, trump) for c in range(54)) for led in range(5))


def _led(card: int, trump: int | None) -> int:
    if card >= 52:
        return 4 if trump is None else trump
    return card // 13


def _legal(hand: list[int], trick: list[int], trump: int | None, broken: bool) -> list[int]:
    """BA-13..BA-15, as ``games.backalley.moves.play_rule`` (without the board exception), on lists."""
    if not trick:
        if trump is None or broken:
            return hand
        plain = [c for c in hand if not (c >= 52 or c // 13 == trump)]
        return plain or hand
    led = trick[0]
    if trump is not None and led >= 52:
        trumps = [c for c in hand if c >= 52 or c // 13 == trump]
        if not trumps:
            return hand
        return [max(trumps, key=rank)] if led == BB else [min(trumps, key=rank)]
    if trump is not None and led // 13 == trump:
        trumps = [c for c in hand if c >= 52 or c // 13 == trump]
        return trumps or hand
    suit = led // 13
    same = [c for c in hand if c < 52 and c // 13 == suit]
    return same or hand


def _cheap(card: int, trump: int | None) -> int:
    """Sort key of the card to give away: plain before trump, low before high."""
    return (100 if card >= 52 or card // 13 == trump else 0) + (card % 13 if card < 52 else card - 39)


def _masters(legal: list[int], trump: int | None, out: list[int]) -> list[int]:
    """The cards of ``legal`` that no card still out (in another hand) beats when led."""
    power = _powers(trump)
    top: dict[int, int] = {}
    masters = []
    for card in legal:
        led = _led(card, trump)
        if led not in top:
            row = power[led]
            top[led] = max((row[c] for c in out), default=0)
        if power[led][card] > top[led]:
            masters.append(card)
    return masters


def _rollout_pick(
    seat: int, hands: list[list[int]], trick: list[int], trick_seats: list[int], trump: int | None, broken: bool
) -> int:
    """A quick, sensible card: cash masters, follow low behind a winning partner, win cheaply."""
    hand = hands[seat]
    legal = _legal(hand, trick, trump, broken)
    if len(legal) == 1:
        return legal[0]
    if not trick:
        masters = _masters(legal, trump, [c for s in range(4) if s != seat for c in hands[s]])
        if masters:
            return max(masters, key=rank)
        return min(legal, key=lambda c: _cheap(c, trump))
    row = _powers(trump)[_led(trick[0], trump)]
    powers = [row[c] for c in trick]
    best = max(powers)
    winner = trick_seats[powers.index(best)]
    if winner % 2 == seat % 2:
        return min(legal, key=lambda c: _cheap(c, trump))
    winners = [c for c in legal if row[c] > best]
    if not winners:
        return min(legal, key=lambda c: _cheap(c, trump))
    if len(trick) == 3:
        return min(winners, key=row.__getitem__)
    return max(winners, key=row.__getitem__)


def play_out(hands: list[list[int]], trump: int | None, leader: int) -> tuple[list[int], int]:
    """Play a whole deal from ``hands`` (changed in place); tricks per seat, and the plays made."""
    won = [0, 0, 0, 0]
    broken = False
    plays = 0
    while hands[leader]:
        trick: list[int] = []
        seats: list[int] = []
        for k in range(4):
            seat = (leader + k) % 4
            card = _rollout_pick(seat, hands, trick, seats, trump, broken)
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
            plays += 1
        row = _powers(trump)[_led(trick[0], trump)]
        powers = [row[c] for c in trick]
        leader = seats[powers.index(max(powers))]
        won[leader] += 1
        broken = broken or any(is_trump(c, trump) for c in trick)
    return won, plays


def simulate(
    *,
    me: int,
    hand: Sequence[int],
    unseen: Sequence[int],
    counts: Sequence[int],
    trump: int | None,
    leader: int,
    rng: Random,
    max_plays: int,
    max_deals: int,
    deadline: Deadline | None = None,
    known: Sequence[Sequence[int]] | None = None,
) -> Deals:
    """Deal ``unseen`` to the other seats (their sizes in ``counts``) and play out, within ``max_plays``.

    A deal is only started if it fits in what is left of ``max_plays`` (a deal costs one play per card
    in the four hands), so the work never exceeds it; at least one deal is always played when the
    caller's bound allows one. Past ``deadline`` (a busy host) no further deal is started.

    ``known`` (every seat's hand; the analysis's "every hand known" question, never in play): the deal
    is that one. The play-out is deterministic, so it is played once: more deals would repeat it.
    """
    if known is not None:
        max_deals = 1
    pool = [c for c in unseen if trump is not None or c < 52]
    others = [s for s in range(4) if s != me]
    per_deal = len(hand) + sum(counts[s] for s in others)
    mine: list[int] = []
    team: list[int] = []
    plays = 0
    while len(mine) < max_deals and plays + per_deal <= max_plays:
        if mine and deadline is not None and deadline.passed():
            break
        hands: list[list[int]] = [[], [], [], []]
        hands[me] = list(hand)
        if known is not None:
            for s in others:
                hands[s] = list(known[s])
        else:
            dealt = rng.sample(pool, sum(counts[s] for s in others))
            i = 0
            for s in others:
                hands[s] = dealt[i : i + counts[s]]
                i += counts[s]
        won, n = play_out(hands, trump, leader)
        plays += n
        mine.append(won[me])
        team.append(won[me] + won[(me + 2) % 4])
    return Deals(mine=tuple(mine), team=tuple(team), plays=plays)


def expected_points(contract: int, tricks: Sequence[int], cards: int, *, board: int = 0) -> float:
    """The mean BA-17/BA-18 score of a contract (``contract`` tricks, or a board at level ``board``)
    over the simulated trick counts."""
    made = Contract(contract, board)
    return sum(points(made, t, cards) for t in tricks) / len(tricks)
