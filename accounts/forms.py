from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Optional; needed to reset a forgotten password.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "email_turns")
        widgets = {"email_turns": forms.RadioSelect}


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=366, initial=7)
