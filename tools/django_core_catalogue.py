"""Write the catalogue of Django's own strings that Turnwise shows (``locale_django/<lang>``).

Django ships no Assamese catalogue and an incomplete Nepali one, and ``makemessages`` only collects
the project's strings; so the few Django messages a player can meet (form errors, password rules,
the sign-in form, "3 minutes ago", month names) are listed here and kept in a catalogue of their
own, which ``makemessages`` never touches. Run it after a Django upgrade or when the site starts
showing another Django string: it keeps every translation already made and drops what left the list.

    python tools/django_core_catalogue.py           # update locale_django/<lang>/LC_MESSAGES/django.po
    python tools/django_core_catalogue.py --check   # exit 1 if a catalogue differs from the list
"""

# Django's messages are quoted exactly, typographic apostrophes included.
# ruff: noqa: RUF001

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import django
import polib

ROOT = Path(__file__).resolve().parent.parent
DJANGO = Path(django.__file__).resolve().parent
LANGUAGES = {"as": "Assamese", "ne": "Nepali"}
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"

CORE = "conf/locale/en/LC_MESSAGES/django.po"
AUTH = "contrib/auth/locale/en/LC_MESSAGES/django.po"
HUMANIZE = "contrib/humanize/locale/en/LC_MESSAGES/django.po"

# (Django catalogue, context, msgid), with where the site shows it. A plural's other form comes
# from Django's catalogue.
MESSAGES: list[tuple[str, str | None, str]] = [
    # Form fields the site's forms use (CharField, EmailField, IntegerField, ChoiceField).
    (CORE, None, "This field is required."),
    (CORE, None, "Enter a whole number."),
    (CORE, None, "Enter a valid email address."),
    (CORE, None, "Null characters are not allowed."),
    (CORE, None, "Select a valid choice. %(value)s is not one of the available choices."),
    (CORE, None, "Select a valid choice. That choice is not one of the available choices."),
    (CORE, None, "Ensure this value is less than or equal to %(limit_value)s."),
    (CORE, None, "Ensure this value is greater than or equal to %(limit_value)s."),
    (CORE, None, "Ensure this value has at most %(limit_value)d character (it has %(show_value)d)."),
    (CORE, None, "Ensure this value has at least %(limit_value)d character (it has %(show_value)d)."),
    (CORE, None, "(Hidden field %(name)s) %(error)s"),
    # Sign-up, sign-in, password change and reset (django.contrib.auth.forms).
    (AUTH, None, "The two password fields didn’t match."),
    (AUTH, None, "Password"),
    (AUTH, None, "Password confirmation"),
    (AUTH, None, "Enter the same password as before, for verification."),
    (AUTH, None, "Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
    (AUTH, None, "This account is inactive."),
    (AUTH, None, "Email"),
    (AUTH, None, "New password"),
    (AUTH, None, "New password confirmation"),
    (AUTH, None, "Your old password was entered incorrectly. Please enter it again."),
    (AUTH, None, "Old password"),
    # The password rules of AUTH_PASSWORD_VALIDATORS: refusals and their help texts.
    (AUTH, None, "This password is too short. It must contain at least %d character."),
    (AUTH, None, "Your password must contain at least %(min_length)d character."),
    (AUTH, None, "The password is too similar to the %(verbose_name)s."),
    (AUTH, None, "Your password can’t be too similar to your other personal information."),
    (AUTH, None, "This password is too common."),
    (AUTH, None, "Your password can’t be a commonly used password."),
    (AUTH, None, "This password is entirely numeric."),
    (AUTH, None, "Your password can’t be entirely numeric."),
    # |timesince and |timeuntil (waiting times, time left on a clock).
    (CORE, None, "%(num)d year"),
    (CORE, None, "%(num)d month"),
    (CORE, None, "%(num)d week"),
    (CORE, None, "%(num)d day"),
    (CORE, None, "%(num)d hour"),
    (CORE, None, "%(num)d minute"),
    (CORE, None, ", "),
    # |naturaltime (when a chat message was written).
    (HUMANIZE, None, "now"),
    (HUMANIZE, None, "a second ago"),
    (HUMANIZE, None, "a minute ago"),
    (HUMANIZE, None, "an hour ago"),
    (HUMANIZE, None, "%(delta)s ago"),
    (HUMANIZE, None, "a second from now"),
    (HUMANIZE, None, "a minute from now"),
    (HUMANIZE, None, "an hour from now"),
    (HUMANIZE, None, "%(delta)s from now"),
    *[
        (HUMANIZE, f"naturaltime-{when}", f"%(num)d {unit}")
        for when in ("past", "future")
        for unit in ("year", "month", "week", "day", "hour", "minute")
    ],
    # Month names of the date formats (config/formats: "F" is the full name).
    *[
        (CORE, None, month)
        for month in (
            "January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December",
        )
    ],
]  # fmt: skip


def source_entries() -> list[polib.POEntry]:
    """The listed messages as untranslated entries, with Django's plural and its source place."""
    catalogues = {path: polib.pofile(str(DJANGO / path)) for path in {path for path, _, _ in MESSAGES}}
    entries = []
    for path, context, msgid in MESSAGES:
        found = catalogues[path].find(msgid, msgctxt=context) if context else catalogues[path].find(msgid)
        if found is None:
            raise SystemExit(f"Django {django.get_version()} has no message {msgid!r} in {path}: update the list.")
        entry = polib.POEntry(
            msgid=found.msgid,
            msgctxt=found.msgctxt,
            msgid_plural=found.msgid_plural,
            occurrences=[(f"django/{file}", line) for file, line in found.occurrences],
            flags=[flag for flag in found.flags if flag.endswith("-format")],
        )
        if found.msgid_plural:
            entry.msgstr_plural = {0: "", 1: ""}
        entries.append(entry)
    return entries


def key(entry: polib.POEntry) -> tuple[str | None, str]:
    return entry.msgctxt, entry.msgid


def path_for(language: str) -> Path:
    return ROOT / "locale_django" / language / "LC_MESSAGES" / "django.po"


def updated(language: str, wanted: list[polib.POEntry]) -> polib.POFile:
    """The catalogue for ``language``: the wanted entries, keeping any translation already made."""
    path = path_for(language)
    old = {key(entry): entry for entry in polib.pofile(str(path))} if path.exists() else {}
    po = polib.POFile(wrapwidth=100)
    po.metadata = {
        "Project-Id-Version": "Turnwise (Django's own strings)",
        "Language": language,
        "Language-Team": LANGUAGES[language],
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS,
    }
    if path.exists():
        po.metadata.update(polib.pofile(str(path)).metadata)
    for entry in wanted:
        previous = old.get(key(entry))
        if previous is not None and previous.msgid_plural == entry.msgid_plural:
            entry.msgstr = previous.msgstr
            entry.msgstr_plural = previous.msgstr_plural or entry.msgstr_plural
            entry.flags = list(previous.flags)
            entry.tcomment = previous.tcomment
        po.append(entry)
    return po


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a catalogue is not up to date")
    parser.add_argument("--out", type=Path, help="write untranslated copies under OUT/<lang>/django-core.po instead")
    args = parser.parse_args()
    wanted = source_entries()
    stale = []
    for language in LANGUAGES:
        po = updated(language, [polib.POEntry(**vars(entry)) for entry in wanted])
        target = args.out / language / "django-core.po" if args.out else path_for(language)
        if args.check:
            present = {key(e) for e in polib.pofile(str(target))} if target.exists() else set()
            if present != {key(e) for e in wanted}:
                stale.append(str(target))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        po.save(str(target))
        print(f"{target}: {len(po)} messages, {len(po.untranslated_entries())} untranslated")
    if stale:
        print("Out of date (run tools/django_core_catalogue.py):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
