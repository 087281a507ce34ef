from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from games import registry
from games.models import Match, Seat


class NewMatchForm(forms.Form):
    OPPONENT_CHOICES = [("human", _("A person (invite or lobby)")), ("bot", _("Computer player"))]

    game = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(label=_("Number of players"), min_value=2, initial=2)
    pace = forms.TypedChoiceField(
        label=_("Time per move"),
        coerce=lambda v: int(v) if v else None,
        empty_value=None,
        required=False,
        help_text=_(
            "When a player runs out of time, a two-player opponent may claim the win; in DOS and "
            "Back Alley a computer substitute plays the seat until its player returns."
        ),
    )
    is_public = forms.BooleanField(
        label=_("List in the lobby (anyone may join or watch)"), required=False, initial=True
    )
    rated = forms.BooleanField(
        label=_("Rated (changes the players' ratings)"),
        required=False,
        help_text=_("Matches with computer players are always casual."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from games.services import PACES

        self.fields["pace"].choices = [("" if s is None else str(s), label) for s, label in PACES]
        games = registry.all_games()
        self.fields["game"].choices = [(g.slug, g.name) for g in games]
        most = max((g.max_players for g in games), default=2)
        fewest = min((g.min_players for g in games), default=2)
        self.fields["players"].widget.attrs.update({"min": fewest, "max": most})
        for n in range(1, most):
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=_("Seat %(n)d") % {"n": n + 1},
                choices=self.OPPONENT_CHOICES,
                initial="bot" if n == 1 else "human",
                widget=forms.RadioSelect,
                required=False,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = data.get("game")
        players = data.get("players")
        if game and players:
            spec = registry.get(game)
            if not spec.min_players <= players <= spec.max_players:
                if spec.min_players == spec.max_players:
                    msg = _("%(game)s is for exactly %(n)d players.") % {"game": spec.name, "n": spec.min_players}
                else:
                    msg = _("%(game)s is for %(min)d to %(max)d players.") % {
                        "game": spec.name,
                        "min": spec.min_players,
                        "max": spec.max_players,
                    }
                self.add_error("players", msg)
        if data.get("rated") and players and self.bot_seats():
            self.add_error(
                "rated",
                _("A match with computer players is always casual: untick Rated, or leave the seats to people."),
            )
        return data

    def bot_seats(self) -> set[int]:
        players = self.cleaned_data["players"]
        return {n for n in range(1, players) if self.cleaned_data.get(f"seat_{n}") == "bot"}

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("seat_")]


class HistoryFilterForm(forms.Form):
    """Narrow the history by game, opponent and result; an invalid filter is ignored, not an error page."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)
    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[("", _("Any result")), *Seat.Outcome.choices],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("Any game")), *((g.slug, g.name) for g in registry.all_games())]

    def apply(self, matches: QuerySet[Match], user: Any) -> QuerySet[Match]:
        if not self.is_bound or not self.is_valid():
            return matches
        data = self.cleaned_data
        if data["game"]:
            matches = matches.filter(game=data["game"])
        if data["opponent"]:
            matches = matches.filter(
                pk__in=Seat.objects.filter(user__username=data["opponent"]).exclude(user=user).values("match_id")
            )
        if data["result"]:
            matches = matches.filter(pk__in=Seat.objects.filter(user=user, outcome=data["result"]).values("match_id"))
        return matches

    def query(self) -> str:
        """The filters as a query string, for links to the other pages of the same list."""
        if not self.is_bound or not self.is_valid():
            return ""
        return urlencode({k: v for k, v in self.cleaned_data.items() if v})
