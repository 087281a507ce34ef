"""tools/localize_digits.py: the numbers of translated sentences in the locale's digits, and nothing a
machine reads or that is a code."""

from __future__ import annotations

import re
import unicodedata

import pytest

from tools.localize_digits import localize, localize_po, main

SCRIPT = {"as": "BENGALI", "ne": "DEVANAGARI"}
NAMES = ("ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")


def digits(expected: str, language: str) -> str:
    """``expected`` with each marked run of ASCII digits ("«108»") in the language's digits, looked
    up by their Unicode names (independently of the tool's table)."""

    def local(run: re.Match[str]) -> str:
        return "".join(unicodedata.lookup(f"{SCRIPT[language]} DIGIT {NAMES[int(d)]}") for d in run.group(1))

    return re.sub(r"«(\d+)»", local, expected)


@pytest.mark.parametrize(
    ("text", "assamese", "nepali"),
    [
        ("108 কাৰ্ড", "«108» কাৰ্ড", None),
        ("पहिले 200 अङ्क", None, "पहिले «200» अङ्क"),
        ("8\u00d78 ফলি", "«8»\u00d7«8» ফলি", None),
        ("8\u00d78 बोर्ड", None, "«8»\u00d7«8» बोर्ड"),
        ("25 मध्ये 1.5", None, "«25» मध्ये «1».«5»"),
    ],
)
def test_numbers_in_sentences_take_the_locale_digits(text: str, assamese: str | None, nepali: str | None) -> None:
    if assamese is not None:
        assert localize(text, "as") == digits(assamese, "as")
    if nepali is not None:
        assert localize(text, "ne") == digits(nepali, "ne")


@pytest.mark.parametrize(
    "kept",
    [
        "%(n)s",
        "%(count)d",
        "%(x)05.2f",
        "%s",
        "%d",
        "{}",
        "{0}",
        "{name}",
        "R7",
        "W2",
        "B10",
        "d4",
        "f5",
        "BA-13",
        "SHA-256",
        "UTF-8",
        "3D",
        '<h2 id="r-2" class="c3">',
        '<a href="/rules/dos/#r-2">',
        "&#215;",
        "&#x2014;",
        "<!-- 12 -->",
        "{% blocktranslate count n=2 %}",
        "{{ n|add:1 }}",
        "{# 3 #}",
        "<script>var a = 1;</script>",
        "<style>p { margin: 0 0 1em; }</style>",
        "https://example.com/a1/2",
        "\\n",
        '\\"',
        "{'type': 'duel', 'card': '7'}",
        "{'hand_size': 2..9, 'arrow': 'A'}",
        "['3', '12']",
        "'1'..'12'",
    ],
)
def test_codes_placeholders_markup_and_urls_stay_ascii(kept: str) -> None:
    for language in ("as", "ne"):
        assert localize(kept, language) == kept
        # Also inside a sentence, with prose digits on both sides.
        assert localize(f"1 {kept} 2", language) == f"{localize('1', language)} {kept} {localize('2', language)}"


def test_a_card_code_and_a_spoken_card_in_one_sentence() -> None:
    # The code stays; the number of the spoken card ("red 7") is prose.
    assert localize("R7 (रातो 7) मा 2 कार्ड", "ne") == digits("R7 (रातो «7») मा «2» कार्ड", "ne")
    assert localize("d4 আৰু e5 ত 4 টা গুটি", "as") == digits("d4 আৰু e5 ত «4» টা গুটি", "as")


def test_an_escape_is_not_a_latin_word() -> None:
    # In a .po string "\\n2" is a line break and then prose: the n is not a letter before the 2.
    assert localize("\\n2 कार्ड", "ne") == digits("\\n«2» कार्ड", "ne")


def test_only_msgstr_changes_in_a_catalogue() -> None:
    po = "\n".join(
        [
            'msgid ""',
            'msgstr ""',
            '"POT-Creation-Date: 2026-12-01 04:00+0000\\n"',
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
            "",
            "#: games/dos/apps.py:12",
            "#, python-format",
            'msgid "200 points, %(n)s cards"',
            digits('msgstr "«200» अङ्क, %(n)s कार्ड"', "ne"),
            "",
            'msgid ""',
            '"A long one with 108 cards "',
            '"and 2 more"',
            'msgstr ""',
            '"108 कार्ड "',
            '"र 2 थप"',
            "",
            'msgid "%(n)s card"',
            'msgid_plural "%(n)s cards"',
            'msgstr[0] "%(n)s कार्ड (1)"',
            'msgstr[1] "%(n)s कार्ड (2)"',
            "",
        ]
    )
    out = localize_po(po, "ne").split("\n")
    assert out[:4] == po.split("\n")[:4]  # the header's dates and plural formula are for machines
    assert out[7] == 'msgid "200 points, %(n)s cards"'
    assert out[8] == digits('msgstr "«200» अङ्क, %(n)s कार्ड"', "ne")
    assert out[11:13] == ['"A long one with 108 cards "', '"and 2 more"']
    assert out[14:16] == [digits('"«108» कार्ड "', "ne"), digits('"र «2» थप"', "ne")]
    assert out[19:21] == [digits('msgstr[0] "%(n)s कार्ड («1»)"', "ne"), digits('msgstr[1] "%(n)s कार्ड («2»)"', "ne")]
    assert out[5] == "#: games/dos/apps.py:12"


def test_it_is_idempotent() -> None:
    text = '<p id="p1">8 गुणा 8, d4 र 25 बाँडाइ %(n)s</p>'
    once = localize(text, "ne")
    assert once == digits('<p id="p1">«8» गुणा «8», d4 र «25» बाँडाइ %(n)s</p>', "ne")
    assert localize(once, "ne") == once


def test_the_committed_translations_are_already_rewritten() -> None:
    # The catalogues and rules pages in the repository need no rewriting (run the tool after editing them).
    assert main(["--check"]) == 0
