"""The record: exports of finished matches, leaderboards, and read-only JSON for history and ratings."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Generator
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts import throttle
from accounts.models import User
from games import registry
from games.models import Match, Seat
from games.record import charts, export, ratings
from games.web.views import _load_visible

LEADERBOARD_SIZE = 100
API_PAGE_SIZE = 50


def _download(content: bytes | str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def export_match(request: HttpRequest, match_id: int, fmt: str) -> HttpResponse:
    match, seats = _load_visible(request, match_id)
    # Before the end the seed would reveal every hidden card: nothing to export yet.
    if fmt not in ("json", "txt") or not export.can_export(match):
        raise Http404
    if fmt == "txt":
        moves = export.transcript(match)
        if moves is None:
            raise Http404
        return _download(moves + "\n", "text/plain; charset=utf-8", export.filename(match, "txt"))
    body = json.dumps(export.record(match, seats), indent=1)
    return _download(body, "application/json", export.filename(match, "json"))


def archive_rate() -> throttle.Rate:
    return throttle.Rate("archive", settings.ARCHIVE_DOWNLOADS_PER_HOUR, timedelta(hours=1))


class SteppedOnItsThread:
    """A synchronous iterator of bytes served as an async one: advanced one step at a time on the
    thread that ran the view, between sends, and closed on that thread too (``close`` is called by
    ``response.close()``, which Django runs thread-sensitively, also after a client left midway).

    Given a synchronous iterator, Django's ASGI handler would read it whole, into memory, before
    sending any of it. Stepped on one thread, the archive's queries read their rows a few at a time
    over one connection; under daphne that thread is one of the archive's own (config/asgi.py), never
    a request thread others wait for.
    """

    def __init__(self, chunks: Generator[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        step = sync_to_async(next, thread_sensitive=True)
        while (chunk := await step(self._chunks, None)) is not None:
            yield chunk

    def close(self) -> None:
        self._chunks.close()


@login_required
@require_GET
def export_all(request: HttpRequest) -> HttpResponse:
    # Each archive reads every match of the account: a few per hour, so nobody can keep the archive
    # threads (config/asgi.py) busy for others by asking again and again.
    if (retry_after := throttle.take(archive_rate(), str(request.user.pk))) is not None:
        message = _("You have downloaded your matches several times in the last hour.")
        return throttle.too_many(request, message, retry_after)
    response = StreamingHttpResponse(SteppedOnItsThread(export.archive(request.user)), content_type="application/zip")
    name = f"turnwise-{request.user.username}-{timezone.now():%Y%m%d}.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


LEADERBOARDS_TOP = 10


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    """Every game's best players on one page, each linking to its full board; one query."""
    games = registry.all_games()
    top = ratings.top_players([g.slug for g in games], LEADERBOARDS_TOP)
    boards = [
        {
            "game": g,
            "rows": [{"rank": r.rank, "user": r.user, "standing": ratings.standing(r, g.slug)} for r in top[g.slug]],
        }
        for g in games
    ]
    return render(request, "games/leaderboards.html", {"boards": boards, "active_days": ratings.ACTIVE_DAYS})


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        spec = registry.get(game)
    except LookupError:
        raise Http404 from None
    rows = [
        {"rank": n, "user": r.user, "standing": ratings.standing(r, game)}
        for n, r in enumerate(ratings.leaderboard(game)[:LEADERBOARD_SIZE], start=1)
    ]
    return render(
        request,
        "games/leaderboard.html",
        {"game": spec, "rows": rows, "games": registry.all_games(), "active_days": ratings.ACTIVE_DAYS},
    )


# --- JSON API (read only; same session authentication as the rest of the API) --------------------


def _api_login_required(request: HttpRequest) -> JsonResponse | None:
    if not request.user.is_authenticated:
        return JsonResponse({"error": {"code": "unauthenticated", "message": "Log in first."}}, status=401)
    return None


def _page(request: HttpRequest, items: object, serialise: object) -> dict[str, object]:
    page = Paginator(items, API_PAGE_SIZE).get_page(request.GET.get("page"))  # type: ignore[arg-type]
    return {
        "page": page.number,
        "pages": page.paginator.num_pages,
        "count": page.paginator.count,
        "results": [serialise(item) for item in page.object_list],  # type: ignore[operator]
    }


@require_GET
def api_history(request: HttpRequest) -> JsonResponse:
    if (refused := _api_login_required(request)) is not None:
        return refused
    matches = (
        Match.objects.filter(seats__user=request.user, status=Match.Status.FINISHED)
        .prefetch_related("seats__user")
        .order_by("-finished_at", "-pk")
    )

    def row(match: Match) -> dict[str, object]:
        return {
            "id": match.pk,
            "game": match.game,
            "rated": match.rated,
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
            "players": [
                {"seat": s.number, "name": s.display_name(), "outcome": s.outcome or None, "score": s.score}
                for s in match.seats.all()
            ],
        }

    return JsonResponse(_page(request, matches, row))


@require_GET
def api_profile(request: HttpRequest, username: str) -> JsonResponse:
    if (refused := _api_login_required(request)) is not None:
        return refused
    person = get_object_or_404(User, username=username)
    standings = ratings.standings(person)
    return JsonResponse(
        {
            "username": person.username,
            "ratings": {
                game.slug: _standing_json(standings.get(game.slug) or ratings.standing(None, game.slug))
                for game in registry.all_games()
            },
        }
    )


@require_GET
def api_leaderboard(request: HttpRequest, game: str) -> JsonResponse:
    if (refused := _api_login_required(request)) is not None:
        return refused
    if game not in {g.slug for g in registry.all_games()}:
        return JsonResponse({"error": {"code": "not_found", "message": "There is no such game."}}, status=404)
    return JsonResponse(
        _page(
            request,
            ratings.leaderboard(game),
            lambda r: {"username": r.user.username, **_standing_json(ratings.standing(r, game))},
        )
    )


def _standing_json(standing: ratings.Standing) -> dict[str, object]:
    return {
        "rating": standing.rating,
        "deviation": standing.deviation,
        "rated_matches": standing.rated_matches,
        "provisional": standing.provisional,
    }


# --- the profile's record ------------------------------------------------------------------------

RECENT_MATCHES = 10
# What ``?vs=`` may hold: a username's shape. Django's CharField refuses NUL characters (PostgreSQL
# refuses them in a query: a 500) and the length cap keeps a 100 KB value out of the database.
_OPPONENT_NAME = forms.CharField(max_length=150, required=False)


def _asked_opponent(params: QueryDict) -> str:
    """The opponent named in ``?vs=``, or "" when no username could be written that way."""
    try:
        return _OPPONENT_NAME.clean(params.get("vs", ""))
    except ValidationError:
        return ""


def profile_context(person: User, viewer: Any, params: QueryDict) -> dict[str, Any]:
    """Ratings per game, one game's rating history as a chart, head-to-head and recent matches."""
    standings = ratings.standings(person)
    games = registry.all_games()
    slugs = [g.slug for g in games]
    chosen = params.get("game")
    if chosen not in slugs:
        chosen = max(standings, key=lambda s: standings[s].rated_matches) if standings else None
    history = ratings.history(person, chosen) if chosen else []
    chart = charts.line_chart([v for _at, v in history], [at for at, _v in history])
    opponent = None
    head_to_head: list[dict[str, Any]] = []
    vs = _asked_opponent(params)
    if vs:
        opponent = User.objects.filter(username=vs).exclude(pk=person.pk).first()
    visible = Q(is_public=True)
    if viewer.is_authenticated:
        visible |= Q(pk__in=Seat.objects.filter(user=viewer).values("match_id"))
    if opponent is not None:
        # Only the matches this viewer may see: a private match between the two stays private.
        together = Match.objects.filter(
            visible, status=Match.Status.FINISHED, pk__in=Seat.objects.filter(user=opponent).values("match_id")
        )
        rows = {
            row["match__game"]: row
            for row in Seat.objects.filter(user=person, match__in=together)
            .values("match__game")
            .annotate(
                won=Count("pk", filter=Q(outcome=Seat.Outcome.WIN)),
                lost=Count("pk", filter=Q(outcome=Seat.Outcome.LOSS)),
                drawn=Count("pk", filter=Q(outcome=Seat.Outcome.DRAW)),
            )
        }
        head_to_head = [{"game": g, **rows[g.slug]} for g in games if g.slug in rows]
    recent = (
        Match.objects.filter(
            visible, status=Match.Status.FINISHED, pk__in=Seat.objects.filter(user=person).values("match_id")
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-finished_at", "-pk")[:RECENT_MATCHES]
    )
    return {
        "standings": [
            {
                "game": g,
                "standing": standings.get(g.slug) or ratings.standing(None, g.slug),
                "played": g.slug in standings,
            }
            for g in games
        ],
        "chart_game": registry.get(chosen) if chosen else None,
        "chart": chart,
        "chart_rows": history,
        "opponent": opponent,
        "vs": vs,
        "head_to_head": head_to_head,
        "recent": [{"match": m, "seats": list(m.seats.all()), "game": registry.get(m.game)} for m in recent],
    }
