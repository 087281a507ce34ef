"""Post-game analysis on the site: asked for once a match is finished, made by the worker, shown to
everyone who may see the match; never reachable before the end; bounded per account and day."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import registry, services
from games.background import analysis
from games.models import Analysis, Match
from games.reversi import analysis as reversi_analysis
from tests.support import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _shallow(monkeypatch: Any) -> None:
    # The same code at a smaller depth: the test is about the site, not the search's strength.
    monkeypatch.setattr(reversi_analysis, "DEPTH", 4)


def play(match: Match, users: dict[int, Any], count: int) -> None:
    engine = registry.get(match.game).engine
    for _ in range(count):
        match.refresh_from_db()
        state = engine.load(match.state)
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[-1]
        services.act(match_id=match.pk, user=users[seat], action=action, version=match.version)
    match.refresh_from_db()


@pytest.fixture
def finished(reversi_match: Match, alice: Any, bob: Any) -> Match:
    """Alice and Bob played 10 moves, then Bob resigned."""
    play(reversi_match, {0: alice, 1: bob}, 10)
    services.resign(match_id=reversi_match.pk, user=bob)
    reversi_match.refresh_from_db()
    return reversi_match


def analysed(match: Match, user: Any) -> Analysis:
    analysis.request(match_id=match.pk, user=user)
    assert analysis.run_due() == 1
    return Analysis.objects.get(match=match)


def test_asking_queues_an_analysis_that_the_worker_makes(finished: Match, alice: Any) -> None:
    response = client_for(alice).post(reverse("games:analysis-request", args=[finished.pk]))
    assert response.status_code == 302
    row = Analysis.objects.get(match=finished)
    assert (row.status, row.requested_by, row.automatic) == (Analysis.Status.QUEUED, alice, False)
    page = client_for(alice).get(reverse("games:analysis", args=[finished.pk])).content.decode()
    assert "Waiting for the analysis worker" in page and 'hx-trigger="every 2s"' in page
    assert analysis.run_due() == 1
    row.refresh_from_db()
    assert row.status == Analysis.Status.DONE and row.done == row.total == 10
    assert [r["step"] for r in row.records] == list(range(10))
    assert [r["seat"] for r in row.records] == [0, 1] * 5
    assert all(r["loss"] >= 0 and r["value"] - r["played_value"] == pytest.approx(r["loss"]) for r in row.records)


def test_the_analysis_is_shown_to_players_and_spectators(finished: Match, alice: Any, bob: Any, carol: Any) -> None:
    row = analysed(finished, alice)
    for user in (alice, bob, carol):
        page = client_for(user).get(reverse("games:analysis", args=[finished.pk])).content.decode()
        assert '<figure class="value-chart">' in page and "<polyline" in page
        assert "Every move as a table" in page
        assert page.count("<tr><td><a href=") == 10
        assert ">alice</th>" in page and ">bob</th>" in page
    data = client_for(carol).get(reverse("games:api-analysis", args=[finished.pk])).json()
    assert data["analysis"]["records"] == row.records


def test_the_summary_counts_each_players_grades(finished: Match, alice: Any) -> None:
    row = analysed(finished, alice)
    seats = list(finished.seats.select_related("user"))
    rows = analysis.summary(row.records, seats, ["alice", "bob"])
    for seat, summary in zip(seats, rows, strict=True):
        own = [r for r in row.records if r["seat"] == seat.number]
        assert summary["moves"] == 5
        assert summary["average_loss"] == round(sum(r["loss"] for r in own) / 5, 1)
        for grade in ("inaccuracy", "mistake", "blunder"):
            assert summary[grade] == sum(1 for r in own if r["grade"] == grade)


def test_the_replay_frames_the_best_move_and_steps_through_the_mistakes(finished: Match, alice: Any) -> None:
    row = analysed(finished, alice)
    graded = [r["step"] for r in row.records if r["grade"]]
    assert graded, "the last legal move each time loses something somewhere"
    client = client_for(alice)
    first = row.records[0]
    page = client.get(reverse("games:replay-step", args=[finished.pk, 0])).content.decode()
    assert re.search(rf'id="sq-{first["best"]}"[^>]*class="sq[^"]*\bbest\b', page)
    assert f"Best move: {first['best']}" in page
    step = graded[0]
    url = reverse("games:replay-step", args=[finished.pk, step])
    assert f'href="{url}"' in page or step == 0
    here = client.get(url).content.decode()
    assert "Next mistake" in here or len(graded) == 1
    if len(graded) > 1:
        assert f'href="{reverse("games:replay-step", args=[finished.pk, graded[1]])}"' in here


def test_nothing_of_an_unfinished_match_is_reachable(reversi_match: Match, alice: Any, bob: Any, carol: Any) -> None:
    """Not the page, the request, the progress, the API or the export; for players and spectators; not
    even when a row exists (planted here: no code path makes one)."""
    play(reversi_match, {0: alice, 1: bob}, 4)
    Analysis.objects.create(
        match=reversi_match,
        status=Analysis.Status.DONE,
        records=[{"step": 0, "seat": 0, "played": "f5", "best": "SECRET", "value": 0, "loss": 0, "grade": ""}],
    )
    for user in (alice, bob, carol):
        client = client_for(user)
        page = client.get(reverse("games:analysis", args=[reversi_match.pk]))
        assert page.status_code == 302 and page["Location"] == reversi_match.get_absolute_url()
        progress = client.get(reverse("games:analysis-progress", args=[reversi_match.pk]))
        assert progress.status_code == 302
        api = client.get(reverse("games:api-analysis", args=[reversi_match.pk]))
        assert api.status_code == 409 and "SECRET" not in api.content.decode()
        assert client.get(reverse("games:export", args=[reversi_match.pk, "json"])).status_code == 404
        followed = client.get(reverse("games:match", args=[reversi_match.pk])).content.decode()
        assert "SECRET" not in followed and reverse("games:analysis", args=[reversi_match.pk]) not in followed
    Analysis.objects.filter(match=reversi_match).delete()
    refused = client_for(alice).post(reverse("games:analysis-request", args=[reversi_match.pk]), follow=True)
    assert "once it is finished" in refused.content.decode()
    assert not Analysis.objects.filter(match=reversi_match).exists()
    with pytest.raises(analysis.Refused):
        analysis.request(match_id=reversi_match.pk, user=alice)


def test_the_daily_allowance_is_enforced_with_a_clear_message(
    finished: Match, alice: Any, bob: Any, settings: Any
) -> None:
    settings.ANALYSES_PER_DAY = 1
    analysis.request(match_id=finished.pk, user=alice)
    other = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=other.pk, user=bob)
    services.resign(match_id=other.pk, user=bob)
    response = client_for(alice).post(reverse("games:analysis-request", args=[other.pk]), follow=True)
    assert "You have used your 1 analysis of the last 24 hours" in response.content.decode()
    assert not Analysis.objects.filter(match=other).exists()
    # Asking again for the match already analysed costs nothing and is not refused.
    assert analysis.request(match_id=finished.pk, user=alice).match_id == finished.pk
    # A day later the allowance is back.
    later = timezone.now() + timezone.timedelta(days=1, minutes=1)
    assert analysis.request(match_id=other.pk, user=alice, now=later).match_id == other.pk


def test_a_match_against_the_computer_is_analysed_automatically(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    assert not Analysis.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(match_id=match.pk, user=alice)
    row = Analysis.objects.get(match=match)
    assert (row.requested_by, row.automatic, row.status) == (alice, True, Analysis.Status.QUEUED)


def test_the_progress_fragment_reloads_the_page_once_done(finished: Match, alice: Any) -> None:
    analysis.request(match_id=finished.pk, user=alice)
    client = client_for(alice)
    url = reverse("games:analysis-progress", args=[finished.pk])
    waiting = client.get(url, headers={"HX-Request": "true"})
    assert waiting.status_code == 200 and 'id="analysis-progress"' in waiting.content.decode()
    analysis.run_due()
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.status_code == 204 and done["HX-Refresh"] == "true"


def test_a_worker_goes_on_from_the_last_record_saved(finished: Match, alice: Any) -> None:
    """A worker that died midway left its records; once its lease expires another finishes the rest."""
    analysis.request(match_id=finished.pk, user=alice)
    calls: list[int] = []

    def dies_after_three(evaluate: Any, task: Any) -> Any:
        if len(calls) == 3:
            raise SystemExit  # the process ends: nothing after this runs
        calls.append(task["step"])
        return evaluate(task)

    with pytest.raises(SystemExit):
        analysis.run_one(compute=dies_after_three)
    row = Analysis.objects.get(match=finished)
    assert (row.status, row.done) == (Analysis.Status.RUNNING, 3)
    assert analysis.run_one() is False  # still leased
    seen: list[int] = []
    assert analysis.run_one(
        now=timezone.now() + analysis.LEASE * 2, compute=lambda ev, task: seen.append(task["step"]) or ev(task)
    )
    row.refresh_from_db()
    assert row.status == Analysis.Status.DONE and seen == list(range(3, 10)) and len(row.records) == 10


def test_the_analysis_page_costs_the_same_queries_for_a_long_match(
    finished: Match, alice: Any, bob: Any, carol: Any
) -> None:
    analysed(finished, alice)
    longer = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=longer.pk, user=bob)
    play(longer, {0: alice, 1: bob}, 20)
    services.resign(match_id=longer.pk, user=bob)
    analysed(longer, alice)
    client = client_for(carol)
    counts = []
    for match in (finished, longer):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("games:analysis", args=[match.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_card_game_lists_the_decisions_where_the_computer_disagreed(
    make_user: Any, carol: Any, monkeypatch: Any
) -> None:
    """Back Alley: only people's decisions are asked about (here one person and three seats made
    computers), each from the seat's view; the disagreements are listed and the replay steps through
    them."""
    from games.backalley import analysis as backalley_analysis
    from games.models import Seat
    from tests.games.test_fairplay import finished as played_out

    monkeypatch.setattr(backalley_analysis, "BUDGET_S", 0.02)
    four = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    match = played_out("backalley", four, {"first_deal": 25})
    Seat.objects.filter(match=match, number__in=[1, 2, 3]).update(is_bot=True, user=None)
    row = analysed(match, four[0])
    assert row.records and {r["seat"] for r in row.records} == {0}
    disagreed = [r for r in row.records if r["grade"]]
    page = client_for(carol).get(reverse("games:analysis", args=[match.pk])).content.decode()
    assert "Decisions where the computer disagreed" in page
    assert page.count("the computer would have chosen") == len(disagreed)
    # Deal 25's bids against the tricks each team took, as the score sheet has them.
    (sheet_row,) = registry.get("backalley").engine.load(match.state).score_sheet
    assert "Bids and tricks taken" in page
    for team in (0, 1):
        made = "made" if sheet_row.points[team] >= 0 else "failed"
        assert re.search(
            rf"<td>25</td><td>[^<]*</td><td>[^<]*</td><td>[^<]*</td><td>{sheet_row.tricks[team]}</td><td>{made}</td>",
            page,
        )
    step = (disagreed or row.records)[0]["step"]
    replay = client_for(carol).get(reverse("games:replay-step", args=[match.pk, step])).content.decode()
    assert "Chosen here:" in replay and "The hard computer player, from this seat" in replay
    assert ("The computer disagreed." in replay) == bool(disagreed)


@pytest.mark.parametrize(("game", "players", "options"), [("dos", 3, {"target": 30}), ("tacocat", 2, {})])
def test_dos_and_tacocat_are_analysed_decision_by_decision(
    game: str, players: int, options: dict[str, Any], make_user: Any, carol: Any, monkeypatch: Any
) -> None:
    from importlib import import_module

    from tests.games.test_fairplay import finished as played_out

    monkeypatch.setattr(import_module(f"games.{game}.analysis"), "BUDGET_S", 0.02)
    people = [make_user(name) for name in ("ann", "ben", "cat")[:players]]
    match = played_out(game, people, options)
    row = analysed(match, people[0])
    assert row.records and {r["seat"] for r in row.records} <= set(range(players))
    page = client_for(carol).get(reverse("games:analysis", args=[match.pk])).content.decode()
    assert "Decisions where the computer disagreed" in page
    assert page.count("the computer would have chosen") == sum(1 for r in row.records if r["grade"])


def test_the_worker_sends_each_decision_to_a_process_of_its_own_at_a_lower_priority(
    make_user: Any, settings: Any
) -> None:
    """The production path: tasks and the game's evaluate travel to a spawned process (by reference,
    as a bot does) and come back as records; that process runs niced."""
    import os

    from games.models import Seat
    from tests.games.test_fairplay import finished as played_out

    settings.BOT_SEPARATE_PROCESS = True
    four = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    match = played_out("backalley", four, {"first_deal": 25})
    Seat.objects.filter(match=match, number__in=[1, 2, 3]).update(is_bot=True, user=None)
    analysis.request(match_id=match.pk, user=four[0])
    try:
        assert analysis.run_one(compute=analysis._compute_elsewhere)
        assert analysis._pool is not None
        assert analysis._pool.submit(os.nice, 0).result() >= 10
    finally:
        if analysis._pool is not None:
            analysis._pool.shutdown()
            analysis._pool = None
    row = Analysis.objects.get(match=match)
    assert row.status == Analysis.Status.DONE and row.records and {r["seat"] for r in row.records} == {0}


def test_run_worker_once_makes_the_queued_analyses(finished: Match, alice: Any) -> None:
    import io

    from django.core.management import call_command

    analysis.request(match_id=finished.pk, user=alice)
    out = io.StringIO()
    call_command("run_worker", "--once", stdout=out)
    assert out.getvalue().rstrip().endswith("analyses=1")
    assert Analysis.objects.get(match=finished).status == Analysis.Status.DONE


def test_a_match_with_a_takeback_is_analysed_move_by_move(reversi_match: Match, alice: Any, bob: Any) -> None:
    from games.services.takebacks import answer_takeback, request_takeback

    play(reversi_match, {0: alice, 1: bob}, 2)
    request_takeback(match_id=reversi_match.pk, user=bob)
    answer_takeback(match_id=reversi_match.pk, user=alice, accept=True)
    play(reversi_match, {0: alice, 1: bob}, 1)
    services.resign(match_id=reversi_match.pk, user=alice)
    row = analysed(Match.objects.get(pk=reversi_match.pk), alice)
    assert row.status == Analysis.Status.DONE
    # The three moves played, the one taken back included; the takeback entry (step 2) is no decision.
    assert [r["step"] for r in row.records] == [0, 1, 3]
