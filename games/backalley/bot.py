"""Back Alley computer player: hand-strength bidding and rule-of-thumb card play.

It sees exactly what a human in its seat sees: the view (own hand, bids, contracts, the current trick
and every finished trick of the deal) and the legal actions. It never looks at the state, so it cannot
peek at its partner's hand. From the finished tricks it tracks which cards are still unseen and which
players have shown out of a suit.

Bidding counts likely tricks card by card: a card is worth more the fewer unseen cards can beat it, and
in short hands, where most cards stay in the stock, even a king or a middling trump often wins. The
number bid sits a little under that estimate, because failing costs five points a bid trick while an
overtrick earns only one. Board is bid only when every card is very likely to win on its own.

Under BA-17 every extra trick is worth a point and costs nothing, so the player never ducks to avoid
tricks; it saves high cards when its partner already holds the trick, plays second hand low unless the
contract is tight, and leads master trumps to draw the opponents' trumps when that is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.backalley import montecarlo, novice
from games.backalley.cards import (
    ALL_CARDS,
    SUITS,
    follow_suit,
    is_trump,
    parse,
    rank,
    strength,
)
from games.engine import Action, View
from games.support.deadline import Deadline

# Bid this much under the trick estimate: a failed bid costs 5 a trick, an overtrick earns 1.
BID_MARGIN = 0.8
# Bid board only if the hand, played alone, takes every trick with at least this probability.
BOARD_CONFIDENCE = 0.8
# A card counts as safe from the players still to play if none of them beats it this likely.
SAFE = 0.8


@dataclass(frozen=True, slots=True)
class Table:
    """What the seat knows, parsed once from its view."""

    me: int
    trump: int | None
    hand: tuple[int, ...]
    cards: int  # cards per hand this deal
    unseen: frozenset[int]  # cards in another hand or in the stock
    voids: dict[int, frozenset[int | None]]  # seat -> follow-suits it has shown out of
    counts: tuple[int, ...]
    # Every hand known (the analysis's second question, never in play): card -> the other seat holding
    # it. ``unseen`` is then exactly the other hands and ``voids`` every suit a seat holds none of.
    holders: dict[int, int] | None = None

    def p_held(self, seats: list[int]) -> float:
        """Probability that one given unseen card is in one of ``seats``' hands."""
        if not self.unseen:
            return 0.0
        return min(1.0, sum(self.counts[s] for s in seats) / len(self.unseen))


def _known(t: Table, known_hands: Sequence[Sequence[str]]) -> Table:
    """``t`` with every other hand as it is: the inferences (unseen cards, shown voids) made facts.
    The stock is then simply the cards in no hand; it never comes into play."""
    holders: dict[int, int] = {}
    voids = dict(t.voids)
    for seat, codes in enumerate(known_hands):
        if seat == t.me:
            continue
        hand = [parse(c) for c in codes]
        holders.update((card, seat) for card in hand)
        held = {follow_suit(card, t.trump) for card in hand}
        voids[seat] = t.voids[seat] | frozenset(suit for suit in range(4) if suit not in held)
    return replace(t, unseen=frozenset(holders), voids=voids, holders=holders)


def known_hands_of(t: Table, seat: int) -> list[int]:
    """A seat's hand, every hand being known (``t.holders``); the own hand for ``t.me``."""
    if seat == t.me or t.holders is None:
        return list(t.hand)
    return sorted(card for card, holder in t.holders.items() if holder == seat)


def _table(view: View) -> Table:
    me = view["seat"]
    trump = None if view["trump"] is None else SUITS.index(view["trump"])
    hand = tuple(parse(c) for c in view["hand"])
    seen = set(hand)
    seen.add(parse(view["upcard"]))
    if view["swap"] is not None:
        seen.add(parse(view["swap"]["card"]))
    voids: dict[int, set[int | None]] = {s: set() for s in range(4)}
    tricks = [[(p["seat"], parse(p["card"])) for p in t["cards"]] for t in view["tricks_played"]]
    tricks.append([(p["seat"], parse(p["card"])) for p in view["trick"]])
    for trick in tricks:
        if not trick:
            continue
        led = follow_suit(trick[0][1], trump)
        for seat, card in trick:
            seen.add(card)
            if follow_suit(card, trump) != led:
                voids[seat].add(led)
    counts = tuple(view["hand_counts"])
    return Table(
        me=me,
        trump=trump,
        hand=hand,
        cards=view["cards_per_hand"],
        unseen=frozenset(c for c in ALL_CARDS if c not in seen),
        voids={s: frozenset(v) for s, v in voids.items()},
        counts=counts,
    )


LEVELS = ("easy", "medium", "hard")
# Card plays the simulations may spend per second of budget: measured about 30 k/s on a busy 2-core
# host, so the count bounds the work; the clock (``games.support.deadline``) stops the deals at ``budget_s`` on
# a host slower than that.
PLAYS_PER_SECOND = 20_000
# Simulated deals per hard bid: past this the estimate barely moves (its error falls as 1/sqrt(n)).
HARD_DEALS = 64


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    work: int  # card plays simulated to reach it


def work_budget(budget_s: float) -> int:
    """The card plays a decision may simulate within ``budget_s`` seconds."""
    return int(budget_s * PLAYS_PER_SECOND)


def decide(
    view: View,
    legal: list[Action],
    *,
    rng: Any,
    budget_s: float,
    level: str = "medium",
    known_hands: Sequence[Sequence[str]] | None = None,
) -> Decision:
    """The action ``choose`` returns, with the work spent on it."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
    if not legal:
        raise ValueError("There is nothing legal to choose from.")
    if len(legal) == 1:
        return Decision(legal[0], 0)
    table = _table(view)
    if known_hands is not None:
        table = _known(table, known_hands)
    if level == "easy":
        return Decision(novice.choose(view, table.hand, table.trump, legal), 0)
    if legal[0]["type"] == "bid":
        if level == "hard":
            return _hard_bid(view, table, legal, rng, work_budget(budget_s), Deadline(budget_s))
        return Decision(_choose_bid(view, table, legal), 0)
    cards = [parse(a["card"]) for a in legal]
    card = _choose_card(view, table, cards, lead_through=level == "hard")
    return Decision(legal[cards.index(card)], 0)


def choose(
    view: View,
    legal: list[Action],
    *,
    rng: Any,
    budget_s: float,
    level: str = "medium",
    known_hands: Sequence[Sequence[str]] | None = None,
) -> Action:
    """One of ``legal``, from the seat's view only. ``level`` is "easy", "medium" or "hard"; only hard
    simulates (its bids), within ``budget_s`` counted in card plays; the others need well under a
    millisecond.

    ``known_hands`` (every seat's hand, as codes) is for the post-game analysis only, never given in
    play: medium and hard then play with the other hands as facts (``_known``), hard's bid plays out
    the one true deal instead of samples of it."""
    return decide(view, legal, rng=rng, budget_s=budget_s, level=level, known_hands=known_hands).action


# --- Bidding --------------------------------------------------------------------------------------


def _beaters(card: int, t: Table) -> int:
    """Unseen cards that beat ``card`` when it is led (higher trumps, or higher cards of its suit)."""
    if is_trump(card, t.trump):
        return sum(1 for c in t.unseen if is_trump(c, t.trump) and rank(c) > rank(card))
    return sum(1 for c in t.unseen if c < 52 and c // 13 == card // 13 and rank(c) > rank(card))


def _card_value(card: int, t: Table, suit_len: int, lower_trumps: int) -> float:
    """Expected tricks from one card."""
    k = _beaters(card, t)
    p_out = t.p_held([s for s in range(4) if s != t.me])
    # No card that beats this one was dealt to another hand at all.
    clear = (1.0 - p_out) ** k
    if is_trump(card, t.trump):
        base = (0.95, 0.5, 0.25, 0.1)[k] if k < 4 else 0.0
        if 1 <= k <= lower_trumps:
            base += 0.15  # small trumps guard it while the higher ones are drawn
        if lower_trumps >= 3:
            base = max(base, 0.6)  # the fourth trump and beyond usually score by length or ruffing
        return clear + (1.0 - clear) * base
    base = (0.9, 0.45 if suit_len >= 2 else 0.2, 0.2 if suit_len >= 3 else 0.05)[k] if k < 3 else 0.0
    if t.trump is not None and suit_len >= 5:
        base *= 0.6  # long side suits run into ruffs
    return clear + (1.0 - clear) * base


def estimate_tricks(t: Table) -> float:
    value = 0.0
    trumps = sorted((c for c in t.hand if is_trump(c, t.trump)), key=rank)
    lengths = {s: sum(1 for c in t.hand if c < 52 and c // 13 == s and s != t.trump) for s in range(4)}
    for card in t.hand:
        if is_trump(card, t.trump):
            value += _card_value(card, t, len(trumps), trumps.index(card))
        else:
            value += _card_value(card, t, lengths[card // 13], 0)
    if t.trump is not None and trumps:
        # Short side suits let spare small trumps ruff.
        spare = sum(1 for c in trumps if _beaters(c, t) >= 3)
        shortness = sum(2 if n == 0 else 1 if n == 1 else 0 for s, n in lengths.items() if s != t.trump)
        value += 0.4 * min(spare, shortness)
    return min(value, float(t.cards))


def _board_chance(t: Table) -> float:
    """Probability that this hand alone takes every trick, judging each card on its own."""
    p_out = t.p_held([s for s in range(4) if s != t.me])
    chance = 1.0
    unseen_trumps = sum(1 for c in t.unseen if is_trump(c, t.trump))
    for card in t.hand:
        k = _beaters(card, t)
        if not is_trump(card, t.trump) and t.trump is not None:
            k += unseen_trumps  # a plain card can also be ruffed
        chance *= (1.0 - p_out) ** k
    return chance


def _choose_bid(view: View, t: Table, legal: list[Action]) -> Action:
    offered = {a["bid"]: a for a in legal}
    partner = (t.me + 2) % 4
    partner_bid = view["bids"][partner]
    if isinstance(partner_bid, str) and partner_bid != "pass":
        # BA-11: a partner's board makes this bid irrelevant; raising the level only raises the risk.
        return offered["pass"]
    if "board" in offered and _board_chance(t) >= BOARD_CONFIDENCE:
        return offered["board"]
    bid = int(estimate_tricks(t) - BID_MARGIN + 0.5)
    partner_tricks = partner_bid if isinstance(partner_bid, int) else 0
    others = sum(b for s, b in enumerate(view["bids"]) if s != t.me and isinstance(b, int))
    if bid and others + bid > t.cards:
        # The table has claimed more tricks than exist; someone is overbid, so shade down.
        bid -= 1
    bid = max(0, min(bid, t.cards - partner_tricks, t.cards - 1))
    return offered[bid] if bid in offered else offered["pass"]


def _hard_bid(view: View, t: Table, legal: list[Action], rng: Any, max_plays: int, deadline: Deadline) -> Decision:
    """The bid with the best mean score over simulated deals of the cards this seat cannot see.

    Once the partner has bid, the team's contract and tricks count; before that, this seat's own
    tricks (the partner will add its own share when it bids).
    """
    offered = {a["bid"]: a for a in legal}
    partner_bid = view["bids"][(t.me + 2) % 4]
    if isinstance(partner_bid, str) and partner_bid != "pass":
        return Decision(offered["pass"], 0)
    deals = montecarlo.simulate(
        me=t.me,
        hand=t.hand,
        unseen=sorted(t.unseen),
        counts=t.counts,
        trump=t.trump,
        leader=(view["dealer"] + 1) % 4,
        rng=rng,
        max_plays=max_plays,
        max_deals=HARD_DEALS,
        deadline=deadline,
        known=None if t.holders is None else [known_hands_of(t, s) for s in range(4)],
    )
    if not deals.mine:
        return Decision(_choose_bid(view, t, legal), 0)
    partner = partner_bid if isinstance(partner_bid, int) else 0
    tricks = deals.team if partner_bid is not None else deals.mine
    best_bid: Any = "pass"
    best = montecarlo.expected_points(partner, tricks, t.cards)
    for bid in offered:
        if isinstance(bid, int):
            value = montecarlo.expected_points(partner + bid, tricks, t.cards)
            if value > best:
                best_bid, best = bid, value
    if "board" in offered:
        level = view["next_board_level"] or 1
        if montecarlo.expected_points(t.cards, deals.team, t.cards, board=level) > best:
            best_bid = "board"
    return Decision(offered[best_bid], deals.plays)


# --- Card play ------------------------------------------------------------------------------------


def _urgent(view: View, t: Table) -> bool:
    """Must this team win tricks now rather than later? True while its board is alive, while an
    opponents' board can still be broken, or when its contract needs nearly every trick left."""
    team = t.me % 2
    ours, theirs = view["contracts"][team], view["contracts"][1 - team]
    taken = view["tricks"]["teams"]
    if ours["board"] and taken[1 - team] == 0:
        return True
    if theirs["board"] and taken[team] == 0:
        return True
    need = ours["tricks"] - taken[team]
    return need > 0 and need >= len(t.hand) - 1


def _safe(card: int, led: int | None, t: Table, after: list[int]) -> bool:
    """Will ``card`` most likely hold the trick against the opponents still to play?"""
    if not after:
        return True
    mine = strength(card, led, t.trump)
    beaters = [c for c in t.unseen if strength(c, led, t.trump) > mine]
    if not beaters:
        return True
    if t.holders is not None:
        # Every hand known: it holds unless a seat still to play has a beater it may play (one that
        # follows the led suit, or any when it holds none of that suit).
        holders = t.holders
        return not any(
            holders[c] in after and (follow_suit(c, t.trump) == led or led in t.voids[holders[c]]) for c in beaters
        )
    plain_led = led is not None and led != t.trump
    if plain_led and not is_trump(card, t.trump):
        # A known void with trumps still unseen can ruff.
        if any(led in t.voids[s] for s in after) and any(is_trump(c, t.trump) for c in beaters):
            return False
        beaters = [c for c in beaters if not is_trump(c, t.trump)]
    return (1.0 - t.p_held(after)) ** len(beaters) >= SAFE


def _discard_key(card: int, t: Table) -> tuple[int, int, int]:
    """Cheapest card to throw away: plain before trump, low before high, from the shortest suit."""
    if is_trump(card, t.trump):
        return (1, rank(card), 0)
    length = sum(1 for c in t.hand if c < 52 and c // 13 == card // 13)
    return (0, rank(card), length)


def _choose_card(view: View, t: Table, legal: list[int], *, lead_through: bool = False) -> int:
    me, partner = t.me, (t.me + 2) % 4
    urgent = _urgent(view, t)
    trick = [(p["seat"], parse(p["card"])) for p in view["trick"]]
    after = [(me + k) % 4 for k in range(1, 4 - len(trick))]
    opp_after = [s for s in after if s % 2 != me % 2]
    if not trick:
        return _lead(t, legal, urgent, view["bids"] if lead_through else None)

    led = follow_suit(trick[0][1], t.trump)
    best_seat, best_card = max(trick, key=lambda sc: strength(sc[1], led, t.trump))
    best = strength(best_card, led, t.trump)
    cheapest = min(legal, key=lambda c: _discard_key(c, t))
    if best_seat == partner and (not opp_after or _safe(best_card, led, t, opp_after)):
        return cheapest
    winners = sorted((c for c in legal if strength(c, led, t.trump) > best), key=lambda c: strength(c, led, t.trump))
    if not winners:
        return cheapest
    if not opp_after:
        return winners[0]
    safe = [c for c in winners if _safe(c, led, t, opp_after)]
    if safe:
        return safe[0]
    if best_seat == partner:
        return cheapest
    if len(trick) == 1 and not urgent:
        # Second hand low: the partner plays after the next opponent.
        return cheapest
    # Third hand (or no time left): the strongest plain card, or the lowest trump that wins.
    plain = [c for c in winners if not is_trump(c, t.trump)]
    return plain[-1] if plain else winners[0]


def _lead(t: Table, legal: list[int], urgent: bool, bids: list[Any] | None = None) -> int:
    opponents = [(t.me + 1) % 4, (t.me + 3) % 4]
    unseen_trumps = [c for c in t.unseen if is_trump(c, t.trump)]
    trumps = sorted((c for c in legal if is_trump(c, t.trump)), key=rank, reverse=True)
    if trumps and unseen_trumps and _beaters(trumps[0], t) == 0:
        # A master trump draws two of the opponents' trumps (a Blooper lead forces their best or worst).
        return trumps[0]
    masters = []
    for c in legal:
        if is_trump(c, t.trump) or _beaters(c, t):
            continue
        ruffable = unseen_trumps and any(c // 13 in t.voids[s] for s in opponents)
        if not ruffable:
            masters.append(c)
    if masters:
        # Cash the master from the suit the opponents have most left of (least likely to be ruffed).
        return max(masters, key=lambda c: sum(1 for u in t.unseen if u < 52 and u // 13 == c // 13))
    if trumps and not unseen_trumps:
        return trumps[0]
    plain = [c for c in legal if not is_trump(c, t.trump)]
    if not plain:
        return trumps[-1] if not urgent else trumps[0]
    if bids is not None:
        return _lead_low_with_partner(t, plain, opponents, bids)

    # Lead low from the longest suit, hoping the partner wins it or the suit sets up.
    def longest_low(c: int) -> tuple[int, int]:
        return (-sum(1 for h in t.hand if h < 52 and h // 13 == c // 13), rank(c))

    return min(plain, key=longest_low)


def _bid_tricks(bid: Any) -> int:
    return bid if isinstance(bid, int) else 0


def _lead_low_with_partner(t: Table, plain: list[int], opponents: list[int], bids: list[Any]) -> int:
    """A low lead chosen for the partner: a suit the partner can ruff and no opponent can, else through
    strength (the next opponent bid more than the last one: lead the suit whose high cards are out,
    so it must play before the partner) or up to weakness (lead where few high cards are out)."""
    partner = (t.me + 2) % 4
    trumps_out = t.trump is not None and any(is_trump(c, t.trump) for c in t.unseen)
    left, right = opponents
    through = _bid_tricks(bids[left]) >= _bid_tricks(bids[right])

    def key(c: int) -> tuple[int, int, int]:
        s = c // 13
        ruff = 0
        if trumps_out:
            if any(s in t.voids[o] for o in opponents):
                ruff = 2  # an opponent ruffs it
            elif s in t.voids[partner]:
                ruff = -1  # the partner may ruff it
        honours = sum(1 for u in t.unseen if u < 52 and u // 13 == s and rank(u) >= 11)
        return (ruff, -honours if through else honours, rank(c))

    return min(plain, key=key)
