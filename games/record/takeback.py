"""Takebacks in the action log: an agreed return to an earlier position, for games of open information.

The log stays append-only. A takeback is an entry of its own, ``{"type": "takeback", "to": p}`` (no
engine uses that type), logged under the seat whose move is taken back; it means "the state is again
the one after log entry ``p``" (0: the start). Replaying the log (``games.read.replay``), verifying a record
(``games.record.fairplay``) and writing a transcript all read it through :class:`Line`, so each of them
arrives at the state the match stored. Only games whose engine declares ``takebacks = True`` allow one
(no hidden cards, no chance: going back reveals nothing and redraws nothing).

The rule, the same everywhere: a takeback by seat ``s`` returns to the position just before ``s``'s
latest move that is still on the board's line (lichess: if the opponent has replied since, that reply
goes too, and ``s`` is to move again).
"""

from __future__ import annotations

from typing import Any

TAKEBACK = "takeback"


def is_takeback(action: Any) -> bool:
    return isinstance(action, dict) and action.get("type") == TAKEBACK


def allowed(engine: Any) -> bool:
    """The game lets players take a move back (a static fact its engine declares)."""
    return getattr(engine, "takebacks", False) is True


class Line:
    """The log positions whose states lead to the current one, and who moved to each.

    Position 0 is the start; entry ``k`` of the log (1-based) leads to position ``k``. A takeback entry
    cuts the line back to its target and stands for that same state, moved to by nobody.
    """

    def __init__(self) -> None:
        self.positions: list[int] = [0]
        self.movers: list[int | None] = [None]

    def record(self, position: int, seat: int, action: Any) -> int | None:
        """Add log entry ``position``; for a takeback, the position it returns to. ``ValueError`` when a
        takeback is not the one the rule allows ``seat``."""
        if not is_takeback(action):
            self.positions.append(position)
            self.movers.append(seat)
            return None
        to = action.get("to")
        expected = self.before_last_move_of(seat)
        if expected is None:
            raise ValueError(f"seat {seat} has no move to take back")
        if set(action) != {"type", "to"} or type(to) is not int or to != expected:
            raise ValueError(f"a takeback by seat {seat} may return only to position {expected}")
        cut = self.positions.index(to) + 1
        del self.positions[cut:], self.movers[cut:]
        self.positions.append(position)
        self.movers.append(None)
        return to

    def before_last_move_of(self, seat: int) -> int | None:
        """The position just before ``seat``'s latest move on the line; None if it has none."""
        for i in range(len(self.movers) - 1, 0, -1):
            if self.movers[i] == seat:
                return self.positions[i - 1]
        return None


def replay(engine: Any, players: int, seed: int, options: Any, entries: list[tuple[int, Any]]) -> list[Any]:
    """Every state from the start through the log ``entries`` (seat, action): one more than entries."""
    states = [engine.new_game(players, seed, options)]
    line = Line()
    for position, (seat, action) in enumerate(entries, start=1):
        to = line.record(position, seat, action)
        states.append(states[to] if to is not None else engine.apply(states[-1], seat, action))
    return states


def line_of(entries: list[tuple[int, Any]]) -> Line:
    """The line after the log ``entries`` (seat, action), in order."""
    line = Line()
    for position, (seat, action) in enumerate(entries, start=1):
        line.record(position, seat, action)
    return line


def actions_on_line(entries: list[Any]) -> list[Any]:
    """The actions that made the current position, in order (for a transcript): ``entries`` are
    (seat, action) pairs of the whole log."""
    line = line_of(entries)
    return [entries[p - 1][1] for p, mover in zip(line.positions, line.movers, strict=True) if mover is not None]
