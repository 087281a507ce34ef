"""Back Alley cards: codes, suits, ranks, trump strength and the order a hand is shown in.

A card is an ``int`` inside the engine (cheap to compare, sort and hash) and a code on the wire:
rank then suit, ``"AS"``, ``"KH"``, ``"10D"``, ``"2C"``, and ``"BB"`` / ``"LB"`` for Big and Little
Blooper (BA-1). Suit cards are ``suit * 13 + (rank - 2)`` with ranks 2..14 (ace = 14); ``LB`` is 52 and
``BB`` 53, so the integer order of the two jokers matches their strength.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine import gettext_noop as _

SUITS = ("S", "H", "D", "C")
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUIT_NAMES = (_("spades"), _("hearts"), _("diamonds"), _("clubs"))
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LB = 52
BB = 53
JOKERS = (LB, BB)
DECK_SIZE = 54
ALL_CARDS = tuple(range(DECK_SIZE))
JOKER_NAMES = {LB: "Little Blooper", BB: "Big Blooper"}
# The cycle the hand is laid out in: black and red alternate whichever suit starts it.
DISPLAY_CYCLE = (SPADES, HEARTS, CLUBS, DIAMONDS)

_CODES = tuple([RANK_CODES[i % 13] + SUITS[i // 13] for i in range(52)] + ["LB", "BB"])
_BY_CODE = {c: i for i, c in enumerate(_CODES)}


def code(card: int) -> str:
    return _CODES[card]


def parse(text: object) -> int:
    """The card for a code; ``ValueError`` for anything else (codes are upper case, exact)."""
    if isinstance(text, str):
        card = _BY_CODE.get(text)
        if card is not None:
            return card
    raise ValueError(f"{text!r} is not a card code: write rank then suit (AS, 10D, 2C) or BB / LB.")


def is_card_code(text: object) -> bool:
    return isinstance(text, str) and text in _BY_CODE


def suit(card: int) -> int | None:
    """The printed suit; ``None`` for a joker."""
    return None if card >= 52 else card // 13


def rank(card: int) -> int:
    """2..14 for suit cards (ace 14); LB 15, BB 16 (BA-3: BB > LB > the trump ace)."""
    return card % 13 + 2 if card < 52 else card - 37


def is_joker(card: int) -> bool:
    return card >= 52


def is_trump(card: int, trump: int | None) -> bool:
    """BA-3: both jokers belong to the trump suit. In a no-trump deal nothing is trump (BA-7)."""
    if trump is None:
        return False
    return card >= 52 or card // 13 == trump


def follow_suit(card: int, trump: int | None) -> int | None:
    """The suit a card counts as when following: the trump suit for a joker (BA-14, BA-E11).

    A joker in a no-trump deal never reaches a hand (BA-7), so it gets no suit at all here.
    """
    if card >= 52:
        return trump
    return card // 13


def strength(card: int, led: int | None, trump: int | None) -> int:
    """How strongly ``card`` bids for a trick whose led suit is ``led`` (BA-16).

    Any trump beats any card of the led suit, which beats every other card (strength 0).
    """
    if is_trump(card, trump):
        return 100 + rank(card)
    if card < 52 and card // 13 == led:
        return rank(card)
    return 0


def winning_index(cards: Sequence[int], trump: int | None) -> int:
    """Position in ``cards`` (play order, leader first) of the card that takes the trick."""
    led = follow_suit(cards[0], trump)
    best, best_strength = 0, -1
    for i, card in enumerate(cards):
        s = strength(card, led, trump)
        if s > best_strength:
            best, best_strength = i, s
    return best


def display_key(trump: int | None) -> Callable[[int], tuple[int, int]]:
    """Sort key for showing a hand: trumps first (BB, LB, then the trump suit from the ace down), then
    the other suits in the cycle spades, hearts, clubs, diamonds starting after the trump suit (so
    colours alternate), each from the ace down. With no trump the cycle starts at spades."""
    start = DISPLAY_CYCLE.index(trump) if trump is not None else 0
    position = {s: (DISPLAY_CYCLE.index(s) - start) % 4 for s in range(4)}

    def key(card: int) -> tuple[int, int]:
        if card >= 52:
            return (-1, -card)
        return (position[card // 13], -card)

    return key


def sort_for_display(cards: Sequence[int], trump: int | None) -> list[int]:
    return sorted(cards, key=display_key(trump))


def label(card: int) -> str:
    """A short human name: ``Q\u2665``, ``10\u2663``, ``Big Blooper``."""
    if card >= 52:
        return JOKER_NAMES[card]
    return RANK_CODES[card % 13] + SUIT_SYMBOLS[card // 13]


def hand_size(deal_number: int) -> int:
    """BA-4: 13, 12, ..., 2, 1, 2, ..., 13 cards over deals 1..25."""
    return abs(13 - deal_number) + 1


def deck_for(hands: Sequence[Sequence[str]], upcard: str, *, dealer: int, stock: Sequence[str] = ()) -> list[str]:
    """The ``options["deck"]`` prefix that deals ``hands[seat]`` to each seat and turns up ``upcard``.

    Dealing (BA-6, documented in docs/games/backalley.md) gives deck[0] to the seat left of the
    dealer, deck[1] to the next seat clockwise, and so on round the table, one card at a time; the card
    after the hands is the upcard and the rest is the stock, top first. ``stock`` fixes the top of the
    stock (the card a joker swap takes, BA-7); the engine shuffles in whatever is left.
    """
    if len(hands) != 4 or len({len(h) for h in hands}) != 1:
        raise ValueError("deck_for needs four hands of the same size.")
    size = len(hands[0])
    order: list[str] = []
    for i in range(size):
        for k in range(1, 5):
            order.append(hands[(dealer + k) % 4][i])
    return [*order, upcard, *stock]
