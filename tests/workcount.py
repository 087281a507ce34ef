"""Work done, counted instead of timed: a test's verdict must not depend on how busy the machine is."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def calls_made[T](fn: Callable[[], T]) -> tuple[T, int]:
    """Run ``fn`` and count the function calls it makes (Python and built-in): deterministic for a given input."""
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return result, count
