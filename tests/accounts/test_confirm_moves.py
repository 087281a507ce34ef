"""The "confirm moves" setting: saved on the account, and the match page loads the script only when on."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match

pytestmark = pytest.mark.django_db

SCRIPT = "js/confirm-move.js"


def test_the_setting_is_saved_from_the_settings_page(client: Any, alice: Any) -> None:
    client.force_login(alice)
    assert alice.confirm_moves == "off"
    response = client.post("/accounts/settings/", {"form": "play", "confirm_moves": "touch"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.confirm_moves == "touch"


def test_a_value_outside_the_choices_changes_nothing(client: Any, alice: Any) -> None:
    client.force_login(alice)
    response = client.post("/accounts/settings/", {"form": "play", "confirm_moves": "sometimes"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.confirm_moves == "off"


def test_the_match_page_loads_the_script_only_for_a_player_who_turned_it_on(
    client: Any, alice: Any, reversi_match: Match
) -> None:
    client.force_login(alice)
    assert SCRIPT not in client.get(reversi_match.get_absolute_url()).content.decode()
    alice.confirm_moves = "always"
    alice.save(update_fields=["confirm_moves"])
    page = client.get(reversi_match.get_absolute_url()).content.decode()
    assert SCRIPT in page and 'data-mode="always"' in page
