"""Rebuilding a match's past states from its seed and its action log."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games import registry
from games.engine import Revealing
from games.models import Match, Seat
from games.read import pages
from games.record.takeback import replay
from games.support.i18n import readable


def replay_states(match: Match, upto: int | None = None) -> list[Any]:
    """Every state of the match in order (the start, then one per action), up to ``upto`` actions."""
    engine = registry.get(match.game).engine
    actions = match.moves.order_by("seq").values_list("seat", "payload")
    if upto is not None:
        actions = actions[:upto]
    # A takeback entry (games.record.takeback) stands for the earlier state it returns to.
    return replay(engine, match.player_count, match.seed, match.options, list(actions))


def replays_to_stored_state(match: Match) -> bool:
    """True if replaying the log from the seed reproduces the stored state exactly."""
    engine = registry.get(match.game).engine
    return engine.dump(replay_states(match)[-1]) == match.state


def _appended(before: list[Any], after: list[Any]) -> list[Any]:
    """The events one action added: views keep only the latest events (a sliding window), so the new
    ones are what follows the longest end of ``before`` that ``after`` starts with."""
    for shift in range(len(before) + 1):
        kept = before[shift:]
        if after[: len(kept)] == kept:
            return after[len(kept) :]
    return after


def whole_log(match: Match, seats: list[Seat], user: Any) -> list[dict[str, Any]]:
    """Every move of the match by its real number, each with what it made happen, as ``user`` saw it
    (their own seat's view, else a spectator's): replayed from the seed, as the replay page does."""
    spec = registry.get(match.game)
    mine = pages.viewer_seat(seats, user)
    seat_no = mine.number if mine else None
    names = [s.display_name() for s in seats]
    state = spec.engine.new_game(match.player_count, match.seed, match.options)
    before = spec.engine.view(state, seat_no).get("events", [])
    rows = []
    for number, (seat, payload) in enumerate(match.moves.order_by("seq").values_list("seat", "payload"), 1):
        state = spec.engine.apply(state, seat, payload)
        after = spec.engine.view(state, seat_no).get("events", [])
        lines = [spec.describe_event(readable(event), names) for event in _appended(before, after)]
        rows.append({"number": number, "lines": lines})
        before = after
    return rows


def replay_context(match: Match, seats: list[Seat], user: Any, step: int | None) -> dict[str, Any] | None:
    spec = registry.get(match.game)
    total = match.moves.count()
    if step is None:
        step = total
    if not 0 <= step <= total:
        return None
    state = replay_states(match, upto=step)[-1]
    mine = pages.viewer_seat(seats, user)
    # A finished match shows each player their own seat; others see the spectator's view.
    view = spec.engine.view(state, mine.number if mine else None)
    names = [s.display_name() for s in seats]

    def url(n: int) -> str:
        return reverse("games:replay-step", args=[match.pk, n])

    return {
        "match": match,
        "game": spec,
        "seats": seats,
        "names": names,
        "seat_labels": [spec.seat_label(s.number) if spec.seat_label else "" for s in seats],
        "view": view,
        "seat": mine.number if mine else None,
        "my_seat": mine,
        "events": pages.describe_events(spec, view, names),
        "board": spec.present(view, mine.number if mine else None) if spec.present else {},
        "step": step,
        "total": total,
        "first_url": url(0),
        "prev_url": url(step - 1) if step > 0 else "",
        "next_url": url(step + 1) if step < total else "",
        "last_url": url(total),
        "can_act": False,
        "replaying": True,
        "outcome": pages.outcome_text(match, seats, mine),
        "face_up": _face_up(spec, state, names) if match.status == Match.Status.FINISHED else None,
    }


def _face_up(spec: registry.Game, state: Any, names: list[str]) -> dict[str, Any] | None:
    """Once a match is over nothing is secret: every hand and pile as it was at this step."""
    if not isinstance(spec.engine, Revealing):
        return None
    cards = spec.engine.reveal(state)
    pile_names = {
        "draw_pile": _("Draw pile"),
        "discard": _("Discard pile"),
        "stock": _("Stock"),
    }
    piles = []
    for pile in cards["piles"]:
        name = pile["pile"]
        if name.startswith("commit_"):
            label = _("Chosen by %(name)s, not yet shown") % {"name": names[int(name.split("_")[1])]}
        else:
            label = str(pile_names.get(name, name))
        piles.append({"name": label, "cards": [spec.card_label(c) for c in pile["cards"]]})
    return {
        "hands": [
            {"name": name, "cards": [spec.card_label(c) for c in hand]}
            for name, hand in zip(names, cards["hands"], strict=True)
        ],
        "piles": piles,
    }
