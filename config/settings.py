"""Settings, read from the environment with safe defaults for a developer's machine."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.conf.locale import LANG_INFO
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-local-development-key-" + "x" * 32
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "accounts.admin_site.TurnwiseAdminConfig",  # django.contrib.admin, with the site of accounts.admin_site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    # Every game is an app of its own: a folder under games/ with a game.py (its definition), found
    # here rather than listed, so that adding a game is adding its folder (docs/adding-a-game.md).
    *sorted(f"games.{path.parent.name}" for path in (BASE_DIR / "games").glob("*/game.py")),
    "tournaments",
]

MIDDLEWARE = [
    "config.health.count_requests",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.account_language",
    "games.web.middleware.private_no_store",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as axes asks: turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.turns",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"))
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A pool halves latency (Django's pool needs CONN_MAX_AGE 0: a request hands its connection back).
        DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 2, "max_size": 10}}
    # Named explicitly: the browser tests' server process finds the test database by this name.
    DATABASES["default"]["TEST"] = {"NAME": "test_turnwise"}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
            # Kept open by the thread that opened it: every thread that reads the database lives as long
            # as the process, and there are a bounded number of them (config.asgi.RequestThreads; the
            # sockets', the sweeper's and the bots' threads), so a connection per request is set-up
            # (Django's functions, the pragmas) spent for nothing.
            "CONN_MAX_AGE": None,
            # The browser tests run daphne in another process, so the test database must be a file;
            # one per test run, so runs side by side do not delete each other's.
            "TEST": {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------------------------------
if os.environ.get("REDIS_URL"):
    # channels_redis' pub/sub layer: one PUBLISH per group message, which every subscribed process hands
    # to its own sockets; it can also tell whether a group has members (games.live.realtime.PubSubChannelLayer).
    # socket_timeout=None: redis-py 8 otherwise drops an idle connection after ~5 s.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.realtime.PubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": os.environ["REDIS_URL"], "socket_timeout": None, "max_connections": 1000}],
                "prefix": os.environ.get("CHANNELS_PREFIX", "turnwise"),
            },
        }
    }
else:
    # Channels' in-memory layer, without its cost per socket per message (see the class).
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.live.realtime.LocalChannelLayer"}}

# --- Accounts -------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# axes' backend first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

# Login throttling (django-axes, state in the database; see accounts/throttle.py and docs/deployment.md).
# Within a cool-off window, 5 failures for one account from one address lock that pair: a guesser gets
# 20 tries an hour per account and address, and a player elsewhere is never locked out by them. 20
# failures from one address, whatever the usernames, lock the address: spraying stops, while a
# household or school behind one address still has room for everyone's typos.
LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT", "5"))
LOGIN_FAILURES_PER_CLIENT = int(os.environ.get("LOGIN_FAILURES_PER_CLIENT", "20"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_HANDLER = "accounts.throttle.LoginThrottleHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], ["ip_address"]]
AXES_FAILURE_LIMIT = LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT
# Tries during a lock are not counted, so the time the page promises holds even if people retry.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
AXES_HTTP_RESPONSE_CODE = 429
# No table of every successful login: nothing here reads it, and it would grow without end.
AXES_DISABLE_ACCESS_LOG = True
# Client addresses come from REMOTE_ADDR unless a proxy header is named, e.g. X-Forwarded-For with
# the number of proxies in front that append to it. Never set it without such a proxy: clients could
# then pick their own address.
TRUSTED_PROXY_HEADER = os.environ.get("TRUSTED_PROXY_HEADER", "")
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))

if env_bool("FAST_PASSWORD_HASHER", False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Email: the console locally; in production SMTP once EMAIL_HOST names a server, sent apart from the
# background work and the requests (accounts.mail_delivery: a slow or hostile mail server never holds a
# computer move or a page), EMAIL_TIMEOUT seconds for each exchange with the server and
# EMAIL_DEADLINE_SECONDS for a whole message. With DEBUG off and no EMAIL_HOST, mail is dropped with one
# warning when the process starts (config.mail), rather than a ConnectionRefused traceback per notice
# from an SMTP server that is not there.
_email_backend = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else (
        "accounts.mail_delivery.EmailBackend"
        if os.environ.get("EMAIL_HOST")
        else "config.mail.UnconfiguredEmailBackend"
    ),
)
_email_options: dict[str, object] = {}
if _email_backend.endswith(("smtp.EmailBackend", "mail_delivery.EmailBackend")):
    _email_options = {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "25")),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", False),
        "timeout": float(os.environ.get("EMAIL_TIMEOUT", "10")),
    }
    if _email_backend.endswith("mail_delivery.EmailBackend"):
        _email_options["deadline"] = float(os.environ.get("EMAIL_DEADLINE_SECONDS", "60"))
MAILERS = {"default": {"BACKEND": _email_backend, "OPTIONS": _email_options}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Turnwise <noreply@localhost>")
# How many times an hour one account may download the archive of all its matches (games/web/record_views.py).
ARCHIVE_DOWNLOADS_PER_HOUR = int(os.environ.get("ARCHIVE_DOWNLOADS_PER_HOUR", "3"))
# How long the link that confirms a new email address works.
EMAIL_CHANGE_LINK_HOURS = int(os.environ.get("EMAIL_CHANGE_LINK_HOURS", "48"))

# --- Internationalisation -------------------------------------------------------------------------
LANGUAGE_CODE = "en"
# Each language named in its own script: a reader looks for the name they can read. Not translated,
# on purpose (the switcher must read the same in every language).
LANGUAGES = [("en", "English"), ("as", "অসমীয়া"), ("ne", "नेपाली")]
# Django knows no Assamese: describe it, so get_language_info() and the language tags work.
LANG_INFO.setdefault("as", {"bidi": False, "code": "as", "name": "Assamese", "name_local": "অসমীয়া"})
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The site's own strings (makemessages rewrites these), then the few Django strings the site shows,
# in a catalogue of their own so makemessages never wipes them (docs/i18n.md). Compiled by
# tools/compile_catalogues.py, which `make run` and `make test` call.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale_django"]
# Date formats for Assamese, which Django has none of (config/formats/as/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
# A signed-in player's language lives on the account (accounts.middleware); the cookie carries it for
# everyone else, after the browser's Accept-Language on the first visit.
LANGUAGE_COOKIE_NAME = "turnwise_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"

# --- Static files ---------------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic's target in production (served by the proxy, or by WhiteNoise without one); development
# serves from the finders.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or (None if DEBUG else BASE_DIR / "staticfiles")
WHITENOISE_USE_FINDERS = DEBUG
if env_bool("STATIC_HASHED_NAMES", not DEBUG):
    # Hashed names (app.3f2a9c1b7e4d.css) and a gzipped copy of each file: a proxy may then keep them
    # for a year (deploy/nginx/turnwise.conf), and a release changes the names the pages link to.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# --- Security -------------------------------------------------------------------------------------
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
# Django's database sessions, looked up with a query compiled once (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Asked over plain HTTP by the proxy and the supervisors on the machine itself, never by people: a
    # redirect to https would fail their checks.
    SECURE_REDIRECT_EXEMPT = [r"^healthz/", r"^metrics$"]

# --- Turnwise -------------------------------------------------------------------------------------
# Seconds a computer player waits before moving, so people see the move happen.
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))
# ... and before its next step when it acts again in the same turn.
BOT_FOLLOW_UP_DELAY_SECONDS = float(os.environ.get("BOT_FOLLOW_UP_DELAY_SECONDS", "0.3"))
# Compute computer moves in a separate process, so a search never holds up requests.
BOT_SEPARATE_PROCESS = env_bool("BOT_SEPARATE_PROCESS", True)
# Warm the bots up when their worker process starts (see games.background.bot_worker.start).
BOT_WARM_UP = env_bool("BOT_WARM_UP", True)
# Think time a computer player may spend on one move.
BOT_BUDGET_SECONDS = float(os.environ.get("BOT_BUDGET_SECONDS", "0.5"))
# Let the services create a match with options its new-match form does not offer (a stacked deck, a
# chosen dealer, a start position): tests only (tests/conftest.py turns it on). Never read from the
# environment: a real match is dealt from its seed (docs/fair-play.md).
ALLOW_TEST_SETUPS = False

# Post-game analyses one account may ask for (or get automatically) in 24 hours (games.background.analysis).
ANALYSES_PER_DAY = int(os.environ.get("ANALYSES_PER_DAY", "20"))
# Days a player may pause their clocks per calendar year.
VACATION_DAYS_PER_YEAR = int(os.environ.get("VACATION_DAYS_PER_YEAR", "21"))
# The site's address, for links in emails and push notifications. Pages build their links from the
# request instead, unless it is set explicitly (e.g. behind a proxy that rewrites the host).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
SITE_URL_SET = bool(os.environ.get("SITE_URL"))
# Web Push: the VAPID key pair (PEM private key, base64url public key) and contact; without them a
# key pair is made on first use and kept in the database.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:noreply@localhost")
# A push endpoint is an address a browser gives the server to contact later, so it must be one of the
# browser vendors' push services (accounts.push_delivery.KNOWN_HOSTS). A self-hosted push service is
# added here: comma-separated host patterns, "push.example.org" or "*.push.example.org" (any subdomain).
# Whatever the list says, only public addresses are ever contacted (checked when connecting).
WEB_PUSH_EXTRA_HOSTS = [
    pattern.strip().lower().rstrip(".")
    for pattern in os.environ.get("WEB_PUSH_EXTRA_HOSTS", "").split(",")
    if pattern.strip()
]
for _pattern in WEB_PUSH_EXTRA_HOSTS:  # a typo would silently refuse the operator's own push service
    if not re.fullmatch(r"(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*", _pattern):
        raise RuntimeError(f"WEB_PUSH_EXTRA_HOSTS: {_pattern!r} is not a host name or *.host.name pattern.")
# Test-only: the hosts of the tests' stand-in push service (tests/push_service.py), which may be reached over
# plain HTTP on a loopback address. Deliberately not read from the environment, so no deployment can turn it
# on by accident: tests set it with override_settings for the one host they listen on.
PUSH_TEST_LOOPBACK_HOSTS: frozenset[str] = frozenset()
# Run the computer-player loop inside the web process (off when a separate worker runs it).
BOT_RUNNER_IN_PROCESS = env_bool("BOT_RUNNER_IN_PROCESS", True)
# /metrics (Prometheus): answered to requests from these addresses (the socket peer: the proxy that
# forwards, or the collector on the machine), or with "Authorization: Bearer METRICS_TOKEN" when set.
METRICS_ALLOWED_IPS = [a for a in os.environ.get("METRICS_ALLOWED_IPS", "127.0.0.1,::1").split(",") if a]
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# /healthz/ reports the worker stale when its runner has not gone round its loop for this long.
WORKER_STALE_SECONDS = float(os.environ.get("WORKER_STALE_SECONDS", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "daphne": {"level": "WARNING"},
        # axes logs every failed login at INFO; lockouts are warnings.
        "axes": {"level": "WARNING"},
        "django.channels.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
