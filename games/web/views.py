"""Thin views: parse, call one service, render one page or fragment."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from games import registry, services
from games.background import analysis
from games.engine import InvalidAction
from games.live import realtime
from games.models import Match, Seat
from games.read import ending, pages, replay
from games.services import takebacks
from games.support import untrusted
from games.support.sql import CompiledRows
from games.web.forms import HistoryFilterForm, NewMatchForm, game_slug, refreshed_initial

HISTORY_PAGE_SIZE = 20

# A refusal shown in place answers 422, not 400: with DEBUG on, django-htmx's script replaces the whole
# document with any htmx response of status 400/403/404/500, and htmx is configured to swap a 422.
REFUSED = 422

ErrorCode = services.ErrorCode
# How a refusal answers over HTTP.
HTTP_STATUS: dict[services.ErrorCode, int] = {
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.INVALID: 400,
    ErrorCode.ILLEGAL: 422,
    ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.STALE: 409,
    ErrorCode.NOT_LIVE: 409,
    ErrorCode.FULL: 409,
    ErrorCode.RATE_LIMITED: 429,
}


def _in_place(exc: services.MatchError) -> int:
    """The status of a refusal shown in the page (a bad request is a 422 there, see ``REFUSED``)."""
    status = HTTP_STATUS[exc.code]
    return REFUSED if status == 400 else status


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user"))


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/welcome.html", {"games": registry.all_games()})
    from games.web.social_views import inbox_context

    return render(request, "games/home.html", inbox_context(request.user))


LOBBY_REFRESH_SECONDS = 15


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Open matches and matches in play, to anyone; the lists refresh themselves every
    ``LOBBY_REFRESH_SECONDS`` (an htmx poll of the fragment: four queries, whoever asks).

    A poll, not a push: the live list is ordered by the latest move, so a push would follow every move
    of every public match, and the lists differ per viewer (a player's own matches are left out), so
    each lobby page would need a render of its own per push. That is the cost per move growing with
    the open pages that the live path is built to avoid; a poll costs each open lobby a fixed four
    queries per interval, whatever the site is doing."""
    open_matches = Match.objects.filter(status=Match.Status.WAITING, is_public=True)
    if request.user.is_authenticated:
        open_matches = open_matches.exclude(seats__user=request.user)
    open_matches = (
        open_matches
        # Only matches with a seat anyone may take: a seat kept for a named player is not on offer.
        .filter(seats__user__isnull=True, seats__is_bot=False, seats__reserved_for__isnull=True)
        .distinct()
        .prefetch_related(_seats_prefetch())
        .order_by("-created_at")[:50]
    )
    live = (
        Match.objects.filter(status=Match.Status.ACTIVE, is_public=True)
        .prefetch_related(_seats_prefetch())
        .order_by("-updated_at")[:20]
    )
    context = {
        "open_matches": open_matches,
        "live": live,
        "games": registry.all_games(),
        "refresh_seconds": LOBBY_REFRESH_SECONDS,
    }
    return render(request, "games/lobby.html#lists" if request.htmx else "games/lobby.html", context)


@login_required
def new_match(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else None
    game = game_slug((data or request.GET).get("game"))
    # "refresh": the game or the player count changed; redraw that game's seats and options, create nothing.
    refresh = data is not None and "refresh" in data
    form = NewMatchForm(game=game, initial=refreshed_initial(data)) if refresh else NewMatchForm(data, game=game)
    if data is not None and not refresh and form.is_valid():
        try:
            match = services.create_match(
                user=request.user,
                game=form.cleaned_data["game"],
                players=form.cleaned_data["players"],
                bot_seats=form.bot_seats(),
                bot_levels=form.bot_levels(),
                options=form.options(),
                is_public=form.cleaned_data["is_public"],
                pace_seconds=form.cleaned_data["pace"],
                rated=form.cleaned_data["rated"],
            )
        except services.MatchError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(match)
    template = "games/new_match.html#setup" if refresh and request.htmx else "games/new_match.html"
    return render(request, template, {"form": form, "game": form.spec, "form_url": reverse("games:new")})


def _load_visible(request: HttpRequest, match_id: int) -> tuple[Match, list[Seat]]:
    """The match and its seats, or 404 for a match this user may not see (do not reveal it exists)."""
    match = get_object_or_404(Match, pk=match_id)
    seats = list(match.seats.select_related("user"))
    if not pages.can_watch(match, seats, request.user):
        raise Http404
    return match, seats


def _log_in_first(request: HttpRequest, match_id: int) -> HttpResponse:
    """Someone without an account who may not do this here: log in, then back to the match page. The
    same for a private match as for a missing one (the address holds only the number asked for)."""
    url = redirect_to_login(reverse("games:match", args=[match_id]))["Location"]
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """A seat's page, or the spectators' page of a public match, also for people without an account."""
    try:
        match, seats = _load_visible(request, match_id)
    except Http404:
        if not request.user.is_authenticated:
            return _log_in_first(request, match_id)
        raise
    context = pages.match_context(match, request.user, seats=seats, request=request)
    if request.htmx:
        return HttpResponse(pages.render_fragment(context))
    return render(request, "games/match.html", {**context, **pages.chat_context(match, request.user, seats)})


def _render_match(
    request: HttpRequest, match_id: int, *, notice: str = "", level: str = "info", status: int = 200
) -> HttpResponse:
    match, seats = _load_visible(request, match_id)
    context = pages.match_context(match, request.user, seats=seats, notice=notice, notice_level=level, request=request)
    if request.htmx:
        return HttpResponse(pages.render_fragment(context), status=status)
    context.update(pages.chat_context(match, request.user, seats))
    return render(request, "games/match.html", context, status=status)


# Every move asks it (compiled once: see games.support.sql).
_game_of = CompiledRows(lambda match_id: Match.objects.filter(pk=match_id).values_list("game"))


@login_required
@require_POST
def act(request: HttpRequest, match_id: int) -> HttpResponse:
    found = _game_of(match_id)
    if not found:
        raise Http404
    spec_game = found[0][0]
    try:
        version = untrusted.form_version(request.POST.get("version", ""))
        action = registry.get(spec_game).parse_form(request.POST)
    except ValueError:
        return _render_match(
            request,
            match_id,
            notice=_("That request was incomplete; please try again."),
            level="error",
            status=REFUSED,
        )
    except InvalidAction as exc:
        return _render_match(request, match_id, notice=exc.message, level="error", status=REFUSED)
    try:
        moved = services.move(match_id=match_id, user=request.user, action=action, version=version)
    except services.MatchError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            raise Http404 from exc
        return _render_match(request, match_id, notice=exc.message, level="error", status=_in_place(exc))
    if request.htmx:
        # The announcement after the commit rendered this seat's fragment already: reply with it.
        html = _mover_fragment(moved, request.user.pk)
        return HttpResponse(html) if html is not None else _render_match(request, match_id)
    return redirect("games:match", match_id=match_id)


def _mover_fragment(moved: services.Moved, user_id: int) -> str | None:
    """The push's render of the mover's seat, if the commit has announced it (not inside an outer
    transaction, which commits later)."""
    match = moved.match
    for reply in moved.announcement.replies:
        if isinstance(reply, realtime.Rendered):
            return reply.fragment(match.pk, match.version, user_id)
    return None


def _may_see(match_id: int, user: User | AnonymousUser) -> bool:
    match = Match.objects.filter(pk=match_id).first()
    return match is not None and pages.can_watch(match, list(match.seats.all()), user)


def _refused(request: HttpRequest, match_id: int, exc: services.MatchError) -> HttpResponse:
    """A service said no: htmx gets the fresh fragment with the reason, a plain form a redirect and a message.

    Someone who may not see the match gets the 404 of a missing one, so refusals do not reveal it exists.
    """
    if exc.code == ErrorCode.NOT_FOUND or not _may_see(match_id, request.user):
        raise Http404 from exc
    if request.htmx:
        return _render_match(request, match_id, notice=exc.message, level="error", status=_in_place(exc))
    messages.error(request, exc.message)
    return redirect("games:match", match_id=match_id)


def _post_and_return(request: HttpRequest, match_id: int, done: str, call: Any) -> HttpResponse:
    """Run a service; htmx gets the fresh fragment with a notice, a plain form a redirect and a message."""
    try:
        call()
    except services.MatchError as exc:
        return _refused(request, match_id, exc)
    else:
        if request.htmx:
            return _render_match(request, match_id, notice=done)
        messages.success(request, done)
    return redirect("games:match", match_id=match_id)


@login_required
@require_POST
def resign(request: HttpRequest, match_id: int) -> HttpResponse:
    return _post_and_return(
        request, match_id, _("You resigned."), lambda: services.resign(match_id=match_id, user=request.user)
    )


@login_required
@require_POST
def takeback(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask to take back one's last move, or answer the opponent's request (``answer``: ask/accept/decline)."""
    answer = request.POST.get("answer")
    if answer == "ask":
        try:
            match = takebacks.request_takeback(match_id=match_id, user=request.user)
        except services.MatchError as exc:
            return _refused(request, match_id, exc)
        # A computer opponent accepts at once; a person is asked.
        done = (
            _("You asked to take back your last move.")
            if match.takeback_seat is not None
            else _("Your last move was taken back.")
        )
        if request.htmx:
            return _render_match(request, match_id, notice=done)
        messages.success(request, done)
        return redirect("games:match", match_id=match_id)
    if answer in ("accept", "decline"):
        return _post_and_return(
            request,
            match_id,
            _("You accepted the takeback.") if answer == "accept" else _("You declined the takeback."),
            lambda: takebacks.answer_takeback(match_id=match_id, user=request.user, accept=answer == "accept"),
        )
    return _refused(request, match_id, services.MatchError(_("That request is not a valid answer."), ErrorCode.INVALID))


@login_required
@require_POST
def abort(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        services.abort(match_id=match_id, user=request.user)
    except services.MatchError as exc:
        return _refused(request, match_id, exc)
    messages.success(request, _("The match was called off."))
    if request.htmx:
        return HttpResponseClientRedirect(reverse("games:home"))
    return redirect("games:home")


@require_POST
def join(request: HttpRequest, match_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        # The spectators' page offers "Join" to guests too: log in, then back to the match page, not to
        # this address (which a browser would then ask for with GET).
        return _log_in_first(request, match_id)
    return _post_and_return(
        request,
        match_id,
        _("You joined the match."),
        lambda: services.join_match(match_id=match_id, user=request.user, token=request.POST.get("token")),
    )


@require_GET
@never_cache  # the address is a capability: no cache, shared or not, may keep the page
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """Who invites, to which game, and the seats: to anyone holding the link, signed in or not (they sign
    up or log in from here, and come back seated: games.web.invitations)."""
    match = get_object_or_404(
        Match.objects.select_related("created_by").prefetch_related(_seats_prefetch()), invite_token=token
    )
    seats = list(match.seats.all())
    if pages.viewer_seat(seats, request.user) is not None:
        return redirect(match)
    response = render(
        request, "games/invite.html", {"match": match, "seats": seats, "token": token, "game": registry.get(match.game)}
    )
    response["X-Robots-Tag"] = "noindex"
    return response


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    filters = HistoryFilterForm(request.GET or None)
    finished = filters.apply(Match.objects.filter(seats__user=request.user, status=Match.Status.FINISHED), request.user)
    finished = finished.prefetch_related(_seats_prefetch()).order_by("-finished_at", "-pk")
    page = Paginator(finished, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = []
    for match in page.object_list:
        seats = list(match.seats.all())
        mine = pages.viewer_seat(seats, request.user)
        end = ending.describe(match, seats)
        scores = end.scores if end and end.scores else [None] * len(seats)
        players = list(zip(seats, scores, strict=True))
        rows.append({"match": match, "players": players, "mine": mine, "game": registry.get(match.game), "ending": end})
    return render(
        request, "games/history.html", {"page": page, "rows": rows, "filters": filters, "query": filters.query()}
    )


@login_required
@require_GET
def replay_page(request: HttpRequest, match_id: int, step: int | None = None) -> HttpResponse:
    match, seats = _load_visible(request, match_id)
    if match.status != Match.Status.FINISHED:
        messages.info(request, _("A match can be replayed once it is finished."))
        return redirect(match)
    context = replay.replay_context(match, seats, request.user, step)
    if context is None:
        raise Http404
    step_analysis = analysis.replay_step(match, analysis.finished_analysis(match), context["step"], context["board"])
    if step_analysis is not None:
        context.update(analysis=step_analysis, board=step_analysis["board"])
    template = "games/replay.html#replay-body" if request.htmx else "games/replay.html"
    return render(request, template, context)


@login_required
@require_GET
def match_log(request: HttpRequest, match_id: int) -> HttpResponse:
    """The whole match, move by move, each numbered as it was played (the page's log shows the latest)."""
    match, seats = _load_visible(request, match_id)
    context = {
        "match": match,
        "game": registry.get(match.game),
        "moves": replay.whole_log(match, seats, request.user),
    }
    return render(request, "games/match_log.html", context)


# --- JSON API ------------------------------------------------------------------------------------


def _json_error(message: str, code: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _api_state(match: Match, user: User | AnonymousUser) -> dict[str, Any]:
    seats = list(match.seats.select_related("user"))
    context = pages.match_context(match, user, seats=seats)
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "seat": context["seat"],
        "players": [
            {"seat": s.number, "name": n, "bot": s.is_bot} for s, n in zip(seats, context["names"], strict=True)
        ],
        "view": context["view"],
        "legal": _legal_for(match, context["seat"]) if context["can_act"] else [],
        "result": match.result,
        "rated": match.rated,
        # Public from the start; the secrets it commits to are revealed only once the match is over.
        "shuffle_commitment": match.shuffle_commitment,
        # The chained log's latest link (salted: it tells nothing of hidden cards). A player who keeps it
        # can check later that the published record was not rewritten; null for an unchained match.
        "log": {"moves": match.move_count, "digest": match.log_digest} if match.log_digest else None,
        "revealed": {"seed": match.seed, "salt": match.shuffle_salt} if match.status == Match.Status.FINISHED else None,
    }


def _legal_for(match: Match, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or match.state is None:
        return []
    engine = registry.get(match.game).engine
    return engine.legal_actions(engine.load(match.state), seat)


@require_GET
def api_match(request: HttpRequest, match_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return _json_error(_("Log in first."), "unauthenticated", 401)
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not pages.can_watch(match, list(match.seats.all()), request.user):
        return _json_error(_("There is no such match."), "not_found", 404)
    return JsonResponse(_api_state(match, request.user))


@require_POST
def api_act(request: HttpRequest, match_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return _json_error(_("Log in first."), "unauthenticated", 401)
    try:
        body = untrusted.loads(request.body)
        action, version = body["action"], untrusted.version(body["version"])
    except untrusted.BadInput as exc:
        return _json_error(exc.message, "invalid", 400)
    except (KeyError, TypeError):
        return _json_error(_('Send {"action": {...}, "version": n} as JSON.'), "invalid", 400)
    try:
        match = services.act(match_id=match_id, user=request.user, action=action, version=version)
    except services.MatchError as exc:
        if exc.code == ErrorCode.NOT_FOUND or not _may_see(match_id, request.user):
            return _json_error(_("There is no such match."), "not_found", 404)
        return _json_error(exc.message, exc.code, HTTP_STATUS[exc.code])
    return JsonResponse(_api_state(match, request.user))


@login_required
@require_POST
def claim_win(request: HttpRequest, match_id: int) -> HttpResponse:
    return _post_and_return(
        request, match_id, _("You claimed the win."), lambda: services.claim_win(match_id=match_id, user=request.user)
    )


@login_required
@require_POST
def reclaim_seat(request: HttpRequest, match_id: int) -> HttpResponse:
    return _post_and_return(
        request,
        match_id,
        _("Welcome back: your seat is yours again."),
        lambda: services.reclaim_seat(match_id=match_id, user=request.user),
    )


@login_required
@require_POST
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        new = services.offer_rematch(match_id=match_id, user=request.user)
    except services.MatchError as exc:
        return _refused(request, match_id, exc)
    if request.htmx:
        return HttpResponseClientRedirect(new.get_absolute_url())
    return redirect(new)


@login_required
@require_POST
def chat(request: HttpRequest, match_id: int) -> HttpResponse:
    match, seats = _load_visible(request, match_id)
    notice, status = "", 200
    try:
        services.post_chat(match_id=match.pk, user=request.user, text=request.POST.get("text", ""))
    except services.MatchError as exc:
        notice, status = exc.message, _in_place(exc)
    if request.htmx:
        context = {**pages.chat_context(match, request.user, seats), "chat_notice": notice}
        return render(request, "games/match.html#chat-log", context, status=status)
    if notice:
        messages.error(request, notice)
    return redirect(match)
