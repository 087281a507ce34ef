"""The DOS match page: what a seat sees, the match form and its parser, computer turns, round summaries."""

from __future__ import annotations

import re
from datetime import timedelta
from random import Random
from typing import Any

import pytest
from django.db import connection
from django.http import QueryDict
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import registry, services
from games.background import bots
from games.dos.action_forms import parse_form
from games.dos.models import DosMatch
from games.engine import InvalidAction
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db

ENGINE = registry.get("dos").engine

# Alice (seat 0) can shed six cards in her first turn: B4+B5 on B9 and G3+G4 on G7 are double colour
# matches (two bonus placements: G8, B8), and go out next turn with R# on anything. The computer's cards
# (values 1-4, no wilds) match nothing she leaves in the row, so it draws and places a card.
ALICE = ["R#", "G3", "G4", "G8", "B4", "B5", "B8"]
COMPUTER = ["Y1", "Y1", "Y1", "Y3", "Y3", "Y3", "Y4"]
CENTER = ["G7", "B9"]
# Refill after Alice's first turn, the computer's two penalty cards, then its draw.
DRAW = ["G9", "B10", "R1", "R3", "G1"]


def stacked(hands: list[list[str]], center: list[str], draw: list[str] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    """Options dealing exactly ``hands`` (seven cards each) with seat 0 to play first."""
    players = len(hands)
    deck = [hands[i % players][i // players] for i in range(7 * players)]
    return {"deck": [*deck, *center, *draw], "dealer": players - 1}


def htmx(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, data, headers={"HX-Request": "true"})


def view_of(match: Match, seat: int | None) -> dict[str, Any]:
    match.refresh_from_db()
    return ENGINE.view(ENGINE.load(match.state), seat)


def act_url(match: Match) -> str:
    return reverse("games:act", args=[match.pk])


def post(client: Client, match: Match, data: dict[str, Any], *, hx: bool = True) -> Any:
    match.refresh_from_db()
    payload = {"version": match.version, **data}
    return htmx(client, act_url(match), payload) if hx else client.post(act_url(match), payload)


def run_computer() -> int:
    """Let the computer take every move due (one per call of the runner) until a person is to act."""
    moves = 0
    while made := bots.run_due(now=timezone.now() + timedelta(seconds=10)):
        moves += made
    return moves


@pytest.fixture
def solo(alice: Any) -> Match:
    """Alice (seat 0, to play) against the computer (seat 1), on the stacked deck above."""
    return services.create_match(
        user=alice, game="dos", players=2, bot_seats={1}, options=stacked([ALICE, COMPUTER], CENTER, DRAW)
    )


@pytest.fixture
def dave(make_user: Any) -> Any:
    return make_user("dave")


# --- the page ---------------------------------------------------------------------------------------


def test_the_page_shows_the_hand_the_center_row_the_piles_and_every_player(solo: Match, alice: Any) -> None:
    response = client_for(alice).get(solo.get_absolute_url())
    assert response.status_code == 200
    body = response.content.decode()
    assert 'href="/static/dos/style.css"' in body
    # The hand, sorted, each card named by colour and value, with its letter and symbol drawn.
    names = re.findall(r'name="cards\[\]" value="([^"]+)"', body)
    assert names == ALICE
    assert "red Wild # (any value 1 to 10)" in body and "green 3" in body and "blue 8" in body
    assert '<span class="dos-corner" aria-hidden="true">G<span class="dos-sym">■</span></span>' in body
    # The Center Row as radio buttons, the piles and the counts.
    assert re.findall(r'name="target" value="(\d+)"', body) == ["0", "1"]
    assert "green 7" in body and "blue 9" in body
    assert "Draw pile: 92 cards" in body and "Discard pile: 0 cards" in body
    players = re.search(r'<table class="dos-players">.*?</table>', body, re.S)
    assert players is not None
    cells = re.findall(r"<td>(\d+)</td>", players.group(0))
    assert cells == ["7", "0", "7", "0"]
    assert "Computer 2" in players.group(0) and "to play" in players.group(0)
    # One form for the whole turn; no per-action buttons.
    assert body.count('class="dos-form"') == 1
    assert re.findall(r'name="type" value="(\w+)"', body) == ["match", "draw"]
    assert f'name="version" value="{solo.version}"' in body
    assert "Your turn." in body
    # Every card that can take part in a match is marked: here all seven, since R# pairs with any of them.
    assert body.count('class="dos-playable"') == 7
    # The computer's hand stays hidden. A whole-word search: the random CSRF token may contain "Y1".
    assert re.search(r"\bY1\b", body) is None and "yellow 1" not in body
    assert str(solo.seed) not in body


def test_a_player_waiting_sees_the_row_and_their_hand_but_no_form(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2, options=stacked([ALICE, COMPUTER], CENTER, DRAW))
    services.join_match(match_id=match.pk, user=bob)
    body = client_for(bob).get(match.get_absolute_url()).content.decode()
    assert "alice is playing." in body
    assert "dos-form" not in body and 'name="cards[]"' not in body
    assert body.count("yellow 1") == 3 and "green 3" not in body


def test_a_spectator_sees_counts_but_no_hand(solo: Match, dave: Any) -> None:
    body = client_for(dave).get(solo.get_absolute_url()).content.decode()
    assert "You are watching: every hand is hidden." in body
    assert "dos-form" not in body
    assert "green 3" not in body and "yellow 1" not in body
    assert "green 7" in body


# --- the form and its parser ----------------------------------------------------------------------


def form(**fields: Any) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        name = {"cards": "cards[]"}.get(key, key)
        data.setlist(name, value if isinstance(value, list) else [str(value)])
    return data


@pytest.mark.parametrize(
    ("fields", "action"),
    [
        ({"type": "draw"}, {"type": "draw"}),
        ({"type": "finish", "cards": ["R3"]}, {"type": "finish"}),
        ({"type": "skip_bonus"}, {"type": "skip_bonus"}),
        ({"type": "place", "cards": ["Y10"]}, {"type": "place", "card": "Y10"}),
        ({"type": "bonus", "cards": ["W2"], "declare_W2": "R"}, {"type": "bonus", "card": "W2"}),
        # Cards are put in the engine's order, whatever order the browser sends them in.
        ({"type": "match", "target": 1, "cards": ["B5", "B4"]}, {"type": "match", "target": 1, "cards": ["B4", "B5"]}),
        # A wild card gets its declaration, a number card null; declarations follow their cards.
        (
            {"type": "match", "target": 0, "cards": ["G3", "R#"], "declare_R#": "4"},
            {"type": "match", "target": 0, "cards": ["R#", "G3"], "declare": [4, None]},
        ),
        # Two copies of a wild code: the first non-empty declarations, then sorted by declaration.
        (
            {"type": "match", "target": 2, "cards": ["W2", "W2"], "declare_W2": ["Y", "R"]},
            {"type": "match", "target": 2, "cards": ["W2", "W2"], "declare": ["R", "Y"]},
        ),
        (
            {"type": "match", "target": 0, "cards": ["W2"], "declare_W2": ["", "B"]},
            {"type": "match", "target": 0, "cards": ["W2"], "declare": ["B"]},
        ),
        # Only the chosen target's row declaration is used; the others on the page are ignored.
        (
            {
                "type": "match",
                "target": 1,
                "cards": ["Y3", "Y4"],
                "target_declare_0": "",
                "target_declare_1": "7",
                "declare_W2": "G",
            },
            {"type": "match", "target": 1, "cards": ["Y3", "Y4"], "target_declare": 7},
        ),
        (
            {"type": "match", "target": 3, "cards": ["Y1", "Y1"], "target_declare_3": "Y"},
            {"type": "match", "target": 3, "cards": ["Y1", "Y1"], "target_declare": "Y"},
        ),
    ],
)
def test_the_parser_builds_the_engine_action(fields: dict[str, Any], action: dict[str, Any]) -> None:
    assert parse_form(form(version=3, csrfmiddlewaretoken="x", **fields)) == action


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({}, "The action has no type."),
        ({"type": "call_dos"}, "Unknown action type 'call_dos'."),
        ({"type": "match", "cards": ["R3"]}, "Choose the Center Row card to match."),
        ({"type": "match", "target": "x", "cards": ["R3"]}, "Choose the Center Row card to match."),
        ({"type": "match", "target": 0}, "Choose one or two cards from your hand for a match."),
        ({"type": "match", "target": 0, "cards": ["R3", "R4", "R5"]}, "Choose one or two cards"),
        ({"type": "match", "target": 0, "cards": ["r7"]}, "'r7' is not a DOS card."),
        ({"type": "match", "target": 0, "cards": ["W2"], "declare_W2": ""}, "Choose the colour your Wild DOS"),
        ({"type": "match", "target": 0, "cards": ["W2", "W2"], "declare_W2": ["R", ""]}, "Wild DOS stands for"),
        ({"type": "match", "target": 0, "cards": ["B#"], "declare_B#": "11"}, "your blue Wild # stands for"),
        ({"type": "match", "target": 0, "cards": ["B3"], "target_declare_0": ""}, "wild card in the Center Row"),
        ({"type": "place"}, "Choose exactly one card from your hand to put in the Center Row."),
        ({"type": "bonus", "cards": ["R3", "R4"]}, "Choose exactly one card"),
    ],
)
def test_the_parser_explains_an_incomplete_form(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidAction) as raised:
        parse_form(form(**fields))
    assert message in raised.value.message


def test_a_json_action_field_is_passed_through() -> None:
    assert parse_form(form(action='{"type": "draw"}')) == {"type": "draw"}


# --- playing through the act endpoint -------------------------------------------------------------


def test_a_match_by_plain_form_then_by_htmx_reaches_the_bonus_step(solo: Match, alice: Any) -> None:
    client = client_for(alice)
    response = post(client, solo, {"type": "match", "target": "1", "cards[]": ["B5", "B4"]}, hx=False)
    assert response.status_code == 302
    view = view_of(solo, 0)
    assert view["center_row"][1]["played"] == [{"card": "B4", "declared": None}, {"card": "B5", "declared": None}]
    assert view["center_row"][1]["kind"] == "double_colour"
    assert view["hand"] == ["R#", "G3", "G4", "G8", "B8"]
    assert solo.moves.get().payload == {"type": "match", "target": 1, "cards": ["B4", "B5"]}

    response = post(client, solo, {"type": "match", "target": "0", "cards[]": ["G4", "G3"]})
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="match-body"')
    assert "alice matched green 3 + green 4 on green 7: double colour match, everyone else draws 1." in body
    # Every row card was matched, so matching ended by itself: cleanup refilled the row, bonus time.
    view = view_of(solo, 0)
    assert view["phase"] == "bonus" and view["bonus_left"] == 2
    assert [cr["card"] for cr in view["center_row"]] == ["G9", "B10"]
    assert "you may put up to 2 cards from your hand in the Center Row" in body
    assert re.findall(r'name="type" value="(\w+)"', body) == ["bonus", "skip_bonus"]
    assert 'name="target"' not in body  # nothing to match in the bonus step

    for card in ("G8", "B8"):
        assert post(client, solo, {"type": "bonus", "cards[]": card}).status_code == 200
    view = view_of(solo, 0)
    assert [cr["card"] for cr in view["center_row"]] == ["G9", "B10", "G8", "B8"]
    assert view["hand_counts"] == [1, 9] and view["current"] == 1  # the computer drew 2 penalty cards


def test_an_illegal_match_is_refused_with_the_reason_and_changes_nothing(solo: Match, alice: Any) -> None:
    client = client_for(alice)
    before = (solo.version, solo.state)
    for hx in (True, False):
        response = post(client, solo, {"type": "match", "target": "1", "cards[]": "G3"}, hx=hx)
        assert response.status_code == 422
        body = response.content.decode()
        assert re.search(r'<p class="notice notice-error" role="alert">G3 = 3, but B9 counts 9\.</p>', body)
        assert 'class="dos-form"' in body  # the board is back, to try again
        solo.refresh_from_db()
        assert (solo.version, solo.state) == before


def test_a_wild_card_without_its_declaration_is_refused_by_the_parser(solo: Match, alice: Any) -> None:
    before = (solo.version, solo.state)
    response = post(client_for(alice), solo, {"type": "match", "target": "0", "cards[]": "R#", "declare_R#": ""})
    assert response.status_code == 422
    assert "Choose the value (1 to 10) your red Wild # stands for." in response.content.decode()
    solo.refresh_from_db()
    assert (solo.version, solo.state) == before


def test_drawing_then_placing_a_card(alice: Any) -> None:
    """DOS-S7 through the page: no match, a draw that matches nothing, then a card placed in the row."""
    hands = [["G3", "Y10", "R10", "R10", "B10", "B10", "G10"], COMPUTER]
    match = services.create_match(
        user=alice, game="dos", players=2, bot_seats={1}, options=stacked(hands, ["R7", "B9"], ["Y8"])
    )
    client = client_for(alice)
    body = client.get(match.get_absolute_url()).content.decode()
    assert "None of your cards can make a match: draw a card." in body
    body = post(client, match, {"type": "draw"}).content.decode()
    assert "You drew yellow 8; it makes no match." in body
    assert "alice drew yellow 8." in body
    assert re.findall(r'name="type" value="(\w+)"', body) == ["match", "place"]
    assert '<span class="dos-flag">drawn</span>' in body
    assert post(client, match, {"type": "place", "cards[]": "Y10"}).status_code == 200
    view = view_of(match, 0)
    assert [cr["card"] for cr in view["center_row"]] == ["R7", "B9", "Y10"]
    assert view["current"] == 1


def test_the_computer_takes_its_turn_and_the_round_summary_follows(solo: Match, alice: Any) -> None:
    client = client_for(alice)
    for data in (
        {"type": "match", "target": "1", "cards[]": ["B4", "B5"]},
        {"type": "match", "target": "0", "cards[]": ["G3", "G4"]},
        {"type": "bonus", "cards[]": "G8"},
        {"type": "bonus", "cards[]": "B8"},
    ):
        assert post(client, solo, data).status_code == 200
    assert run_computer() == 2  # a draw, then a card placed
    body = client.get(solo.get_absolute_url()).content.decode()
    assert "Computer 2 drew a card." in body
    assert "Computer 2 made no match after drawing and put yellow 4 in the Center Row." in body
    assert "Your turn." in body
    assert "dos-summary" not in body  # no round has ended yet

    # R# on G9 (position 0), declared 9: her last card, so she goes out.
    body = post(client, solo, {"type": "match", "target": "0", "cards[]": "R#", "declare_R#": "9"}).content.decode()
    summary = re.search(r'<details class="dos-summary dos-fresh" open>.*?</details>', body, re.S)
    assert summary is not None, body
    text = summary.group(0)
    assert "Round 1: alice went out and scored 17 points." in text
    assert "went out" in text and "17 points in hand:" in text
    assert text.count("yellow 1") == 3 and "green 1" in text
    assert "alice went out and scored 17 points in round 1." in body
    assert "Scores by round" in body
    view = view_of(solo, 0)
    assert view["scores"] == [17, 0] and view["round"] == 2 and view["current"] == 1

    # The summary stays open while the computer opens round 2, and closes once Alice acts.
    assert run_computer() >= 1
    body = client.get(solo.get_absolute_url()).content.decode()
    assert '<details class="dos-summary dos-fresh" open>' in body
    state = ENGINE.load(Match.objects.get(pk=solo.pk).state)
    action = ENGINE.legal_actions(state, 0)[-1]
    services.act(match_id=solo.pk, user=alice, action=action, version=Match.objects.get(pk=solo.pk).version)
    body = client.get(solo.get_absolute_url()).content.decode()
    assert '<details class="dos-summary">' in body
    assert "Round 1: alice went out and scored 17 points." in body


def finish_against_the_computer(alice: Any) -> tuple[Match, Client, str]:
    """Alice wins a game to 10 against the computer in one round: the match, her client, the last page."""
    options = {**stacked([ALICE, COMPUTER], CENTER, DRAW), "target": 10}
    match = services.create_match(user=alice, game="dos", players=2, bot_seats={1}, options=options)
    client = client_for(alice)
    for data in (
        {"type": "match", "target": "1", "cards[]": ["B4", "B5"]},
        {"type": "match", "target": "0", "cards[]": ["G3", "G4"]},
        {"type": "bonus", "cards[]": "G8"},
        {"type": "bonus", "cards[]": "B8"},
    ):
        post(client, match, data)
    run_computer()
    body = post(client, match, {"type": "match", "target": "0", "cards[]": "R#", "declare_R#": "9"}).content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match, client, body


def test_a_finished_game_shows_the_final_summary_and_the_result(alice: Any) -> None:
    _match, _client, body = finish_against_the_computer(alice)
    assert "You won!" in body and "The game is over." in body
    assert "alice reached 17 points and won the game." in body
    assert '<details class="dos-summary dos-fresh" open>' in body
    assert "dos-form" not in body


# --- four players ---------------------------------------------------------------------------------


FOUR = [
    ["R3", "R4", "G5", "B6", "Y7", "Y8", "W2"],  # alice
    ["R5", "G3", "G4", "B7", "B8", "Y9", "Y10"],  # bob
    ["R6", "G6", "B3", "B4", "Y1", "Y5", "R#"],  # carol
    ["R8", "G8", "G9", "B9", "Y3", "Y4", "B#"],  # the computer
]


@pytest.fixture
def table(alice: Any, bob: Any, carol: Any) -> Match:
    match = services.create_match(
        user=alice,
        game="dos",
        players=4,
        bot_seats={3},
        options=stacked(FOUR, ["R7", "W2"], ["G10", "B10", "Y6", "G7", "R9"]),
    )
    for user in (bob, carol):
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match


def test_four_players_each_see_their_own_hand_and_everyones_counts(
    table: Match, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    pages = {
        who: client_for(user).get(table.get_absolute_url()).content.decode()
        for who, user in (("alice", alice), ("bob", bob), ("carol", carol), ("dave", dave))
    }
    for seat, who in enumerate(("alice", "bob", "carol")):
        assert "Your hand (7 cards)" in pages[who], seat
        players = re.search(r'<table class="dos-players">.*?</table>', pages[who], re.S).group(0)  # type: ignore[union-attr]
        assert re.findall(r"<td>(\d+)</td>", players) == ["7", "0"] * 4
    assert re.findall(r'name="cards\[\]" value="([^"]+)"', pages["alice"]) == FOUR[0]
    assert "bob is playing" not in pages["alice"] and "alice is playing." in pages["bob"]
    assert "red 5" in pages["bob"] and "red 5" not in pages["alice"] and "red 5" not in pages["dave"]
    assert "You are watching" in pages["dave"]
    # The Wild DOS in the row needs a colour from whoever matches it: a select beside it.
    assert 'name="target_declare_1"' in pages["alice"]
    assert 'name="declare_W2"' in pages["alice"]


def test_four_players_take_turns_through_the_form_and_the_computer(
    table: Match, alice: Any, bob: Any, carol: Any
) -> None:
    clients = {0: client_for(alice), 1: client_for(bob), 2: client_for(carol)}
    # Alice: R3+R4 on R7 (double colour) and W2 declared yellow on the row's W2 declared yellow.
    body = post(clients[0], table, {"type": "match", "target": "0", "cards[]": ["R4", "R3"]}).content.decode()
    assert "alice matched red 3 + red 4 on red 7: double colour match, everyone else draws 1." in body
    body = post(
        clients[0],
        table,
        {"type": "match", "target": "1", "cards[]": "W2", "declare_W2": "Y", "target_declare_1": "Y"},
    ).content.decode()
    assert "alice matched Wild DOS as yellow on Wild DOS as yellow: colour match, one bonus card." in body
    view = view_of(table, 0)
    assert view["phase"] == "bonus" and view["bonus_left"] == 2
    post(clients[0], table, {"type": "skip_bonus"})
    view = view_of(table, None)
    assert view["hand_counts"] == [4, 8, 8, 8] and view["current"] == 1
    # Bob sees what happened, and that it is his turn.
    bob_page = clients[1].get(table.get_absolute_url()).content.decode()
    assert "Your turn." in bob_page
    assert "bob drew 1 penalty card for alice&#x27;s double colour match: yellow 6." in bob_page
    assert "carol drew 1 penalty card for alice&#x27;s double colour match." in bob_page
    # Carol may not act for Bob.
    response = post(clients[2], table, {"type": "draw"})
    assert response.status_code == 409 and "It is not your turn." in response.content.decode()
    post(clients[1], table, {"type": "draw"})
    legal = ENGINE.legal_actions(ENGINE.load(Match.objects.get(pk=table.pk).state), 1)
    place = next(a for a in legal if a["type"] == "place")
    post(clients[1], table, {"type": "place", "cards[]": place["card"]})
    assert view_of(table, None)["current"] == 2
    post(clients[2], table, {"type": "draw"})
    legal = ENGINE.legal_actions(ENGINE.load(Match.objects.get(pk=table.pk).state), 2)
    place = next(a for a in legal if a["type"] == "place")
    post(clients[2], table, {"type": "place", "cards[]": place["card"]})
    assert view_of(table, None)["current"] == 3
    assert run_computer() >= 1
    assert view_of(table, None)["current"] == 0
    assert "Computer 4" in clients[0].get(table.get_absolute_url()).content.decode()


# --- query counts ---------------------------------------------------------------------------------


def test_match_page_queries_stay_constant_as_the_match_grows(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2)
    services.join_match(match_id=match.pk, user=bob)
    users = {0: alice, 1: bob}
    rng = Random(7)
    counts = []
    for moves in (2, 40):
        while Match.objects.get(pk=match.pk).move_count < moves:
            match.refresh_from_db()
            state = ENGINE.load(match.state)
            seat = ENGINE.to_act(state)[0]
            action = rng.choice(ENGINE.legal_actions(state, seat))
            services.act(match_id=match.pk, user=users[seat], action=action, version=match.version)
        match.refresh_from_db()
        seat = ENGINE.to_act(ENGINE.load(match.state))[0]
        per_viewer = []
        for viewer in (users[seat], users[1 - seat]):
            client = client_for(viewer)
            with CaptureQueriesContext(connection) as page_queries:
                assert client.get(match.get_absolute_url()).status_code == 200
            with CaptureQueriesContext(connection) as fragment_queries:
                client.get(match.get_absolute_url(), headers={"HX-Request": "true"})
            per_viewer.append((len(page_queries), len(fragment_queries)))
        counts.append(per_viewer)
    assert counts[0] == counts[1], counts


def test_the_proxy_model_sees_only_dos_matches(solo: Match, alice: Any) -> None:
    services.create_match(user=alice, game="reversi", players=2)
    assert list(DosMatch.objects.values_list("pk", flat=True)) == [solo.pk]


def test_a_resigned_two_player_match_shows_the_result_and_no_turn(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2, options=stacked([ALICE, COMPUTER], CENTER, DRAW))
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=bob)
    body = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert "You won!" in body and "bob resigned." in body
    assert "dos-form" not in body and "is playing." not in body and "substitute" not in body
    assert "Your hand (7 cards)" in body


def test_the_replay_of_a_finished_game_steps_through_the_board(alice: Any) -> None:
    match, client, _body = finish_against_the_computer(alice)
    one = client.get(reverse("games:replay-step", args=[match.pk, 1])).content.decode()
    assert re.search(r"alice is playing\.\s+1 match so far\.", one)
    assert "At the end of this turn everyone else draws 1 penalty card." in one
    assert "dos-form" not in one and "Your hand (5 cards)" in one
    last = client.get(reverse("games:replay-step", args=[match.pk, match.move_count])).content.decode()
    assert "The game is over." in last and "Round 1: alice went out and scored 17 points." in last
