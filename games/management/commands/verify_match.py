"""Check a finished match's shuffles: the revealed seed against its commitment, and the replay."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import export, fairplay
from games.models import Match


class Command(BaseCommand):
    help = (
        "Verify that a finished match's revealed seed matches the commitment published at its start, and "
        "that replaying its actions from that seed gives every deal and the final state it recorded."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("match_id", nargs="?", type=int, help="A finished match in this site's database.")
        parser.add_argument("--file", help="An exported match record (JSON), checked without the database.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["file"]:
            with open(options["file"], encoding="utf-8") as f:
                data = json.load(f)
        elif options["match_id"] is not None:
            match = Match.objects.filter(pk=options["match_id"]).first()
            if match is None:
                raise CommandError(f"There is no match {options['match_id']}.")
            if not export.can_export(match):
                raise CommandError("The seed is revealed only when the match has ended.")
            data = export.record(match)
        else:
            raise CommandError("Name a match id or give --file.")
        problems = fairplay.verify(data)
        if problems:
            raise CommandError("Verification FAILED:\n" + "\n".join(f"- {p}" for p in problems))
        self.stdout.write(
            f"Match {data.get('id')} ({data['game']}) verified: sha256(salt:seed) = {data['commitment']}, "
            f"and {len(data['actions'])} actions replay from that seed to the recorded final state."
        )
