"""The match core: a match, its seats, and the append-only log of actions."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.record import fairplay
from games.support import paces
from games.support.i18n import LocalNumber


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


def new_seed() -> int:
    return secrets.randbits(62)


def new_salt() -> str:
    return secrets.token_hex(16)


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    game = models.CharField(max_length=32, db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    player_count = models.PositiveSmallIntegerField()
    is_public = models.BooleanField(default=True)
    options = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_matches")
    # Secret: the engine's shuffles derive from it. Never rendered, never sent.
    seed = models.BigIntegerField(default=new_seed)
    # Revealed with the seed when the match ends; the commitment (their hash) is public from the start,
    # so anyone can check afterwards that every shuffle came from the seed promised before the first move.
    shuffle_salt = models.CharField(max_length=32, default=new_salt)
    shuffle_commitment = models.CharField(max_length=64, blank=True)
    # Which rule the commitment follows (games.record.fairplay): 1 hashed the salt and seed only (matches
    # created before the options were bound), 2 binds the game, player count, options, seed and salt.
    commitment_version = models.PositiveSmallIntegerField(default=fairplay.COMMITMENT_VERSION)
    # The digest of the last action's link in the chained log (the commitment before the first move),
    # public during play so a player can note it and later check the record was not rewritten. Empty for
    # matches created before the log was chained: their moves carry no digest.
    log_digest = models.CharField(max_length=64, blank=True)
    # Rated matches change the players' ratings; matches with computer players are always casual.
    rated = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # Number of accepted moves (the log's length), kept here so pages need not count the log.
    move_count = models.PositiveIntegerField(default=0)
    # The version from which the seats now to act have been waiting; a simultaneous step keeps it
    # while seats commit one by one, so a page loaded earlier in that step is still current.
    turn_version = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Time allowed per move, in seconds; None: no limit.
    pace_seconds = models.PositiveIntegerField(null=True, blank=True)
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch")
    # When a computer seat should move next (None: no computer seat is to act).
    bot_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # A bot runner that claimed the due move holds it until then; a crashed runner's claim expires.
    bot_lease_until = models.DateTimeField(null=True, blank=True)
    # A takeback request (games.services.takebacks): the seat that asked, and the version it was made
    # at. It is pending while the match is still at that version: any move or answer moves past it.
    takeback_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    takeback_version = models.PositiveIntegerField(null=True, blank=True)
    # The move count when a request was last declined: no new request until someone moves again.
    takeback_declined_at = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "is_public", "game"]),
            models.Index(fields=["status", "-finished_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.shuffle_commitment:
            self.commitment_version = fairplay.COMMITMENT_VERSION
            self.shuffle_commitment = fairplay.commitment(
                game=self.game, players=self.player_count, options=self.options, seed=self.seed, salt=self.shuffle_salt
            )
            self.log_digest = self.shuffle_commitment  # the chain's first link hangs on the commitment
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def get_absolute_url(self) -> str:
        return reverse("games:match", args=[self.pk])

    @property
    def game_name(self) -> str:
        from games import registry

        return registry.get(self.game).name

    @property
    def pace_label(self) -> str:
        return paces.label(self.pace_seconds)

    @property
    def terms(self) -> str:
        """The terms chosen at creation, in words, for someone asked to accept them (a challenge):
        e.g. "3 players · 1 day per move · rated · Points to win: 100 points (short)"."""
        from games import registry

        parts = [
            ngettext("%(n)s player", "%(n)s players", self.player_count) % {"n": LocalNumber(self.player_count)},
            self.pace_label,
            str(_("rated") if self.rated else _("casual")),
        ]
        for option in registry.get(self.game).options:
            chosen = (self.options or {}).get(option.key)
            label = next((text for value, text in option.choices if option.coerce(value) == chosen), None)
            if label is not None:
                parts.append(f"{option.label}: {label}")
        return " · ".join(str(p) for p in parts if p)


class GameMatchManager(models.Manager["Match"]):
    """A game's match model's manager: that game's matches only (the model's app label is the slug)."""

    def get_queryset(self) -> models.QuerySet[Match]:
        return super().get_queryset().filter(game=self.model._meta.app_label)


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)

    class BotLevel(models.TextChoices):
        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        HARD = "hard", _("hard")

    # How strongly a computer seat plays; ignored for a person's seat.
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=BotLevel.MEDIUM)
    to_act = models.BooleanField(default=False, db_index=True)
    waiting_since = models.DateTimeField(null=True, blank=True)
    # When this seat's time to move runs out (None: no limit, or not this seat's turn).
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # When to warn that the deadline is near (80% of the time used).
    warn_at = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_warned = models.BooleanField(default=False)
    # The deadline passed: in a two-player game the opponent may now claim the win.
    timed_out = models.BooleanField(default=False)
    # A computer plays this seat for its absent player, who may take it back (unless they resigned).
    substitute = models.BooleanField(default=False)
    # A rematch keeps the seat for this player until they accept.
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    joined_at = models.DateTimeField(null=True, blank=True)

    class Left(models.TextChoices):
        STAYED = "", _("Played to the end")
        RESIGNED = "resigned", _("Resigned")
        TIMED_OUT = "timed_out", _("Ran out of time")

    left = models.CharField(max_length=12, choices=Left.choices, blank=True, default="")

    class Outcome(models.TextChoices):
        WIN = "win", _("Won")
        LOSS = "loss", _("Lost")
        DRAW = "draw", _("Draw")

    outcome = models.CharField(max_length=8, choices=Outcome.choices, blank=True)
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.number}"

    @property
    def resigned(self) -> bool:
        return self.left == self.Left.RESIGNED

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.is_bot

    def display_name(self) -> str:
        if self.is_bot and self.user_id is not None:
            return str(_("%(name)s (computer substitute)") % {"name": self.user.username})
        if self.is_bot:
            return str(_("Computer %(n)s") % {"n": LocalNumber(self.number + 1)})
        if self.user_id is None:
            return str(_("Open seat"))
        return self.user.username

    def listed_name(self) -> str:
        """The name in seat lists: a computer player's level shows beside it, e.g. "Computer 2 (hard)"."""
        if self.is_bot and self.user_id is None:
            return str(_("%(name)s (%(level)s)") % {"name": self.display_name(), "level": self.get_bot_level_display()})
        return self.display_name()


class ChatMessage(models.Model):
    """A line of a match's chat: players write, spectators read."""

    MAX_LENGTH = 500

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["match", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Notice(models.Model):
    """Something to tell a player by email (their turn, a match started or ended, a deadline near)."""

    class Kind(models.TextChoices):
        TURN = "turn", _("Your turn")
        STARTED = "started", _("Match started")
        ENDED = "ended", _("Match ended")
        DEADLINE = "deadline", _("Deadline near")
        TIMEOUT = "timeout", _("Time ran out")
        CHALLENGE = "challenge", _("You are challenged")
        DECLINED = "declined", _("Challenge declined")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    created_at = models.DateTimeField()
    # Set once the notice was emailed, folded into a digest, or found no longer worth sending.
    handled_at = models.DateTimeField(null=True, blank=True)
    emailed = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["handled_at", "user"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user} in {self.match}"


class Move(models.Model):
    """One accepted action (the engine's ``Action``) of the match's log. Append-only: replaying the
    log from the seed reproduces every state."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The link of the chained log (games.record.fairplay.link): covers the previous move's digest, this action,
    # seat and seq, and a salted digest of the state it produced. Empty for moves of unchained matches
    # (the database's default, so a row written without it is unchained, never null).
    digest = models.CharField(max_length=64, blank=True, db_default="")

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="move_seq_unique")]

    def __str__(self) -> str:
        return f"{self.match} #{self.seq}"


class Rating(models.Model):
    """A player's current rating in one game (openskill's Plackett-Luce model, see games/record/ratings.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    rated_matches = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-mu"])]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.mu:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: the rating history, and the result screen's deltas."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # The match's finishing time: the order in which ratings are (re)computed.
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "match_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_rating_change_per_match")]
        indexes = [models.Index(fields=["user", "game", "at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.mu_before:.2f}->{self.mu_after:.2f}"


class Challenge(models.Model):
    """A seat kept for a named player (a challenge or a rematch offer), and their answer.

    The seat's ``reserved_for`` is what lets them in; this row is what their inbox lists and what
    tells the challenger how it was answered.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="challenges")
    seat = models.PositiveSmallIntegerField()
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    is_rematch = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["challenged", "status"])]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.challenged} in {self.match}"


class Seek(models.Model):
    """A player's request for a match with whoever asks for the same (Play now); paired by
    ``games.services.pairing``, which alone changes its status."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for opponents")
        PAIRED = "paired", _("Paired")
        CANCELLED = "cancelled", _("Cancelled")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    # Time allowed per move, in seconds; None: no limit (as ``Match.pace_seconds``).
    pace_seconds = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    # The player's rating in the game when they asked (the 1500 scale); the window is centred on it.
    rating = models.IntegerField()
    # When they asked: the rating window widens from here. Set by the service, so tests can fake time.
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # In a team game, the player to sit with as partners; they pair once that player's seek names this one.
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="partner_seeks"
    )
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["status", "game", "players", "created_at"]),
            models.Index(fields=["user", "status"]),
        ]

    def __str__(self) -> str:
        return f"{self.user} seeks {self.game} for {self.players} ({self.status})"

    @property
    def game_name(self) -> str:
        from games import registry

        return registry.get(self.game).name

    @property
    def pace_label(self) -> str:
        return paces.label(self.pace_seconds)


class Follow(models.Model):
    """``follower`` follows ``followed``: listed on the follower's people page, with presence."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="follow_once")]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no challenges or chat from them, never paired with them."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class Analysis(models.Model):
    """The post-game analysis of a finished match (``games.background.analysis``): one per match, made in the
    background worker, then shown to everyone who may see the match."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the analysis worker")
        RUNNING = "running", _("Being analysed")
        DONE = "done", _("Analysed")
        FAILED = "failed", _("The analysis failed")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="analysis")
    # Whose daily allowance it used; an automatic analysis of a match against the computer counts for
    # its player too, so the allowance bounds what one account costs however it asks.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="analyses"
    )
    automatic = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # Decisions analysed so far and in all; the records of those done (saved after each one).
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    records = models.JSONField(default=list)
    nodes = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A worker that claimed the analysis holds it until then; a crashed worker's claim expires and the
    # analysis goes on from the last record saved.
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"]), models.Index(fields=["requested_by", "created_at"])]

    def __str__(self) -> str:
        return f"analysis of {self.match_id}"

    @property
    def percent(self) -> int:
        return 100 * self.done // self.total if self.total else 0
