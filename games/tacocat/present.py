"""Template-ready shapes of a Tacocat view (docs/games/tacocat.md, "View"): a pure function of the view.

Nothing here reads more than the view, so the page stays byte-identical when everything the viewer
cannot know is shuffled. The choices offered are computed from the viewer's own hand with the engine's
own combinatorics (``games.tacocat.moves``), so the page offers exactly what ``legal_actions`` allows:
every card of a duel, the jumbo attacks, and per attack card the cards that can answer it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _

from games.tacocat.cards import LETTERS
from games.tacocat.moves import attack_kind, defence_options, legal_attacks
from games.tacocat.text import goal_name

#: The arrow of a space points at the player who replaces first: seat 0 plays from the left (WOW).
ARROW_GLYPHS = {0: "←", 1: "→", None: "↔"}
SACRIFICE = "sacrifice"
#: Modes in which the viewer fills in a form.
FORM_MODES = frozenset({"replace_both", "replace_first", "replace_second", "duel", "attack", "defend"})


def seat_label(seat: int) -> str:
    return _("goal %(label)s") % {"label": goal_name(seat)}


def position_text(position: int) -> str:
    """-3..+3 as the rules and the event sentences write them: "-1", "0", "+2"."""
    return f"{position:+d}" if position else "0"


def space_name(position: int) -> str:
    """A space or goal in words, as the event sentences name it: "O (0)", "the WOW goal"."""
    if position in (-4, 4):
        return _("the %(label)s goal") % {"label": goal_name(0 if position < 0 else 1)}
    return _("%(letter)s (%(position)s)") % {"letter": LETTERS[position + 3], "position": position_text(position)}


def _values(codes: list[str]) -> tuple[int, ...]:
    return tuple(sorted(int(c) for c in codes))


def _codes(values: tuple[int, ...] | list[int]) -> list[str]:
    return [str(v) for v in values]


def attack_label(cards: list[str]) -> str:
    """How an attack reads: "7", "7 + 7" (a set) or "4-5-6" (a sequence)."""
    kind = attack_kind(_values(cards))
    return "-".join(cards) if kind == "sequence" else " + ".join(cards)


def kind_text(kind: str | None) -> str:
    return {
        "single": _("a single card"),
        "set": _("a jumbo attack: a set"),
        "sequence": _("a jumbo attack: a sequence"),
    }.get(kind or "", "")


def _track(view: dict[str, Any]) -> list[dict[str, Any]]:
    cat = view["cat"]
    cells: list[dict[str, Any]] = [
        {"kind": "goal", "seat": 0, "label": goal_name(0), "position": -4, "cat": cat == -4,
         "yours": view["your_goal"] == -4},
    ]  # fmt: skip
    for space in view["track"]:
        cells.append(
            {
                "kind": "space",
                "letter": space["letter"],
                "position": space["position"],
                "position_text": position_text(space["position"]),
                "hand_size": space["hand_size"],
                "favours": space["favours"],
                "arrow": ARROW_GLYPHS[space["favours"]],
                "covered": space["covered"],
                "cat": space["cat"],
            }
        )
    cells.append(
        {"kind": "goal", "seat": 1, "label": goal_name(1), "position": 4, "cat": cat == 4,
         "yours": view["your_goal"] == 4}
    )  # fmt: skip
    return cells


def _mode(view: dict[str, Any], seat: int | None, simultaneous: bool) -> str:
    """What the viewer does now: a form to fill, a commit to wait on, or just watching."""
    if view["over"]:
        return "over"
    if seat is None:
        return "watching"
    if seat in view["to_act"]:
        phase = view["phase"]
        if phase == "replace":
            if simultaneous:
                return "replace_both"
            return "replace_first" if view["first_replacer"] == seat else "replace_second"
        return phase  # duel, attack, defend
    if simultaneous and view["committed"][seat]:
        return "committed"
    return "waiting"


def _jumbo_attacks(hand: tuple[int, ...]) -> list[dict[str, str]]:
    out = []
    for cards in legal_attacks(hand):
        if len(cards) >= 2:
            codes = _codes(cards)
            out.append({"value": " ".join(codes), "label": attack_label(codes), "kind": attack_kind(cards) or ""})
    return out


def _defence(hand: tuple[int, ...], attack: tuple[int, ...]) -> dict[str, Any]:
    """The answers to offer: one button per outcome for a single card, one select per card of a jumbo."""
    options = defence_options(hand, attack)
    if len(attack) == 1:
        buttons = []
        for answers, won in sorted(options, key=lambda option: (not option[1], int(option[0][0]))):
            card = str(answers[0])
            label = _("Defend with %(card)s") % {"card": card} if won else _("Sacrifice %(card)s") % {"card": card}
            buttons.append({"value": card, "won": won, "label": label})
        return {"single": True, "buttons": buttons, "slots": []}
    # The cheapest full defence, if there is one, is preselected; otherwise every slot sacrifices.
    won = [answers for answers, w in options if w]
    default = _codes(won[0]) if won else [SACRIFICE] * len(attack)
    lowest = hand[0]
    slots = []
    for i, a in enumerate(attack):
        choices = [
            {"value": str(v), "label": _("Defend with %(card)s") % {"card": v}} for v in sorted(set(hand)) if v >= a
        ]
        if lowest < a:
            choices.append({"value": SACRIFICE, "label": _("Sacrifice your lowest card")})
        if default[i] not in {c["value"] for c in choices}:
            # Nothing to sacrifice against a card the lowest one beats: the lowest defence, as a browser would.
            default[i] = choices[0]["value"]
        slots.append({"index": i, "card": str(a), "field": f"answer_{i}", "id": f"taco-answer-{i}",
                      "choices": choices, "default": default[i]})  # fmt: skip
    return {"single": False, "buttons": [], "slots": slots, "can_win": bool(won)}


def _unseen(view: dict[str, Any]) -> list[dict[str, int]]:
    """The cards the viewer has not seen: the deck minus own hand, the discard pile and an attack."""
    pool = Counter({int(v): n for v, n in view["distribution"].items()})
    seen = [*(view["hand"] or []), *view["discard"], *((view["attack"] or {}).get("cards", []))]
    pool.subtract(int(c) for c in seen)
    return [{"value": v, "count": pool[v]} for v in sorted(pool) if pool[v] > 0]


def _last_round(view: dict[str, Any]) -> dict[str, Any] | None:
    last = view["last_round"]
    if last is None:
        return None
    return {
        **last,
        "from_text": space_name(last["from"]),
        "to_text": space_name(last["to"]),
        "tile_text": space_name(last["tile"]) if last["tile"] is not None else "",
        "moved": last["winner"] is not None,
        "goal": last["to"] in (-4, 4),
        # The result of the round just played is news until the new round's duel begins.
        "fresh": view["phase"] in ("replace", "over"),
    }


def present(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    phase = view["phase"]
    simultaneous = phase == "duel" or (phase == "replace" and view["first_replacer"] is None)
    mode = _mode(view, seat, simultaneous)
    hand = _values(view["hand"]) if view["hand"] is not None else ()
    other = None if seat is None else 1 - seat
    attack = view["attack"]
    board: dict[str, Any] = {
        "mode": mode,
        "form": mode in FORM_MODES,
        "phase": phase,
        "simultaneous": simultaneous,
        "other": other,
        "track": _track(view),
        "hand": [{"code": str(v), "id": f"taco-card-{i}"} for i, v in enumerate(hand)],
        "hand_codes": " ".join(_codes(hand)),
        "other_count": view["hand_counts"][other] if other is not None else None,
        "players": [
            {
                "seat": s,
                "you": s == seat,
                "cards": view["hand_counts"][s],
                "backs": range(view["hand_counts"][s]),
                "goal": goal_name(s),
                "replaced": view["replaced"][s],
                "committed": view["committed"][s],
                "to_act": s in view["to_act"],
            }
            for s in (0, 1)
        ],
        "your_commit": view["your_commit"],
        "other_committed": bool(other is not None and view["committed"][other]),
        # The move form keeps what the player ticked when the other's choice is pushed meanwhile.
        "preserve_form": bool(simultaneous and other is not None and view["committed"][other]),
        "attack": None,
        "revealed": view["revealed"],
        "discard": view["discard"],
        "unseen": _unseen(view),
        "last_round": _last_round(view),
        "max_replace": len(hand),
        "jumbo_attacks": [],
        "defence": None,
        "duel_cards": sorted(set(hand)),
    }
    if attack is not None:
        board["attack"] = {**attack, "label": attack_label(attack["cards"]), "kind_text": kind_text(attack["kind"])}
    if mode == "replace_second":
        board["max_replace"] = view["replacement_cap"] or 0
    elif mode == "attack":
        board["jumbo_attacks"] = _jumbo_attacks(hand)
    elif mode == "defend":
        board["defence"] = _defence(hand, _values(attack["cards"]))
    return board


def standing(view: dict[str, Any]) -> None:
    """Tacocat keeps no running score (the cat's place is on the board): nothing to show."""
    return None
