"""A tournament, its entries, its rounds and each round's pairings (each a match of the core)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.support import paces


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_seed() -> int:
    return secrets.randbits(31)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round-robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round-robin")
        # DOS: tables of three or four; Back Alley: tables of four with rotating partners.
        TABLES = "tables", _("Tables")

    class Status(models.TextChoices):
        OPEN = "open", _("Open for registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=32)
    format = models.CharField(max_length=20, choices=Format.choices)
    # The rounds to play; a round-robin's count follows from its entries when it starts.
    rounds = models.PositiveSmallIntegerField()
    pace_seconds = models.PositiveIntegerField()
    # How long a round may last before its unfinished matches are decided (docs/tournaments.md).
    round_seconds = models.PositiveIntegerField()
    rated = models.BooleanField(default=False)
    starts_at = models.DateTimeField()
    min_entries = models.PositiveSmallIntegerField()
    max_entries = models.PositiveSmallIntegerField()
    is_public = models.BooleanField(default=True)
    # Registration for an invitation-only tournament needs this token (a link the organiser shares).
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    # The round now in play (0 before the start).
    current_round = models.PositiveSmallIntegerField(default=0)
    # Table draws are shuffled from it, so a draw can be repeated from the record.
    seed = models.BigIntegerField(default=new_seed)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def pace_label(self) -> str:
        return paces.label(self.pace_seconds)

    @property
    def team_game(self) -> bool:
        """Back Alley's partnerships: in a two-sided format each entry is a pair of players."""
        return self.game == "backalley" and self.format != self.Format.TABLES

    @property
    def two_sided(self) -> bool:
        return self.format != self.Format.TABLES


class Entry(models.Model):
    """A player in the tournament, or a fixed partnership (``partner`` set) in Back Alley pairs."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.partner_id is not None:
            return f"{self.user.username} & {self.partner.username}"
        return self.user.username

    def user_ids(self) -> list[int]:
        return [self.user_id] if self.partner_id is None else [self.user_id, self.partner_id]


class Round(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        DONE = "done", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    started_at = models.DateTimeField()
    deadline_at = models.DateTimeField(db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Pairing(models.Model):
    """A board or table of a round: the entries by side, and the match they play (none for a bye or a
    forfeit). ``sides`` holds entry ids: in a two-sided event the first side takes seat 0 (a team
    seats 0 and 2); at a table, seat ``i`` is ``sides[i]``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField()
    sides = models.JSONField()
    match = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    # An entry that withdrew before this round-robin game: the other side wins without play.
    forfeit_by = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["round_id", "board"]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"

    @property
    def is_bye(self) -> bool:
        return len(self.sides) == 1
