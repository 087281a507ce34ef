from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.forms import AdminUserChangeForm, AdminUserCreationForm
from accounts.models import User


@admin.register(User)
class TurnwiseUserAdmin(UserAdmin):
    # Staff renaming or adding a player meet the same look-alike check as sign-up.
    form = AdminUserChangeForm
    add_form = AdminUserCreationForm
