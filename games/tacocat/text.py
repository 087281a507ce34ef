"""Player-facing sentences for Tacocat events (the ``events`` of a view, see docs/games/tacocat.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.support.i18n import digits
from games.tacocat.cards import GOALS, LETTERS


def card_label(code: str) -> str:
    """A card as a face-up list names it (a replay's hands and piles): its value, in the reader's digits."""
    return digits(code)


def _cards(codes: list[str]) -> str:
    # A card is its value, read as a number: in the reader's digits.
    return ", ".join(digits(code) for code in codes)


def goal_name(seat: int) -> str:
    """The name of ``seat``'s goal in the reader's language. The board's ends are the words WOW and YAY
    (GOAL_LABELS, the engine's), written in each language's script like the game's name."""
    return (pgettext("Tacocat goal", "WOW"), pgettext("Tacocat goal", "YAY"))[seat]


def _space(position: int) -> str:
    if position in GOALS:
        return _("the %(label)s goal") % {"label": goal_name(GOALS.index(position))}
    return _("%(letter)s (%(position)s)") % {
        "letter": LETTERS[position + 3],
        "position": digits(f"{position:+d}" if position else "0"),
    }


def _replace(event: dict[str, Any], name: str) -> str:
    count = event["count"]
    if event.get("forced"):
        return _("%(name)s may not replace any cards.") % {"name": name}
    if count == 0:
        return _("%(name)s keeps every card.") % {"name": name}
    args = {"name": name, "count": count, "discarded": _cards(event["discarded"])}
    if "drawn" in event:
        args["drawn"] = _cards(event["drawn"])
        return (
            ngettext(
                "%(name)s replaces %(count)s card: discards %(discarded)s, draws %(drawn)s.",
                "%(name)s replaces %(count)s cards: discards %(discarded)s, draws %(drawn)s.",
                count,
            )
            % args
        )
    return (
        ngettext(
            "%(name)s replaces %(count)s card, discarding %(discarded)s.",
            "%(name)s replaces %(count)s cards, discarding %(discarded)s.",
            count,
        )
        % args
    )


def _reveal(event: dict[str, Any], names: list[str]) -> str:
    if event["step"] == "replace":
        a, b = event["counts"]
        return _("Both replacements are revealed: %(a)s replaces %(na)s, %(b)s replaces %(nb)s.") % {
            "a": names[0], "na": a, "b": names[1], "nb": b,
        }  # fmt: skip
    args = {"a": names[0], "ca": digits(event["cards"][0]), "b": names[1], "cb": digits(event["cards"][1])}
    if event["winner"] is None:
        return _("Duel: %(a)s shows %(ca)s, %(b)s shows %(cb)s. A tie.") % args
    args["winner"] = names[event["winner"]]
    return _("Duel: %(a)s shows %(ca)s, %(b)s shows %(cb)s. %(winner)s attacks.") % args


def _showdown(event: dict[str, Any], names: list[str]) -> str:
    args = {"a": names[0], "ca": digits(event["cards"][0]), "b": names[1], "cb": digits(event["cards"][1])}
    shown = _("Showdown: %(a)s shows %(ca)s, %(b)s shows %(cb)s.") % args
    winner = event["winner"]
    if winner is None:
        outcome = _("A tie: the cat stays and new cards are dealt.")
    elif event["tie"]:
        outcome = _("A tie, which the arrow gives to %(name)s.") % {"name": names[winner]}
    else:
        outcome = _("%(name)s wins the round.") % {"name": names[winner]}
    return f"{shown} {outcome}"


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One sentence for an event of a view's ``events`` list; ``names[seat]`` names each seat."""
    kind = event["type"]
    name = names[event["seat"]] if "seat" in event else ""
    if kind == "round_start":
        args = {"round": event["round"], "count": event["hand_size"], "space": _space(event["position"])}
        if event["first_replacer"] is None:
            return (
                _("Round %(round)s on %(space)s: %(count)s cards each; both choose their replacements at once.") % args
            )
        args["name"] = names[event["first_replacer"]]
        return _("Round %(round)s on %(space)s: %(count)s cards each; %(name)s replaces first.") % args
    if kind == "replace":
        return _replace(event, name)
    if kind == "commit":
        if event["step"] == "duel":
            return _("%(name)s has chosen a duel card.") % {"name": name}
        return _("%(name)s has chosen which cards to replace.") % {"name": name}
    if kind == "reveal":
        return _reveal(event, names)
    if kind == "attack":
        args = {"name": name, "cards": _cards(event["cards"])}
        if event["kind"] == "set":
            return _("%(name)s makes a jumbo attack with a set: %(cards)s.") % args
        if event["kind"] == "sequence":
            return _("%(name)s makes a jumbo attack with a sequence: %(cards)s.") % args
        return _("%(name)s attacks with %(cards)s.") % args
    if kind == "defend":
        return _("%(name)s defends %(attack)s with %(card)s.") % {
            "name": name, "attack": digits(event["attack"]), "card": digits(event["card"]),
        }  # fmt: skip
    if kind == "sacrifice":
        return _("%(name)s sacrifices %(card)s against %(attack)s.") % {
            "name": name, "attack": digits(event["attack"]), "card": digits(event["card"]),
        }  # fmt: skip
    if kind == "exchange":
        if event["defended"]:
            return _("%(name)s wins the exchange and attacks next.") % {"name": name}
        return _("%(name)s keeps the attack.") % {"name": name}
    if kind == "showdown":
        return _showdown(event, names)
    if kind == "cat_move":
        args = {"name": name, "from": _space(event["from"]), "to": _space(event["to"])}
        if event["skipped"]:
            return _("The cat runs from %(from)s to %(to)s for %(name)s, skipping covered spaces.") % args
        return _("The cat runs from %(from)s to %(to)s for %(name)s.") % args
    if kind == "tile":
        return _("A tile now covers %(space)s.") % {"space": _space(event["position"])}
    if kind == "win":
        return _("%(name)s wins the game!") % {"name": name}
    return kind
