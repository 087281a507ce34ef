"""The site's URLs plus the benchmark's query read-out (only under bench.live.settings)."""

from django.urls import path

from bench.live.querycount import queries_view
from config.urls import urlpatterns as site_urlpatterns

urlpatterns = [path("__bench__/queries/", queries_view), *site_urlpatterns]
