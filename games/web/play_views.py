"""Views for finding opponents: Play now, and the people page (follows, recent opponents, blocks)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import registry, services
from games.live import presence
from games.models import Block, Follow, Seat
from games.read import queries
from games.services import challenges, pairing, people
from games.web import invitations
from games.web.forms import PlayNowForm

RECENT_OPPONENTS = 20
RECENT_MATCHES = 100  # the player's latest matches looked through for them


def _play_context(user: User, forms: dict[str, PlayNowForm] | None = None) -> dict[str, Any]:
    forms = forms or {}
    return {
        "games": [(g, forms.get(g.slug) or PlayNowForm(game=g.slug)) for g in registry.all_games()],
        **_seeks_context(user),
    }


def _seeks_context(user: User) -> dict[str, Any]:
    seeks = queries.seeks_of(user)
    mine = [s for s in seeks if s.status == s.Status.OPEN]
    return {
        "open_seeks": mine,
        "partner_asks": queries.partner_asks(user, mine),
        "closed_seeks": [s for s in seeks if s.status != s.Status.OPEN],
        "max_seeks": pairing.MAX_OPEN_SEEKS,
    }


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """Play now: ask for a match of a game; it starts as soon as others ask for the same."""
    forms: dict[str, PlayNowForm] = {}
    if request.method == "POST":
        game = request.POST.get("game", "")
        if game not in {g.slug for g in registry.all_games()}:
            messages.error(request, _("There is no such game."))
            return redirect("games:play")
        form = forms[game] = PlayNowForm(request.POST, game=game)
        if form.is_valid():
            try:
                seek = pairing.post_seek(
                    user=request.user,
                    game=game,
                    players=form.cleaned_data["players"],
                    pace_seconds=form.cleaned_data["pace"],
                    rated=form.cleaned_data["rated"],
                    partner=form.cleaned_data.get("partner", ""),
                )
            except services.MatchError as exc:
                form.add_error(None, exc.message)
            else:
                if seek.match_id is not None:
                    messages.success(request, _("Opponents found: your match has started."))
                    return redirect("games:match", match_id=seek.match_id)
                messages.info(request, _("You are waiting for opponents; we tell you when the match starts."))
                return redirect("games:play")
    # A refused request shows the form again with the reason (422, as the other refusals shown in place).
    return render(request, "games/play.html", _play_context(request.user, forms), status=422 if forms else 200)


@login_required
@require_GET
def play_seeks(request: HttpRequest) -> HttpResponse:
    """The player's requests alone: the page fetches them when the live badge says something changed."""
    return render(request, "games/play.html#seeks", _seeks_context(request.user))


@login_required
@require_POST
def cancel_seek(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        pairing.cancel_seek(user=request.user, seek_id=seek_id)
    except services.MatchError as exc:
        messages.error(request, exc.message)
    else:
        messages.info(request, _("You stopped waiting for that match."))
    return redirect("games:play")


def online(last_seen_at: datetime | None, now: datetime) -> bool:
    return last_seen_at is not None and now - last_seen_at <= timedelta(seconds=presence.ONLINE_WITHIN_SECONDS)


def recent_opponents(user: User) -> list[User]:
    """The people the player met in their latest matches, most recent first (two queries)."""
    match_ids = list(
        Seat.objects.filter(user=user)
        .order_by("-match__updated_at")
        .values_list("match_id", flat=True)[:RECENT_MATCHES]
    )
    seats = (
        Seat.objects.filter(match_id__in=match_ids, user__isnull=False, user__is_active=True)
        .exclude(user=user)
        .select_related("user")
        .order_by("-match__updated_at", "number")
    )
    found: dict[int, User] = {}
    for seat in seats:  # a seat with a user is a person's (a computer substitute plays it for them)
        found.setdefault(seat.user_id, seat.user)
    return list(found.values())[:RECENT_OPPONENTS]


@login_required
@require_GET
def people_page(request: HttpRequest) -> HttpResponse:
    """The people the player follows and recently played, who is on the site now, one-click challenges."""
    user = request.user
    now = timezone.now()
    followed = [
        f.followed
        for f in Follow.objects.filter(follower=user, followed__is_active=True)
        .select_related("followed")
        .order_by("followed__username")
    ]
    blocks = list(Block.objects.filter(Q(blocker=user) | Q(blocked=user)).select_related("blocked").order_by("pk"))
    blocked = [b.blocked for b in blocks if b.blocker_id == user.pk]
    # Neither side of a block sees the other here (nor so whether they are on the site).
    hidden = {b.blocked_id for b in blocks} | {b.blocker_id for b in blocks}
    following = {u.pk for u in followed}
    opponents = [u for u in recent_opponents(user) if u.pk not in hidden]

    def rows(users: list[User]) -> list[dict[str, Any]]:
        return [{"person": u, "online": online(u.last_seen_at, now), "followed": u.pk in following} for u in users]

    context = {
        "followed": rows(followed),
        "opponents": rows(opponents),
        "blocked": blocked,
        "games": registry.all_games(),
    }
    return render(request, "games/people.html", context)


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    # Not redirect(target): it would read a next= without a slash as the name of a view.
    if target := invitations.safe_next(request, request.POST.get("next")):
        return HttpResponseRedirect(target)
    return redirect(fallback)


def _person_action(request: HttpRequest, username: str, call: Callable[..., User], done: str) -> HttpResponse:
    try:
        person = call(user=request.user, username=username)
    except services.MatchError as exc:
        messages.error(request, exc.message)
        return _back(request, reverse("games:people"))
    messages.success(request, done % {"name": person.username})
    return _back(request, reverse("accounts:profile", args=[person.username]))


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    return _person_action(request, username, people.follow, _("You follow %(name)s."))


@login_required
@require_POST
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    return _person_action(request, username, people.unfollow, _("You no longer follow %(name)s."))


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    return _person_action(
        request,
        username,
        people.block,
        _("You blocked %(name)s: no challenges or chat from them, and Play now never pairs you together."),
    )


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    return _person_action(request, username, people.unblock, _("You unblocked %(name)s."))


@login_required
@require_POST
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """One click from the people page: a match of the chosen game with a seat kept for them."""
    try:
        match = challenges.challenge_player(user=request.user, username=username, game=request.POST.get("game", ""))
    except services.MatchError as exc:
        messages.error(request, exc.message)
        return redirect("games:people")
    messages.success(request, _("%(name)s has been challenged.") % {"name": username})
    return redirect(match)


def profile_context(viewer: Any, person: User) -> dict[str, Any]:
    """What a player's profile shows its viewer of follows and blocks (two queries)."""
    if not viewer.is_authenticated or viewer.pk == person.pk:
        return {}
    return {
        "follows_person": Follow.objects.filter(follower=viewer, followed=person).exists(),
        "blocked_person": Block.objects.filter(blocker=viewer, blocked=person).exists(),
    }
