"""The analysis of a finished match: its page, the button that asks for it, the progress fragment the
page polls, and its JSON. Each view checks the match is finished before it reads anything of it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.background import analysis
from games.models import Analysis, Match
from games.web.views import _load_visible


def _not_finished(request: HttpRequest, match: Match) -> HttpResponse:
    messages.info(request, _("A match can be analysed once it is finished."))
    return redirect(match)


@login_required
@require_GET
def analysis_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match, seats = _load_visible(request, match_id)
    if match.status != Match.Status.FINISHED:
        return _not_finished(request, match)
    context = analysis.page_context(match, seats, analysis.finished_analysis(match))
    return render(request, "games/analysis.html", context)


@login_required
@require_POST
def request_analysis(request: HttpRequest, match_id: int) -> HttpResponse:
    match, _seats = _load_visible(request, match_id)
    if match.status != Match.Status.FINISHED:
        return _not_finished(request, match)
    try:
        analysis.request(match_id=match.pk, user=request.user)
    except analysis.Refused as exc:
        messages.error(request, exc.message)
    return redirect("games:analysis", match.pk)


@login_required
@require_GET
def analysis_progress(request: HttpRequest, match_id: int) -> HttpResponse:
    """The progress line the page polls; once the analysis is done, the whole page is reloaded."""
    match, seats = _load_visible(request, match_id)
    if match.status != Match.Status.FINISHED:
        return _not_finished(request, match)
    found = analysis.finished_analysis(match)
    if request.htmx and (found is None or found.status in (Analysis.Status.DONE, Analysis.Status.FAILED)):
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    return render(request, "games/analysis.html#progress", analysis.page_context(match, seats, found))


@require_GET
def api_analysis(request: HttpRequest, match_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return JsonResponse({"error": {"code": "unauthenticated", "message": "Log in first."}}, status=401)
    match, _seats = _load_visible(request, match_id)
    if match.status != Match.Status.FINISHED:
        message = _("A match can be analysed once it is finished.")
        return JsonResponse({"error": {"code": "not_finished", "message": message}}, status=409)
    found = analysis.finished_analysis(match)
    if found is None:
        message = _("This match has not been analysed.")
        return JsonResponse({"error": {"code": "not_analysed", "message": message}}, status=404)
    return JsonResponse({"id": match.pk, "game": match.game, "analysis": analysis.api_record(found)})
