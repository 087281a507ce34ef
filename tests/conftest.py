from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def django_active(config: pytest.Config) -> bool:
    """pytest-django is loaded, so Django is set up from tests/settings.py. Engine tests also run
    without it (``pytest -p no:django tests/games/reversi``, docs/engine-conventions.md): then nothing
    here may touch Django's settings, which are not configured (tests/test_engine_tests_without_django.py)."""
    return config.pluginmanager.has_plugin("django")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """pyproject.toml names the settings for pytest-django; without it the key is known all the same,
    so ``-p no:django`` runs without a warning about an unknown option."""
    if not pluginmanager.has_plugin("django"):
        parser.addini("DJANGO_SETTINGS_MODULE", "the Django settings module (read by pytest-django)")


def pytest_configure(config: pytest.Config) -> None:
    """Compiled translations, also when pytest runs without make (the controller only, not each xdist worker).

    Tests set up exact situations with options a real match never has (a stacked deck, a chosen dealer):
    the services accept them here only (tests/games/test_fairplay.py checks the refusal without it)."""
    if django_active(config):
        from django.conf import settings as django_settings

        django_settings.ALLOW_TEST_SETUPS = True
    else:
        # Known, so that a module marked for the database is collected and then skipped (below).
        config.addinivalue_line("markers", "django_db: needs the database (pytest-django)")
    if not hasattr(config, "workerinput"):
        from tools.compile_catalogues import compile_all

        compile_all()


# pytest-django's fixtures: a test that asks for one (itself or through a fixture of ours) needs Django.
DJANGO_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_setup",
        "client",
        "async_client",
        "admin_client",
        "admin_user",
        "rf",
        "async_rf",
        "settings",
        "live_server",
        "django_user_model",
        "django_assert_num_queries",
        "django_capture_on_commit_callbacks",
        "mailoutbox",
    }
)
NEEDS_DJANGO = "needs Django: run it without -p no:django"


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    """Without Django, a test module of a game's folder that imports the web side (its models, pages,
    services) cannot be imported: it is skipped, saying why, so ``-p no:django tests/games/<g>`` runs
    the engine tests of the folder. Only Django's own "not set up" errors count; any other error stays."""
    report = yield
    if report.failed and not django_active(collector.config) and isinstance(collector, pytest.Module):
        from django.core.exceptions import AppRegistryNotReady, ImproperlyConfigured

        call = getattr(report, "call", None)  # pytest keeps the CallInfo of the collection here
        if (
            call is not None
            and call.excinfo is not None
            and call.excinfo.errisinstance((ImproperlyConfigured, AppRegistryNotReady))
        ):
            report.outcome = "skipped"
            report.longrepr = (str(collector.path), 0, f"Skipped: {NEEDS_DJANGO}")
            report.result = []
    return report


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without Django, a test that needs the database or one of pytest-django's fixtures is skipped."""
    if django_active(config):
        return
    skip = pytest.mark.skip(reason=NEEDS_DJANGO)
    for item in items:
        if item.get_closest_marker("django_db") or DJANGO_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """pytest-django's, and before the test database is dropped the other threads that reached it
    close their connections: asgiref's thread for ``sync_to_async`` and the site's request (and archive) threads.
    On PostgreSQL, Django's pool closes only the connections handed back to it, so a connection those
    threads still held kept the database from being dropped ("being accessed by other users")."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from config.asgi import django_asgi_app

    threads = (*django_asgi_app.threads.executors, *django_asgi_app.archive_threads.executors)
    for executor in (SyncToAsync.single_thread_executor, *threads):
        executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def _default_language(request: pytest.FixtureRequest) -> None:
    """Every test starts in the default language: a request leaves the language it was served in
    active in its thread (LocaleMiddleware never deactivates it), and a test in Nepali would
    otherwise change how the next one in that thread renders numbers and words. Without Django
    (``-p no:django``) no language can be active, so there is nothing to reset."""
    if not django_active(request.config):
        return
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _bots_count_their_work_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer players' wall-clock deadline is off: on a busy test host it would cut searches
    short at random, and tests assert exact work counts and the same move for the same seed.
    tests/games/test_bot_deadlines.py turns it on, with a fake clock."""
    from games.support import deadline

    monkeypatch.setattr(deadline, "ENFORCED", False)


@pytest.fixture
def make_user(django_user_model: Any) -> Any:
    def make(username: str) -> Any:
        # A settled account: its address proven (accounts.verification), so mail may reach it.
        return django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password="correct horse battery", email_verified=True
        )

    return make


@pytest.fixture
def alice(make_user: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Any) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(make_user: Any) -> Any:
    """The outsider: holds no seat in the matches of the tests."""
    return make_user("carol")


@pytest.fixture
def reversi_match(alice: Any, bob: Any) -> Any:
    """Alice (Black, seat 0) against Bob (White, seat 1), started, Black to move."""
    from games import services

    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


@pytest.fixture(autouse=True)
def _finished_matches_replay_to_their_stored_state(request: pytest.FixtureRequest) -> Any:
    """After every database test: each finished match's log, replayed from its seed, gives its stored state."""
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    request.getfixturevalue("_django_db_helper")  # set up first, so this check runs before the flush
    yield
    from games.models import Match
    from games.read.replay import replays_to_stored_state

    for match in Match.objects.filter(status=Match.Status.FINISHED, move_count__gt=0):
        assert replays_to_stored_state(match), f"match {match.pk} does not replay to its stored state"
