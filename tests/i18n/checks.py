"""What the translation tests check, as functions of a catalogue or a source file, so that they can
also be tried on small sample catalogues and sources (tests/i18n/test_checks.py)."""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
from django.template import Engine, Template
from django.template.base import Lexer, Node, TokenType
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("as", "ne")
NPLURALS = 2
# Where the site's own strings live (tests, benchmarks and tools are not shown to players).
SOURCE_DIRS = ("accounts", "config", "games", "tournaments")
TEMPLATE_DIRS = (ROOT / "templates", *sorted(ROOT.glob("games/*/templates")), ROOT / "tournaments" / "templates")

# --- placeholders ----------------------------------------------------------------------------------

_PERCENT = re.compile(r"%(?:\((?P<name>[^)]+)\))?[-#0 +]*\d*(?:\.\d+)?(?P<kind>[sdifrxXeEgGc%])")
_BRACES = re.compile(r"\{(?P<name>[^{}]*)\}")


def placeholders(text: str, python_format: bool = True, brace_format: bool = True) -> list[str]:
    """The placeholders of ``text``, sorted: ``%(name)s`` and ``%s`` (``%%`` is a literal per cent
    sign), and ``{}`` / ``{name}``."""
    found = []
    if python_format:
        for match in _PERCENT.finditer(text):
            if match.group("kind") != "%":
                found.append(match.group(0))
    if brace_format:
        found.extend("{" + match.group("name") + "}" for match in _BRACES.finditer(text))
    return sorted(found)


# --- catalogues ------------------------------------------------------------------------------------


def catalogue_problems(path: Path, language: str) -> list[str]:
    """Everything wrong with one language's catalogue: missing or unconfirmed translations, changed
    placeholders, incomplete plurals, a header without this language's plural rule."""
    if not path.exists():
        return [f"{path}: missing"]
    po = polib.pofile(str(path))
    problems = []
    plural_forms = po.metadata.get("Plural-Forms", "")
    if f"nplurals={NPLURALS};" not in plural_forms.replace(" ", "") or "plural=" not in plural_forms:
        problems.append(f"{path}: Plural-Forms header is {plural_forms!r}, not nplurals={NPLURALS}")
    if po.metadata.get("Language") not in (language, language.replace("-", "_")):
        problems.append(f"{path}: Language header is {po.metadata.get('Language')!r}, not {language!r}")
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{path.name}: {entry.msgid[:60]!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"{where} is fuzzy (unconfirmed)")
        python_format = "no-python-format" not in entry.flags
        # Brace placeholders only where the message has some: a literal "{" in prose is rare but legal.
        brace_format = bool(_BRACES.search(entry.msgid))
        if entry.msgid_plural:
            forms = [entry.msgstr_plural.get(n, "") for n in range(NPLURALS)]
            if not all(form.strip() for form in forms):
                problems.append(f"{where} lacks a plural form")
            wanted_one = placeholders(entry.msgid, python_format, brace_format)
            wanted_many = placeholders(entry.msgid_plural, python_format, brace_format)
            for n, form in enumerate(forms):
                got = placeholders(form, python_format, brace_format)
                # A singular form may leave its count out ("One match"), but never invent or rename one.
                allowed = wanted_many if n else wanted_one
                if form.strip() and got != allowed and got != wanted_many and not set(got) < set(wanted_many):
                    problems.append(f"{where}: plural form {n} has placeholders {got}, the message {allowed}")
        else:
            if not entry.msgstr.strip():
                problems.append(f"{where} is not translated")
            elif placeholders(entry.msgstr, python_format, brace_format) != placeholders(
                entry.msgid, python_format, brace_format
            ):
                problems.append(
                    f"{where}: placeholders {placeholders(entry.msgstr, python_format, brace_format)}, "
                    f"the message has {placeholders(entry.msgid, python_format, brace_format)}"
                )
    return problems


def catalogue_keys(path: Path) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(path)) if not entry.obsolete}


# --- messages marked in the sources ----------------------------------------------------------------

_GETTEXT_NAMES = {
    "_": (None, 0),
    "gettext": (None, 0),
    "gettext_lazy": (None, 0),
    "gettext_noop": (None, 0),
    "ngettext": (None, 0),
    "ngettext_lazy": (None, 0),
    "pgettext": (0, 1),
    "pgettext_lazy": (0, 1),
    "npgettext": (0, 1),
    "npgettext_lazy": (0, 1),
}


def _call_name(node: ast.Call) -> str:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return ""


def python_files(root: Path = ROOT) -> list[Path]:
    return sorted(
        path for folder in SOURCE_DIRS for path in (root / folder).rglob("*.py") if "migrations" not in path.parts
    )


# --- a game app's own messages and catalogues --------------------------------------------------------


def game_apps() -> dict[str, Path]:
    """Every registered game's app folder, by slug: the site's games and the example game (Nim) alike."""
    from games import registry

    return {game.slug: game.path for game in registry.all_games() if game.path is not None}


def app_python_files(app: Path) -> list[Path]:
    """A game app's Python files that people's text can come from (its tests and migrations aside)."""
    return sorted(
        path
        for path in app.rglob("*.py")
        if "migrations" not in path.parts and not path.name.startswith(("test_", "conftest"))
    )


def app_template_files(app: Path) -> list[Path]:
    languages = tuple(f".{code}.html" for code in LANGUAGES)
    return sorted(
        path
        for path in (app / "templates").rglob("*")
        if path.suffix in (".html", ".txt") and not path.name.endswith(languages)
    )


def app_msgids(app: Path) -> set[tuple[str | None, str]]:
    """Every (context, message) a game app marks, in its Python and its templates."""
    marked: set[tuple[str | None, str]] = set()
    for path in app_python_files(app):
        marked |= set(python_msgids(path))
    for path in app_template_files(app):
        marked |= set(template_msgids(path))
    return marked


def core_files(files: Iterable[Path]) -> list[Path]:
    """The files outside every game app: the site's own (each game's strings are in its app's catalogue)."""
    apps = list(game_apps().values())
    return [path for path in files if not any(path.is_relative_to(app) for app in apps)]


def app_catalogue(app: Path, language: str) -> Path:
    """Where a game app keeps its own translations (Django reads every installed app's ``locale/``)."""
    return app / "locale" / language / "LC_MESSAGES" / "django.po"


def python_msgids(path: Path) -> Iterator[tuple[str | None, str]]:
    """The (context, message) pairs marked for translation in a Python file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or _call_name(node) not in _GETTEXT_NAMES:
            continue
        context_at, message_at = _GETTEXT_NAMES[_call_name(node)]
        args = node.args
        if len(args) <= message_at or not _is_str(args[message_at]):
            continue
        context = args[context_at].value if context_at is not None and _is_str(args[context_at]) else None
        yield context, args[message_at].value


def _is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def template_files() -> list[Path]:
    """Every template people read (the rules pages written in one language aside)."""
    languages = tuple(f".{code}.html" for code in LANGUAGES)
    return sorted(
        path
        for folder in TEMPLATE_DIRS
        for path in folder.rglob("*")
        if path.suffix in (".html", ".txt") and not path.name.endswith(languages)
    )


def _nodes(nodelist: Any) -> Iterator[Node]:
    for node in nodelist:
        yield node
        for attribute in getattr(node, "child_nodelists", ()):
            yield from _nodes(getattr(node, attribute, None) or [])


def compiled(path: Path) -> Template:
    from django.template import engines

    engine: Engine = engines["django"].engine
    return Template(path.read_text(encoding="utf-8"), engine=engine, name=str(path))


def template_msgids(path: Path) -> Iterator[tuple[str | None, str]]:
    """The (context, message) pairs of a template's translate and blocktranslate tags, exactly as
    Django looks them up when it renders them."""
    for node in _nodes(compiled(path).nodelist):
        if isinstance(node, TranslateNode):
            literal = getattr(node.filter_expression.var, "literal", None)
            if isinstance(literal, str):
                # Django looks a translate tag's text up with its per cent signs doubled.
                yield _context(node), literal.replace("%", "%%")
        elif isinstance(node, BlockTranslateNode):
            yield _context(node), node.render_token_list(node.singular)[0]
    yield from template_constant_msgids(path.read_text(encoding="utf-8"))


_CONSTANT = re.compile(r"""\b_\(\s*(?:"(?P<d>[^"]*)"|'(?P<s>[^']*)')\s*\)""")


def template_constant_msgids(source: str) -> Iterator[tuple[str | None, str]]:
    """``_("...")`` inside tags, e.g. ``{% include ... with caption=_("...") %}``."""
    for token in Lexer(source).tokenize():
        if token.token_type in (TokenType.BLOCK, TokenType.VAR):
            for match in _CONSTANT.finditer(token.contents):
                yield None, match.group("d") if match.group("d") is not None else match.group("s")


def _context(node: TranslateNode | BlockTranslateNode) -> str | None:
    return node.message_context.resolve({}) if node.message_context is not None else None


_JS_GETTEXT = re.compile(
    r"""\b(?:gettext|ngettext|pgettext|npgettext)\(\s*(?P<q>["'])(?P<m>(?:\\.|(?!(?P=q)).)*)(?P=q)"""
)


def javascript_msgids(root: Path = ROOT) -> set[tuple[str | None, str]]:
    found = set()
    # The site's scripts and each game's own (its app's static/<game>/).
    for path in sorted([*(root / "static").rglob("*.js"), *root.glob("games/*/static/**/*.js")]):
        for match in _JS_GETTEXT.finditer(path.read_text(encoding="utf-8")):
            found.add((None, match.group("m").encode().decode("unicode_escape")))
    return found


# --- text people read that is not marked ---------------------------------------------------------

# Read by people but the same in every language (names and codes): reviewed one by one.
ALLOWED_WORDS = (
    "Turnwise",  # the site's name, in titles too ("... · Turnwise")
)
# Attributes whose values people read (or hear).
READ_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "aria-roledescription", "aria-valuetext", "label"}
_MARK = "\ue000"  # stands for what a tag or variable renders: translated or data


def _letters(text: str) -> bool:
    return any(unicodedata.category(char).startswith("L") for char in text)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        for name, value in attrs:
            if value and name in READ_ATTRIBUTES:
                self._check(value)
            # An input button shows its value; a <button>'s value is sent, never shown.
            if value and name == "value" and tag == "input" and ("type", "submit") in attrs:
                self._check(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self._check(data)

    def _check(self, text: str) -> None:
        for piece in text.split(_MARK):
            piece = " ".join(piece.split())
            rest = piece
            for word in ALLOWED_WORDS:
                rest = rest.replace(word, "")
            if _letters(rest):
                self.found.append(piece)


def unmarked_template_text(source: str) -> list[str]:
    """Text with letters in a template that no translate/blocktranslate tag covers, in the page's
    text and in the attributes people read (title, alt, aria-label ...)."""
    parts = []
    depth = 0  # inside blocktranslate, or a comment
    for token in Lexer(source).tokenize():
        contents = token.contents.strip()
        if token.token_type == TokenType.BLOCK:
            word = contents.split()[0] if contents else ""
            if word in ("blocktranslate", "blocktrans", "comment"):
                depth += 1
                parts.append(_MARK)
            elif word in ("endblocktranslate", "endblocktrans", "endcomment"):
                depth -= 1
            elif word in ("translate", "trans"):
                parts.append(_MARK)
            # Other tags ({% if %}, {% url %} ...) render data or nothing people read.
        elif token.token_type == TokenType.VAR:
            if not depth:
                parts.append(_MARK)
        elif token.token_type == TokenType.TEXT and not depth:
            parts.append(token.contents)
    collector = _TextCollector()
    collector.feed("".join(parts))
    collector.close()
    return collector.found


# --- Python strings people read that are not marked --------------------------------------------------

# Calls whose first argument people read.
_MESSAGE_CALLS = {"ValidationError", "MatchError", "IllegalAction", "InvalidAction", "PermissionDenied"}
_MESSAGES_METHODS = {"debug", "info", "success", "warning", "error"}
_FIELD_KEYWORDS = {"label", "help_text", "verbose_name", "verbose_name_plural", "empty_label"}


def _plain_text(node: ast.AST) -> bool:
    """A string people would read as written: a literal with letters, an f-string, or either
    %-formatted (a translation call's result is never plain)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _letters(node.value)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and _letters(str(v.value)) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _plain_text(node.left)
    return False


def unmarked_python(source: str) -> list[tuple[int, str]]:
    """(line, what) for each string in Python source that people read but no translation call marks:
    messages.*(request, "..."), ValidationError("..."), MatchError("..."), IllegalAction("..."),
    form and model fields' label=/help_text=/verbose_name=."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        if name in _MESSAGE_CALLS and node.args and _plain_text(node.args[0]):
            found.append((node.lineno, f"{name}({ast.unparse(node.args[0])[:60]})"))
        if (
            name in _MESSAGES_METHODS
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "messages"
            and len(node.args) >= 2
            and _plain_text(node.args[1])
        ):
            found.append((node.lineno, f"messages.{name}({ast.unparse(node.args[1])[:60]})"))
        for keyword in node.keywords:
            if keyword.arg in _FIELD_KEYWORDS and _plain_text(keyword.value):
                found.append((node.lineno, f"{keyword.arg}={ast.unparse(keyword.value)[:60]}"))
    return found


# --- what a reader of one language meets on a rendered page ----------------------------------------

# Each language's script, and the counter style that numbers a list in its digits (Chromium draws both).
SCRIPTS = {"as": ("Bengali", 0x0980, 0x09FF), "ne": ("Devanagari", 0x0900, 0x097F)}
OWN_COUNTER = {"as": "bengali", "ne": "devanagari"}
_LATIN_RUN = re.compile(r"[A-Za-z]{2,}")
_ASCII_DIGITS = re.compile(r"[0-9]+")


# The danda and double danda end sentences in both scripts (Unicode has them once, in the Devanagari
# block, for Bengali-Assamese too): they belong to neither language alone.
_SHARED = {"\u0964", "\u0965"}


def foreign_text(text: str, language: str, allowed: Iterable[str] = ()) -> list[str]:
    """What a reader of ``language`` should not meet in ``text``, each with the words around it: a run
    of two or more Latin letters, an ASCII digit, or a letter of the other language's script (Bengali
    on a Nepali page, Devanagari on an Assamese one). ``allowed`` are regular expressions for what
    stays as it is (a name, a square); what they match is taken out first."""
    for pattern in allowed:
        text = re.sub(pattern, " ", text)
    text = " ".join(text.split())
    found = [(match, "Latin") for match in _LATIN_RUN.finditer(text)]
    found += [(match, "ASCII digits") for match in _ASCII_DIGITS.finditer(text)]
    for other, (script, first, last) in SCRIPTS.items():
        if other != language:
            wrong = f"[{chr(first)}-{chr(last)}]+"
            found += [(m, script) for m in re.finditer(wrong, text) if not set(m.group()) <= _SHARED]
    problems = []
    for match, kind in sorted(found, key=lambda pair: pair[0].start()):
        around = text[max(0, match.start() - 30) : match.end() + 30]
        problems.append(f"{kind} {match.group()!r} in {around!r}")
    return problems


def list_marker_problem(list_style_type: str, language: str) -> str | None:
    """Why an ordered list's item marker is wrong for ``language`` (None if it is right): its
    numbers must be the language's own digits, or it must have none."""
    if list_style_type in ("none", OWN_COUNTER[language]):
        return None
    return f"list marker {list_style_type!r}, not {OWN_COUNTER[language]!r}"


def reader_problems(
    pieces: Iterable[tuple[str, str, str]], language: str, allowed: Iterable[str] = (), notation: str = r"(?!)"
) -> list[str]:
    """Every problem of a page's ``pieces``, each (kind, where, value): kind ``text`` (the visible
    text, a title, an aria-label …) is checked with ``foreign_text``, kind ``marker`` (the computed
    ``list-style-type`` of an ordered list's item) with ``list_marker_problem``, kind ``notation``
    (the text of an element marked translate="no") passes whole if it matches ``notation`` and is
    checked like text otherwise."""
    allowed = tuple(allowed)
    problems: list[str] = []
    for kind, where, value in pieces:
        if kind == "marker":
            found = [problem] if (problem := list_marker_problem(value, language)) else []
        elif kind == "notation" and re.fullmatch(notation, value.strip()):
            found = []
        else:
            found = foreign_text(value, language, allowed)
        for problem in found:
            line = f"{where}: {problem}"
            if line not in problems:
                problems.append(line)
    return problems


class _PagePieces(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.notation: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []
        self._open: list[tuple[str, bool, bool]] = []  # (tag, text skipped, inside translate="no")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        skipped, notation = self._open[-1][1:] if self._open else (False, False)
        skipped = skipped or tag in ("script", "style", "template")
        notation = notation or ("translate", "no") in attrs
        for name, value in attrs:
            if value and name in READ_ATTRIBUTES and not skipped:
                self.attributes.append(("text", f"{name} of <{tag}>", value))
        if tag not in _VOID:
            self._open.append((tag, skipped, notation))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        skipped, notation = self._open[-1][1:] if self._open else (False, False)
        if not skipped and data.strip():
            (self.notation if notation else self.text).append(data.strip())


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def page_pieces(html: str) -> list[tuple[str, str, str]]:
    """What ``reader_problems`` reads of a page rendered on the server (no browser, so no list
    markers): its text, the attributes people read, and apart (kind ``notation``) each text of an
    element marked translate="no", such as the Reversi board's edge labels."""
    parser = _PagePieces()
    parser.feed(html)
    parser.close()
    pieces = [("text", "the page", " ".join(parser.text)), *parser.attributes]
    return pieces + [("notation", 'translate="no"', text) for text in parser.notation]
