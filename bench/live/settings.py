"""Settings for the benchmark's server: the site's own, plus a query counter and its read-out URL."""

from bench.live import querycount
from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.live.urls"
querycount.install()
