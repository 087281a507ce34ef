"""The Assamese and Nepali catalogues are complete and keep every placeholder; the sources' marked
messages are all in them; nothing people read is left unmarked in templates or Python.

Each game app (the site's and the example game, Nim) keeps its own strings in its own catalogue
(``<app>/locale/<lang>/LC_MESSAGES/django.po``); the site's catalogue (locale/) holds the rest.

The catalogue tests pass once the translators' catalogues are merged (locale/<lang>/LC_MESSAGES);
tests/i18n/test_checks.py shows on small samples that each check catches what it is for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n import checks
from tools import django_core_catalogue

CATALOGUES = [
    Path("locale") / "{lang}" / "LC_MESSAGES" / "django.po",
    Path("locale") / "{lang}" / "LC_MESSAGES" / "djangojs.po",
    Path("locale_django") / "{lang}" / "LC_MESSAGES" / "django.po",
]


@pytest.mark.parametrize("language", checks.LANGUAGES)
@pytest.mark.parametrize("catalogue", CATALOGUES, ids=["site", "javascript", "django"])
def test_every_message_has_a_confirmed_translation_with_its_placeholders(language: str, catalogue: Path) -> None:
    path = checks.ROOT / str(catalogue).format(lang=language)
    assert checks.catalogue_problems(path, language) == []


GAME_APPS = checks.game_apps()


@pytest.mark.parametrize("language", checks.LANGUAGES)
def test_every_marked_message_of_the_site_is_in_the_catalogue(language: str) -> None:
    marked = set()
    for path in checks.core_files(checks.template_files()):
        marked |= set(checks.template_msgids(path))
    for path in checks.core_files(checks.python_files()):
        marked |= set(checks.python_msgids(path))
    path = checks.ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path}: missing (manage.py makemessages -l {language})"
    missing = sorted(marked - checks.catalogue_keys(path), key=str)
    assert missing == [], f"not in {path} (run makemessages and translate): {missing}"


def test_every_game_app_is_read_the_example_game_too() -> None:
    assert {"reversi", "dos", "tacocat", "backalley", "nim"} <= set(GAME_APPS)


@pytest.mark.parametrize("language", checks.LANGUAGES)
@pytest.mark.parametrize("slug", sorted(GAME_APPS))
def test_every_game_app_has_a_complete_catalogue_with_its_marked_messages(slug: str, language: str) -> None:
    """A game brings its own translations: its messages are in its app's catalogue (or, when the site
    shares them, "It is not your turn.", in the site's), each confirmed, with its placeholders."""
    app = GAME_APPS[slug]
    own = checks.app_catalogue(app, language)
    assert checks.catalogue_problems(own, language) == []
    site = checks.catalogue_keys(checks.ROOT / "locale" / language / "LC_MESSAGES" / "django.po")
    missing = sorted(checks.app_msgids(app) - checks.catalogue_keys(own) - site, key=str)
    assert missing == [], f"not in {own} (add them with their {language} translations): {missing}"


@pytest.mark.parametrize("language", checks.LANGUAGES)
def test_every_javascript_message_is_in_the_javascript_catalogue(language: str) -> None:
    path = checks.ROOT / "locale" / language / "LC_MESSAGES" / "djangojs.po"
    assert path.exists(), f"{path}: missing (manage.py makemessages -d djangojs -l {language})"
    assert sorted(checks.javascript_msgids() - checks.catalogue_keys(path), key=str) == []


def test_the_django_catalogue_holds_exactly_the_listed_django_messages() -> None:
    wanted = {django_core_catalogue.key(entry) for entry in django_core_catalogue.source_entries()}
    for language in checks.LANGUAGES:
        assert checks.catalogue_keys(django_core_catalogue.path_for(language)) == wanted


def relative(path: Path) -> str:
    return str(path.relative_to(checks.ROOT)) if path.is_relative_to(checks.ROOT) else str(path)


APP_TEMPLATES = sorted({p for app in GAME_APPS.values() for p in checks.app_template_files(app)})
APP_PYTHON = sorted({p for app in GAME_APPS.values() for p in checks.app_python_files(app)})


@pytest.mark.parametrize("path", sorted({*checks.template_files(), *APP_TEMPLATES}), ids=relative)
def test_no_template_text_is_left_unmarked(path: Path) -> None:
    assert checks.unmarked_template_text(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", sorted({*checks.python_files(), *APP_PYTHON}), ids=relative)
def test_no_python_message_is_left_unmarked(path: Path) -> None:
    assert checks.unmarked_python(path.read_text(encoding="utf-8")) == []
