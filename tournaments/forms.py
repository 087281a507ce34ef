"""The organiser's form: every field a tournament needs; the services check the combinations."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import registry
from games.support.forms import LocalIntegerField
from games.support.paces import PACES
from tournaments.models import Tournament
from tournaments.services import MAX_ENTRIES, MAX_ROUNDS, ROUND_LENGTHS

ROUND_LENGTH_LABELS = {
    3600: _("1 hour"),
    24 * 3600: _("1 day"),
    3 * 24 * 3600: _("3 days"),
    7 * 24 * 3600: _("7 days"),
    14 * 24 * 3600: _("14 days"),
}


def _in_an_hour() -> str:
    return (timezone.localtime() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    game = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Tournament.Format.choices,
        help_text=_(
            "Reversi and Tacocat: Swiss or round-robin. DOS: tables. Back Alley: tables with rotating "
            "partners, or Swiss or round-robin between fixed partnerships."
        ),
    )
    rounds = LocalIntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        help_text=_("A round-robin plays as many rounds as it takes for everyone to meet."),
    )
    pace = forms.TypedChoiceField(label=_("Time per move"), coerce=int)
    round_length = forms.TypedChoiceField(
        label=_("Time per round"),
        coerce=int,
        initial=str(7 * 24 * 3600),
        help_text=_("When it runs out, whoever is still to move resigns, and the next round is paired."),
    )
    rated = forms.BooleanField(label=_("Rated (changes the players' ratings)"), required=False)
    starts_at = forms.DateTimeField(
        label=_("Start"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Registration closes then and round one is paired."),
    )
    min_entries = LocalIntegerField(label=_("Fewest entries"), min_value=2, max_value=MAX_ENTRIES, initial=4)
    max_entries = LocalIntegerField(label=_("Most entries"), min_value=2, max_value=MAX_ENTRIES, initial=16)
    is_public = forms.BooleanField(
        label=_("Public (anyone may enter; otherwise by invitation link)"), required=False, initial=True
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["game"].choices = [(g.slug, g.name) for g in registry.all_games()]
        self.fields["pace"].choices = [(str(s), label) for s, label in PACES if s is not None]
        self.fields["pace"].initial = str(24 * 3600)
        self.fields["round_length"].choices = [(str(s), ROUND_LENGTH_LABELS[s]) for s in ROUND_LENGTHS]
        if not self.is_bound:
            self.initial.setdefault("starts_at", _in_an_hour())
