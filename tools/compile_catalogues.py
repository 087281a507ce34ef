"""Compile every translation catalogue (``locale*/<lang>/LC_MESSAGES/*.po``, and each game app's own in
``games/<game>/locale/`` and ``tests/<game>/locale/``) into the ``.mo`` file Django reads, with polib (a
requirement), so no gettext installation is needed.

``make run`` and ``make test`` call it; a catalogue is compiled again only when its ``.po`` is newer
than its ``.mo``. The ``.mo`` files are build output and not committed.

    python tools/compile_catalogues.py          # compile what changed
    python tools/compile_catalogues.py --all    # compile everything
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
# The site's catalogues, and each game app's (Django reads the ``locale/`` of every installed app).
CATALOGUE_DIRS = ("locale", "locale_django", "games/*/locale", "tests/*/locale")


def catalogues(root: Path = ROOT, dirs: tuple[str, ...] = CATALOGUE_DIRS) -> list[Path]:
    return sorted(path for name in dirs for path in root.glob(f"{name}/*/LC_MESSAGES/*.po"))


def compile_all(root: Path = ROOT, *, force: bool = False, dirs: tuple[str, ...] = CATALOGUE_DIRS) -> list[Path]:
    """Compile the catalogues under ``root`` whose ``.mo`` is missing or older; the ones compiled."""
    done = []
    for po_path in catalogues(root, dirs):
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        # Fuzzy entries are guesses a translator has not confirmed: like msgfmt, leave them out.
        po = polib.pofile(str(po_path))
        for entry in po.fuzzy_entries():
            po.remove(entry)
        # Written aside and renamed: a process reading the catalogue meanwhile never sees half a file.
        partial = mo_path.with_suffix(".mo.partial")
        po.save_as_mofile(str(partial))
        partial.replace(mo_path)
        done.append(po_path)
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="compile every catalogue, changed or not")
    args = parser.parse_args()
    for path in compile_all(force=args.all):
        print(f"compiled {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
