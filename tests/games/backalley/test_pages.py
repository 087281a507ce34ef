"""The Back Alley match page: bidding, then play, through the act endpoint; what each seat is shown.

Cast: alice (seat 0) creates every match; bob, carol and dave take seats 1-3 when people play; erin
is an outsider who watches. Computer seats are moved with ``games.background.bots.take_turn``.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import registry, services
from games.backalley.cards import deck_for
from games.backalley.models import BackAlleyMatch
from games.backalley.present import card
from games.background import bots
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db

ENGINE = registry.get("backalley").engine


def htmx_post(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, data, headers={"HX-Request": "true"})


def view_of(match: Match, seat: int | None) -> dict[str, Any]:
    match.refresh_from_db()
    return ENGINE.view(ENGINE.load(match.state), seat)


def run_bots_until_a_person_acts(match: Match) -> None:
    """Computer moves, due or not, until a person is to act or the match is over."""
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or match.seats.filter(to_act=True, is_bot=False).exists():
            return
        assert bots.take_turn(match.pk, now=timezone.now() + timedelta(seconds=10))
    raise AssertionError("the computer players did not hand the turn back")


@pytest.fixture
def dave(make_user: Any) -> Any:
    return make_user("dave")


@pytest.fixture
def erin(make_user: Any) -> Any:
    """The spectator: holds no seat."""
    return make_user("erin")


@pytest.fixture
def people(alice: Any, bob: Any, carol: Any, dave: Any) -> dict[int, Any]:
    return {0: alice, 1: bob, 2: carol, 3: dave}


def four_people(people: dict[int, Any], options: dict[str, Any] | None = None) -> Match:
    match = services.create_match(user=people[0], game="backalley", players=4, options=options)
    for seat in (1, 2, 3):
        services.join_match(match_id=match.pk, user=people[seat])
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match


# A two-card deal (deal 12), dealer dave (seat 3), so alice bids first. Trump spades (upcard 2S).
# Bob will lead a heart; alice holds a heart and a club, so she must follow with the heart.
TWO_CARD_DEAL = {
    "first_deal": 12,
    "dealer": 3,
    "deck": deck_for([["AH", "2C"], ["KH", "3C"], ["QH", "4C"], ["JH", "5C"]], "2S", dealer=3),
}


@pytest.fixture
def two_card_deal(people: dict[int, Any]) -> Match:
    return four_people(people, TWO_CARD_DEAL)


def bid_round(match: Match, people: dict[int, Any], bids: list[Any]) -> None:
    for bid in bids:
        match.refresh_from_db()
        (seat,) = ENGINE.to_act(ENGINE.load(match.state))
        services.act(match_id=match.pk, user=people[seat], action={"type": "bid", "bid": bid}, version=match.version)
    match.refresh_from_db()


# --- the proxy model and the registry -------------------------------------------------------------


def test_back_alley_is_registered_with_a_substitute_on_timeout_and_its_own_proxy(alice: Any) -> None:
    spec = registry.get("backalley")
    assert spec.name == "Back Alley" and spec.template == "backalley/board.html"
    assert spec.timeout_policy == "substitute"
    assert spec.seat_label is not None and [spec.seat_label(s) for s in range(4)] == [
        "Team A",
        "Team B",
        "Team A",
        "Team B",
    ]
    services.create_match(user=alice, game="reversi", players=2)
    ba = services.create_match(user=alice, game="backalley", players=4, bot_seats={1, 2, 3})
    assert list(BackAlleyMatch.objects.values_list("pk", flat=True)) == [ba.pk]


# --- against the computer ---------------------------------------------------------------------------


def test_against_three_computers_the_page_shows_bidding_then_play_then_a_scored_hand(alice: Any) -> None:
    match = services.create_match(user=alice, game="backalley", players=4, bot_seats={1, 2, 3})
    client = client_for(alice)
    url = reverse("games:act", args=[match.pk])
    run_bots_until_a_person_acts(match)

    view = view_of(match, 0)
    assert view["phase"] == "bid"
    body = client.get(match.get_absolute_url()).content.decode()
    assert "Your bid: how many tricks will you take?" in body
    assert 'name="bid" value="pass"' in body and 'aria-label="Pass (no tricks)"' in body
    assert [f'value="{n}"' in body for n in range(1, 13)] == [True] * 12
    assert 'value="13"' not in body
    assert 'aria-label="Bid board: all 13 tricks"' in body or "double board" in body.lower()
    for code in view["hand"]:
        assert f'id="card-{code}"' not in body  # cards are not buttons while bidding
    assert "Trumps (" in body or "No trump this hand" in body

    response = htmx_post(client, url, {"version": match.version, "type": "bid", "bid": "2"})
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="match-body"')
    assert view_of(match, 0)["bids"][0] == 2

    deals_scored = 0
    for _ in range(60):
        run_bots_until_a_person_acts(match)
        view = view_of(match, 0)
        if view["score_sheet"]:
            deals_scored = len(view["score_sheet"])
            break
        if view["phase"] == "bid":  # an all-pass redeal cannot happen (alice bid 2), but be safe
            htmx_post(client, url, {"version": match.version, "type": "bid", "bid": "1"})
            continue
        body = client.get(match.get_absolute_url()).content.decode()
        legal = [c for c in view["hand"] if c not in view["unplayable"]]
        for code in view["hand"]:
            button = re.search(rf'<button [^>]*id="card-{code}"[^>]*>', body)
            assert button is not None
            assert (" disabled" in button.group(0)) == (code not in legal)
        response = client.post(url, {"version": match.version, "type": "play", "card": legal[-1]})
        assert response.status_code == 302
    assert deals_scored == 1
    body = client.get(match.get_absolute_url()).content.decode()
    sheet = body[body.index('id="ba-sheet-title"') :]
    assert "<tbody>" in sheet and '<th scope="row">1 ' in sheet
    assert "No hand has been scored yet." not in body
    assert "Hand 2 of 25" in body


# --- people: bids and plays through the act endpoint -------------------------------------------------


def test_bids_work_by_htmx_and_by_plain_form_and_show_on_the_table(
    two_card_deal: Match, people: dict[int, Any]
) -> None:
    match = two_card_deal
    url = reverse("games:act", args=[match.pk])
    page = client_for(people[0]).get(match.get_absolute_url()).content.decode()
    # Two cards: pass, 1 or board.
    assert re.findall(r'name="bid" value="([^"]+)"', page) == ["pass", "1", "board"]
    assert 'aria-label="Bid board: all 2 tricks"' in page

    response = htmx_post(client_for(people[0]), url, {"version": match.version, "type": "bid", "bid": "pass"})
    assert response.status_code == 200
    assert 'name="bid"' not in response.content.decode()  # no longer alice's turn
    match.refresh_from_db()
    response = client_for(people[1]).post(url, {"version": match.version, "type": "bid", "bid": "1"})
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    response = htmx_post(client_for(people[2]), url, {"version": match.version, "type": "bid", "bid": "board"})
    assert response.status_code == 200
    body = response.content.decode()
    assert view_of(match, None)["bids"] == ["pass", 1, "board", None]
    assert 'Bid: <strong class="ba-bid">pass</strong>' in body
    assert 'Bid: <strong class="ba-bid ba-bid-is-board">board</strong>' in body
    # Dave may now raise to double board.
    dave_page = client_for(people[3]).get(match.get_absolute_url()).content.decode()
    assert 'aria-label="Bid double board: all 2 tricks"' in dave_page and ">Double board</button>" in dave_page


def test_only_legal_cards_are_enabled_and_the_page_says_why_the_others_are_not(
    two_card_deal: Match, people: dict[int, Any]
) -> None:
    match = two_card_deal
    bid_round(match, people, ["pass", 1, "pass", "pass"])  # bob bid highest: he leads
    url = reverse("games:act", args=[match.pk])
    response = htmx_post(client_for(people[1]), url, {"version": match.version, "type": "play", "card": "KH"})
    assert response.status_code == 200
    assert view_of(match, 0)["current"] == 2
    services.act(match_id=match.pk, user=people[2], action={"type": "play", "card": "QH"}, version=match.version)
    match.refresh_from_db()
    services.act(match_id=match.pk, user=people[3], action={"type": "play", "card": "JH"}, version=match.version)
    match.refresh_from_db()

    body = client_for(people[0]).get(match.get_absolute_url()).content.decode()
    ace = re.search(r'<button [^>]*id="card-AH"[^>]*>', body).group(0)
    two = re.search(r'<button [^>]*id="card-2C"[^>]*>', body).group(0)
    assert "disabled" not in ace and 'aria-label="ace of hearts"' in ace
    assert " disabled" in two
    # Only a card that may be played is a move (js/confirm-move.js asks for a second tap on it).
    assert " data-move" in ace and "data-move" not in two
    assert 'aria-label="two of clubs (not playable)"' in two
    assert 'aria-describedby="ba-why"' in two and 'title="You must follow suit: hearts were led."' in two
    assert re.search(r'<p id="ba-why"[^>]*>[^<]*You must follow suit: hearts were led\.', body)
    # The trick on the table: bob led on alice's left, carol opposite, dave on her right.
    table = body[body.index('class="ba-trick"') :]
    assert re.search(r'ba-at-left[^"]*"><span class="visually-hidden">bob:</span>', table)
    assert re.search(r'ba-at-top[^"]*"><span class="visually-hidden">carol:</span>', table)
    assert re.search(r'ba-at-right[^"]*"><span class="visually-hidden">dave:</span>', table)


@pytest.mark.parametrize("send", ["htmx", "plain"])
def test_an_illegal_card_is_refused_with_the_reason_and_nothing_changes(
    two_card_deal: Match, people: dict[int, Any], send: str
) -> None:
    match = two_card_deal
    bid_round(match, people, ["pass", 1, "pass", "pass"])
    for seat, code in ((1, "KH"), (2, "QH"), (3, "JH")):
        services.act(match_id=match.pk, user=people[seat], action={"type": "play", "card": code}, version=match.version)
        match.refresh_from_db()
    before = (match.version, match.move_count, match.state)
    client = client_for(people[0])
    data = {"version": match.version, "type": "play", "card": "2C"}
    url = reverse("games:act", args=[match.pk])
    response = htmx_post(client, url, data) if send == "htmx" else client.post(url, data)
    assert response.status_code == 422
    body = response.content.decode()
    assert re.search(r'role="alert">You must follow suit: hearts were led\.<', body)
    assert 'id="match-body"' in body and 'id="card-AH"' in body  # the board, still playable
    match.refresh_from_db()
    assert (match.version, match.move_count, match.state) == before
    assert match.moves.count() == before[1]


def test_a_card_out_of_turn_or_in_the_bidding_is_refused(two_card_deal: Match, people: dict[int, Any]) -> None:
    match = two_card_deal
    url = reverse("games:act", args=[match.pk])
    response = htmx_post(client_for(people[0]), url, {"version": match.version, "type": "play", "card": "AH"})
    assert response.status_code == 422
    assert "Cards are played after the bidding: make your bid first." in response.content.decode()
    response = htmx_post(client_for(people[1]), url, {"version": match.version, "type": "bid", "bid": "1"})
    assert response.status_code == 409
    assert "It is not your turn." in response.content.decode()
    response = htmx_post(client_for(people[0]), url, {"version": match.version, "type": "bid", "bid": "2"})
    assert response.status_code == 422
    assert "With 2 cards you may bid at most 1; bid board to claim every trick." in response.content.decode()
    match.refresh_from_db()
    assert match.move_count == 0


def test_a_spectator_sees_the_table_with_seat_0_at_the_bottom_but_no_hand(
    two_card_deal: Match, people: dict[int, Any], erin: Any
) -> None:
    match = two_card_deal
    body = client_for(erin).get(match.get_absolute_url()).content.decode()
    assert "You are watching: every hand is hidden." in body
    assert re.search(r'ba-seat ba-at-bottom[^"]*" role="group" aria-label="alice"', body)
    assert re.search(r'ba-seat ba-at-left[^"]*" role="group" aria-label="bob"', body)
    for code in ("AH", "2C", "KH", "3C", "QH", "4C", "JH", "5C"):
        assert f"card-{code}" not in body
    assert 'name="bid"' not in body


def test_the_last_trick_and_the_score_sheet_after_a_hand(two_card_deal: Match, people: dict[int, Any]) -> None:
    match = two_card_deal
    bid_round(match, people, ["pass", 1, "pass", "pass"])
    for seat, code in ((1, "KH"), (2, "QH"), (3, "JH"), (0, "AH"), (0, "2C"), (1, "3C"), (2, "4C"), (3, "5C")):
        services.act(match_id=match.pk, user=people[seat], action={"type": "play", "card": code}, version=match.version)
        match.refresh_from_db()
    body = client_for(people[1]).get(match.get_absolute_url()).content.decode()
    # Trick 2: alice led 2C, dave's 5C won it.
    assert "<summary>Last trick (won by dave)</summary>" in body
    # Team A (alice, carol) bid 0 and took one trick: +1 (BA-17); team B bid 1 and took one: +5.
    row = re.search(r'<th scope="row">12 .*?</tr>', body, re.S).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert [re.sub(r"<[^>]+>", "", c).strip() for c in cells] == [
        "0",
        "1",
        "+1",
        "1",
        "1",
        "1",
        "+5",
        "5",
    ]
    assert "Hand 13 of 25" in body


def test_the_last_hand_ends_the_match_and_the_replay_page_draws_the_table(alice: Any) -> None:
    match = services.create_match(
        user=alice, game="backalley", players=4, bot_seats={1, 2, 3}, options={"first_deal": 25}
    )
    for _ in range(30):
        run_bots_until_a_person_acts(match)
        if match.status == Match.Status.FINISHED:
            break
        view = view_of(match, 0)
        action: dict[str, Any] = {"type": "bid", "bid": 1}
        if view["phase"] == "play":
            action = {"type": "play", "card": next(c for c in view["hand"] if c not in view["unplayable"])}
        services.act(match_id=match.pk, user=alice, action=action, version=match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    client = client_for(alice)
    body = client.get(match.get_absolute_url()).content.decode()
    assert "The match is over." in body
    assert re.search(r"You won!|You lost|draw", body)
    assert '<th scope="row">25 ' in body and 'name="card"' not in body and 'name="bid"' not in body
    replay = client.get(reverse("games:replay-step", args=[match.pk, 0]))
    assert replay.status_code == 200
    start = replay.content.decode()
    assert "Hand 25 of 25" in start and "No hand has been scored yet." in start
    assert 'name="bid"' not in start  # a replay offers no actions
    end = client.get(reverse("games:replay-step", args=[match.pk, match.move_count])).content.decode()
    assert "The match is over." in end


# --- what each seat may see ------------------------------------------------------------------------


def test_each_player_sees_only_their_own_cards(two_card_deal: Match, people: dict[int, Any]) -> None:
    hands = {0: ("AH", "2C"), 1: ("KH", "3C"), 2: ("QH", "4C"), 3: ("JH", "5C")}
    for seat, user in people.items():
        body = client_for(user).get(two_card_deal.get_absolute_url()).content.decode()
        for other, cards in hands.items():
            for code in cards:
                shown = f'<span class="visually-hidden">{card(code)["name"]}</span>' in body
                assert shown == (other == seat), (seat, code)


def test_match_page_queries_stay_constant_as_the_match_grows(alice: Any) -> None:
    match = services.create_match(user=alice, game="backalley", players=4, bot_seats={1, 2, 3})
    client = client_for(alice)
    counts = []
    for target in (5, 70):  # early in hand 1; hand 2 with a row on the score sheet
        while match.move_count < target:
            run_bots_until_a_person_acts(match)
            view = view_of(match, 0)
            if view["phase"] == "bid":
                services.act(match_id=match.pk, user=alice, action={"type": "bid", "bid": 1}, version=match.version)
            else:
                legal = [c for c in view["hand"] if c not in view["unplayable"]]
                services.act(
                    match_id=match.pk, user=alice, action={"type": "play", "card": legal[0]}, version=match.version
                )
            match.refresh_from_db()
        run_bots_until_a_person_acts(match)
        assert len(view_of(match, 0)["score_sheet"]) == (0 if target == 5 else 1)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(match.get_absolute_url()).status_code == 200
        with CaptureQueriesContext(connection) as fragment_queries:
            assert client.get(match.get_absolute_url(), headers={"HX-Request": "true"}).status_code == 200
        counts.append((len(queries), len(fragment_queries)))
    assert counts[0] == counts[1], counts
