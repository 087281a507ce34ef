from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import registry
from games.models import Match, Seat
from games.registry import GameOption
from games.support.i18n import LocalNumber
from games.support.paces import PACES

# What happens when a player's time runs out, by the game's ``timeout_policy``.
TIMEOUT_HELP = {
    "claim": _("When a player runs out of time, the opponent may claim the win."),
    "substitute": _("When a player runs out of time, a computer substitute plays the seat until its player returns."),
}


def game_slug(value: Any) -> str:
    """The game a form is for: the one asked for if it exists, else the default."""
    slugs = {g.slug for g in registry.all_games()}
    return value if value in slugs else registry.default_game().slug


class NewMatchForm(forms.Form):
    """A new match of one game: only that game's player counts, seats and options are offered, so every
    combination the form allows can be created."""

    OPPONENT_CHOICES = [("bot", _("Computer player")), ("human", _("A person (invite or lobby)"))]

    game = forms.ChoiceField(label=_("Game"))
    pace = forms.TypedChoiceField(
        label=_("Time per move"),
        coerce=lambda v: int(v) if v else None,
        empty_value=None,
        required=False,
    )
    is_public = forms.BooleanField(
        label=_("List in the lobby (anyone may join or watch)"), required=False, initial=True
    )
    rated = forms.BooleanField(
        label=_("Rated (changes the players' ratings)"),
        required=False,
        help_text=_("Matches with computer players are always casual."),
    )

    def __init__(
        self, data: Mapping[str, Any] | None = None, *, game: str, initial: Mapping[str, Any] | None = None
    ) -> None:
        self.spec = registry.get(game)
        initial = {**(initial or {}), "game": game}
        super().__init__(data, initial=initial)
        self.fields["pace"].choices = [("" if s is None else str(s), label) for s, label in PACES]
        self.fields["pace"].help_text = TIMEOUT_HELP[self.spec.timeout_policy]
        self.fields["game"].choices = [(g.slug, g.name) for g in registry.all_games()]
        spec = self.spec
        counts = list(range(spec.min_players, spec.max_players + 1))
        if len(counts) == 1:
            wrong_count = _("%(game)s is for exactly %(n)s players.") % {
                "game": spec.name,
                "n": LocalNumber(spec.min_players),
            }
        else:
            wrong_count = _("%(game)s is for %(min)s to %(max)s players.") % {
                "game": spec.name,
                "min": LocalNumber(spec.min_players),
                "max": LocalNumber(spec.max_players),
            }
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Number of players"),
            choices=[(str(n), LocalNumber(n)) for n in counts],
            coerce=int,
            initial=str(spec.min_players),
            error_messages={"invalid_choice": wrong_count},
        )
        if len(counts) == 1:
            self.fields["players"].widget = forms.HiddenInput()
        if not self.is_bound:
            # A count carried over from another game's form is replaced by one this game allows.
            self.initial["players"] = str(self.player_count())
        for n in range(1, self.player_count()):
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=self.seat_label(n),
                choices=self.OPPONENT_CHOICES,
                initial="bot",
                widget=forms.RadioSelect,
                required=False,
            )
            self.fields[f"level_{n}"] = forms.ChoiceField(
                label=_("Level"), choices=Seat.BotLevel.choices, initial=Seat.BotLevel.MEDIUM, required=False
            )
            # A person needs no computer level: its menu is disabled while "A person" is chosen (as the form
            # is drawn here; static/js/turnwise.js keeps it so as the choice changes).
            source = self.data if self.is_bound else self.initial
            self.fields[f"level_{n}"].disabled = source.get(f"seat_{n}") == "human"
        for option in self.options_offered():
            self.fields[f"option_{option.key}"] = forms.ChoiceField(
                label=option.label, choices=option.choices, initial=option.initial, help_text=option.help_text
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("rated") and data.get("players") and self.bot_seats():
            self.add_error(
                "rated",
                _("A match with computer players is always casual: untick Rated, or leave the seats to people."),
            )
        return data

    def player_count(self) -> int:
        """The players the form is drawn for: as submitted or asked for, if this game allows it."""
        source = self.data if self.is_bound else self.initial
        try:
            wanted = int(source.get("players", ""))
        except (TypeError, ValueError):
            wanted = self.spec.min_players
        return wanted if self.spec.min_players <= wanted <= self.spec.max_players else self.spec.min_players

    def seat_label(self, n: int) -> str:
        label = str(_("Seat %(n)s") % {"n": LocalNumber(n + 1)})
        if self.spec.seat_label:
            label += f" ({self.spec.seat_label(n)})"
        return label

    def you_label(self) -> str:
        return self.seat_label(0)

    def options_offered(self) -> tuple[GameOption, ...]:
        return self.spec.options

    def clean_game(self) -> str:
        game = self.cleaned_data["game"]
        if game != self.spec.slug:
            raise forms.ValidationError(_("The game changed while the form was sent; check the seats and send again."))
        return game

    def bot_seats(self) -> set[int]:
        players = self.cleaned_data["players"]
        return {n for n in range(1, players) if self.cleaned_data.get(f"seat_{n}") == "bot"}

    def bot_levels(self) -> dict[int, str]:
        return {n: self.cleaned_data.get(f"level_{n}") or Seat.BotLevel.MEDIUM for n in self.bot_seats()}

    def options(self) -> dict[str, Any]:
        return {o.key: o.coerce(self.cleaned_data[f"option_{o.key}"]) for o in self.options_offered()}

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{n}"], self[f"level_{n}"]) for n in range(1, self.player_count())]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{o.key}"] for o in self.options_offered()]


class ChallengeForm(NewMatchForm):
    """A challenge from a profile: the new-match form's game, players, pace, rated or casual and options,
    with seat 2 kept for the challenged person and the match private.

    A choice left out takes the new-match form's default, so a bare "challenge to this game" (the
    profile's one-click form) is a valid challenge: two players, or computer players in any seats past
    the second, no time limit, casual.
    """

    CHALLENGED_SEAT = 1
    OPPONENT_CHOICES = [("bot", _("Computer player")), ("human", _("A person you invite"))]

    def __init__(
        self, data: Mapping[str, Any] | None = None, *, game: str, initial: Mapping[str, Any] | None = None
    ) -> None:
        if data is not None:
            data = data.copy()  # a QueryDict's copy is mutable
        super().__init__(data, game=game, initial=initial)
        del self.fields["is_public"]
        del self.fields[f"seat_{self.CHALLENGED_SEAT}"], self.fields[f"level_{self.CHALLENGED_SEAT}"]
        if data is not None:
            for name, field in self.fields.items():
                if name not in data and field.initial is not None and not isinstance(field, forms.BooleanField):
                    data[name] = field.initial

    def bot_seats(self) -> set[int]:
        players = self.cleaned_data["players"]
        return {n for n in range(self.CHALLENGED_SEAT + 1, players) if self.cleaned_data.get(f"seat_{n}") == "bot"}

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{n}"], self[f"level_{n}"]) for n in range(self.CHALLENGED_SEAT + 1, self.player_count())]

    def challenged_label(self) -> str:
        return self.seat_label(self.CHALLENGED_SEAT)


def refreshed_initial(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a form redrawn for another game or player count keeps of what was filled in."""
    initial = {key: data.get(key) for key in data if key != "csrfmiddlewaretoken"}
    initial["is_public"] = "is_public" in data
    initial["rated"] = "rated" in data
    return initial


class HistoryFilterForm(forms.Form):
    """Narrow the history by game, opponent and result; an invalid filter is ignored, not an error page."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)
    computer = forms.BooleanField(label=_("Against a computer player"), required=False)
    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[("", _("Any result")), *Seat.Outcome.choices],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("Any game")), *((g.slug, g.name) for g in registry.all_games())]

    def apply(self, matches: QuerySet[Match], user: User) -> QuerySet[Match]:
        if not self.is_bound or not self.is_valid():
            return matches
        data = self.cleaned_data
        if data["game"]:
            matches = matches.filter(game=data["game"])
        if data["opponent"]:
            # As a player types a name they have seen: "Bob" finds bob (sign-up keeps names unique
            # regardless of case, so this is one person).
            matches = matches.filter(
                pk__in=Seat.objects.filter(user__username__iexact=data["opponent"])
                .exclude(user=user)
                .values("match_id")
            )
        if data["computer"]:
            # A computer player's own seat; not a computer substitute playing for an absent person.
            matches = matches.filter(pk__in=Seat.objects.filter(is_bot=True, user__isnull=True).values("match_id"))
        if data["result"]:
            matches = matches.filter(pk__in=Seat.objects.filter(user=user, outcome=data["result"]).values("match_id"))
        return matches

    def query(self) -> str:
        """The filters as a query string, for links to the other pages of the same list."""
        if not self.is_bound or not self.is_valid():
            return ""
        return urlencode({k: v for k, v in self.cleaned_data.items() if v})


class PlayNowForm(forms.Form):
    """Play now for one game: how many players, the pace, rated or casual; nothing else to choose
    (the others are whoever asks for the same)."""

    pace = forms.TypedChoiceField(
        label=_("Time per move"), coerce=lambda v: int(v) if v else None, empty_value=None, required=False
    )
    rated = forms.BooleanField(label=_("Rated (changes the players' ratings)"), required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, *, game: str) -> None:
        self.spec = registry.get(game)
        # Several of these forms share a page: the ids carry the game.
        super().__init__(data, auto_id=f"play-{game}-%s", initial={"pace": str(24 * 3600)})
        self.fields["pace"].choices = [("" if s is None else str(s), label) for s, label in PACES]
        counts = range(self.spec.min_players, self.spec.max_players + 1)
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Number of players"),
            choices=[(str(n), LocalNumber(n)) for n in counts],
            coerce=int,
            initial=str(self.spec.min_players),
            widget=forms.HiddenInput if len(counts) == 1 else forms.Select,
        )
        if self.spec.teams:
            self.fields["partner"] = forms.CharField(
                label=_("Partner (optional)"),
                required=False,
                max_length=150,
                help_text=_("A player's username: you sit together once they ask for the same match naming you."),
                widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}),
            )
        self.order_fields(["players", "pace", "rated", "partner"])
