"""Card faces (docs/design.md, "Faces"): every card drawn as SVG from the shared sprite keeps a text name
in the page's language; the jokers print their names, not "BB"/"LB"; every DOS colour has its own
shape; nothing carries a style attribute (the CSP forbids them)."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.backalley import present as ba_present
from games.dos import present as dos_present

LANGUAGES = ("en", "as", "ne")
HIDDEN_NAME = re.compile(r'<span class="visually-hidden">([^<]+)</span>')


def dos_face(code: str, lang: str) -> str:
    with translation.override(lang):
        return render_to_string("dos/_card.html", {"c": dos_present.card(code)})


def ba_face(code: str, lang: str) -> str:
    with translation.override(lang):
        return render_to_string("backalley/_card.html", {"c": ba_present.card(code)})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", ["R7", "G10", "B#", "Y1", "W2"])
def test_a_dos_card_is_an_svg_face_with_its_name_in_the_pages_language(code: str, lang: str) -> None:
    html = dos_face(code, lang)
    with translation.override(lang):
        name = dos_present.card(code)["name"]
    assert HIDDEN_NAME.findall(html) == [name]
    assert "<svg" in html and f'data-card="{code}"' in html
    # The colour's shape is drawn (a wild card its four-colour ring): never hue alone.
    assert f"faces.svg#dos-{code[0]}" in html or (code == "W2" and "faces.svg#dos-wild-ring" in html)
    assert "style=" not in html


def test_dos_names_differ_by_language() -> None:
    names = {lang: HIDDEN_NAME.findall(dos_face("R7", lang))[0] for lang in LANGUAGES}
    assert len(set(names.values())) == 3


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", ["BB", "LB"])
def test_a_joker_prints_its_name_in_the_pages_language_not_its_code(code: str, lang: str) -> None:
    html = ba_face(code, lang)
    with translation.override(lang):
        name = ba_present.card(code)["name"]
    printed = " ".join(re.findall(r'<text [^>]*class="ba-art-name"[^>]*>([^<]+)</text>', html))
    assert printed == name
    assert f">{code}<" not in html
    assert HIDDEN_NAME.findall(html) == [name]
    assert "style=" not in html


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("code", "suit"), [("QH", "H"), ("10S", "S"), ("2D", "D"), ("AC", "C")])
def test_a_back_alley_card_draws_its_suit_and_keeps_its_name(code: str, suit: str, lang: str) -> None:
    html = ba_face(code, lang)
    with translation.override(lang):
        name = ba_present.card(code)["name"]
    assert f"faces.svg#suit-{suit}" in html
    assert HIDDEN_NAME.findall(html) == [name]
    assert "style=" not in html
