"""Post-game analysis: asked for, made in the background, stored, and read by the pages.

A finished match of a game with an analyser (``games/<game>/analysis.py``, see ``games.kit.analysis``)
can be analysed once. Asking creates an ``Analysis`` row (counted against the asker's daily
allowance); a worker thread claims it with a lease, replays the match from its log, and hands each
decision to the game's ``evaluate`` in a process of its own, at a low priority, saving the records
after each one (so the page shows progress, and a crashed worker's successor goes on from there).

Nothing here ever reads an unfinished match: asking refuses it, and every reader checks the match is
finished before it shows a record (a row can only exist for a finished match, but the readers do not
rely on that).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import registry
from games.background import bot_worker
from games.kit.analysis import GRADES, Analyser, Record, Task
from games.models import Analysis, Match, Seat
from games.read import replay
from games.record import charts
from games.support.i18n import LocalNumber

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)  # renewed after every decision; one decision takes seconds
POLL_SECONDS = 5.0


class Refused(Exception):
    """Asking for an analysis was refused; ``message`` says why, for the person who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def analyser_of(match: Match) -> Analyser | None:
    return registry.get(match.game).analyser


def daily_allowance() -> int:
    return settings.ANALYSES_PER_DAY


def used_today(user: Any, now: datetime) -> int:
    return Analysis.objects.filter(requested_by=user, created_at__gte=now - timedelta(days=1)).count()


def request(*, match_id: int, user: Any, automatic: bool = False, now: datetime | None = None) -> Analysis:
    """Queue the analysis of a finished match for ``user``, or return the one already made or queued.

    Raises ``Refused`` for a match that is not finished, a game with no analysis, or an account that
    has used its analyses of the last 24 hours.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # Lock the match row: two requests at once must not both pass the allowance and the
        # one-per-match check (on SQLite the write lock serialises them instead).
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.FINISHED:
            raise Refused(_("A match can be analysed once it is finished."))
        if analyser_of(match) is None:
            raise Refused(_("This game has no analysis yet."))
        existing = Analysis.objects.filter(match=match).first()
        if existing is not None and existing.status != Analysis.Status.FAILED:
            return existing
        allowance = daily_allowance()
        if used_today(user, now) >= allowance:
            message = ngettext(
                "You have used your %(n)s analysis of the last 24 hours; try again later.",
                "You have used your %(n)s analyses of the last 24 hours; try again later.",
                allowance,
            )
            raise Refused(message % {"n": LocalNumber(allowance)})
        if existing is not None:
            existing.delete()
        analysis = Analysis.objects.create(match=match, requested_by=user, automatic=automatic)
        transaction.on_commit(wake)
    return analysis


def request_for_computer_match(match: Match, seats: list[Seat]) -> Analysis | None:
    """The automatic analysis of a finished match between one person and the computer, if their
    allowance has room (it is skipped, not refused: they may still ask once it has)."""
    people = [s for s in seats if s.user_id is not None and not s.is_bot]
    if match.status != Match.Status.FINISHED or len(people) != 1 or not any(s.is_bot for s in seats):
        return None
    if analyser_of(match) is None or Analysis.objects.filter(match=match).exists():
        return None
    try:
        return request(match_id=match.pk, user=people[0].user, automatic=True)
    except Refused:
        return None


# --- the worker -----------------------------------------------------------------------------------

# (the game's evaluate, a task) -> its record
Compute = Callable[[Callable[[Task], Record], Task], Record]


def compute_here(evaluate: Callable[[Task], Record], task: Task) -> Record:
    return evaluate(task)


def claim(now: datetime) -> Analysis | None:
    """Lease the oldest analysis waiting (or abandoned by a worker whose lease ran out), or None."""
    waiting = Q(status=Analysis.Status.QUEUED) | Q(status=Analysis.Status.RUNNING, lease_until__lt=now)
    for pk in Analysis.objects.filter(waiting).order_by("created_at").values_list("pk", flat=True)[:5]:
        # Compare and set: of several workers, only the one whose update matched holds the lease.
        lease = now + LEASE
        if Analysis.objects.filter(waiting, pk=pk).update(status=Analysis.Status.RUNNING, lease_until=lease):
            return Analysis.objects.select_related("match").get(pk=pk)
    return None


def run_one(*, now: datetime | None = None, compute: Compute = compute_here) -> bool:
    """Make (or go on with) one waiting analysis. True if there was one."""
    job = claim(now or timezone.now())
    if job is None:
        return False
    lease = job.lease_until
    try:
        match = job.match
        analyser = analyser_of(match)
        if match.status != Match.Status.FINISHED or analyser is None:
            raise RuntimeError(f"Match {match.pk} cannot be analysed.")
        log_rows = [(seat, payload) for seat, payload in match.moves.order_by("seq").values_list("seat", "payload")]
        tasks = analyser.tasks(replay.replay_states(match), log_rows)
        if analyser.people_only:
            people = set(match.seats.filter(user__isnull=False, is_bot=False).values_list("number", flat=True))
            tasks = [task for task in tasks if task["seat"] in people]
        records, nodes = list(job.records), job.nodes
        for task in tasks[len(records) :]:
            record = compute(analyser.evaluate, task)
            records.append(record)
            nodes += int(record.get("nodes", 0))
            renewed = timezone.now() + LEASE
            # Only while this worker still holds the lease: after a long stall another may have it.
            if not Analysis.objects.filter(pk=job.pk, lease_until=lease).update(
                records=records, done=len(records), total=len(tasks), nodes=nodes, lease_until=renewed
            ):
                return True
            lease = renewed
        Analysis.objects.filter(pk=job.pk, lease_until=lease).update(
            status=Analysis.Status.DONE, total=len(tasks), done=len(tasks), finished_at=timezone.now(), lease_until=None
        )
    except Exception:
        log.exception("The analysis of match %s failed", job.match_id)
        Analysis.objects.filter(pk=job.pk).update(status=Analysis.Status.FAILED, lease_until=None)
    return True


def run_due() -> int:
    """Make every waiting analysis here and now (``run_worker --once``, tests). Returns the count."""
    count = 0
    while run_one():
        count += 1
    return count


_wake = threading.Event()
_started = threading.Lock()
_runner: threading.Thread | None = None
_pool: ProcessPoolExecutor | None = None


def wake() -> None:
    _wake.set()


def start_runner() -> None:
    """Start this process's analysis thread, once (beside the computer players' runner)."""
    global _runner
    with _started:
        if _runner is not None and _runner.is_alive():
            return
        _runner = threading.Thread(target=run_forever, name="turnwise-analysis", daemon=True)
        _runner.start()


def _compute_elsewhere(evaluate: Callable[[Task], Record], task: Task) -> Record:
    """One decision, in the analysis process: apart from the computer players' worker, so an analysis
    never delays a computer move, and from this process, so it never holds the interpreter here."""
    global _pool
    if not settings.BOT_SEPARATE_PROCESS:
        return evaluate(task)
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            # In bot_worker, which the spawned process can import without Django set up.
            initializer=bot_worker.start_niced,
            initargs=(os.getpid(),),
        )
    try:
        return _pool.submit(evaluate, task).result()
    except BrokenProcessPool:
        log.exception("The analysis process died; starting a new one")
        _pool = None
        raise


def run_forever(poll_seconds: float = POLL_SECONDS) -> None:
    while True:
        try:
            while run_one(compute=_compute_elsewhere):
                pass
        except Exception:  # The database may be briefly away; keep the loop alive.
            log.exception("Analysis runner iteration failed")
            connection.close()
        else:
            # As the computer players' runner: keep SQLite's one connection, give others back.
            if connection.vendor != "sqlite":
                connection.close()
        _wake.wait(timeout=poll_seconds)
        _wake.clear()


# --- reading --------------------------------------------------------------------------------------


def finished_analysis(match: Match) -> Analysis | None:
    """The match's analysis, only if the match is finished (one query)."""
    if match.status != Match.Status.FINISHED:
        return None
    return Analysis.objects.filter(match=match).first()


def _replay_url(match: Match, step: int) -> str:
    return reverse("games:replay-step", args=[match.pk, step])


def summary(records: list[Record], seats: list[Seat], names: list[str]) -> list[dict[str, Any]]:
    """Per seat: decisions analysed, average loss and how many of each grade."""
    rows = []
    for seat in seats:
        own = [r for r in records if r["seat"] == seat.number]
        counts = {grade: sum(1 for r in own if r["grade"] == grade) for grade in GRADES}
        rows.append(
            {
                "name": names[seat.number],
                "moves": len(own),
                "average_loss": round(sum(r["loss"] for r in own) / len(own), 1) if own else 0.0,
                **counts,
            }
        )
    return rows


def grade_label(grade: str) -> str:
    return {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}.get(grade, "")


def page_context(match: Match, seats: list[Seat], analysis: Analysis | None) -> dict[str, Any]:
    """What the analysis page shows of a finished match's analysis (or of its progress)."""
    spec = registry.get(match.game)
    names = [s.display_name() for s in seats]
    context: dict[str, Any] = {
        "match": match,
        "game": spec,
        "analysis": analysis,
        "allowance": daily_allowance(),
        "unit": _(spec.analyser.unit) if spec.analyser else "",
        "first_seat": names[0] if names else "",
        "kind": spec.analyser.kind if spec.analyser else "",
        "practice_url": reverse(spec.analyser.practice) if spec.analyser and spec.analyser.practice else "",
    }
    if analysis is None or analysis.status != Analysis.Status.DONE:
        return context
    if spec.analyser and spec.analyser.kind == "choice":
        context.update(_choice_context(match, seats, names, spec.analyser, analysis.records))
        if spec.analyser.extra_table:
            context["extra_table"] = spec.analyser.extra_table(match.state, names)
        return context
    records = analysis.records
    rows = []
    for r in records:
        rows.append(
            {
                **r,
                "number": r["step"] + 1,
                "name": names[r["seat"]],
                "grade_label": grade_label(r["grade"]),
                "url": _replay_url(match, r["step"]),
                # The value for the first seat, as the graph shows it.
                "first_value": r["value"] if r["seat"] == 0 else -r["value"],
            }
        )
    values = [row["first_value"] for row in rows]
    labels = [_("move %(n)s") % {"n": 1}, _("move %(n)s") % {"n": len(rows)}] if rows else []
    chart = charts.value_chart(values, labels) if rows else None
    context.update(
        {
            "rows": rows,
            "chart": chart,
            "marks": [(x, y, row["grade"]) for (x, y), row in zip(chart.points, rows, strict=True) if row["grade"]]
            if chart
            else [],
            "summary": summary(records, seats, names),
            "mistakes": [row for row in rows if row["grade"]],
        }
    )
    return context


def _label(analyser: Analyser, action: Any) -> str:
    return analyser.describe(action) if analyser.describe else str(action)


def _choice_context(
    match: Match, seats: list[Seat], names: list[str], analyser: Analyser, records: list[Record]
) -> dict[str, Any]:
    """A card game's analysis: per person, their decisions and those where the computer would have
    chosen otherwise, each a link to the replay at that decision; and, where the records have it
    (``known_best``: analyses made before it was added do not), what it would have chosen with every
    hand known, and where that is another choice."""
    rows = [
        {
            **r,
            "number": r["step"] + 1,
            "name": names[r["seat"]],
            "played_label": _label(analyser, r["played"]),
            "best_label": _label(analyser, r["best"]),
            "known_label": _label(analyser, r["known_best"]) if "known_best" in r else "",
            "known_differs": "known_best" in r and not r.get("known_same", True),
            "url": _replay_url(match, r["step"]),
        }
        for r in records
    ]
    known = any("known_best" in r for r in records)
    summary_rows = []
    for seat in seats:
        own = [row for row in rows if row["seat"] == seat.number]
        if own:
            summary_rows.append(
                {
                    "name": names[seat.number],
                    "decisions": len(own),
                    "disagreed": sum(1 for row in own if row["grade"]),
                    "known_differs": sum(1 for row in own if row["known_differs"]),
                }
            )
    return {
        "kind": "choice",
        "choice_summary": summary_rows,
        "disagreements": [row for row in rows if row["grade"]],
        "decisions": rows,
        "known": known,
    }


def replay_step(match: Match, analysis: Analysis | None, step: int, board: dict[str, Any]) -> dict[str, Any] | None:
    """The analysis of the decision taken at replay ``step`` (the position shown), with the board's
    best move marked and links to the previous and next graded decision; None without one."""
    if analysis is None or analysis.status != Analysis.Status.DONE or match.status != Match.Status.FINISHED:
        return None
    analyser = analyser_of(match)
    if analyser is None:
        return None
    records = analysis.records
    record = next((r for r in records if r["step"] == step), None)
    graded = [r["step"] for r in records if r["grade"]]
    earlier = [s for s in graded if s < step]
    later = [s for s in graded if s > step]
    return {
        "record": record,
        "kind": analyser.kind,
        "played_label": _label(analyser, record["played"]) if record else "",
        "best_label": _label(analyser, record["best"]) if record else "",
        "known_label": _label(analyser, record["known_best"]) if record and "known_best" in record else "",
        "grade_label": grade_label(record["grade"]) if record else "",
        "board": analyser.mark_best(board, record) if record else board,
        "prev_mistake_url": _replay_url(match, earlier[-1]) if earlier else "",
        "next_mistake_url": _replay_url(match, later[0]) if later else "",
        "unit": _(analyser.unit),
    }


def api_record(analysis: Analysis) -> dict[str, Any]:
    """The JSON form of a finished match's analysis (the API)."""
    return {
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
        "records": analysis.records if analysis.status == Analysis.Status.DONE else [],
    }
