"""Template-ready shapes of a Back Alley view (docs/games/backalley.md, "View").

A pure function of one seat's view: it sees what the template sees and nothing else, so the page can
never show more than the view holds. Every player-facing string goes through gettext here, including
the reasons a card may not be played (the engine's ``unplayable`` map is English; the same sentences
are rebuilt here from the public table so they can be translated, and a test checks they agree).

The table is drawn from the viewer's chair: the viewer at the bottom, the next seat clockwise (the
player on their left, BA-2) on the left, the partner opposite at the top, the other opponent on the
right. A spectator sees seat 0 at the bottom.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.backalley.cards import SUITS, parse, winning_index
from games.backalley.moves import bid_options
from games.backalley.text import bid_label, card_label, suit_name
from games.support.i18n import digits

SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED = frozenset("HD")
# Where a seat sits, by its offset clockwise from the viewer.
POSITIONS = ("bottom", "left", "top", "right")
JOKERS = ("BB", "LB")


def seat_label(seat: int) -> str:
    """Team A is seats 0 and 2, team B seats 1 and 3 (BA-2)."""
    return _("Team A") if seat % 2 == 0 else _("Team B")


def team_name(team: int) -> str:
    return _("Team A") if team == 0 else _("Team B")


def rank_name(rank: str) -> str:
    names = {
        "A": _("ace"),
        "K": _("king"),
        "Q": _("queen"),
        "J": _("jack"),
        "10": _("ten"),
        "9": _("nine"),
        "8": _("eight"),
        "7": _("seven"),
        "6": _("six"),
        "5": _("five"),
        "4": _("four"),
        "3": _("three"),
        "2": _("two"),
    }
    return names.get(rank, rank)


def joker_short(code: str) -> str:
    """What a joker's face prints: BB and LB in English, the first word of its name in the other
    languages (docs/i18n.md, "Cards, goals and numbers")."""
    if code == "BB":
        return pgettext("Back Alley joker, printed on the card", "BB")
    return pgettext("Back Alley joker, printed on the card", "LB")


def card(code: str) -> dict[str, Any]:
    """A card for the template: ``short`` is what is printed ("Q♥"), ``name`` what is said ("queen of
    hearts"); ``colour`` only picks a colour, the symbol and the name carry the suit."""
    if code in JOKERS:
        return {
            "code": code,
            "rank": joker_short(code),
            "symbol": "\u2605",
            "short": joker_short(code),
            "name": _("Big Blooper") if code == "BB" else _("Little Blooper"),
            "colour": "joker",
        }
    rank, suit = code[:-1], code[-1]
    return {
        "code": code,
        # What is printed reads in the reader's digits; the code stays the card's ASCII name.
        "rank": digits(rank),
        "symbol": SYMBOLS[suit],
        "short": digits(rank) + SYMBOLS[suit],
        "name": _("%(rank)s of %(suit)s") % {"rank": rank_name(rank), "suit": suit_name(suit)},
        "colour": "red" if suit in RED else "black",
    }


def _is_trump(code: str, trump: str | None) -> bool:
    return trump is not None and (code in JOKERS or code[-1] == trump)


def unplayable_reason(view: dict[str, Any], playable: list[str]) -> str:
    """Why the viewer's other cards may not be played now (BA-13..BA-15), as the engine says it, but
    translatable. ``playable`` are the viewer's legal cards (one card after a Blooper lead)."""
    trick = view["trick"]
    trump = view["trump"]
    if not trick:
        return _("Trump may not be led yet: no trump has been played in an earlier trick of this deal.")
    led = trick[0]["card"]
    if trump is not None and led == "BB":
        return _("Big Blooper was led: you must play your highest trump, %(card)s.") % {"card": card_label(playable[0])}
    if trump is not None and led == "LB":
        return _("Little Blooper was led: you must play your lowest trump, %(card)s.") % {
            "card": card_label(playable[0])
        }
    if _is_trump(led, trump):
        return _("A trump was led: you must play a trump.")
    return _("You must follow suit: %(suit)s were led.") % {"suit": suit_name(led[-1])}


def contract_text(contract: dict[str, int] | None) -> dict[str, str] | None:
    """``short`` for the score sheet ("7"; "B", "B\u00d72" for board, double board) and ``long`` to read
    ("7 tricks", "double board")."""
    if contract is None:
        return None
    level = contract["board"]
    if level:
        long = bid_label(("board", "double_board", "triple_board", "quadruple_board")[level - 1])
        short = pgettext("abbreviation of a board contract on the score sheet", "B")
        return {"short": short if level == 1 else f"{short}\u00d7{digits(level)}", "long": long}
    n = contract["tricks"]
    return {"short": digits(n), "long": ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": digits(n)}}


def _bid(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    return {"value": value, "label": bid_label(value), "board": isinstance(value, str) and value.endswith("board")}


def _bid_choices(view: dict[str, Any]) -> list[dict[str, Any]]:
    cards = view["cards_per_hand"]
    level = view["next_board_level"] or 1
    board = ("board", "double_board", "triple_board", "quadruple_board")[min(level, 4) - 1]
    choices = []
    for option in bid_options(cards):
        if option == "pass":
            choices.append({"value": "pass", "label": _("Pass"), "aria": _("Pass (no tricks)"), "kind": "pass"})
        elif option == "board":
            label = bid_label(board)
            choices.append(
                {
                    "value": "board",
                    "label": label[:1].upper() + label[1:],
                    "aria": ngettext("Bid %(board)s: all %(n)s trick", "Bid %(board)s: all %(n)s tricks", cards)
                    % {"board": label, "n": digits(cards)},
                    "kind": "board",
                }
            )
        else:
            choices.append(
                {
                    "value": option,
                    "label": digits(option),
                    "aria": ngettext("Bid %(n)s trick", "Bid %(n)s tricks", option) % {"n": digits(option)},
                    "kind": "number",
                }
            )
    return choices


def _hand(view: dict[str, Any], my_play: bool) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The viewer's hand in groups (trumps first, then each suit, as the view orders it), and the
    distinct reasons its unplayable cards are refused (each card points at its reason's id)."""
    hand: list[str] = view["hand"] or []
    trump = view["trump"]
    unplayable: dict[str, str] = view["unplayable"] if my_play else {}
    playable = [c for c in hand if c not in unplayable]
    reasons: list[dict[str, str]] = []
    reason_id = ""
    if unplayable:
        reason_id = "ba-why"
        reasons.append({"id": reason_id, "text": unplayable_reason(view, playable)})
    groups: list[dict[str, Any]] = []
    for code in hand:
        if trump is not None and _is_trump(code, trump):
            key, label = "trump", _("Trumps (%(suit)s)") % {"suit": suit_name(trump)}
        elif code in JOKERS:  # cannot happen (no joker is in play without trump, BA-7); still shown
            key, label = "jokers", _("Jokers")
        else:
            key, label = code[-1], suit_name(code[-1])
        if not groups or groups[-1]["key"] != key:
            groups.append(
                {
                    "key": key,
                    "label": label[:1].upper() + label[1:],
                    "trump": key == "trump",
                    "cards": [],
                }
            )
        entry = card(code)
        entry["playable"] = my_play and code not in unplayable
        entry["reason_id"] = reason_id if code in unplayable else ""
        entry["reason"] = reasons[0]["text"] if code in unplayable else ""
        entry["trump"] = key == "trump"
        groups[-1]["cards"].append(entry)
    return groups, reasons


def _trick(cards: list[dict[str, Any]], viewer: int, trump: str | None) -> list[dict[str, Any]]:
    out = []
    """The cards of a trick in play order, each placed at its player's side of the table; ``winning``
    marks the card that holds the trick so far (BA-16)."""
    best = -1
    if cards:
        best = winning_index([parse(c["card"]) for c in cards], SUITS.index(trump) if trump else None)
    for i, played in enumerate(cards):
        out.append(
            {
                "seat": played["seat"],
                "pos": POSITIONS[(played["seat"] - viewer) % 4],
                "card": card(played["card"]),
                "lead": i == 0,
                "winning": i == best,
            }
        )
    return out


def present(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    viewer = seat if seat is not None else 0
    phase = view["phase"]
    current = view["current"]
    trump = view["trump"]
    my_bid = seat is not None and phase == "bid" and current == seat
    my_play = seat is not None and phase == "play" and current == seat
    groups, reasons = _hand(view, my_play)
    trick = _trick(view["trick"], viewer, trump)

    relations = {0: _("you"), 1: _("opponent"), 2: _("partner"), 3: _("opponent")}
    seats = []
    for offset in range(4):  # clockwise from the viewer's chair
        s = (viewer + offset) % 4
        seats.append(
            {
                "seat": s,
                "pos": POSITIONS[offset],
                "relation": relations[offset] if seat is not None else "",
                "team": s % 2,
                "team_name": team_name(s % 2),
                "bid": _bid(view["bids"][s]),
                "tricks": view["tricks"]["seats"][s],
                "count": view["hand_counts"][s],
                "dealer": s == view["dealer"],
                "to_act": s == current,
            }
        )

    teams = []
    for t in (0, 1):
        teams.append(
            {
                "team": t,
                "name": team_name(t),
                "seats": [t, t + 2],
                "mine": seat is not None and seat % 2 == t,
                "contract": contract_text(view["contracts"][t]),
                "tricks": view["tricks"]["teams"][t],
                "total": view["totals"][t],
            }
        )

    last = view["last_trick"]
    last_trick = None
    if last is not None:
        last_trick = {"cards": _trick(last["cards"], viewer, None), "winner": last["winner"]}
        for entry in last_trick["cards"]:
            entry["winning"] = entry["seat"] == last["winner"]

    rows = []
    for row in view["score_sheet"]:
        rows.append(
            {
                "deal": row["deal"],
                "cards": row["cards"],
                "dealer": row["dealer"],
                "trump": None
                if row["trump"] is None
                else {"symbol": SYMBOLS[row["trump"]], "name": suit_name(row["trump"])},
                "teams": [
                    {
                        "contract": contract_text(row["contracts"][t]),
                        "bids": " + ".join(bid_label(row["bids"][s]) for s in (t, t + 2)),
                        "tricks": row["tricks"][t],
                        "points": f"{row['points'][t]:+d}",
                        "made": row["made"][t],
                        "total": row["totals"][t],
                    }
                    for t in (0, 1)
                ],
            }
        )

    swap = view["swap"]
    return {
        "viewer": viewer,
        "spectator": seat is None,
        "phase": phase,
        "my_bid": my_bid,
        "my_play": my_play,
        "trump": None
        if trump is None
        else {
            "letter": trump,
            "symbol": SYMBOLS[trump],
            "name": suit_name(trump),
            "colour": "red" if trump in RED else "black",
        },
        "upcard": card(view["upcard"]),
        "swap": None
        if swap is None
        else {"seat": swap["seat"], "card": card(swap["card"]), "took": card(swap["took"]) if "took" in swap else None},
        "seats": seats,
        "trick": trick,
        "teams": teams,
        "hand": groups,
        "hand_count": len(view["hand"] or []),
        "reasons": reasons,
        "bids": _bid_choices(view) if my_bid else [],
        "last_trick": last_trick,
        "score_rows": rows,
        "current": current,
        "i_lead": seat is not None and phase == "play" and view["leader"] == seat,
    }


def standing(view: dict[str, Any]) -> list[int]:
    """Each seat's team total as it stands: what a game that ended early ended at."""
    return [view["totals"][seat % 2] for seat in range(4)]
