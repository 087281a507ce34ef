"""The background work as a process of its own: computer players, the clock (deadlines, Play now
pairing, emails, pushes) and post-game analyses.

Safe to run in several processes at once; see docs/deployment.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts import mail_delivery, push
from config import mail
from games.background import analysis, bots, clock
from games.live import realtime


class Command(BaseCommand):
    help = "Take computer moves and run the clock work as they fall due (safe in several processes)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="Do what is due now, then exit.")

    def handle(self, *args: Any, **options: Any) -> None:
        mail.warn_if_unconfigured()  # at the start, as the web processes do: not at the first notice
        if options["once"]:
            now = timezone.now()
            moves = bots.run_due(now=now)
            done = clock.tick(now)
            # The pushes handed over run on their own thread: let them finish (each within its deadline)
            # and record how they went, rather than leave them for a next tick that will not come.
            pushes = push.drain(now)
            mail_delivery.wait_idle()  # the emails likewise (each within its deadline)
            analysed = analysis.run_due()
            self.stdout.write(
                f"moves={moves} "
                + " ".join(f"{name}={n}" for name, n in done.items())
                + f" pushes={pushes} analyses={analysed}"
            )
            return
        self.stdout.write("Worker started; Ctrl+C to stop.")

        async def main() -> None:
            # Announcements from the runner's thread go out through this loop's channel layer.
            realtime.bind_loop(asyncio.get_running_loop())
            bots.start_runner()
            await asyncio.Event().wait()

        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(main())
