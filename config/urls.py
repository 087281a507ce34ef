from django.contrib import admin
from django.urls import include, path

from accounts.push_views import service_worker

urlpatterns = [
    path("sw.js", service_worker, name="service-worker"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
