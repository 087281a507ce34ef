"""Views for playing with people: the inbox, challenges by username, and answering them."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from games import registry, services
from games.models import Match, Seat
from games.read import pages, queries
from games.services import challenges
from games.web.forms import ChallengeForm, game_slug, refreshed_initial


def _hidden_or_missing(request: HttpRequest, match_id: int, exc: services.MatchError) -> bool:
    """A refusal about a match this user may not see answers as a missing match does (a 404), so the
    challenge endpoints do not tell a private match from one that does not exist."""
    if exc.code == services.ErrorCode.NOT_FOUND:
        return True
    match = Match.objects.filter(pk=match_id).first()
    return match is None or not pages.can_watch(match, list(match.seats.all()), request.user)


# A message true of the match as the page is drawn ("bob has been challenged") that a later change may
# contradict (bob declines): the page's script removes it once a newer state of the match arrives.
MATCH_NEWS = "match-news"


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """After a change: htmx loads the page (its messages show there), a plain form is redirected."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def inbox_context(user: User) -> dict[str, Any]:
    """The home page's lists: challenges to answer, matches waiting on the player, the others."""
    mine = (
        Match.objects.filter(seats__user=user, status__in=[Match.Status.ACTIVE, Match.Status.WAITING])
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")
        .distinct()
    )
    your_turn, others = [], []
    for match in mine:
        seat = next(s for s in match.seats.all() if s.user_id == user.pk)
        (your_turn if seat.to_act and not seat.is_bot else others).append((match, seat))
    your_turn.sort(key=lambda pair: pair[1].waiting_since or pair[0].updated_at)
    return {"your_turn": your_turn, "others": others, "challenges": queries.pending_for(user)}


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    """The inbox lists alone: a home page fetches them when the live badge says something changed."""
    return render(request, "games/home.html#inbox", inbox_context(request.user))


@login_required
@require_POST
def challenge_to_match(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        challenge = challenges.challenge_to_match(
            match_id=match_id, user=request.user, username=request.POST.get("username", "")
        )
    except services.MatchError as exc:
        if _hidden_or_missing(request, match_id, exc):
            raise Http404 from exc
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("A seat is kept for %(name)s; they have been told.") % {"name": challenge.challenged.username},
            extra_tags=MATCH_NEWS,
        )
    return _go(request, reverse("games:match", args=[match_id]))


@login_required
@require_http_methods(["GET", "POST"])
def challenge_player(request: HttpRequest, username: str) -> HttpResponse:
    """Challenge a player: the game and its terms, chosen as on the new-match form; a private match
    with a seat kept for them is made. A post naming only the game (the profile's one-click form)
    takes the form's defaults."""
    person = get_object_or_404(get_user_model(), username=username)
    data = request.POST if request.method == "POST" else None
    game = game_slug((data or request.GET).get("game"))
    # "refresh": the game or the player count changed; redraw that game's seats and options, create nothing.
    refresh = data is not None and "refresh" in data
    form = ChallengeForm(game=game, initial=refreshed_initial(data)) if refresh else ChallengeForm(data, game=game)
    status = 200
    if data is not None and not refresh and form.is_valid():
        try:
            match = challenges.challenge_player(
                user=request.user,
                username=person.username,
                game=form.cleaned_data["game"],
                players=form.cleaned_data["players"],
                bot_seats=form.bot_seats(),
                bot_levels=form.bot_levels(),
                options=form.options(),
                pace_seconds=form.cleaned_data["pace"],
                rated=form.cleaned_data["rated"],
            )
        except services.MatchError as exc:
            form.add_error(None, exc.message)
            status = 429 if exc.code == services.ErrorCode.RATE_LIMITED else 200
        else:
            messages.success(
                request, _("%(name)s has been challenged.") % {"name": person.username}, extra_tags=MATCH_NEWS
            )
            return redirect(match)
    context = {
        "form": form,
        "game": form.spec,
        "person": person,
        "form_url": reverse("games:challenge-player", args=[person.username]),
    }
    if refresh and request.htmx:
        return render(request, "games/new_match.html#setup", context)
    return render(request, "games/challenge.html", context, status=status)


@login_required
@require_POST
def accept(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = challenges.accept(match_id=match_id, user=request.user)
    except services.MatchError as exc:
        if _hidden_or_missing(request, match_id, exc):
            raise Http404 from exc
        messages.error(request, exc.message)
        return _go(request, reverse("games:home"))
    messages.success(request, _("You accepted: your seat is taken."))
    return _go(request, match.get_absolute_url())


@login_required
@require_POST
def decline(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        challenges.decline(match_id=match_id, user=request.user)
    except services.MatchError as exc:
        if _hidden_or_missing(request, match_id, exc):
            raise Http404 from exc
        messages.error(request, exc.message)
    else:
        messages.info(request, _("You declined the challenge."))
    return _go(request, reverse("games:home"))


@login_required
@require_POST
def open_challenge(request: HttpRequest) -> HttpResponse:
    """From the lobby: a public match of the chosen game that anyone may accept by joining."""
    game = request.POST.get("game", "")
    try:
        players = registry.get(game).min_players
        match = services.create_match(
            user=request.user, game=game, players=players, bot_seats=range(2, players), is_public=True
        )
    except LookupError:
        messages.error(request, _("There is no such game."))
        return redirect("games:lobby")
    except services.MatchError as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    messages.success(request, _("Your open challenge is in the lobby; the match starts when someone accepts."))
    return redirect(match)
