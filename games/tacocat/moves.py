"""Card combinatorics: which replacements, attacks and answers a hand allows (TAC-6, TAC-8, TAC-9).

Hands and card lists are sorted tuples of values. Everything here is pure and knows nothing of turns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import pairwise, product

from games.engine import IllegalAction, Text
from games.engine import gettext_noop as _

Hand = tuple[int, ...]


def remove(hand: Hand, cards: Iterable[int]) -> Hand | None:
    """``hand`` without ``cards`` (a multiset difference), or None if ``hand`` lacks one of them."""
    left = Counter(hand)
    for card in cards:
        if left[card] == 0:
            return None
        left[card] -= 1
    return tuple(sorted(left.elements()))


def missing(hand: Hand, cards: Iterable[int]) -> int | None:
    """The first card of ``cards`` that ``hand`` cannot supply (counting copies), else None."""
    left = Counter(hand)
    for card in cards:
        if left[card] == 0:
            return card
        left[card] -= 1
    return None


def submultisets(hand: Hand, max_size: int) -> list[Hand]:
    """Every distinct choice of at most ``max_size`` cards, smallest first (copies are interchangeable)."""
    counts = sorted(Counter(hand).items())
    out: list[Hand] = []
    for picks in product(*(range(c + 1) for _value, c in counts)):
        if sum(picks) <= max_size:
            out.append(tuple(v for (v, _count), n in zip(counts, picks, strict=True) for _copy in range(n)))
    out.sort(key=lambda cards: (len(cards), cards))
    return out


def attack_kind(cards: Hand) -> str | None:
    """TAC-8: "single", "set" (2+ equal), "sequence" (3+ consecutive, each value once), else None."""
    if len(cards) == 1:
        return "single"
    if len(cards) >= 2 and len(set(cards)) == 1:
        return "set"
    if len(cards) >= 3 and all(b == a + 1 for a, b in pairwise(cards)):
        return "sequence"
    return None


def not_held(hand: Hand, card: int) -> Text:
    """Why ``card`` cannot be used: the hand holds none of it, or fewer copies than asked for."""
    if card in hand:
        return Text(_("You do not hold another %(card)s."), {"card": card})
    return Text(_("You do not hold a %(card)s."), {"card": card})


def attack_error(hand: Hand, cards: Hand) -> Text | None:
    """Why ``cards`` (sorted) is not a legal attack from ``hand``, or None if it is."""
    if not cards:
        return Text(_("Attack with at least one card."))
    absent = missing(hand, cards)
    if absent is not None:
        return not_held(hand, absent)
    if attack_kind(cards) is None:
        shown = "-".join(map(str, cards))
        if len(cards) == 2:
            return Text(_("%(cards)s is not an attack: two cards must be a set of the same value."), {"cards": shown})
        return Text(
            _("%(cards)s is not an attack: use one card, a set of equal values or a sequence of 3 or more."),
            {"cards": shown},
        )
    # TAC-8 / TAC-E6: never with the last card, so both players keep at least one for the showdown.
    if len(cards) >= len(hand):
        return Text(_("An attack must leave you at least one card."))
    return None


def legal_attacks(hand: Hand) -> list[Hand]:
    """TAC-8: singles, sets and sequences of at most ``len(hand) - 1`` cards; shortest first."""
    limit = len(hand) - 1
    counts = Counter(hand)
    out: list[Hand] = [(v,) for v in sorted(counts)] if limit >= 1 else []
    for value, copies in sorted(counts.items()):
        out.extend((value,) * size for size in range(2, min(copies, limit) + 1))
    values = sorted(counts)
    for i, start in enumerate(values):
        run = [start]
        for nxt in values[i + 1 :]:
            if nxt != run[-1] + 1:
                break
            run.append(nxt)
            if 3 <= len(run) <= limit:
                out.append(tuple(run))
    out.sort(key=lambda cards: (len(cards), cards))
    return out


def judge_answers(hand: Hand, attack: Hand, answers: Hand) -> bool:
    """TAC-9: check one answer per attack card (``answers[i]`` answers ``attack[i]``, attack sorted).

    Returns True when every answer is a defence (the defender wins the exchange, TAC-10); raises
    IllegalAction when a sacrifice is not one of the lowest cards left after the defences.
    """
    k = len(attack)
    if len(answers) != k:
        raise IllegalAction(
            _("Answer each of the %(count)s attack card with one card.")
            if k == 1
            else _("Answer each of the %(count)s attack cards with one card."),
            {"count": k},
        )
    absent = missing(hand, answers)
    if absent is not None:
        raise IllegalAction(not_held(hand, absent))
    defences = [v for v, a in zip(answers, attack, strict=True) if v >= a]
    sacrifices = sorted((v, a) for v, a in zip(answers, attack, strict=True) if v < a)
    rest = remove(hand, defences)
    assert rest is not None  # answers are in hand, so their defences are
    lowest = rest[: len(sacrifices)]
    for (v, a), low in zip(sacrifices, lowest, strict=True):
        if v != low:
            raise IllegalAction(
                _(
                    "%(answer)s does not beat %(attack)s, and a sacrifice must be your lowest card left after your "
                    "defences (%(low)s)."
                ),
                {"answer": v, "attack": a, "low": low},
            )
    return not sacrifices


def defence_options(hand: Hand, attack: Hand) -> list[tuple[Hand, bool]]:
    """One answer list per distinct outcome of TAC-9/TAC-10, as ``(answers, won)``.

    An outcome is the multiset of cards leaving the hand plus whether the exchange is won; any two
    legal answer lists with the same outcome lead to the same game, so one stands for all. Won
    outcomes are the k-card choices that beat the sorted attack card by card. A lost outcome puts
    defences D on the smallest attack cards, the lowest card left below the largest attack card, and
    the next-lowest cards on the rest: any legal answer with a sacrifice can be rearranged that way
    (see tests/games/tacocat/test_moves.py, which checks this against brute force).
    """
    k = len(attack)
    found: dict[tuple[Hand, bool], Hand] = {}
    for cards in submultisets(hand, k):
        if len(cards) == k and all(v >= a for v, a in zip(cards, attack, strict=True)):
            found[(cards, True)] = cards
    top, rest = attack[-1], attack[:-1]
    for defences in submultisets(hand, k - 1):
        d = len(defences)
        if any(v < a for v, a in zip(defences, rest, strict=False)):
            continue
        left = remove(hand, defences)
        assert left is not None
        sacrificed = left[: k - d]
        if sacrificed[0] >= top:
            continue
        answers = (*defences, *sacrificed[1:], sacrificed[0])
        key = (tuple(sorted(answers)), False)
        found.setdefault(key, answers)
    return [(answers, won) for (_, won), answers in found.items()]


def outcome(answers: Hand, won: bool) -> tuple[Hand, bool]:
    return tuple(sorted(answers)), won
