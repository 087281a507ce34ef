"""Thin views: parse, call one service, render one page or fragment."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from tournaments import pages, services
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Tournament

LISTED = 30


@login_required
@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    # A subquery, not a join: a join on entries here would also narrow the count below to the rows
    # that matched (a private tournament would count only the viewer's own entry).
    entered = Entry.objects.filter(Q(user=request.user) | Q(partner=request.user)).values("tournament_id")
    listed = Tournament.objects.filter(Q(is_public=True) | Q(organiser=request.user) | Q(pk__in=entered)).annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn=False))
    )
    status = Tournament.Status
    return render(
        request,
        "tournaments/list.html",
        {
            "open": list(listed.filter(status=status.OPEN).order_by("starts_at")[:LISTED]),
            "running": list(listed.filter(status=status.RUNNING).order_by("-starts_at")[:LISTED]),
            "finished": list(listed.filter(status=status.FINISHED).order_by("-finished_at")[:LISTED]),
        },
    )


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                organiser=request.user,
                name=data["name"],
                game=data["game"],
                format=data["format"],
                rounds=data["rounds"],
                pace_seconds=data["pace"],
                round_seconds=data["round_length"],
                rated=data["rated"],
                starts_at=data["starts_at"],
                min_entries=data["min_entries"],
                max_entries=data["max_entries"],
                is_public=data["is_public"],
            )
        except services.TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(tournament)
    return render(request, "tournaments/new.html", {"form": form})


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    token = request.GET.get("token") or request.POST.get("token")
    if not pages.visible(tournament, request.user, token):
        raise Http404
    return tournament


@login_required
@require_GET
def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    token = request.GET.get("token", "")
    live_url = tournament.get_absolute_url() + (f"?{urlencode({'token': token})}" if token else "")
    context = {**pages.tournament_context(tournament, request.user), "token": token, "live_url": live_url}
    if context["is_organiser"] and not tournament.is_public:
        invite = f"{tournament.get_absolute_url()}?{urlencode({'token': tournament.invite_token})}"
        context["invite_url"] = request.build_absolute_uri(invite)
    template = "tournaments/detail.html#live" if request.htmx else "tournaments/detail.html"
    return render(request, template, context)


def _act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    token = request.POST.get("token") or None
    try:
        if action == "register":
            partner_of = request.POST.get("partner_of")
            services.register(
                tournament_id=tournament.pk,
                user=request.user,
                token=token,
                partner_of=int(partner_of) if partner_of and partner_of.isdigit() else None,
            )
        elif action == "withdraw":
            services.withdraw(tournament_id=tournament.pk, user=request.user)
        else:
            services.start(tournament_id=tournament.pk, now=timezone.now(), by=request.user)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    url = tournament.get_absolute_url()
    return redirect(f"{url}?{urlencode({'token': token})}" if token else url)


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "register")


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "withdraw")


@login_required
@require_POST
def start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "start")
