"""The translation checks catch what they are for, shown on small sample catalogues and sources."""

from __future__ import annotations

import gettext
from pathlib import Path

import polib
import pytest

from tests.i18n import checks
from tools.compile_catalogues import compile_all

HEADER = {"Language": "ne", "Plural-Forms": "nplurals=2; plural=(n != 1);", "Content-Type": "text/plain; charset=UTF-8"}


def write(tmp_path: Path, *entries: polib.POEntry, metadata: dict[str, str] | None = None) -> Path:
    po = polib.POFile()
    po.metadata = dict(HEADER if metadata is None else metadata)
    for entry in entries:
        po.append(entry)
    path = tmp_path / "django.po"
    po.save(str(path))
    return path


def test_a_complete_catalogue_passes(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        polib.POEntry(msgid="Resign", msgstr="हार मान्नुहोस्"),
        polib.POEntry(msgid="%(name)s won.", msgstr="%(name)s जित्नुभयो।", flags=["python-format"]),
        polib.POEntry(
            msgid="%(n)s card", msgid_plural="%(n)s cards", msgstr_plural={0: "%(n)s पत्ता", 1: "%(n)s पत्ताहरू"}
        ),
        polib.POEntry(msgid="One match", msgid_plural="%(n)s matches", msgstr_plural={0: "एक खेल", 1: "%(n)s खेल"}),
    )
    assert checks.catalogue_problems(path, "ne") == []


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (polib.POEntry(msgid="Resign", msgstr=""), "not translated"),
        (polib.POEntry(msgid="Resign", msgstr="हार", flags=["fuzzy"]), "fuzzy"),
        (polib.POEntry(msgid="%(name)s won.", msgstr="जित्नुभयो।"), "placeholders"),
        (polib.POEntry(msgid="%(name)s won.", msgstr="%(naam)s जित्नुभयो।"), "placeholders"),
        (polib.POEntry(msgid="%s left", msgstr="%s %s बाँकी"), "placeholders"),
        (polib.POEntry(msgid="Seat {}", msgstr="सिट"), "placeholders"),
        (
            polib.POEntry(msgid="%(n)s card", msgid_plural="%(n)s cards", msgstr_plural={0: "%(n)s पत्ता", 1: ""}),
            "plural",
        ),
        (
            polib.POEntry(msgid="%(n)s card", msgid_plural="%(n)s cards", msgstr_plural={0: "x", 1: "%(m)s पत्ता"}),
            "placeholders",
        ),
    ],
)
def test_each_kind_of_mistake_is_caught(tmp_path: Path, entry: polib.POEntry, problem: str) -> None:
    problems = checks.catalogue_problems(write(tmp_path, entry), "ne")
    assert len(problems) == 1 and problem in problems[0]


def test_a_header_without_the_plural_rule_is_caught(tmp_path: Path) -> None:
    path = write(tmp_path, metadata={"Language": "ne", "Plural-Forms": "nplurals=INTEGER; plural=EXPRESSION;"})
    assert "Plural-Forms" in checks.catalogue_problems(path, "ne")[0]
    assert checks.catalogue_problems(tmp_path / "absent.po", "ne") == [f"{tmp_path / 'absent.po'}: missing"]


def test_placeholders_count_named_positional_and_braces_but_not_a_literal_per_cent() -> None:
    assert checks.placeholders("%(a)s and %(b)d, 50%% of %s, {} {name}") == sorted(
        ["%(a)s", "%(b)d", "%s", "{}", "{name}"]
    )


def test_unmarked_template_text_is_found_in_text_and_read_attributes_only() -> None:
    source = (
        '{% load i18n %}<p title="Hello">{% translate "Fine" %} Stray words</p>'
        '<img alt="{% translate \'Board\' %}"><a href="/x" class="brand">Turnwise</a>'
        "{% blocktranslate %}Also fine {{ x }}{% endblocktranslate %}{# a comment #}{% comment %}Notes{% endcomment %}"
        '<button type="submit" name="type" value="match">{% translate "Match" %}</button>'
        '<input type="submit" value="Go"><script>var s = "code";</script> — {{ n }} · 12'
    )
    assert checks.unmarked_template_text(source) == ["Hello", "Stray words", "Go"]


def test_marked_messages_of_templates_match_what_django_looks_up(tmp_path: Path) -> None:
    path = tmp_path / "t.html"
    path.write_text(
        '{% load i18n %}{% translate "Sum: %(sum)s." %}{% translate "Spade" context "card suit" %}'
        "{% blocktranslate count n=k %}{{ n }} card{% plural %}{{ n }} cards{% endblocktranslate %}"
        '{% include "x.html" with caption=_("A caption") %}',
        encoding="utf-8",
    )
    assert set(checks.template_msgids(path)) == {
        (None, "Sum: %%(sum)s."),
        ("card suit", "Spade"),
        (None, "%(n)s card"),
        (None, "A caption"),
    }


def test_unmarked_python_messages_are_found() -> None:
    source = """
from django.utils.translation import gettext as _
raise ValidationError("Plain words")
raise ValidationError(_("Marked"))
raise MatchError(f"Seat {n} is taken", "conflict")
raise IllegalAction(_("Not now: %(x)s") % {"x": 1})
raise IllegalAction("Also %s" % x)
messages.success(request, "Saved.")
messages.error(request, _("Marked too."))
field = forms.CharField(label="Name", help_text=_("Help"))
other = forms.CharField(label=_("Fine"))
log.info("For the operator, not for players")
raise MatchError(message)
"""
    found = [what for _line, what in checks.unmarked_python(source)]
    assert found == [
        "ValidationError('Plain words')",
        "MatchError(f'Seat {n} is taken')",
        "IllegalAction('Also %s' % x)",
        "messages.success('Saved.')",
        "label='Name'",
    ]


def test_compiled_catalogues_give_the_translations_and_leave_out_fuzzy_ones(tmp_path: Path) -> None:
    folder = tmp_path / "locale" / "ne" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    write(
        folder,
        polib.POEntry(msgid="Resign", msgstr="हार मान्नुहोस्"),
        polib.POEntry(msgid="Draw", msgstr="बराबरी", flags=["fuzzy"]),
        polib.POEntry(msgid="%(n)s card", msgid_plural="%(n)s cards", msgstr_plural={0: "%(n)s पत्ता", 1: "%(n)s पत्ता"}),
    )
    assert compile_all(tmp_path) == [folder / "django.po"]
    assert compile_all(tmp_path) == []  # up to date: nothing compiled again
    catalogue = gettext.translation("django", tmp_path / "locale", ["ne"])
    assert catalogue.gettext("Resign") == "हार मान्नुहोस्"
    assert catalogue.gettext("Draw") == "Draw"
    assert catalogue.ngettext("%(n)s card", "%(n)s cards", 3) == "%(n)s पत्ता"


@pytest.mark.parametrize(
    ("language", "text", "problem"),
    [
        ("as", "অন্ততঃ 8টা আখৰ", "ASCII digits '8' in 'অন্ততঃ 8টা আখৰ'"),
        ("ne", "रातो 7 मा निलो ७", "ASCII digits '7' in 'रातो 7 मा निलो ७'"),
        ("as", "লক্ষ্য WOW", "Latin 'WOW' in 'লক্ষ্য WOW'"),
        ("ne", "डाउनलोड (JSON)", "Latin 'JSON' in 'डाउनलोड (JSON)'"),
        ("ne", "टोली क: ৫ अङ्क", "Bengali '৫' in 'टोली क: ৫ अङ्क'"),
        ("as", "দল ক: ५ পইণ্ট", "Devanagari '५' in 'দল ক: ५ পইণ্ট'"),
    ],
)
def test_foreign_text_finds_latin_words_ascii_digits_and_the_other_script(
    language: str, text: str, problem: str
) -> None:
    assert checks.foreign_text(text, language) == [problem]


def test_foreign_text_leaves_a_single_letter_own_digits_the_danda_and_what_is_allowed() -> None:
    # A lone Latin letter (a column of the board) is no word; the danda ends sentences in both scripts.
    assert checks.foreign_text("স্তম্ভ a ৰ পৰা h, ১ ৰ পৰা ৮।", "as") == []
    allowed = (r"\bTurnwise\b", r"\b[a-h][1-8]\b")
    assert checks.foreign_text("शेष चाल: d4 · Turnwise", "ne", allowed) == []
    assert checks.foreign_text("शेष चाल: d4 · Turnwise 2", "ne", allowed) == ["ASCII digits '2' in 'शेष चाल: · 2'"]


@pytest.mark.parametrize(
    ("style", "language", "wrong"),
    [
        ("decimal", "as", True),
        ("decimal", "ne", True),
        ("devanagari", "as", True),
        ("bengali", "ne", True),
        ("bengali", "as", False),
        ("devanagari", "ne", False),
        ("none", "as", False),
    ],
)
def test_an_ordered_list_is_numbered_in_the_languages_own_digits(style: str, language: str, wrong: bool) -> None:
    assert (checks.list_marker_problem(style, language) is not None) is wrong


def test_reader_problems_say_where_each_problem_is() -> None:
    pieces = [
        ("text", "body", "স্থিতি: ১৫ মিনিট"),
        ("text", "aria-label of <a>", "ইতিহাস #5"),
        ("marker", "<ol> item 1", "decimal"),
        ("text", "title", "Turnwise"),
    ]
    problems = checks.reader_problems(pieces, "as", (r"\bTurnwise\b",))
    assert problems == [
        "aria-label of <a>: ASCII digits '5' in 'ইতিহাস #5'",
        "<ol> item 1: list marker 'decimal', not 'bengali'",
    ]


def test_notation_passes_only_when_it_is_what_the_pattern_allows() -> None:
    pieces = [("notation", "row", "4"), ("notation", "row", "R7"), ("text", "body", "4")]
    assert checks.reader_problems(pieces, "ne", (), r"[a-h]|[1-8]") == [
        "row: ASCII digits '7' in 'R7'",
        "body: ASCII digits '4' in '4'",
    ]


def test_page_pieces_read_text_and_read_attributes_and_keep_translate_no_apart() -> None:
    html = (
        '<html><head><title>T</title><style>p{}</style></head><body><p title="Tip">Hello <b>you</b></p>'
        '<script>var x = 1;</script><table><tr><th translate="no">4</th><td>x</td></tr></table></body></html>'
    )
    assert checks.page_pieces(html) == [
        ("text", "the page", "T Hello you x"),
        ("text", "title of <p>", "Tip"),
        ("notation", 'translate="no"', "4"),
    ]
