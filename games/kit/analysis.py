"""What a game provides for post-game analysis (``games/<game>/analysis.py``, ``analyser``).

No Django here: ``evaluate`` runs in the analysis worker process, which has no Django set up, and is
sent there by reference (a module-level function), like a game's bot.

The core (``games.background.analysis``) replays a finished match, asks ``tasks`` for one task per decision worth
analysing, hands the tasks one by one to ``evaluate`` in the worker process (so progress is saved
after each, and the cost of each is bounded by the game), and stores the list of records it returns.
A "value" record (Reversi) is a JSON-ready dict with at least:

- ``step``: how many actions of the log came before the decision (the replay step showing it),
- ``seat``: the seat that decided,
- ``played`` and ``best``: the action taken and the one the analysis prefers, as short labels,
- ``value`` (the position's value for the mover with best play) and ``played_value``, in the game's
  unit, and ``loss``: ``value - played_value``, never negative,
- ``grade``: "" or one of ``GRADES``, from the loss by the game's thresholds.

A "choice" record (the card games, ``choice_tasks`` and ``choice_record``) has ``step``, ``seat``,
``played`` and ``best`` (the actions themselves) and ``grade``: "" or ``DISAGREED``. Where the game
gives its hands (``choice_tasks``' ``hands``), also ``known_best``: what the same hard player would
have chosen with every other hand known (the draw pile and the deck order stay unknown), and
``known_same``: whether that is the same decision as ``best``.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import Action

Task = dict[str, Any]
Record = dict[str, Any]

GRADES = ("inaccuracy", "mistake", "blunder")
# A "choice" record's grade where the computer would have chosen otherwise.
DISAGREED = "disagreed"


@dataclass(frozen=True)
class Analyser:
    # (every state of the match from the start, the log of (seat, action)) -> one task per decision.
    tasks: Callable[[list[Any], list[tuple[int, Action]]], list[Task]]
    # A task -> its record. Pure, bounded work; runs in the worker process.
    evaluate: Callable[[Task], Record]
    # (the game's presented board at a step, the record of the decision taken there) -> the board
    # with the preferred move marked, for the replay.
    mark_best: Callable[[dict[str, Any], Record], dict[str, Any]]
    # The unit values are counted in, for the page ("discs"); "" where there are no values.
    unit: str
    # "value": each record has a value, the best move and a loss (a graph, grades by loss);
    # "choice": each record says what the computer would have chosen instead (no values).
    kind: str = "value"
    # Only the decisions of people's seats (a computer's own choices teach nothing and cost time).
    people_only: bool = False
    # An action as the page names it, in the viewer's language (web side only); None: ``played`` and
    # ``best`` are shown as they are.
    describe: Callable[[Action], str] | None = None
    # A table of the game's own for the analysis page, from the final state's dump and the seat
    # names (web side only): ``{"title": ..., "headers": [...], "rows": [[...], ...]}``.
    extra_table: Callable[[dict[str, Any], list[str]], dict[str, Any]] | None = None
    # The URL name of the game's practice page, if it has one (linked from the analysis page).
    practice: str = ""


def unmarked(board: dict[str, Any], record: Record) -> dict[str, Any]:
    """``mark_best`` for a game whose board has nothing to mark."""
    return board


# A state -> every seat's hand at that moment, each as the seat's own view writes a hand.
Hands = Callable[[Any], list[list[str]]]


def choice_tasks(
    engine: Any, states: list[Any], log: list[tuple[int, Action]], hands: Hands | None = None
) -> list[Task]:
    """One task per real decision (more than one legal action): the deciding seat's view at the
    time, exactly what its computer player would have been given in play (never the hidden cards of
    the others, which the finished match has revealed), its legal actions and what was played.

    With ``hands``, a task also holds every seat's hand at the time (``"hands"``), which the finished
    match has revealed: only the second, "every hand known" question reads it, never the first. Tasks
    are made by the analysis worker of a finished match and never stored (only the records are)."""
    tasks = []
    for step, (seat, action) in enumerate(log):
        legal = engine.legal_actions(states[step], seat)
        if len(legal) > 1:
            view = engine.view(states[step], seat)
            task = {"step": step, "seat": seat, "view": view, "legal": legal, "played": action}
            if hands is not None:
                task["hands"] = hands(states[step])
            tasks.append(task)
    return tasks


def choice_record(
    choose: Callable[..., Action],
    task: Task,
    *,
    budget_s: float,
    same: Callable[[Action, Action], bool] = operator.eq,
) -> Record:
    """What the hard computer player chooses from the task's view (its random choices seeded by the
    step, so the same match gives the same analysis), against what was played; ``same`` says when two
    actions are one decision (e.g. the same cards named in another order).

    A task with ``"hands"`` is asked a second time, the same player within the same budget given the
    other hands as they were (``choose``'s ``known_hands``): ``known_best``. The first answer is made
    before and without them, exactly as before."""
    suggested = choose(task["view"], task["legal"], rng=random.Random(task["step"]), budget_s=budget_s, level="hard")
    agree = same(suggested, task["played"])
    record = {
        "step": task["step"],
        "seat": task["seat"],
        "played": task["played"],
        "best": suggested,
        "grade": "" if agree else DISAGREED,
    }
    if "hands" in task:
        known = choose(
            task["view"],
            task["legal"],
            rng=random.Random(task["step"]),
            budget_s=budget_s,
            level="hard",
            known_hands=task["hands"],
        )
        record["known_best"] = known
        record["known_same"] = same(known, suggested)
    return record
