"""Player-facing sentences for the events of a DOS view (see docs/games/dos.md, "Events")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.dos.present import card


def card_label(code: str, declared: Any = None) -> str:
    """A card named as the board names it, in the reader's words and digits: ``B5`` reads "blue 5",
    ``R#`` declared 7 "red Wild # as 7", ``W2`` declared blue "Wild DOS as blue" (never the code)."""
    shown = card(code, declared)
    return shown["name"] if declared is not None else shown["short"]


def _cards(codes: list[str]) -> str:
    return ", ".join(card_label(code) for code in codes)


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    kind = event.get("type")
    seat = event.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    if kind == "deal":
        return _("Round %(round)s: %(dealer)s dealt; the Center Row shows %(cards)s.") % {
            "round": event["round"],
            "dealer": names[event["dealer"]],
            "cards": _cards(event["center"]),
        }
    if kind == "match":
        return _describe_match(event, name)
    if kind == "draw":
        if "card" in event:
            return _("%(name)s drew %(card)s.") % {"name": name, "card": card_label(event["card"])}
        return _("%(name)s drew a card.") % {"name": name}
    if kind == "no_draw":
        return _("%(name)s could not draw: the draw and discard piles are empty.") % {"name": name}
    if kind == "place":
        return _("%(name)s made no match after drawing and put %(card)s in the Center Row.") % {
            "name": name,
            "card": card_label(event["card"]),
        }
    if kind == "bonus":
        return _("%(name)s put %(card)s in the Center Row as a colour-match bonus.") % {
            "name": name,
            "card": card_label(event["card"]),
        }
    if kind == "skip_bonus":
        return ngettext(
            "%(name)s skipped %(count)s bonus placement.",
            "%(name)s skipped %(count)s bonus placements.",
            event["count"],
        ) % {"name": name, "count": event["count"]}
    if kind == "undo":
        if event["step"] == "bonus":
            return _("%(name)s took back the bonus card %(cards)s.") % {"name": name, "cards": _cards(event["cards"])}
        return _("%(name)s took back the match of %(cards)s.") % {"name": name, "cards": _cards(event["cards"])}
    if kind == "refill":
        return _("The Center Row was refilled with %(cards)s.") % {"cards": _cards(event["cards"])}
    if kind == "reshuffle":
        return _("The discard pile (%(count)s cards) was shuffled into a new draw pile.") % {"count": event["count"]}
    if kind == "penalty_draw":
        return _describe_penalty(event, name, names[event["by"]])
    if kind == "round_end":
        return _("%(name)s went out and scored %(points)s points in round %(round)s.") % {
            "name": names[event["winner"]],
            "points": event["points"],
            "round": event["round"],
        }
    if kind == "game_end":
        return _("%(name)s reached %(score)s points and won the game.") % {
            "name": names[event["winner"]],
            "score": event["scores"][event["winner"]],
        }
    return str(kind)


def _describe_match(event: dict[str, Any], name: str) -> str:
    played = " + ".join(
        card_label(card, declared) for card, declared in zip(event["cards"], event["declared"], strict=True)
    )
    values = {"name": name, "cards": played, "target": card_label(event["target"], event["target_declared"])}
    kind = event["kind"]
    if kind == "single_colour":
        return _("%(name)s matched %(cards)s on %(target)s: colour match, one bonus card.") % values
    if kind == "double_colour":
        return _("%(name)s matched %(cards)s on %(target)s: double colour match, everyone else draws 1.") % values
    return _("%(name)s matched %(cards)s on %(target)s.") % values


def _describe_penalty(event: dict[str, Any], name: str, by: str) -> str:
    values = {"name": name, "by": by, "count": event["count"], "owed": event["owed"]}
    if event["count"] < event["owed"]:
        return (
            ngettext(
                "%(name)s owed %(owed)s penalty card but could draw only %(count)s: the piles are empty.",
                "%(name)s owed %(owed)s penalty cards but could draw only %(count)s: the piles are empty.",
                event["owed"],
            )
            % values
        )
    if "cards" in event:
        values["cards"] = _cards(event["cards"])
        return (
            ngettext(
                "%(name)s drew %(count)s penalty card for %(by)s's double colour match: %(cards)s.",
                "%(name)s drew %(count)s penalty cards for %(by)s's double colour matches: %(cards)s.",
                event["count"],
            )
            % values
        )
    return (
        ngettext(
            "%(name)s drew %(count)s penalty card for %(by)s's double colour match.",
            "%(name)s drew %(count)s penalty cards for %(by)s's double colour matches.",
            event["count"],
        )
        % values
    )
