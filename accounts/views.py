from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import NotificationSettingsForm, SignUpForm, VacationForm
from accounts.models import User
from games import notify, registry, services
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
    if "\x00" in username:  # no username holds one, and PostgreSQL refuses the query
        raise Http404
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
            left=Count("pk", filter=~Q(left="")),
        )
    )
    by_game = {row["match__game"]: row for row in rows}
    empty = {"played": 0, "won": 0, "lost": 0, "drawn": 0, "left": 0}
    record = [{"game": game, **by_game.get(game.slug, empty)} for game in registry.all_games()]
    return render(request, "accounts/profile.html", {"person": person, "record": record})


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    now = timezone.now()
    form = NotificationSettingsForm(request.POST if request.POST.get("form") == "email" else None, instance=user)
    vacation = VacationForm(request.POST if request.POST.get("form") == "vacation" else None)
    if request.method == "POST":
        what = request.POST.get("form")
        if what == "email" and form.is_valid():
            form.save()
            messages.success(request, _("Your email settings are saved."))
            return redirect("accounts:settings")
        try:
            if what == "vacation" and vacation.is_valid():
                services.start_vacation(user=user, days=vacation.cleaned_data["days"], now=now)
                messages.success(request, _("Your clocks are paused. Enjoy your vacation!"))
                return redirect("accounts:settings")
            if what == "end_vacation":
                services.end_vacation(user=user, now=now)
                messages.success(request, _("Welcome back: your clocks are running again."))
                return redirect("accounts:settings")
        except services.MatchError as exc:
            messages.error(request, exc.message)
            return redirect("accounts:settings")
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "vacation_form": vacation,
            "on_vacation": user.on_vacation(now),
            "vacation_days_left": services.vacation_days_left(user, now),
        },
    )


@csrf_exempt  # authenticated by the signed token; mail clients' one-click unsubscribe POSTs without a session
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user = notify.user_for_unsubscribe_token(token)
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    if request.method == "POST":
        User.objects.filter(pk=user.pk).update(email_turns=User.EmailTurns.NEVER)
        return render(request, "accounts/unsubscribe.html", {"done": True, "person": user})
    return render(request, "accounts/unsubscribe.html", {"person": user, "token": token})
