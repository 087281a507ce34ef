from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminPasswordChangeForm
from django.contrib.auth import authenticate
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import usernames
from accounts.models import User
from games.support.forms import LocalIntegerField


def check_username_look(username: str, *, exclude_pk: int | None = None) -> None:
    """Refuse a name that mixes scripts or looks like another player's; one query."""
    look_alike = (
        User.objects.filter(
            Q(username_skeleton=usernames.skeleton(username))
            | Q(username_glyph_skeleton=usernames.glyph_skeleton(username))
        )
        .exclude(pk=exclude_pk)
        .values_list("username", flat=True)
        .first()
    )
    if look_alike is not None:
        raise forms.ValidationError(
            _("“%(name)s” looks too much like the existing player “%(other)s”. Please choose another name."),
            code="look_alike",
            params={"name": username, "other": look_alike},
        )
    if usernames.is_mixed_script(username):
        raise forms.ValidationError(
            _(
                "Please use the letters of one writing system only (for example all Latin or all Devanagari): "
                "names that mix them can pass for other players' names."
            ),
            code="mixed_script",
        )


def is_current_password(request: HttpRequest, user: User, password: str) -> bool:
    """Whether ``password`` is ``user``'s, asked through authenticate() so that a wrong one counts
    toward the login throttle (accounts/throttle.py) and a locked pair is refused before any check:
    every form that checks a password goes through here or through the log-in form."""
    return authenticate(request, username=user.get_username(), password=password) == user


class LookAlikeCheckMixin:
    """For every form that sets a username: sign-up and the admin's add and change forms."""

    instance: User

    def clean_username(self) -> str | None:
        parent = getattr(super(), "clean_username", None)  # sign-up's also refuses names equal but for case
        username = parent() if parent else self.cleaned_data.get("username")
        if username:
            check_username_look(username, exclude_pk=self.instance.pk)
        return username


class SignUpForm(LookAlikeCheckMixin, UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Optional; needed to reset a forgotten password.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class AdminUserCreationForm(LookAlikeCheckMixin, auth_forms.AdminUserCreationForm):
    class Meta(auth_forms.AdminUserCreationForm.Meta):
        model = User


class AdminUserChangeForm(LookAlikeCheckMixin, auth_forms.UserChangeForm):
    class Meta(auth_forms.UserChangeForm.Meta):
        model = User


class NotificationSettingsForm(forms.ModelForm):
    # The address itself changes only through EmailChangeForm and a confirmation link.
    class Meta:
        model = User
        fields = ("email_turns",)
        widgets = {"email_turns": forms.RadioSelect}


class PlaySettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("confirm_moves",)
        widgets = {"confirm_moves": forms.RadioSelect}


class SoundSettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("sound",)


class EmailChangeForm(forms.Form):
    new_email = forms.EmailField(label=_("New email address"))
    password = forms.CharField(
        label=_("Your current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_new_email(self) -> str:
        new_email = User.objects.normalize_email(self.cleaned_data["new_email"])
        if new_email.casefold() == self.user.email.casefold():
            raise forms.ValidationError(_("That is already your address."), code="same")
        return new_email

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not is_current_password(self.request, self.user, password):
            raise forms.ValidationError(_("That is not your current password."), code="password_incorrect")
        return password


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, with the old password checked through the login throttle.

    Django's own form calls ``user.check_password``, which nothing counts: a stolen session could try
    passwords without end, then pass the email-change gate with the one it found.
    """

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        if not is_current_password(self.request, self.user, old_password):
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password


class ThrottledAdminPasswordChangeForm(ThrottledPasswordChangeForm, AdminPasswordChangeForm):
    """The admin's "change my password" form (the admin's look), throttled like the site's."""


class VacationForm(forms.Form):
    days = LocalIntegerField(label=_("Days"), min_value=1, max_value=366, initial=7)

    def __init__(self, *args: Any, days_left: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The range the field states and checks is what this person may still take this year, so the
        # form refuses 30 when 21 are left instead of accepting it for the service to refuse.
        field = self.fields["days"]
        field.max_value = max(field.min_value, min(field.max_value, days_left))
        field.initial = min(field.initial, field.max_value)
