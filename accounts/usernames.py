"""Look-alike usernames: confusable skeletons (Unicode TR39) and the mixed-script rule.

The confusables data comes from confusable-homoglyphs, which ships Unicode's confusables.txt as a
two-way map (a source character lists its prototype; a prototype lists its sources). Each
prototype with its sources forms one class; a character is replaced by its class's prototype, which
is what TR39's skeleton does.

Two skeletons per name, each unique among players:
- ``skeleton``: NFKC, case folded, then confusables mapped (the TR39 recipe for case-insensitive
  names): ``Alice``, ``ALICE``, ``a1ice`` and ``alice`` spelt with a Cyrillic a all give ``alice``.
- ``glyph_skeleton``: confusables mapped before case folding too, because a capital I looks like a
  small l: ``aIice`` gives ``alice`` here, while case folding alone would make it ``aiice``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

# Characters every script uses (digits, punctuation) or borrows (combining marks).
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
# TR39's "highly restrictive" profile: scripts that are written together, besides any single script.
SCRIPTS_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


@cache
def _prototypes() -> dict[str, str]:
    """Character -> the prototype string of its confusable class (characters not listed are their own)."""
    # The library wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display.
    # Keys that are sequences are prototypes listing their sources; each such source also lists its
    # sequence, which is where it is read below.
    data = {
        char.replace("\u200e", ""): [entry["c"].replace("\u200e", "") for entry in entries]
        for char, entries in confusables.confusables_data.items()
        if len(char.replace("\u200e", "")) == 1
    }
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    multi: dict[str, str] = {}
    for char, others in data.items():
        for other in others:
            if len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[b] = a
            else:  # a source whose prototype is a sequence, e.g. m -> rn
                multi[char] = other
    members: dict[str, list[str]] = {}
    for char in data:
        members.setdefault(root(char), []).append(char)
    prototype: dict[str, str] = {}
    for group in members.values():
        # The prototype lists every source of its class, so it has the most entries; between a lone
        # pair either serves, so take the lower code point (the ASCII one, where there is one).
        centre = min(group, key=lambda c: (-len(data.get(c, ())), ord(c)))
        for char in group:
            prototype[char] = centre
    for char, sequence in multi.items():
        prototype[char] = "".join(prototype.get(c, c) for c in sequence)
    return prototype


def _map(text: str) -> str:
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))


def skeleton(username: str) -> str:
    """Names with the same skeleton look alike once case is ignored."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    # Mapped, folded and mapped again: a zero maps to a capital O, which must meet the small o.
    return _map(_map(folded).casefold())


def glyph_skeleton(username: str) -> str:
    """Names with the same glyph skeleton look alike as written, a capital I passing for an l."""
    return _map(_map(unicodedata.normalize("NFKC", username)).casefold())


def scripts(username: str) -> frozenset[str]:
    """The writing systems a name uses, leaving out digits, punctuation and combining marks."""
    return frozenset(categories.unique_aliases(unicodedata.normalize("NFKC", username))) - NEUTRAL_SCRIPTS


def is_mixed_script(username: str) -> bool:
    """True for letters from scripts that are not written together, like Latin with Cyrillic."""
    used = scripts(username)
    return len(used) > 1 and not any(used <= allowed for allowed in SCRIPTS_WRITTEN_TOGETHER)


@deconstructible
class UsernameValidator:
    """Letters, digits and @ . + - _, and after the first character the marks many scripts write with.

    Django's own validator allows ``\\w`` only, which leaves out combining marks: the vowel signs of
    Devanagari and of the Bengali-Assamese script, so "राम" or "সুমন" could not sign up.
    """

    message = _("Enter a valid username. It may contain letters, digits and @/./+/-/_ characters.")
    code = "invalid"
    _plain = re.compile(r"[\w.@+-]")

    def __call__(self, value: str) -> None:
        for position, char in enumerate(value):
            if self._plain.fullmatch(char):
                continue
            if position > 0 and unicodedata.category(char) in {"Mn", "Mc"}:
                continue
            raise ValidationError(self.message, code=self.code)
        if not value:
            raise ValidationError(self.message, code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UsernameValidator)

    def __hash__(self) -> int:
        return hash(type(self))
