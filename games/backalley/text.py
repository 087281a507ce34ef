"""Player-facing sentences for the events of a Back Alley view (see docs/games/backalley.md, "Events")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.support.i18n import digits

_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def suit_name(letter: str) -> str:
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}.get(letter, letter)


def card_label(code: str) -> str:
    """``QH`` reads "Q♥", ``10C`` "10♣", ``BB`` "Big Blooper"."""
    if code == "BB":
        return _("Big Blooper")
    if code == "LB":
        return _("Little Blooper")
    return digits(code[:-1]) + _SYMBOLS.get(code[-1], code[-1])


def bid_label(bid: Any) -> str:
    """A bid as said at the table: "pass", "3", "board", "double board", ..."""
    if bid == "pass":
        return _("pass")
    names = {
        "board": _("board"),
        "double_board": _("double board"),
        "triple_board": _("triple board"),
        "quadruple_board": _("quadruple board"),
    }
    return names.get(bid) or digits(bid)


def team_label(team: int, names: list[str]) -> str:
    """Team 0 is seats 0 and 2, team 1 seats 1 and 3 (BA-2)."""
    return _("%(a)s and %(b)s") % {"a": _name(names, team), "b": _name(names, team + 2)}


def _name(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _signed(points: int) -> str:
    return f"{points:+d}"


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    kind = event.get("type")
    name = _name(names, event.get("seat"))
    if kind == "deal":
        return ngettext(
            "Hand %(number)s of 25: %(name)s deals %(cards)s card each.",
            "Hand %(number)s of 25: %(name)s deals %(cards)s cards each.",
            event["cards"],
        ) % {"number": event["deal_number"], "name": name, "cards": event["cards"]}
    if kind == "upcard":
        if event["trump"] is None:
            return _("The upcard is %(card)s: there is no trump this hand.") % {"card": card_label(event["card"])}
        return _("The upcard is %(card)s: %(suit)s are trump.") % {
            "card": card_label(event["card"]),
            "suit": suit_name(event["trump"]),
        }
    if kind == "joker_swap":
        if "took" in event:
            return _("%(name)s discards %(joker)s face up and takes %(card)s from the stock.") % {
                "name": name,
                "joker": card_label(event["card"]),
                "card": card_label(event["took"]),
            }
        return _("%(name)s discards %(joker)s face up and takes a card from the stock.") % {
            "name": name,
            "joker": card_label(event["card"]),
        }
    if kind == "bid":
        bid = event["bid"]
        if bid == "pass":
            return _("%(name)s passes.") % {"name": name}
        return _("%(name)s bids %(bid)s.") % {"name": name, "bid": bid_label(bid)}
    if kind == "bidding_over":
        return _("The bidding is over; %(name)s leads.") % {"name": name}
    if kind == "redeal":
        return _("Everyone passed: the cards are dealt again by the next dealer.")
    if kind == "play":
        return _("%(name)s plays %(card)s.") % {"name": name, "card": card_label(event["card"])}
    if kind == "trick":
        return _("%(name)s wins the trick.") % {"name": name}
    if kind == "deal_scored":
        points = event["points"]
        return _("Hand %(number)s scored: %(a)s %(pa)s (%(ta)s), %(b)s %(pb)s (%(tb)s).") % {
            "number": event["deal_number"],
            "a": team_label(0, names),
            "pa": _signed(points[0]),
            "ta": event["totals"][0],
            "b": team_label(1, names),
            "pb": _signed(points[1]),
            "tb": event["totals"][1],
        }
    if kind == "game_end":
        totals = event["totals"]
        winner = event["winner"]
        if winner is None:
            return _("The game is drawn at %(points)s points each.") % {"points": totals[0]}
        return _("%(team)s win the game, %(won)s to %(lost)s.") % {
            "team": team_label(winner, names),
            "won": totals[winner],
            "lost": totals[1 - winner],
        }
    return ""
