"""Check a finished match's record: its commitment, its replay from the seed, and its chained log."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from games.record import export, fairplay


class Command(BaseCommand):
    help = (
        "Verify that a finished match's revealed seed and salt match the commitment published at its start "
        "(which binds the game, player count and options), that replaying its actions from that seed gives "
        "every deal and the final state it recorded, and that every link of its chained action log holds."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("match_id", nargs="?", type=int, help="A finished match in this site's database.")
        parser.add_argument("--file", help="An exported match record (JSON), checked without the database.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["file"]:
            data = _read(options["file"])
        elif options["match_id"] is not None:
            match = Match.objects.filter(pk=options["match_id"]).first()
            if match is None:
                raise CommandError(f"There is no match {options['match_id']}.")
            if not export.can_export(match):
                raise CommandError("The seed is revealed only when the match has ended.")
            data = export.record(match)
        else:
            raise CommandError("Name a match id or give --file.")
        report = fairplay.check(data)
        for note in report.notes:
            self.stdout.write(f"Note: {note}")
        if report.problems:
            raise CommandError("Verification FAILED:\n" + "\n".join(f"- {p}" for p in report.problems))
        if report.commitment_version == fairplay.LEGACY_COMMITMENT:
            bound = f"sha256(salt:seed) = {data['commitment']} (version 1: the seed only)"
        else:
            bound = f"the commitment {data['commitment']} binds the game, players, options, seed and salt"
        chain = ", and every link of the action chain holds" if report.chained else ""
        self.stdout.write(
            f"Match {data.get('id')} ({data['game']}) verified: {bound}; "
            f"{len(data['actions'])} actions replay from that seed to the recorded final state{chain}."
        )


def _read(path: str) -> Any:
    """The JSON in ``path``; a file that cannot be read or is not JSON fails the check, plainly."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as exc:
        raise CommandError(f"Verification FAILED: cannot read {path}: {exc.strerror or exc}.") from None
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError is a ValueError
        raise CommandError(f"Verification FAILED: {path} is not a JSON match record: {exc}.") from None
    except RecursionError:
        raise CommandError(f"Verification FAILED: {path} is nested too deeply to be a match record.") from None
