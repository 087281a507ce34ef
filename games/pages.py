"""What a page shows of a match, built from one seat's view; shared by views and consumers.

Fragments render without a request (a consumer has none), so nothing here reads the request.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from games import ending, registry
from games.models import Match, Seat


def viewer_seat(seats: list[Seat], user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk), None)


def can_watch(match: Match, seats: list[Seat], user: Any) -> bool:
    return match.is_public or viewer_seat(seats, user) is not None


def match_context(
    match: Match, user: Any, *, seats: list[Seat] | None = None, notice: str = "", notice_level: str = "info"
) -> dict[str, Any]:
    spec = registry.get(match.game)
    if seats is None:
        seats = list(match.seats.select_related("user"))
    mine = viewer_seat(seats, user)
    seat_no = mine.number if mine is not None else None
    names = [s.display_name() for s in seats]
    view = None
    if match.state is not None:
        view = spec.engine.view(spec.engine.load(match.state), seat_no)
    live = match.status == Match.Status.ACTIVE
    end = ending.describe(match, seats)
    can_act = bool(mine and mine.to_act and not mine.is_bot and live)
    others_late = [s for s in seats if mine and s.number != mine.number and s.timed_out and s.to_act]
    return {
        "match": match,
        "game": spec,
        "seats": seats,
        "names": names,
        "seat_labels": [spec.seat_label(s.number) if spec.seat_label else "" for s in seats],
        "my_seat": mine,
        "seat": seat_no,
        "view": view,
        "events": describe_events(spec, view, names),
        "board": spec.present(view, seat_no) if spec.present and view else {},
        "can_act": can_act,
        "waiting_on": [s for s in seats if s.to_act],
        "notice": notice,
        "notice_level": notice_level,
        "act_url": reverse("games:act", args=[match.pk]),
        "invite_url": settings.SITE_URL + reverse("games:invite", args=[match.invite_token]) if mine else "",
        "can_abort": bool(mine) and match.moves == 0 and match.status in (Match.Status.WAITING, Match.Status.ACTIVE),
        "outcome": outcome_text(match, seats, mine),
        "ending": end,
        "final_scores": list(zip(names, end.scores, strict=True)) if end and end.scores else [],
        "can_claim": bool(live and mine and not mine.is_bot and match.players == 2 and others_late),
        "can_reclaim": bool(live and mine and mine.substitute and not mine.resigned),
        "next_match_url": next_match_url(match, user) if mine and not can_act else "",
        "rematch": rematch_of(match) if match.status == Match.Status.FINISHED else None,
    }


def next_match_url(match: Match, user: Any) -> str:
    """The match that has waited longest on this player, other than this one."""
    seat = (
        Seat.objects.filter(user=user, to_act=True, is_bot=False, match__status=Match.Status.ACTIVE)
        .exclude(match=match)
        .order_by("waiting_since")
        .only("match_id")
        .first()
    )
    return reverse("games:match", args=[seat.match_id]) if seat else ""


def rematch_of(match: Match) -> Match | None:
    return Match.objects.filter(rematch_of=match).first()


CHAT_SHOWN = 50


def chat_context(match: Match, user: Any, seats: list[Seat] | None = None) -> dict[str, Any]:
    if seats is None:
        seats = list(match.seats.all())
    messages = list(match.chat.select_related("user").order_by("-created_at", "-pk")[:CHAT_SHOWN])
    messages.reverse()
    return {
        "match": match,
        "chat_messages": messages,
        "can_chat": viewer_seat(seats, user) is not None,
        "chat_url": reverse("games:chat", args=[match.pk]),
    }


def render_chat(match: Match, user: Any) -> str | None:
    seats = list(match.seats.all())
    if not can_watch(match, seats, user):
        return None
    return render_to_string("games/match.html#chat-log", chat_context(match, user, seats))


EVENTS_SHOWN = 10


def describe_events(spec: registry.Game, view: dict[str, Any] | None, names: list[str]) -> list[str]:
    """The latest events as sentences, oldest first (the view keeps more; a page shows the recent ones)."""
    if not view:
        return []
    return [spec.describe_event(event, names) for event in view.get("events", [])[-EVENTS_SHOWN:]]


def outcome_text(match: Match, seats: list[Seat], mine: Seat | None) -> str:
    from django.utils.translation import gettext as _

    if match.status != Match.Status.FINISHED or not match.result:
        return ""
    winners = [s.display_name() for s in seats if match.result["ranks"][s.number] == 1 and not s.resigned]
    if all(rank == 1 for rank in match.result["ranks"]):
        text = _("The match is a draw.")
    elif mine is not None and mine.outcome == Seat.Outcome.WIN:
        text = _("You won!")
    elif mine is not None:
        text = _("You lost. Winner: %(names)s.") % {"names": ", ".join(winners)}
    else:
        text = _("Winner: %(names)s.") % {"names": ", ".join(winners)}
    return text


def render_fragment(context: dict[str, Any]) -> str:
    return render_to_string("games/match.html#match-body", context)


def render_live_fragments(match: Match, user: Any) -> str | None:
    seats = list(match.seats.select_related("user"))
    if not can_watch(match, seats, user):
        return None
    return render_fragment(match_context(match, user, seats=seats))


def your_turn_count(user: Any) -> int:
    return Seat.objects.filter(user=user, to_act=True, is_bot=False, match__status=Match.Status.ACTIVE).count()


def render_turn_badge(user: Any) -> str:
    return render_to_string("games/_turn_badge.html", {"turn_count": your_turn_count(user)})
