"""Reversi takebacks (lichess): ask, accept, decline; logged so that replay and verification still hold.

Fixed cast: alice (Black, seat 0) and bob (White, seat 1) seated, carol outside.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games import services
from games.models import Match, Move
from games.read import pages
from games.read.replay import replays_to_stored_state
from games.record import export, fairplay
from games.reversi.rules import engine
from games.services.takebacks import answer_takeback, request_takeback
from tests.games.test_services import snapshot

pytestmark = pytest.mark.django_db

D3 = {"type": "place", "square": "d3"}
C3 = {"type": "place", "square": "c3"}
C4 = {"type": "place", "square": "c4"}
START = engine.dump(engine.new_game(2, 0))


def move(match: Match, user: Any, action: dict[str, Any]) -> Match:
    match.refresh_from_db()
    return services.act(match_id=match.pk, user=user, action=action, version=match.version)


def board(match: Match) -> tuple[str, int | None]:
    match.refresh_from_db()
    state = engine.load(match.state)
    return engine.view(state, None)["board"], state.to_move


def start_board() -> tuple[str, int | None]:
    state = engine.load(START)
    return engine.view(state, None)["board"], state.to_move


def offer(match: Match, user: Any) -> Any:
    match.refresh_from_db()
    return pages.match_context(match, user)["takeback"]


def refused(call: Any, match: Match, message: str, callbacks: Any) -> None:
    """``call`` is refused with ``message``, writes nothing and announces nothing."""
    before = snapshot(match)
    fields = (match.takeback_seat, match.takeback_version, match.takeback_declined_at)
    with callbacks() as announced, pytest.raises(services.MatchError, match=message):
        call()
    assert snapshot(match) == before
    assert (match.takeback_seat, match.takeback_version, match.takeback_declined_at) == fields
    assert announced == []


def test_accepting_returns_to_the_position_before_the_askers_move_and_the_log_replays(
    reversi_match: Match, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    move(reversi_match, alice, D3)
    with django_capture_on_commit_callbacks() as announced:
        request_takeback(match_id=reversi_match.pk, user=alice)
    assert len(announced) == 1
    assert offer(reversi_match, alice).asked_by_me
    asked = offer(reversi_match, bob)
    assert asked.asked_by.user == alice and not asked.can_ask
    # Asking writes no log entry and keeps bob's move page current (his version still acts).
    assert Move.objects.filter(match=reversi_match).count() == 1
    answer_takeback(match_id=reversi_match.pk, user=bob, accept=True)
    assert board(reversi_match) == start_board()
    assert [s.to_act for s in reversi_match.seats.order_by("number")] == [True, False]
    log = list(Move.objects.filter(match=reversi_match).order_by("seq").values_list("seat", "payload"))
    assert log == [(0, D3), (0, {"type": "takeback", "to": 0})]
    assert replays_to_stored_state(reversi_match)
    assert offer(reversi_match, bob).asked_by is None
    # Play goes on from there, and the finished match's record verifies and lists only the moves kept.
    move(reversi_match, alice, C4)
    services.resign(match_id=reversi_match.pk, user=bob)
    reversi_match.refresh_from_db()
    record = export.record(reversi_match)
    assert fairplay.verify(record) == []
    assert export.transcript(reversi_match) == "c4"


def test_after_the_opponents_reply_both_moves_go_back_and_the_asker_moves_again(
    reversi_match: Match, alice: Any, bob: Any
) -> None:
    move(reversi_match, alice, D3)
    move(reversi_match, bob, C3)
    request_takeback(match_id=reversi_match.pk, user=alice)
    answer_takeback(match_id=reversi_match.pk, user=bob, accept=True)
    assert board(reversi_match) == start_board()
    assert replays_to_stored_state(reversi_match)


def test_declining_changes_no_position_and_the_asker_waits_for_a_move_before_asking_again(
    reversi_match: Match, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    move(reversi_match, alice, D3)
    request_takeback(match_id=reversi_match.pk, user=alice)
    before = board(reversi_match)
    with django_capture_on_commit_callbacks() as announced:
        answer_takeback(match_id=reversi_match.pk, user=bob, accept=False)
    assert len(announced) == 1
    assert board(reversi_match) == before
    assert Move.objects.filter(match=reversi_match).count() == 1
    assert offer(reversi_match, alice).can_ask is False
    assert offer(reversi_match, alice).declined and not offer(reversi_match, bob).declined
    refused(
        lambda: request_takeback(match_id=reversi_match.pk, user=alice),
        reversi_match,
        "declined a takeback",
        django_capture_on_commit_callbacks,
    )
    move(reversi_match, bob, C3)
    assert offer(reversi_match, alice).can_ask and not offer(reversi_match, alice).declined
    request_takeback(match_id=reversi_match.pk, user=alice)


def test_a_move_instead_of_an_answer_declines_the_request(reversi_match: Match, alice: Any, bob: Any) -> None:
    move(reversi_match, alice, D3)
    request_takeback(match_id=reversi_match.pk, user=alice)
    move(reversi_match, bob, C3)
    assert offer(reversi_match, bob).asked_by is None
    with pytest.raises(services.MatchError, match="no takeback request"):
        answer_takeback(match_id=reversi_match.pk, user=bob, accept=True)


def test_refusals_write_nothing_and_announce_nothing(
    reversi_match: Match, alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    cb = django_capture_on_commit_callbacks
    refused(lambda: request_takeback(match_id=reversi_match.pk, user=alice), reversi_match, "no move to take back", cb)
    move(reversi_match, alice, D3)
    refused(lambda: request_takeback(match_id=reversi_match.pk, user=bob), reversi_match, "no move to take back", cb)
    refused(lambda: request_takeback(match_id=reversi_match.pk, user=carol), reversi_match, "do not have a seat", cb)
    refused(
        lambda: answer_takeback(match_id=reversi_match.pk, user=bob, accept=True),
        reversi_match,
        "no takeback request",
        cb,
    )
    request_takeback(match_id=reversi_match.pk, user=alice)
    reversi_match.refresh_from_db()
    refused(lambda: request_takeback(match_id=reversi_match.pk, user=alice), reversi_match, "already waiting", cb)
    refused(lambda: request_takeback(match_id=reversi_match.pk, user=bob), reversi_match, "already waiting", cb)
    refused(
        lambda: answer_takeback(match_id=reversi_match.pk, user=alice, accept=True),
        reversi_match,
        "no takeback request",
        cb,
    )


def test_card_games_have_no_takebacks(alice: Any, bob: Any, django_capture_on_commit_callbacks: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2, bot_seats={1})
    assert offer(match, alice) is None
    refused(
        lambda: request_takeback(match_id=match.pk, user=alice),
        match,
        "cannot be taken back in this game",
        django_capture_on_commit_callbacks,
    )


def test_against_the_computer_a_takeback_is_granted_at_once_and_its_pending_move_refused(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    move(match, alice, D3)
    match.refresh_from_db()
    assert match.bot_due_at is not None
    seen = match.version
    request_takeback(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert board(match) == start_board() and match.bot_due_at is None
    assert match.takeback_seat is None
    # The computer's move, computed on the position it saw, is refused: its seat no longer acts.
    with pytest.raises(services.MatchError):
        services.bot_act(match_id=match.pk, seat=1, action=C3, version=seen)
    # After the computer's reply, both moves go back.
    move(match, alice, D3)
    match.refresh_from_db()
    services.bot_act(match_id=match.pk, seat=1, action=C3, version=match.version)
    request_takeback(match_id=match.pk, user=alice)
    assert board(match) == start_board()
    assert replays_to_stored_state(match)


def test_the_page_offers_the_answer_to_the_opponent_only(
    reversi_match: Match, alice: Any, bob: Any, client: Any
) -> None:
    move(reversi_match, alice, D3)
    request_takeback(match_id=reversi_match.pk, user=alice)
    client.force_login(bob)
    page = client.get(reversi_match.get_absolute_url()).content.decode()
    assert 'value="accept"' in page and 'value="decline"' in page
    client.force_login(alice)
    page = client.get(reversi_match.get_absolute_url()).content.decode()
    assert 'value="accept"' not in page and "waiting for the answer" in page
    response = client.post(f"/m/{reversi_match.pk}/takeback/", {"answer": "accept"})
    assert response.status_code == 302
    client.force_login(bob)
    client.post(f"/m/{reversi_match.pk}/takeback/", {"answer": "accept"})
    assert board(reversi_match) == start_board()


# ----------------------------------------------------------------------------------------- verifier


def _finished_record_with_a_takeback(match: Match, alice: Any, bob: Any) -> dict[str, Any]:
    move(match, alice, D3)
    move(match, bob, C3)
    request_takeback(match_id=match.pk, user=alice)
    answer_takeback(match_id=match.pk, user=bob, accept=True)
    services.resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return export.record(match)


def test_the_verifier_refuses_a_takeback_the_rule_does_not_allow(reversi_match: Match, alice: Any, bob: Any) -> None:
    record = _finished_record_with_a_takeback(reversi_match, alice, bob)
    assert fairplay.verify(record) == []
    for forged in ({"type": "takeback", "to": 1}, {"type": "takeback", "to": 0, "x": 1}, {"type": "takeback"}):
        bad = copy.deepcopy(record)
        bad["actions"][-1]["action"] = forged
        assert any("not an allowed takeback" in p for p in fairplay.verify(bad))
    # Bob's seat never asked: a takeback logged under his seat goes back to before his move instead.
    bad = copy.deepcopy(record)
    bad["actions"][-1]["seat"] = 1
    assert fairplay.verify(bad)


def test_a_takeback_in_a_game_without_takebacks_is_not_legal(alice: Any) -> None:
    from games.dos.rules import engine as dos

    state = dos.new_game(2, 1)
    with pytest.raises(Exception, match="Unknown action type"):
        dos.apply(state, state.current, {"type": "takeback", "to": 0})
