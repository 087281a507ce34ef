"""Computing a computer player's move. Pure: runs in a worker process with no Django set up."""

from __future__ import annotations

import importlib
import random
from typing import Any


def compute(
    slug: str, view: dict[str, Any], legal: list[dict[str, Any]], budget_s: float, level: str = "medium"
) -> dict[str, Any]:
    """The action the game's bot picks at ``level`` (easy, medium, hard), from the seat's view and legal actions."""
    bot = importlib.import_module(f"games.{slug}.bot")
    # Fresh entropy: a bot's choices need not be reproducible, and must not derive from the match seed.
    return bot.choose(view, legal, rng=random.Random(), budget_s=budget_s, level=level)
