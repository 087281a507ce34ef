"""A computer player's wall-clock deadline.

Every bot counts its work (nodes, plays) against a budget converted from ``budget_s`` at a measured
rate, which makes its moves reproducible in tests and benchmarks. A busy host runs that work slower
than the rate assumes, so each search also reads this monotonic clock at safe points (between
samples, deals or playouts, every few hundred nodes) and stops there once ``budget_s`` has passed:
a 0.5 s move never takes much more than 0.5 s of wall time, however loaded the machine.

Benchmarks set ``ENFORCED = False``: their figures then depend on the work counts alone.
"""

from __future__ import annotations

import math
from time import monotonic

ENFORCED = True


class Deadline:
    """When one decision must stop searching; ``passed()`` reads the clock."""

    __slots__ = ("at",)

    def __init__(self, budget_s: float) -> None:
        self.at = monotonic() + budget_s if ENFORCED else math.inf

    def passed(self) -> bool:
        return monotonic() > self.at
