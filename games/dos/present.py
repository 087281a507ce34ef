"""Template-ready shapes of a DOS view (docs/games/dos.md, "View"): a pure function of the view.

Every card carries its colour as a word, a letter and a symbol as well as a colour, so nothing depends
on telling colours apart. Nothing here reads more than the view: the page must stay the same when
everything the viewer cannot know is shuffled.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.dos.cards import COLOURS, WILD_DOS, WILD_VALUES, is_wild
from games.dos.moves import match_options
from games.support.i18n import digits

#: A shape per colour, so a colour is never told by hue alone.
SYMBOLS = {"R": "▲", "G": "■", "B": "●", "Y": "★", "W": "✦"}
# Seat actions that show a player has taken part in the new round (for the round summary).
_OWN_ACTIONS = frozenset({"match", "draw", "no_draw", "place", "bonus", "skip_bonus"})


def declaration_field(code: str) -> str:
    """The form field of the declaration for a wild card of ``code`` played from hand."""
    return f"declare_{code}"


def target_declaration_field(position: int) -> str:
    """The form field of the declaration for a wild Center Row card at ``position``."""
    return f"target_declare_{position}"


def colour_name(letter: str) -> str:
    return {
        "R": pgettext("DOS colour", "red"),
        "G": pgettext("DOS colour", "green"),
        "B": pgettext("DOS colour", "blue"),
        "Y": pgettext("DOS colour", "yellow"),
    }.get(letter, letter)


def card(code: str, declared: Any = None) -> dict[str, Any]:
    """One card as the templates draw it: ``letter`` + ``symbol`` + ``face``, ``name`` for reading aloud."""
    if code == WILD_DOS:
        letter, face = "W", "2"
        name = _("Wild DOS (counts %(value)s, any colour)") % {"value": digits(2)}
        short = _("Wild DOS")
    elif code.endswith("#"):
        letter, face = code[0], "#"
        name = _("%(colour)s Wild # (any value %(low)s to %(high)s)") % {
            "colour": colour_name(letter), "low": digits(1), "high": digits(10),
        }  # fmt: skip
        short = _("%(colour)s Wild #") % {"colour": colour_name(letter)}
    else:
        letter, face = code[0], code[1:]
        name = _("%(colour)s %(value)s") % {"colour": colour_name(letter), "value": digits(face)}
        short = name
    shown = ""
    if declared is not None:
        if isinstance(declared, str):
            shown = _("as %(colour)s") % {"colour": colour_name(declared)}
        else:
            shown = _("as %(value)s") % {"value": digits(declared)}
        name = _("%(card)s %(declared)s") % {"card": short, "declared": shown}
    return {
        "code": code,
        "letter": letter,
        "symbol": SYMBOLS[letter],
        # The value drawn on the card is read as a number: the reader's digits (the code stays ASCII).
        "face": digits(face),
        "colour": colour_name(letter) if letter != "W" else _("wild"),
        "wild": is_wild(code),
        "name": name,
        "short": short,
        "declared": shown,
        "declared_letter": declared if isinstance(declared, str) else "",
        "declared_symbol": SYMBOLS.get(declared, "") if isinstance(declared, str) else "",
    }


def present(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    phase = view["phase"]
    hand: list[str] = view["hand"] or []
    mine = seat is not None and view["current"] == seat and not view["over"]
    playable, targets = _possible_matches(view) if mine else (set(), set())
    drawn = view["drawn_card"]
    hand_cards = []
    marked_drawn = False
    for index, code in enumerate(hand):
        entry = card(code)
        entry["id"] = f"dos-card-{index}"
        entry["playable"] = code in playable
        entry["value"] = "#" if code.endswith("#") else ("2" if code == WILD_DOS else code[1:])
        # Mark one copy of the drawn code (the copies are interchangeable).
        entry["drawn"] = bool(drawn) and code == drawn and not marked_drawn
        marked_drawn = marked_drawn or entry["drawn"]
        hand_cards.append(entry)
    row = []
    for position, cr in enumerate(view["center_row"]):
        entry = card(cr["card"], cr["declared"])
        entry.update(
            position=position,
            id=f"dos-target-{position}",
            played=[card(p["card"], p["declared"]) for p in cr["played"]],
            matched=cr["matched"],
            kind=_kind_label(cr["kind"]),
            new=cr["new"],
            open=not cr["matched"] and not cr["new"],
            playable=position in targets,
            declare_field=target_declaration_field(position) if is_wild(cr["card"]) else "",
            declare_choices=_choices(cr["card"]) if is_wild(cr["card"]) else [],
        )
        row.append(entry)
    return {
        "hand": hand_cards,
        "center_row": row,
        "any_new": any(cr["new"] for cr in view["center_row"]),
        "declarations": _declarations(hand) if phase in ("match", "after_draw") else [],
        "players": [
            {
                "seat": s,
                "cards": view["hand_counts"][s],
                "score": view["scores"][s],
                "dealer": s == view["dealer"],
                "current": s == view["current"],
                "you": s == seat,
            }
            for s in range(view["players"])
        ],
        "mine": mine,
        "phase": phase,
        "can_match": mine and phase in ("match", "after_draw") and not (phase == "after_draw" and drawn is None),
        "can_draw": mine and phase == "match" and not view["matches_this_turn"] and not view["drawn_this_turn"],
        "can_finish": mine and phase == "match" and view["matches_this_turn"] > 0,
        "can_place": mine and phase == "after_draw",
        "can_bonus": mine and phase == "bonus",
        "can_undo": mine and view["undo_steps"] > 0,
        "no_match": mine and phase in ("match", "after_draw") and not playable and not view["matches_this_turn"],
        "drawn": card(drawn) if drawn else None,
        "discard_top": card(view["discard_top"]) if view["discard_top"] else None,
        "rounds": _rounds(view),
        "match_map": json.dumps(match_map(view)) if mine else "{}",
        "summary": _summary(view, seat),
    }


def _possible_matches(view: dict[str, Any]) -> tuple[set[str], set[int]]:
    """Codes of the viewer's hand that can take part in a match now, and the positions they can match.

    Only the viewer's own hand and the public row are used. After a draw a match must use the drawn card.
    """
    playable: set[str] = set()
    targets: set[int] = set()
    for combo, positions in match_map(view).items():
        playable.update(combo.split("+"))
        targets.update(positions)
    return playable, targets


def _combo_targets(combos: list[tuple[str, ...]], open_row: list[tuple[int, str]]) -> dict[tuple[str, ...], list[int]]:
    """For each combination of hand cards that can match something, the Center Row positions it can match."""
    found: dict[tuple[str, ...], list[int]] = {}
    for combo in combos:  # hand order is card order, as match_options wants
        positions = [position for position, target in open_row if match_options(target, combo)]
        if positions:
            found[combo] = positions
    return found


def match_map(view: dict[str, Any]) -> dict[str, list[int]]:
    """What the page shows as cards are ticked: "B4+B5" -> the Center Row positions that pair can match.

    Built from the viewer's own hand and the public row only, like ``_possible_matches``.
    """
    phase = view["phase"]
    if phase not in ("match", "after_draw") or (phase == "after_draw" and view["matches_this_turn"]):
        return {}
    drawn = view["drawn_card"]
    if phase == "after_draw" and drawn is None:
        return {}
    counts = Counter(view["hand"] or [])
    codes = list(counts)
    open_row = [
        (position, cr["card"]) for position, cr in enumerate(view["center_row"]) if not cr["matched"] and not cr["new"]
    ]
    combos: list[tuple[str, ...]] = [(code,) for code in codes]
    combos += [pair for pair in combinations_with_replacement(codes, 2) if pair[0] != pair[1] or counts[pair[0]] > 1]
    if phase == "after_draw":
        combos = [combo for combo in combos if drawn in combo]
    return {"+".join(combo): positions for combo, positions in _combo_targets(combos, open_row).items()}


def _choices(code: str) -> list[dict[str, str]]:
    """The options of a declaration select for a wild card."""
    if code == WILD_DOS:
        return [{"value": letter, "label": f"{colour_name(letter)} {SYMBOLS[letter]}"} for letter in COLOURS]
    return [{"value": str(value), "label": digits(value)} for value in WILD_VALUES]


def _declarations(hand: list[str]) -> list[dict[str, Any]]:
    """One select per copy (up to two, as a match uses at most two cards) of each wild code held."""
    counts = Counter(hand)
    selects = []
    for code in counts:
        if not is_wild(code):
            continue
        for copy in range(1, min(counts[code], 2) + 1):
            face = card(code)
            if code == WILD_DOS:
                label = _("Colour of your Wild DOS") if copy == 1 else _("Colour of your second Wild DOS")
            elif copy == 1:
                label = _("Value of your %(card)s") % {"card": face["short"]}
            else:
                label = _("Value of your second %(card)s") % {"card": face["short"]}
            selects.append(
                {
                    "code": code,
                    "copy": copy,
                    "id": f"dos-declare-{face['letter']}{'w' if code == WILD_DOS else 'n'}-{copy}",
                    "field": declaration_field(code),
                    "label": label,
                    "choices": _choices(code),
                }
            )
    return selects


def _kind_label(kind: str | None) -> str:
    return {
        "single": _("single match"),
        "single_colour": _("single colour match"),
        "double": _("double match"),
        "double_colour": _("double colour match"),
    }.get(kind or "", "")


def _rounds(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "round": record["round"],
            "winner": record["winner"],
            "cells": [
                {"winner": s == record["winner"], "points": record["points"], "left": value}
                for s, value in enumerate(record["hand_values"])
            ],
        }
        for record in view["round_scores"]
    ]


def _summary(view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The latest finished round, hands revealed; ``open`` until the viewer acts in the next round.

    A spectator's summary stays open until anyone acts in the new round. Once the round's end has left
    the event window the summary is shown closed.
    """
    last = view["last_round"]
    if last is None:
        return None
    events = view["events"]
    ended = [i for i, e in enumerate(events) if e["type"] == "round_end" and e["round"] == last["round"]]
    fresh = False
    if ended:
        later = events[ended[-1] + 1 :]
        fresh = not any(e["type"] in _OWN_ACTIONS and (seat is None or e.get("seat") == seat) for e in later)
    return {
        "round": last["round"],
        "winner": last["winner"],
        "points": last["points"],
        "open": fresh or view["over"],
        "hands": [
            {
                "seat": s,
                "cards": [card(code) for code in hand["cards"]],
                "value": hand["value"],
                "out": s == last["winner"],
            }
            for s, hand in enumerate(last["hands"])
        ],
    }


def standing(view: dict[str, Any]) -> list[int]:
    """The game totals as they stand: what a game that ended early ended at."""
    return list(view["scores"])
