from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from accounts import email_change, push, throttle, verification
from accounts.forms import (
    EmailChangeForm,
    NotificationSettingsForm,
    PlaySettingsForm,
    SignUpForm,
    SoundSettingsForm,
    ThrottledPasswordChangeForm,
    VacationForm,
)
from accounts.models import User
from games import registry, services
from games.background import notify
from games.models import Match, Seat
from games.web import invitations, play_views
from games.web.record_views import profile_context


def _onwards(next_url: str) -> HttpResponse:
    """To ``next_url`` (checked already to stay on the site), else home. Not redirect(next_url): that
    would read a next= without a slash as the name of a view."""
    return HttpResponseRedirect(next_url) if next_url else redirect("games:home")


def signup(request: HttpRequest) -> HttpResponse:
    # Where to go afterwards: the page that sent the person here (an invitation, a match), never elsewhere.
    next_url = invitations.safe_next(request, request.POST.get("next") or request.GET.get("next"))
    if request.user.is_authenticated:
        return _onwards(next_url)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # A look-alike (or the same) name was stored between the form's check and this insert.
            form.add_error("username", _("That name was just taken by someone else. Please choose another."))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if user.email:
                _send_verification(request, user)
            return invitations.take_invited_seat(request, next_url) or _onwards(next_url)
    context = {"form": form, "next": next_url, **invitations.invitation_context(next_url)}
    return render(request, "registration/signup.html", context)


class LoginView(auth_views.LoginView):
    """Django's log-in, which also honours an invitation it was sent from: the seat is taken at once."""

    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: object) -> dict[str, object]:
        context = super().get_context_data(**kwargs)
        # Django's get_redirect_url() is "" for an address off this site.
        return {**context, **invitations.invitation_context(self.get_redirect_url())}

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        return invitations.take_invited_seat(self.request, self.get_redirect_url()) or response


def _send_verification(request: HttpRequest, user: User) -> None:
    try:
        verification.send_link(user)
    except OSError:
        messages.error(request, _("We could not send the email just now. Please try again later."))
    else:
        messages.info(
            request,
            _("We sent a link to %(address)s: open it to confirm the address. Until then we send it nothing else.")
            % {"address": user.email},
        )


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
            left=Count("pk", filter=~Q(left="")),
        )
    )
    by_game = {row["match__game"]: row for row in rows}
    empty = {"played": 0, "won": 0, "lost": 0, "drawn": 0, "left": 0}
    record = [{"game": game, **by_game.get(game.slug, empty)} for game in registry.all_games()]
    context = {
        "person": person,
        "record": record,
        **profile_context(person, request.user, request.GET),
        **play_views.profile_context(request.user, person),
    }
    return render(request, "accounts/profile.html", context)


VERIFY_RATE = throttle.Rate("verify-link", 3, timedelta(hours=1))


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    now = timezone.now()
    form = NotificationSettingsForm(request.POST if request.POST.get("form") == "email" else None, instance=user)
    days_left = services.vacation_days_left(user, now)
    vacation = VacationForm(request.POST if request.POST.get("form") == "vacation" else None, days_left=days_left)
    play = PlaySettingsForm(request.POST if request.POST.get("form") == "play" else None, instance=user)
    sound = SoundSettingsForm(request.POST if request.POST.get("form") == "sound" else None, instance=user)
    if request.method == "POST":
        what = request.POST.get("form")
        if what == "email" and form.is_valid():
            form.save()
            messages.success(request, _("Your email settings are saved."))
            return redirect("accounts:settings")
        if what == "play" and play.is_valid():
            play.save()
            messages.success(request, _("Your play settings are saved."))
            return redirect("accounts:settings")
        if what == "sound" and sound.is_valid():
            sound.save()
            messages.success(request, _("Your sound setting is saved."))
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
        if what == "verify" and user.email and not user.email_verified:
            # Each link is an email to an address nobody has proven yet: a few an hour.
            if (retry_after := throttle.take(VERIFY_RATE, str(user.pk))) is not None:
                message = _("You asked for several links in the last hour.")
                return throttle.too_many(request, message, retry_after)
            _send_verification(request, user)
            return redirect("accounts:settings")
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "play_form": play,
            "vacation_form": vacation,
            "sound_form": sound,
            "on_vacation": user.on_vacation(now),
            "vacation_days_left": days_left,
            "push_key": push.public_key(),
        },
    )


@login_required
def change_email(request: HttpRequest) -> HttpResponse:
    user = request.user
    form = EmailChangeForm(request.POST or None, user=user, request=request)
    if request.method == "POST" and form.is_valid():
        new_email = form.cleaned_data["new_email"]
        # A confirmation link goes to an address nobody has proven yet: counted with the verification
        # links, a few an hour per account.
        if (retry_after := throttle.take(VERIFY_RATE, str(user.pk))) is not None:
            return throttle.too_many(request, _("You asked for several links in the last hour."), retry_after)
        try:
            email_change.request_change(user=user, new_email=new_email)
        except OSError:
            messages.error(request, _("We could not send the email just now. Please try again later."))
        else:
            messages.success(
                request,
                _(
                    "We sent a link to %(new)s. Your address changes when you open it; "
                    "until then we keep using the old one."
                )
                % {"new": new_email},
            )
            return redirect("accounts:settings")
    return render(request, "accounts/change_email.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    # GET only shows a button: mail scanners open links, and opening must not change anything.
    try:
        change = email_change.pending_change(user=request.user, token=token)
        if request.method == "POST":
            new_email = email_change.confirm(user=request.user, token=token)
            messages.success(request, _("Your email address is now %(new)s.") % {"new": new_email})
            return redirect("accounts:settings")
    except email_change.EmailChangeError as exc:
        return render(request, "accounts/confirm_email.html", {"error": exc.message}, status=400)
    return render(request, "accounts/confirm_email.html", {"change": change})


@require_http_methods(["GET", "POST"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    # GET only shows a button: mail scanners open links, and opening must not change anything. No
    # log-in needed: the signed link is the proof, and it may be opened on another device.
    try:
        claim = verification.pending(token)
        if request.method == "POST":
            verification.confirm(token)
            messages.success(request, _("Your email address is now %(new)s.") % {"new": claim.email})
            return redirect("accounts:settings" if request.user.is_authenticated else "games:home")
    except email_change.EmailChangeError as exc:
        return render(request, "accounts/verify_email.html", {"error": exc.message}, status=400)
    return render(request, "accounts/verify_email.html", {"email": claim.email})


RESET_RATE_PER_ADDRESS = throttle.Rate("reset-address", 3, timedelta(hours=1))
RESET_RATE_PER_CLIENT = throttle.Rate("reset-client", 10, timedelta(hours=1))


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, rate-limited per address asked for and per client.

    The mail goes only to a verified address (accounts.language.AccountLanguagePasswordResetForm).
    The limit per address holds whether or not an account has it, so a refusal tells nothing.
    """

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        keys = [
            (RESET_RATE_PER_ADDRESS, form.cleaned_data["email"].casefold()),
            (RESET_RATE_PER_CLIENT, throttle.client_ip(self.request) or ""),
        ]
        for rate, key in keys:
            if (retry_after := throttle.take(rate, key)) is not None:
                message = _("Several password resets were asked for this address or from your connection.")
                return throttle.too_many(self.request, message, retry_after)
        return super().form_valid(form)


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


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, with the old password checked through the login throttle."""

    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}
