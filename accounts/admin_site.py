"""The site's admin: Django's, with its "change my password" page checking the old password through
the login throttle like every other form that checks a password."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest, HttpResponse
from django.urls import reverse


class TurnwiseAdminSite(admin.AdminSite):
    def password_change(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # What AdminSite.password_change does, with the throttled view and form.
        from accounts.forms import ThrottledAdminPasswordChangeForm
        from accounts.views import PasswordChangeView

        request.current_app = self.name
        return PasswordChangeView.as_view(
            form_class=ThrottledAdminPasswordChangeForm,
            success_url=reverse("admin:password_change_done", current_app=self.name),
            extra_context={**self.each_context(request), **(extra_context or {})},
        )(request)


class TurnwiseAdminConfig(AdminConfig):
    """django.contrib.admin with the site above (named in INSTALLED_APPS in its place)."""

    default_site = "accounts.admin_site.TurnwiseAdminSite"
