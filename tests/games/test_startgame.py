"""``manage.py startgame``: a sixth game made from the scaffold in a folder of its own (a temporary one,
on ``sys.path``) is a working game at once: the engine contract, the translation checks, its own tests
(rules, a match played through the services, its board's form, its rules and new-match pages) and the
every-page browser test all pass with it installed, and nothing outside its folder changed.

Each check runs as pytest does for the site, in a process of its own whose settings add the new app
(the one line a game outside games/ needs; one inside games/ is found by config/settings.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.core.management import CommandError, call_command

from tests.i18n import checks
from tools.compile_catalogues import compile_all

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SLUG = "sixth"


def git_status() -> str:
    if not shutil.which("git") or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout, to show that nothing outside the new folder changed")
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture(scope="module")
def apps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder on the path holding the new game's app, and settings that install it."""
    root = tmp_path_factory.mktemp("apps")
    before = git_status()
    call_command("startgame", SLUG, "--name", "Sixth", "--directory", str(root / SLUG), verbosity=0)
    assert git_status() == before, "startgame changed something outside the new game's folder"
    write_the_name_in_each_language(root / SLUG)
    for name, base in (("site_settings", "tests.settings"), ("browser_settings", "config.settings")):
        (root / f"{name}.py").write_text(
            f"from {base} import *  # noqa: F403\nfrom {base} import INSTALLED_APPS\n\n"
            f'INSTALLED_APPS = [*INSTALLED_APPS, "{SLUG}"]\n'
        )
    return root


# What a developer writes first: the game's name, which startgame leaves untranslated.
NAMES = {"as": "ষষ্ঠ", "ne": "छैटौं"}


def write_the_name_in_each_language(app: Path) -> None:
    for language, name in NAMES.items():
        path = app / "locale" / language / "LC_MESSAGES" / "django.po"
        # Until it is written, the translation checks name the one entry left to fill.
        assert checks.catalogue_problems(path, language) == ["django.po: 'Sixth' is not translated"]
        po = polib.pofile(str(path))
        po.find("Sixth").msgstr = name
        po.save()
        assert checks.catalogue_problems(path, language) == []
    compile_all(app, dirs=("locale",), force=True)


def pytest_run(apps: Path, settings: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(apps), str(ROOT)]), "FAST_PASSWORD_HASHER": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:randomly", f"--ds={settings}", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def test_the_scaffold_makes_a_whole_game_in_one_folder(apps: Path) -> None:
    app = apps / SLUG
    made = sorted(str(p.relative_to(app)) for p in app.rglob("*") if p.is_file())
    assert made == [
        "README.md",
        "__init__.py",
        "apps.py",
        "bot.py",
        "game.py",
        "locale/as/LC_MESSAGES/django.mo",
        "locale/as/LC_MESSAGES/django.po",
        "locale/ne/LC_MESSAGES/django.mo",
        "locale/ne/LC_MESSAGES/django.po",
        "migrations/0001_initial.py",
        "migrations/__init__.py",
        "models.py",
        "positions.py",
        "present.py",
        "rules.py",
        "static/sixth/style.css",
        "templates/sixth/board.html",
        "templates/sixth/rules.html",
        "tests/__init__.py",
        "tests/test_pages.py",
        "tests/test_rules.py",
        "text.py",
    ]
    assert 'name = "sixth"' in (app / "apps.py").read_text()
    assert 'name=_("Sixth")' in (app / "game.py").read_text()
    assert "class SixthMatch(Match):" in (app / "models.py").read_text()
    assert 'msgid "Sixth"' in (app / "locale" / "ne" / "LC_MESSAGES" / "django.po").read_text()
    # A new game starts on the kit: its seat checks and turn order, its state codec, its computer player.
    rules, bot = (app / "rules.py").read_text(), (app / "bot.py").read_text()
    assert "from games.kit.seats import check_seat, check_viewer, next_seat" in rules
    assert "CODEC = StateCodec(State" in rules and "def dump(" in rules and "return dump_state(state)" in rules
    assert "from games.kit.bots import one_ply" in bot and "return one_ply(" in bot


def test_a_bad_slug_or_an_existing_folder_is_refused(apps: Path) -> None:
    with pytest.raises(CommandError, match="lower-case letters and digits"):
        call_command("startgame", "Sixth-Game", "--directory", str(apps / "other"), verbosity=0)
    with pytest.raises(CommandError, match="exists and is not empty"):
        call_command("startgame", SLUG, "--directory", str(apps / SLUG), verbosity=0)


def test_the_new_game_passes_the_contract_the_translation_checks_and_its_own_tests(apps: Path) -> None:
    run = pytest_run(
        apps,
        "site_settings",
        "tests/games/test_engine_contract.py",
        "tests/i18n/test_catalogues.py",
        str(apps / SLUG / "tests"),
        "-k",
        SLUG,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = {line.split(" ", 1)[1] for line in run.stdout.splitlines() if line.startswith("PASSED ")}
    for test in (
        "test_random_playouts_end_and_replay_to_the_same_state",
        "test_dump_and_load_round_trip_through_json",
        "test_apply_accepts_exactly_the_legal_actions_and_a_refusal_changes_nothing",
        "test_a_view_depends_only_on_what_its_seat_may_know",
        "test_a_value_that_is_not_a_seat_is_refused_by_legal_actions_apply_and_view",
    ):
        assert f"tests/games/test_engine_contract.py::{test}[{SLUG}]" in passed
    for language in ("as", "ne"):
        assert (
            f"tests/i18n/test_catalogues.py::test_every_game_app_has_a_complete_catalogue_with_its_marked_messages"
            f"[{SLUG}-{language}]"
        ) in passed
    own = [test for test in passed if "test_pages.py::" in test or "test_rules.py::" in test]
    assert len(own) >= 10, own


def test_every_page_of_the_site_with_the_new_game_passes_in_a_browser(apps: Path) -> None:
    """The every-page browser test reads the registry: with the new game installed it opens its rules,
    new-match and challenge pages and a match of it in play and finished, on a phone, axe-checked."""
    run = pytest_run(apps, "browser_settings", "tests/e2e/test_every_page_e2e.py")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout
