"""``manage.py startgame <slug>``: a new game app from the scaffold (games/scaffold/app), working at once.

Django's ``startapp`` machinery copies the scaffold: ``*.py-tpl``, ``*.po`` and ``*.md`` files are rendered
with the slug (``app_name``), its CamelCase, the game's name, the app's dotted path (``package``) and the
core's latest migration; ``app_name`` in a path becomes the slug. Then the new app's catalogues are
compiled, so its pages are translated from the first run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.core.management.templates import TemplateCommand
from django.db.migrations.loader import MigrationLoader

SCAFFOLD = Path(__file__).resolve().parents[2] / "scaffold" / "app"
SLUG = re.compile(r"[a-z][a-z0-9]*\Z")


def latest_core_migration() -> str:
    """The games app's last migration: the new game's proxy model depends on it."""
    leaves = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes("games")
    if len(leaves) != 1:
        raise CommandError(f"The games app has {len(leaves)} latest migrations; merge them first.")
    return leaves[0][1]


class Command(TemplateCommand):
    help = "Make a new game app (a working two-player game to change) from games/scaffold/app."
    missing_args_message = "Give the new game's slug, e.g. manage.py startgame connect4."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the game's slug: lower-case letters and digits (the app's label)")
        parser.add_argument("--name", help="the game's name as players read it (default: the slug, capitalised)")
        parser.add_argument(
            "--directory", help="where to make the app (default: games/<slug>); its parent must be on sys.path"
        )
        parser.add_argument("--package", help="the app's dotted path (default: games.<slug> in games/, else the slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        slug: str = options.pop("slug")
        if not SLUG.match(slug):
            raise CommandError(f"The slug {slug!r} must be lower-case letters and digits, starting with a letter.")
        name = options.pop("name") or slug.capitalize()
        if not name.strip() or any(c in name for c in '"\\{}%\n'):
            raise CommandError(f"The name {name!r} may not hold quotes, backslashes, braces, % or line breaks.")
        directory = Path(options.pop("directory") or Path(settings.BASE_DIR) / "games" / slug).resolve()
        if directory.exists() and any(directory.iterdir()):
            raise CommandError(f"{directory} exists and is not empty.")
        games = Path(settings.BASE_DIR).resolve() / "games"
        package = options.pop("package") or (f"games.{slug}" if directory.parent == games else slug)
        if package.rpartition(".")[2] != slug:
            raise CommandError(f"The package {package!r} must end in the slug {slug!r} (the app's label).")
        super().handle(
            "app",
            slug,
            str(directory),
            template=str(SCAFFOLD),
            extensions=["py", "po", "md"],
            files=[],
            verbosity=options.get("verbosity", 1),
            game_name=name,
            package=package,
            games_migration=latest_core_migration(),
        )
        from tools.compile_catalogues import compile_all

        compile_all(directory, dirs=("locale",), force=True)
        if options.get("verbosity", 1):
            where = directory.relative_to(Path.cwd()) if directory.is_relative_to(Path.cwd()) else directory
            installed = "found by config/settings.py"
            if package != f"games.{slug}":
                installed = f"add {package!r} to INSTALLED_APPS"
            self.stdout.write(
                f"Made {name} in {where} (app {package}: {installed}). Next: write its name in Assamese "
                f"and Nepali in {where}/locale, then docs/adding-a-game.md; its tests: pytest {where}/tests"
            )
