"""The new-match form offers only what the chosen game allows, and every game has a rules page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db


def seat_groups(body: str) -> list[str]:
    return re.findall(r'<fieldset class="seat-choice"><legend>([^<]+)</legend>', body)


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("reversi", ["Seat 2 (White)"]),
        ("tacocat", ["Seat 2 (goal YAY)"]),
        ("dos", ["Seat 2"]),
        ("backalley", ["Seat 2 (Team B)", "Seat 3 (Team A)", "Seat 4 (Team B)"]),
    ],
)
def test_the_form_for_a_game_shows_only_its_seats(alice: Any, game: str, seats: list[str]) -> None:
    body = client_for(alice).get(reverse("games:new"), {"game": game}).content.decode()
    assert seat_groups(body) == seats
    assert f'href="/rules/{game}/"' in body


def test_changing_the_game_redraws_its_part_of_the_form_and_creates_nothing(alice: Any) -> None:
    response = client_for(alice).post(
        reverse("games:new"),
        {"game": "backalley", "players": "2", "refresh": "1", "pace": "", "is_public": "on"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="match-setup"')
    assert len(seat_groups(body)) == 3  # a two-player count from another game does not carry over
    assert "Back Alley is for 4 players." in re.sub(r"\s+", " ", body)
    assert not Match.objects.exists()


def test_a_redrawn_dos_form_follows_the_player_count_without_javascript(alice: Any) -> None:
    response = client_for(alice).post(reverse("games:new"), {"game": "dos", "players": "4", "refresh": "1"})
    body = response.content.decode()
    assert seat_groups(body) == ["Seat 2", "Seat 3", "Seat 4"]
    assert "<html" in body
    assert not Match.objects.exists()


def test_back_alley_defaults_to_three_computer_players_at_medium(alice: Any) -> None:
    body = client_for(alice).get(reverse("games:new"), {"game": "backalley"}).content.decode()
    assert body.count('value="bot" id=') == 3 or len(re.findall(r'value="bot"[^>]*checked', body)) == 3
    assert len(re.findall(r'<option value="medium" selected>', body)) == 3


def test_creating_a_dos_match_with_levels_and_a_target(alice: Any) -> None:
    data = {
        "game": "dos",
        "players": "3",
        "seat_1": "bot",
        "level_1": "hard",
        "seat_2": "human",
        "level_2": "easy",
        "option_target": "100",
        "pace": "",
        "is_public": "on",
    }
    response = client_for(alice).post(reverse("games:new"), data)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert match.options == {"target": 100}
    assert list(match.seats.values_list("is_bot", "bot_level")) == [
        (False, "medium"),
        (True, "hard"),
        (False, "medium"),
    ]


def test_the_level_menu_of_a_seat_left_to_a_person_is_disabled_without_javascript(alice: Any) -> None:
    """Drawn by the server (a redraw for another player count, or a refused form): no script needed."""
    data = {"game": "dos", "players": "3", "seat_1": "bot", "seat_2": "human", "refresh": "1"}
    body = client_for(alice).post(reverse("games:new"), data).content.decode()
    levels = dict(re.findall(r'<select name="(level_\d)"([^>]*)>', body))
    assert set(levels) == {"level_1", "level_2"}
    assert "disabled" not in levels["level_1"] and "disabled" in levels["level_2"]


def test_an_option_of_another_game_is_not_offered_or_used(alice: Any) -> None:
    data = {"game": "reversi", "players": "2", "seat_1": "bot", "option_target": "100", "pace": ""}
    client_for(alice).post(reverse("games:new"), data)
    assert Match.objects.get().options == {}


@pytest.mark.parametrize("game", [g.slug for g in registry.all_games()])
def test_each_game_has_a_rules_page_reachable_without_an_account(game: str) -> None:
    response = Client().get(reverse("games:rules", args=[game]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"How to play {registry.get(game).name}" in body


def test_the_reversi_rules_draw_the_opening_from_the_engine() -> None:
    body = Client().get(reverse("games:rules", args=["reversi"])).content.decode()
    for square in ("c4", "d3", "e6", "f5"):
        assert f'aria-label="{square}, empty, legal move"' in body
    assert 'aria-label="f5, black, last move"' in body
    assert 'aria-label="e5, black, just flipped"' in body


def test_an_unknown_game_has_no_rules_page() -> None:
    assert Client().get("/rules/chess/").status_code == 404


def test_the_match_page_links_to_the_rules(reversi_match: Match, alice: Any) -> None:
    assert 'href="/rules/reversi/"' in client_for(alice).get(reversi_match.get_absolute_url()).content.decode()
