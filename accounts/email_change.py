"""Changing a player's email address: proven by the current password and a link sent to the new address.

Until the link is opened the old address stays in use (notifications go to it), and the old address
is told that a change was asked for. The link is a signed, time-limited token naming the player, the
address being replaced, the new one and the address's change count (``User.email_generation``): it
works once, only for that player, only while no other change was made since it was sent (even one
that went back to the same address), and not after ``EMAIL_CHANGE_LINK_HOURS``. Opening it proves
the new address is the player's: it counts as verified.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User

SALT = "accounts.email-change"


class EmailChangeError(Exception):
    """A confirmation link that cannot be used, with the reason in words for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Request:
    user_id: int
    old: str
    new: str
    generation: int


def make_token(*, user: User, new_email: str) -> str:
    data = {"user": user.pk, "old": user.email, "new": new_email, "gen": user.email_generation}
    return signing.dumps(data, salt=SALT)


def _read_token(token: str) -> Request:
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_CHANGE_LINK_HOURS * 3600)
    except signing.SignatureExpired as exc:
        raise EmailChangeError(_("This link has expired. Please ask for a new one on your settings page.")) from exc
    except signing.BadSignature as exc:
        raise EmailChangeError(_("This link is not valid. Please copy the whole link from the email.")) from exc
    # Links sent before the change count existed carry none: they were made for an earlier state.
    return Request(user_id=data["user"], old=data["old"], new=data["new"], generation=data.get("gen", -1))


def pending_change(*, user: User, token: str) -> Request:
    """The change a link asks for, if ``user`` may make it now; EmailChangeError says why not."""
    change = _read_token(token)
    if change.user_id != user.pk:
        raise EmailChangeError(_("This link was sent for another account. Log in as that player to use it."))
    if change.old != user.email or change.generation != user.email_generation:
        raise EmailChangeError(_("This link has already been used, or your address changed since it was sent."))
    return change


def confirm(*, user: User, token: str) -> str:
    """Make the link's new address the player's; returns it."""
    change = pending_change(user=user, token=token)
    # Conditional on the address and the change count the link was made for, so two clicks (or two
    # links) cannot both apply, and a link of an earlier address never works again.
    updated = User.objects.filter(pk=user.pk, email=change.old, email_generation=change.generation).update(
        email=change.new, email_generation=F("email_generation") + 1, email_verified=True
    )
    if not updated:
        raise EmailChangeError(_("This link has already been used, or your address changed since it was sent."))
    user.refresh_from_db(fields=["email", "email_generation", "email_verified"])
    return change.new


def _masked(address: str) -> str:
    local, _at, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"


def request_change(*, user: User, new_email: str) -> None:
    """Send the confirmation link to the new address and, if there is one, a notice to the old, in
    the player's language."""
    with translation.override(user.message_language):
        _send_change_emails(user=user, new_email=new_email)


def _send_change_emails(*, user: User, new_email: str) -> None:
    base = settings.SITE_URL
    context = {
        "user": user,
        "new_email": new_email,
        "masked_new_email": _masked(new_email),
        "confirm_url": base + reverse("accounts:email_confirm", args=[make_token(user=user, new_email=new_email)]),
        "hours": settings.EMAIL_CHANGE_LINK_HOURS,
        "password_url": base + reverse("accounts:password_change"),
    }
    messages = [
        EmailMessage(
            subject=_("Confirm your new Turnwise email address"),
            body=render_to_string("accounts/email/email_change_confirm.txt", context),
            to=[new_email],
        )
    ]
    # The old address is told only if it was proven to be the player's: an unproven one may be anyone's.
    if user.email and user.email_verified:
        messages.append(
            EmailMessage(
                subject=_("Your Turnwise email address is about to change"),
                body=render_to_string("accounts/email/email_change_notice.txt", context),
                to=[user.email],
            )
        )
    for message in messages:
        message.send()
