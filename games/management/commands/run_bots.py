"""Run the computer players as a process of its own (production: one or more beside the web servers)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.core.management.base import BaseCommand

from games import bots


class Command(BaseCommand):
    help = "Take computer players' moves as they fall due (safe to run in several processes)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write("Bot runner started; Ctrl+C to stop.")

        async def main() -> None:
            bots.start_runner()
            await asyncio.Event().wait()

        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(main())
