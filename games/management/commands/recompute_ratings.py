"""Rebuild every rating from the stored results, in the order the matches finished."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.record import ratings


class Command(BaseCommand):
    help = "Recompute all ratings (or one game's) from the finished rated matches; deterministic."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", action="append", help="Only this game (repeatable).")

    def handle(self, *args: Any, **options: Any) -> None:
        applied = ratings.recompute(options["game"])
        self.stdout.write(f"Recomputed ratings from {applied} rated matches.")
