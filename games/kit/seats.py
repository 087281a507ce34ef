"""Seats and turn order, the same in every engine.

A seat is a plain ``int`` from 0 to ``players - 1``, everywhere: in ``legal_actions``, ``apply`` and
``view`` (where ``None`` is a spectator). JSON ``true``/``false`` arrive as ``bool``, which Python counts
as an ``int`` (``False == 0``), so a bool is refused like a string: a seat that is not one would
otherwise be read as seat 0 or 1 by one method and refused by another.
"""

from __future__ import annotations

from typing import Any

from games.engine import InvalidAction
from games.engine import gettext_noop as _


def check_seat(seat: Any, players: int) -> int:
    """``seat`` itself when it is a seat of a ``players``-seat table; else ``InvalidAction``."""
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidAction(
            _("There is no seat %(seat)s; seats are 0 to %(last)s."), {"seat": repr(seat), "last": players - 1}
        )
    return seat


def check_viewer(seat: Any, players: int) -> int | None:
    """A view's seat: ``None`` (a spectator) or a seat, as ``check_seat`` takes it."""
    return None if seat is None else check_seat(seat, players)


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat ``step`` places after ``seat`` clockwise (seat order), wrapping round the table."""
    return (seat + step) % players


def round_robin(first: int, players: int, count: int | None = None) -> list[int]:
    """``count`` seats in turn order from ``first`` (all ``players`` seats by default): who plays to a
    trick led by ``first``, who is dealt to from the dealer's left, who bids after the dealer."""
    return [(first + k) % players for k in range(players if count is None else count)]
