from __future__ import annotations

from django.contrib.auth import login
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from accounts.forms import SignUpForm
from accounts.models import User
from games import registry
from games.models import Match, Seat


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("games:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("games:home")
    return render(request, "registration/signup.html", {"form": form})


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(User, username=username)
    finished = Q(match__status=Match.Status.FINISHED)
    rows = (
        Seat.objects.filter(finished, user=person)
        .values("match__game")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(outcome=Seat.Outcome.WIN)),
            lost=Count("pk", filter=Q(outcome=Seat.Outcome.LOSS)),
            drawn=Count("pk", filter=Q(outcome=Seat.Outcome.DRAW)),
        )
    )
    by_game = {row["match__game"]: row for row in rows}
    record = [
        {"game": game, **by_game.get(game.slug, {"played": 0, "won": 0, "lost": 0, "drawn": 0})}
        for game in registry.all_games()
    ]
    return render(request, "accounts/profile.html", {"person": person, "record": record})
