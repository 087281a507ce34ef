"""Proving an email address is the player's before it is sent anything else.

An address typed at sign-up may be someone else's (a squatter's claim, or a typo): until the player
opens a link sent to it, it gets that link and nothing more: no turn notices, no password reset. The
link is signed and names the player, the address and its change count (``User.email_generation``):
it works once, and not for an address changed since it was sent. Opening the link of an email change
(accounts.email_change) proves the new address the same way.

Addresses stored before verification existed start unverified. The first time a notice would have
been emailed to one, its owner is sent the link instead, with a word on why (``remind``): at most once
a month, and never within a month of a link sent at sign-up or asked for on the settings page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import throttle
from accounts.email_change import EmailChangeError
from accounts.models import User

SALT = "accounts.email-verify"
# Links nobody asked for just then (``remind``): one a month per account, links asked for included.
REMINDER_RATE = throttle.Rate("verify-reminder", 1, timedelta(days=30))


@dataclass(frozen=True)
class Claim:
    user_id: int
    email: str
    generation: int


def make_token(user: User) -> str:
    return signing.dumps({"user": user.pk, "email": user.email, "gen": user.email_generation}, salt=SALT)


def _read(token: str) -> Claim:
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_CHANGE_LINK_HOURS * 3600)
    except signing.SignatureExpired as exc:
        raise EmailChangeError(_("This link has expired. Please ask for a new one on your settings page.")) from exc
    except signing.BadSignature as exc:
        raise EmailChangeError(_("This link is not valid. Please copy the whole link from the email.")) from exc
    return Claim(user_id=data["user"], email=data["email"], generation=data["gen"])


def _used() -> EmailChangeError:
    return EmailChangeError(_("This link has already been used, or your address changed since it was sent."))


def pending(token: str) -> Claim:
    """The address a link would confirm, if it still may; EmailChangeError says why not."""
    claim = _read(token)
    if not User.objects.filter(
        pk=claim.user_id, email=claim.email, email_generation=claim.generation, email_verified=False
    ).exists():
        raise _used()
    return claim


def confirm(token: str) -> Claim:
    """Mark the link's address verified: once, and only while it is still the player's address."""
    claim = _read(token)
    # Conditional on the address, its change count and not yet verified: a second click, or a link
    # for an address changed since, changes nothing.
    if not User.objects.filter(
        pk=claim.user_id, email=claim.email, email_generation=claim.generation, email_verified=False
    ).update(email_verified=True):
        raise _used()
    return claim


def send_link(user: User) -> None:
    """Email ``user``'s address the link that verifies it, in the player's language (OSError if the
    mail server refuses)."""
    # Counted as this month's link, so that a notice soon after does not send another.
    throttle.take(REMINDER_RATE, str(user.pk))
    _send(
        user,
        subject=gettext_lazy("Confirm your new Turnwise email address"),
        template="accounts/email/email_change_confirm.txt",
    )


def remind(user: User, *, now: datetime | None = None) -> bool:
    """Send ``user`` the link, unasked, because a notice would have been emailed to the unproven
    address; True if it was sent (at most one a month: ``REMINDER_RATE``)."""
    if throttle.take(REMINDER_RATE, str(user.pk), now=now) is not None:
        return False
    _send(
        user,
        subject=gettext_lazy("Confirm your Turnwise email address to get turn notices"),
        template="accounts/email/verify_reminder.txt",
    )
    return True


def _send(user: User, *, subject: Promise, template: str) -> None:
    with translation.override(user.message_language):
        context = {
            "user": user,
            "confirm_url": settings.SITE_URL + reverse("accounts:email_verify", args=[make_token(user)]),
            "hours": settings.EMAIL_CHANGE_LINK_HOURS,
        }
        EmailMessage(
            subject=str(subject),
            body=render_to_string(template, context),
            to=[user.email],
        ).send()
