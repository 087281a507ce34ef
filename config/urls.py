from django.contrib import admin
from django.urls import include, path, register_converter

from accounts.language import choose_language, javascript_catalog
from accounts.push_views import service_worker
from config.converters import Name, RowId
from config.health import healthz, healthz_web, metrics_view

# Before the apps' URLconfs are included: they use these.
register_converter(RowId, "id")
register_converter(Name, "name")

urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    path("healthz/web/", healthz_web, name="healthz-web"),
    path("metrics", metrics_view, name="metrics"),
    path("sw.js", service_worker, name="service-worker"),
    path("jsi18n/<str:language>/", javascript_catalog, name="javascript-catalog"),
    path("language/", choose_language, name="set-language"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("tournaments/", include("tournaments.urls")),
    path("practice/reversi/", include("games.reversi.urls")),
    path("", include("games.urls")),
]
