"""An invitation link that survives signing up or logging in.

A person who is not signed in opens ``/invite/<token>/``; the sign-up and log-in forms carry it as their
``next``. When one of them succeeds, the same POST takes the invited seat, so the new player lands in the
match with no other step. Only an invitation path is read this way: the token is the capability the
inviter handed out, and a ``next`` naming any other page (a match number, say) reveals nothing about it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games import services
from games.models import Match, Seat


def safe_next(request: HttpRequest, url: str | None) -> str:
    """``url`` if it stays on this site (Django's own check, as its log-in view makes) and holds no
    control character (a Location header cannot carry one), else ""."""
    if (
        url
        and url.isprintable()
        and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    ):
        return url
    return ""


def invited_match(next_url: str) -> Match | None:
    """The match an invitation path names (with its creator), or None for any other address; one query
    when it is an invitation path, none otherwise."""
    try:
        found = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if found.view_name != "games:invite":
        return None
    return Match.objects.select_related("created_by").filter(invite_token=found.kwargs["token"]).first()


def invitation_context(next_url: str) -> dict[str, Any]:
    """What the sign-up and log-in pages say about the invitation they will honour."""
    from games import registry

    match = invited_match(next_url) if next_url else None
    if match is None or match.status != Match.Status.WAITING:
        return {"invitation": None}  # nothing to take: the invitation page itself says so
    return {"invitation": match, "invitation_game": registry.get(match.game)}


def take_invited_seat(request: HttpRequest, next_url: str) -> HttpResponse | None:
    """After a successful sign-up or log-in: take the seat ``next_url`` invites to and go to the match.

    None when ``next_url`` is no invitation. A refusal (the match filled up or started meanwhile) goes
    back to the invitation page, which says why, with the service's reason as a message.
    """
    match = invited_match(next_url)
    if match is None:
        return None
    if Seat.objects.filter(match=match, user=request.user).exists():
        return redirect(match)  # an existing player logging in: nothing to take
    try:
        services.join_match(match_id=match.pk, user=request.user, token=match.invite_token)
    except services.MatchError as exc:
        messages.error(request, exc.message)
        return HttpResponseRedirect(next_url)
    messages.success(request, _("You joined the match."))
    return redirect(match)
