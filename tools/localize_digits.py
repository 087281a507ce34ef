"""Write the numbers in the Assamese and Nepali translations in each language's own digits.

Assamese writes Bengali-Assamese digits (U+09E6..U+09EF), Nepali Devanagari (U+0966..U+096F). The translators wrote the
numbers of their sentences ("108 cards", "200 points", "8 by 8") in ASCII digits; this rewrites those,
in the catalogues' msgstr and in the translated rules pages, and leaves ASCII whatever a machine reads
or that is a code:

- placeholders: ``%(n)s``, ``%(n)d``, ``%s``, ``{}``, ``{0}``, and escapes such as ``\\n``;
- codes written with Latin letters: card codes (R7, W2), Reversi squares (d4), rule ids (BA-13),
  names such as SHA-256 or UTF-8 (a digit run touching a Latin letter, directly or across a hyphen);
- HTML and template syntax: tags with their attributes, entities (``&#215;``), comments, scripts and
  styles, ``{% ... %}``, ``{{ ... }}``, ``{# ... #}``; and URLs.

The rewrite is textual (only msgstr lines of a ``.po`` change; its layout is kept), so the diff shows
exactly the digits. It is idempotent: run it again and nothing changes.

    python tools/localize_digits.py            # rewrite the files
    python tools/localize_digits.py --check    # exit 1 and list the files that still need it
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ZERO = {"as": 0x09E6, "ne": 0x0966}  # BENGALI DIGIT ZERO, DEVANAGARI DIGIT ZERO
TABLES = {lang: str.maketrans("0123456789", "".join(chr(zero + n) for n in range(10))) for lang, zero in ZERO.items()}

# Spans kept exactly as they are; the text between them is prose, whose ASCII digits are rewritten.
# Order matters: the longer constructs (scripts, comments, template tags) before the bare tag.
KEEP = re.compile(
    r"""
      <script\b.*?</script\s*>            # scripts and styles, with whatever they hold
    | <style\b.*?</style\s*>
    | <!--.*?-->                          # HTML comments
    | \{%.*?%\} | \{\{.*?\}\} | \{\#.*?\#\}   # template syntax
    | <[^<>]*>                            # a tag with its attributes
    | &\#?[A-Za-z0-9]+;                   # an entity
    | \\.                                 # an escape in a .po string (\n, \", \\)
    | %\([^)\s]*\)[-\#0\ +]*\d*(?:\.\d+)?[a-zA-Z]   # %(name)s, %(n)d, %(x)05.2f
    | %[-\#0\ +]*\d*(?:\.\d+)?[sdifrx%]   # %s, %d, %%
    | \{[A-Za-z0-9_.\[\]!:]*\}            # {}, {0}, {name}
    | (?:https?|mailto):[^\s"'<>]*        # URLs
    | \{'[^{}]*\} | \['[^\[\]]*\]          # a code example: {'type': 'duel', 'card': '7'}, ['3', '12']
    | '[^'\s]*'                           # a quoted value: '1', '12'
    | [A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*   # a Latin word or code: R7, d4, BA-13, SHA-256
    | \d+(?:-\d+)*-?[A-Za-z][A-Za-z0-9_]*  # a code that starts with its digits: 3D, 256-bit
    """,
    re.VERBOSE | re.DOTALL,
)


def localize(text: str, language: str) -> str:
    """``text`` with the ASCII digits of its prose in ``language``'s digits; kept spans untouched."""
    table = TABLES[language]
    out: list[str] = []
    at = 0
    for span in KEEP.finditer(text):
        out.append(text[at : span.start()].translate(table))
        out.append(span.group())
        at = span.end()
    out.append(text[at:].translate(table))
    return "".join(out)


MSGID = re.compile(r'^msgid\s+"(.*)"\s*$')
MSGSTR = re.compile(r'^(msgstr(?:\[\d+\])?\s+)"(.*)"\s*$')
CONTINUATION = re.compile(r'^"(.*)"\s*$')


def localize_po(text: str, language: str) -> str:
    """A ``.po`` file with only its msgstr strings (and their continuation lines) rewritten; not the
    header (the msgstr of the empty msgid), whose dates and plural formula are read by machines."""
    lines = text.split("\n")
    in_msgstr = header = False
    for i, line in enumerate(lines):
        msgid = MSGID.match(line)
        if msgid:
            header = msgid.group(1) == "" and not CONTINUATION.match(lines[i + 1] if i + 1 < len(lines) else "")
        head = MSGSTR.match(line)
        if head and header:
            in_msgstr = False
            continue
        if head:
            in_msgstr = True
            lines[i] = f'{head.group(1)}"{localize(head.group(2), language)}"'
            continue
        more = CONTINUATION.match(line)
        if more and in_msgstr:
            lines[i] = f'"{localize(more.group(1), language)}"'
            continue
        if not more:
            in_msgstr = False  # a comment, msgid, msgctxt or blank line ends the msgstr
    return "\n".join(lines)


def targets(root: Path = ROOT) -> list[tuple[Path, str]]:
    """Every file to rewrite, with its language."""
    found: list[tuple[Path, str]] = []
    for language in ZERO:
        for folder in ("locale", "locale_django", "games/*/locale", "tests/*/locale"):
            found += [(p, language) for p in sorted(root.glob(f"{folder}/{language}/LC_MESSAGES/*.po"))]
        found += [(p, language) for p in sorted(root.glob(f"games/*/templates/*/rules.{language}.html"))]
    return found


def rewrite(path: Path, language: str) -> str:
    text = path.read_text(encoding="utf-8")
    return localize_po(text, language) if path.suffix == ".po" else localize(text, language)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file needs rewriting")
    args = parser.parse_args(argv)
    stale = []
    for path, language in targets():
        new = rewrite(path, language)
        if new != path.read_text(encoding="utf-8"):
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(("needs rewriting: " if args.check else "rewrote: ") + str(path.relative_to(ROOT)))
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
