from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts import usernames


class User(AbstractUser):
    """A player. Custom from the first migration so later fields need no swap."""

    class EmailTurns(models.TextChoices):
        EACH = "each", _("An email for each turn (at most one every 15 minutes)")
        DIGEST = "digest", _("One daily digest")
        NEVER = "never", _("Never")

    class ConfirmMoves(models.TextChoices):
        OFF = "off", _("Never: a tap or a click moves at once")
        TOUCH = "touch", _("On touch screens")
        ALWAYS = "always", _("Always")

    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text=_("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
        validators=[usernames.UsernameValidator()],
        error_messages={"unique": _("A user with that username already exists.")},
    )
    email = models.EmailField(_("email address"), blank=True)
    # Whether the player proved the address is theirs by opening a link sent to it. Until then it is
    # sent nothing but that link: no notices, no password reset (a squatter's address, or a typo, must
    # not receive another person's mail). Addresses stored before this existed start unverified.
    email_verified = models.BooleanField(_("email address verified"), default=False)
    # Counts the address's changes: every emailed link names the count it was made at, so a link for an
    # earlier address never works again, even after the address changes back.
    email_generation = models.PositiveIntegerField(default=0, editable=False)
    email_turns = models.CharField(_("turn emails"), max_length=8, choices=EmailTurns.choices, default=EmailTurns.EACH)

    # Against misclicks (lichess, OGS): the first tap on a move selects it, a second tap confirms. Done
    # by static/js/confirm-move.js; without JavaScript a move is posted at once, as for everyone.
    confirm_moves = models.CharField(
        _("Confirm moves"), max_length=8, choices=ConfirmMoves.choices, default=ConfirmMoves.OFF
    )
    # The language of the player's pages, emails and push notifications; "" until the first page
    # they see signed in, which stores the language it was shown in (accounts.middleware).
    language = models.CharField(_("Language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # When the player last had the site open (a page load or a live socket getting an update).
    last_seen_at = models.DateTimeField(null=True, blank=True)
    last_email_at = models.DateTimeField(null=True, blank=True)
    # A mail-sending worker holds the user until then, so two workers never send the same email.
    email_claim_until = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True)
    # Off until the player turns it on: a page never makes a sound nobody asked for.
    sound = models.BooleanField(_("Play sounds in matches"), default=False)
    # Look-alike names share a skeleton (accounts.usernames); unique, so of two look-alike sign-ups
    # racing each other only one is stored. Null (which unique allows many of, unlike "") only for
    # look-alikes that predate the check.
    username_skeleton = models.TextField(unique=True, null=True, editable=False)  # noqa: DJ001
    username_glyph_skeleton = models.TextField(unique=True, null=True, editable=False)  # noqa: DJ001

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.username

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any, **kwargs: Any) -> User:
        user = super().from_db(db, field_names, values, **kwargs)
        user._stored_username = user.__dict__.get("username")
        return user

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Only a new or changed name gets new skeletons: a name that predates the check and looks
        # like another keeps none, and other saves never meet the unique constraint.
        if self._state.adding or self.username != getattr(self, "_stored_username", None):
            self.username_skeleton = usernames.skeleton(self.username)
            self.username_glyph_skeleton = usernames.glyph_skeleton(self.username)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "username" in update_fields:
                kwargs["update_fields"] = {*update_fields, "username_skeleton", "username_glyph_skeleton"}
        super().save(*args, **kwargs)
        self._stored_username = self.username

    @property
    def message_language(self) -> str:
        """The language to write to this player in, away from their pages (emails, pushes)."""
        return self.language or settings.LANGUAGE_CODE

    def on_vacation(self, now: datetime) -> bool:
        return self.vacation_until is not None and self.vacation_until > now


class Vacation(models.Model):
    """A stretch during which the player's clocks stop; limited days per calendar year."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.starts_at:%Y-%m-%d}..{self.ends_at:%Y-%m-%d}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (RFC 8030), with the keys to encrypt for it (RFC 8291)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    # The last push sent here: pushes follow the email rate (at most one per interval).
    last_push_at = models.DateTimeField(null=True, blank=True)
    # Deliveries failed in a row: each one backs off further, and the last allowed one deletes the
    # subscription (a dead or hostile endpoint is not retried forever).
    failures = models.PositiveSmallIntegerField(default=0)
    # Not before this: a delivery in flight (its outcome not yet recorded) or the back-off after a failure.
    next_try_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push for {self.user} at {self.endpoint[:40]}"


class VapidKey(models.Model):
    """The site's VAPID key pair (RFC 8292), made on first use when the environment gives none."""

    name = models.CharField(max_length=20, unique=True, default="default")
    private_pem = models.TextField()
    # The uncompressed P-256 point, base64url: what browsers take as applicationServerKey.
    public_key = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"VAPID key {self.name}"


class ThrottleHit(models.Model):
    """One use of a rate-limited action (accounts.throttle.take), kept for the length of its window.

    In the database rather than a process's memory, so the limit holds across processes and restarts.
    """

    scope = models.CharField(max_length=32)
    # Whom the limit is for: an account's id, a client address, an email address (casefolded).
    key = models.CharField(max_length=320)
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["scope", "key", "at"]), models.Index(fields=["scope", "at"])]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} {self.at:%Y-%m-%d %H:%M:%S}"
