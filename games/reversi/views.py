"""Practice positions: Reversi endgames from WTHOR games with one best move, to find, and a streak.

The positions and the exact value of every legal move come from ``tools/build_reversi_practice.py``
(the compiled exact solver, offline), so checking an answer searches nothing on a request thread. The
streak lives in the session: it is a game of one's own, nothing anyone else sees.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.reversi import present
from games.support.i18n import LocalNumber

DATA = Path(__file__).resolve().parent / "data" / "practice.json"
SESSION_KEY = "reversi_practice"


@cache
def positions() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text())["positions"]


def _progress(request: HttpRequest) -> dict[str, Any]:
    return {"index": 0, "streak": 0, "best": 0, "last": None, **request.session.get(SESSION_KEY, {})}


@login_required
@require_GET
def practice(request: HttpRequest) -> HttpResponse:
    progress = _progress(request)
    index = progress["index"] % len(positions())
    position = positions()[index]
    view = {
        "board": position["board"],
        "legal": sorted(position["values"]),
        "last_move": None,
        "flipped": [],
        "to_move": position["to_move"],
    }
    seat = 0 if position["to_move"] == "B" else 1
    last = progress["last"]
    if last is not None:
        progress["last"] = None
        request.session[SESSION_KEY] = progress
    return render(
        request,
        "reversi/practice.html",
        {
            "board": present.present(view, seat),
            "to_move": present.seat_label(seat),
            "number": LocalNumber(index + 1),
            "count": LocalNumber(len(positions())),
            "index": index,
            "streak": LocalNumber(progress["streak"]),
            "best": LocalNumber(progress["best"]),
            "last": last,
        },
    )


@login_required
@require_POST
def answer(request: HttpRequest) -> HttpResponse:
    progress = _progress(request)
    index = progress["index"] % len(positions())
    if request.POST.get("position") != str(index):
        # An old page answered after another was shown: nothing is counted.
        messages.info(request, _("That position was already answered; here is the next one."))
        return redirect("reversi-practice:practice")
    values = positions()[index]["values"]
    square = request.POST.get("square", "")
    if square not in values:
        messages.error(request, _("That is not a legal move in this position."))
        return redirect("reversi-practice:practice")
    top = max(values.values())
    right = values[square] == top
    streak = progress["streak"] + 1 if right else 0
    best = sorted(sq for sq, value in values.items() if value == top)
    request.session[SESSION_KEY] = {
        "index": index + 1,
        "streak": streak,
        "best": max(progress["best"], streak),
        "last": {"square": square, "value": values[square], "right": right, "best": best[0], "top": top},
    }
    return redirect("reversi-practice:practice")
