"""The Assamese and Nepali catalogues are complete and keep every placeholder; the sources' marked
messages are all in them; nothing people read is left unmarked in templates or Python.

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


@pytest.mark.parametrize("language", checks.LANGUAGES)
def test_every_marked_message_of_the_site_is_in_the_catalogue(language: str) -> None:
    marked = set()
    for path in checks.template_files():
        marked |= set(checks.template_msgids(path))
    for path in checks.python_files():
        marked |= set(checks.python_msgids(path))
    path = checks.ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path}: missing (manage.py makemessages -l {language})"
    missing = sorted(marked - checks.catalogue_keys(path), key=str)
    assert missing == [], f"not in {path} (run makemessages and translate): {missing}"


@pytest.mark.parametrize("language", checks.LANGUAGES)
def test_every_javascript_message_is_in_the_javascript_catalogue(language: str) -> None:
    path = checks.ROOT / "locale" / language / "LC_MESSAGES" / "djangojs.po"
    assert path.exists(), f"{path}: missing (manage.py makemessages -d djangojs -l {language})"
    assert sorted(checks.javascript_msgids() - checks.catalogue_keys(path), key=str) == []


def test_the_django_catalogue_holds_exactly_the_listed_django_messages() -> None:
    wanted = {django_core_catalogue.key(entry) for entry in django_core_catalogue.source_entries()}
    for language in checks.LANGUAGES:
        assert checks.catalogue_keys(django_core_catalogue.path_for(language)) == wanted


@pytest.mark.parametrize("path", checks.template_files(), ids=lambda p: str(p.relative_to(checks.ROOT)))
def test_no_template_text_is_left_unmarked(path: Path) -> None:
    assert checks.unmarked_template_text(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", checks.python_files(), ids=lambda p: str(p.relative_to(checks.ROOT)))
def test_no_python_message_is_left_unmarked(path: Path) -> None:
    assert checks.unmarked_python(path.read_text(encoding="utf-8")) == []
