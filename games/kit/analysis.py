"""What a game provides for post-game analysis (``games/<game>/analysis.py``, ``analyser``).

No Django here: ``evaluate`` runs in the analysis worker process, which has no Django set up, and is
sent there by reference (a module-level function), like a game's bot.

The core (``games.analysis``) replays a finished match, asks ``tasks`` for one task per decision worth
analysing, hands the tasks one by one to ``evaluate`` in the worker process (so progress is saved
after each, and the cost of each is bounded by the game), and stores the list of records it returns.
A record is a JSON-ready dict with at least:

- ``step``: how many actions of the log came before the decision (the replay step showing it),
- ``seat``: the seat that decided,
- ``played`` and ``best``: the action taken and the one the analysis prefers, as short labels,
- ``value`` (the position's value for the mover with best play) and ``played_value``, in the game's
  unit, and ``loss``: ``value - played_value``, never negative,
- ``grade``: "" or one of ``GRADES``, from the loss by the game's thresholds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import Action

Task = dict[str, Any]
Record = dict[str, Any]

GRADES = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Analyser:
    # (every state of the match from the start, the log of (seat, action)) -> one task per decision.
    tasks: Callable[[list[Any], list[tuple[int, Action]]], list[Task]]
    # A task -> its record. Pure, bounded work; runs in the worker process.
    evaluate: Callable[[Task], Record]
    # (the game's presented board at a step, the record of the decision taken there) -> the board
    # with the preferred move marked, for the replay.
    mark_best: Callable[[dict[str, Any], Record], dict[str, Any]]
    # The unit values are counted in, for the page ("discs").
    unit: str
