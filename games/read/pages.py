"""What a page shows of a match, built from one seat's view; shared by views and consumers.

Fragments render without a request (a consumer has none), so nothing here reads the request.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.translation import get_language

from games import registry
from games.engine import is_draw
from games.models import Block, ChatMessage, Match, Seat
from games.read import ending
from games.record import ratings
from games.services import predicates
from games.support.i18n import readable
from games.support.sql import CompiledRows

# "Not given: look it up" for optional keyword arguments whose given value may be None.
_LOOK_UP = object()


def viewer_seat(seats: list[Seat], user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk), None)


def _rating_changes(match: Match) -> dict[int, dict[str, Any]]:
    if match.rated and match.status == Match.Status.FINISHED:
        return ratings.changes_for(match)
    return {}


def can_watch(match: Match, seats: list[Seat], user: Any) -> bool:
    return match.is_public or viewer_seat(seats, user) is not None or reserved_seat(seats, user) is not None


def reserved_seat(seats: list[Seat], user: Any) -> Seat | None:
    """The seat kept for this user (a challenge or a rematch) that they have not taken yet."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in seats if s.reserved_for_id == user.pk and s.user_id is None), None)


def site_link(path: str, request: Any = None) -> str:
    """An absolute link: the configured site address, else the request's; without either, the path.

    A pushed fragment has no request; the page's script completes a bare path from its own address.
    """
    if settings.SITE_URL_SET or request is None:
        return (settings.SITE_URL if settings.SITE_URL_SET else "") + path
    return request.build_absolute_uri(path)


def match_context(
    match: Match,
    user: Any,
    *,
    seats: list[Seat] | None = None,
    notice: str = "",
    notice_level: str = "info",
    next_url: str | None = None,
    rematch: Match | object | None = _LOOK_UP,
    rating_changes: dict[int, dict[str, Any]] | object = _LOOK_UP,
    request: Any = None,
    state: Any = None,
) -> dict[str, Any]:
    """What the match page shows ``user``. ``next_url``: the "next match" link when the caller already
    knows it (the announcer looks it up for every seated player in one query); ``rematch`` and
    ``rating_changes`` likewise; ``state``: the engine state of ``match.state``, already loaded (the
    announcer loads it once for every viewer; engines never change a state they are given)."""
    spec = registry.get(match.game)
    if seats is None:
        seats = list(match.seats.select_related("user"))
    mine = viewer_seat(seats, user)
    seat_no = mine.number if mine is not None else None
    names = [s.display_name() for s in seats]
    view = None
    if match.state is not None:
        view = spec.engine.view(state if state is not None else spec.engine.load(match.state), seat_no)
    live = match.status == Match.Status.ACTIVE
    end = ending.describe(match, seats)
    can_act = bool(mine and mine.to_act and not mine.is_bot and live)
    context = {
        "match": match,
        "game": spec,
        # A template calls what it is given: the transcript function itself would be called, with no move.
        "has_transcript": spec.transcript is not None,
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
        "invite_url": site_link(reverse("games:invite", args=[match.invite_token]), request) if mine else "",
        "can_abort": predicates.can_abort(match, mine),
        "outcome": outcome_text(match, seats, mine),
        "ending": end,
        "final_scores": list(zip(names, end.scores, strict=True)) if end and end.scores else [],
        "can_claim": predicates.can_claim(match, seats, mine),
        "can_reclaim": predicates.can_reclaim(match, mine),
        "next_match_url": (next_url if next_url is not None else next_match_url(match, user))
        if mine and not can_act
        else "",
        "rematch": (rematch_of(match) if match.status == Match.Status.FINISHED else None)
        if rematch is _LOOK_UP
        else rematch,
        "rating_changes": _rating_changes(match) if rating_changes is _LOOK_UP else rating_changes,
        "kept_for_me": reserved_seat(seats, user),
        "takeback": predicates.takeback_offer(match, seats, mine),
    }
    context.update(_challenges_context(match, context["rematch"], mine, user))
    return context


def _challenges_context(match: Match, rematch: Match | None, mine: Seat | None, user: Any) -> dict[str, Any]:
    """Challenges to answer or to follow on this page, and where a started rematch takes its players."""
    from games.read import queries

    follow, open_to_me = "", False
    if rematch is not None:
        rematch_seats = list(rematch.seats.all())
        open_to_me = can_watch(rematch, rematch_seats, user)
        if rematch.status == Match.Status.ACTIVE and viewer_seat(rematch_seats, user) is not None:
            follow = rematch.get_absolute_url()
    rematch_rows = queries.shown_on(rematch, user) if rematch is not None else []
    return {
        "invitations": queries.shown_on(match, user) if match.status == Match.Status.WAITING else [],
        "rematch_invitations": rematch_rows,
        # A rematch offered to this player: its Accept and Decline are the one choice the end shows.
        "rematch_to_answer": any(row["mine"] and row["open"] for row in rematch_rows),
        "rematch_open_to_me": open_to_me,
        "follow_url": follow,
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


def _shown_chat(match_id: int) -> Any:
    """The match's chat lines, less those of anyone a player of the match blocked: the same log for
    every reader (it is rendered once for all), and no extra query (a subquery)."""
    blocked = Block.objects.filter(blocker__seats__match_id=match_id).values("blocked_id")
    return ChatMessage.objects.filter(match_id=match_id).exclude(user_id__in=blocked).select_related("user")


def chat_context(match: Match, user: Any, seats: list[Seat] | None = None) -> dict[str, Any]:
    if seats is None:
        seats = list(match.seats.all())
    messages = list(_shown_chat(match.pk).order_by("-created_at", "-pk")[:CHAT_SHOWN])
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


def render_chat_log(match_id: int, languages: list[str]) -> dict[str, str]:
    """The chat log as every reader of the match sees it (it does not depend on the viewer), in each of
    ``languages``: one query."""
    messages = list(_shown_chat(match_id).order_by("-created_at", "-pk")[:CHAT_SHOWN])
    messages.reverse()
    rendered = {}
    for language in languages:
        with translation.override(language):
            rendered[language] = render_to_string("games/match.html#chat-log", {"chat_messages": messages})
    return rendered


EVENTS_SHOWN = 10


def describe_events(spec: registry.Game, view: dict[str, Any] | None, names: list[str]) -> list[str]:
    """The latest events as sentences, oldest first (the view keeps more; a page shows the recent ones)."""
    if not view:
        return []
    # Integers become LocalNumbers: the sentences show counts and points in the reader's digits.
    return [spec.describe_event(readable(event), names) for event in view.get("events", [])[-EVENTS_SHOWN:]]


def outcome_text(match: Match, seats: list[Seat], mine: Seat | None) -> str:
    from django.utils.translation import gettext as _

    if match.status != Match.Status.FINISHED or not match.result:
        return ""
    winners = [s.display_name() for s in seats if match.result["ranks"][s.number] == 1 and not s.resigned]
    if is_draw(match.result):
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


def _language_of(user: Any) -> str:
    """A socket's language: its player's (sockets render in threads of their own, outside any
    request's language); a spectator who is not signed in reads the default."""
    return user.message_language if getattr(user, "is_authenticated", False) else settings.LANGUAGE_CODE


def render_live_fragments(match: Match, user: Any, *, language: str | None = None) -> str | None:
    """``user``'s fragment of the match, in ``language`` (default: the player's own; a page without an
    account passes the one its page was read in)."""
    seats = list(match.seats.select_related("user"))
    if not can_watch(match, seats, user):
        return None
    with translation.override(language or _language_of(user)):
        return render_fragment(match_context(match, user, seats=seats))


def your_turn_count(user: Any) -> int:
    return Seat.objects.filter(user=user, to_act=True, is_bot=False, match__status=Match.Status.ACTIVE).count()


def render_turn_badge(user: Any) -> str:
    from games.read.queries import pending_count

    with translation.override(_language_of(user)):
        return badge_html(your_turn_count(user), pending_count(user))


def badge_html(turn_count: int, challenge_count: int | None = None) -> str:
    """The navigation badge. ``challenge_count`` None: a move's push, which leaves the challenges
    part of the page as it is (the parts are swapped by id)."""
    return _badge_html(turn_count, challenge_count, get_language(), get_script_prefix())


@lru_cache(maxsize=256)
def _badge_html(turn_count: int, challenge_count: int | None, language: str | None, prefix: str) -> str:
    # Every move pushes two badges; they depend on these four things only, so each is rendered once.
    return render_to_string("games/_turn_badge.html", {"turn_count": turn_count, "challenge_count": challenge_count})


# Every move asks it for its players (compiled once: see games.support.sql).
_waiting_rows = CompiledRows(
    lambda user_ids: (
        Seat.objects.filter(user_id__in=user_ids, to_act=True, is_bot=False, match__status=Match.Status.ACTIVE)
        .order_by("waiting_since", "pk")
        .values_list("user_id", "match_id")
    )
)


def waiting_turns(user_ids: list[int]) -> dict[int, list[int]]:
    """For each user, the matches waiting on them, longest-waiting first: one query for everyone."""
    waiting: dict[int, list[int]] = {uid: [] for uid in user_ids}
    if not user_ids:
        return waiting
    for user_id, match_id in _waiting_rows(user_ids):
        waiting[user_id].append(match_id)
    return waiting


def render_for_push(
    match: Match, seats: list[Seat], waiting: dict[int, list[int]], *, spectator_languages: list[str] | None = None
) -> tuple[dict[int, str], dict[str, str]]:
    """Each seated person's fragment, rendered once in their language, and the spectators', once in each
    of ``spectator_languages`` (default: every language of the site; none when nobody may watch; the
    caller leaves out a language when it knows that no spectator's page in it is open).

    ``seats`` must be the seats as committed, with their users loaded; ``waiting`` is
    :func:`waiting_turns` for the seated users. Renders a match in play without a query (a waiting
    match's challenges, a finished match's rematch and rating changes are looked up).
    """
    rematch = rematch_of(match) if match.status == Match.Status.FINISHED else None
    changes = _rating_changes(match)
    spec = registry.get(match.game)
    state = spec.engine.load(match.state) if match.state is not None else None
    by_user: dict[int, str] = {}
    for seat in seats:
        if seat.user_id is None or seat.user_id in by_user:
            continue
        others = [mid for mid in waiting.get(seat.user_id, []) if mid != match.pk]
        next_url = reverse("games:match", args=[others[0]]) if others else ""
        # In that player's language, not the mover's (a computer's move has no language at all); the
        # context too: it holds sentences translated when it is built (event lines, seat labels).
        with translation.override(seat.user.message_language):
            context = match_context(
                match, seat.user, seats=seats, next_url=next_url, rematch=rematch, rating_changes=changes, state=state
            )
            by_user[seat.user_id] = render_fragment(context)
    # A player a seat is kept for (only while the match waits) sees it with their answer buttons.
    for seat in seats:
        if seat.user_id is None and seat.reserved_for_id is not None and seat.reserved_for_id not in by_user:
            with translation.override(seat.reserved_for.message_language):
                context = match_context(
                    match, seat.reserved_for, seats=seats, rematch=rematch, rating_changes=changes, state=state
                )
                by_user[seat.reserved_for_id] = render_fragment(context)
    spectators: dict[str, str] = {}
    if match.is_public:
        if spectator_languages is None:
            spectator_languages = [code for code, _name in settings.LANGUAGES]
        for language in spectator_languages:
            with translation.override(language):
                context = match_context(match, None, seats=seats, rematch=rematch, rating_changes=changes, state=state)
                spectators[language] = render_fragment(context)
    return by_user, spectators
