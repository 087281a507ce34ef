"""Reversi practice: a position to solve, the answer checked against the solver's stored values, a
streak that grows with right answers and starts again after a wrong one."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.reversi import analysis
from games.reversi import views as practice
from games.reversi.board import SQUARE_INDEX, parse_board
from tests.support import client_for

pytestmark = pytest.mark.django_db


def answer(client: Any, position: int, square: str) -> str:
    url = reverse("reversi-practice:answer")
    return client.post(url, {"position": str(position), "square": square}, follow=True).content.decode()


def best_and_worst(index: int) -> tuple[str, str]:
    values = practice.positions()[index]["values"]
    return max(values, key=lambda sq: values[sq]), min(values, key=lambda sq: values[sq])


def test_a_right_answer_grows_the_streak_and_a_wrong_one_ends_it(alice: Any) -> None:
    client = client_for(alice)
    page = client.get(reverse("reversi-practice:practice")).content.decode()
    assert f"Position 1 of {len(practice.positions())}" in page and "Streak: 0 right in a row" in page
    best, worst = best_and_worst(0)
    page = answer(client, 0, best)
    assert f"Right: {best} is the best move" in page and "Streak: 1 right in a row (best: 1)" in page
    assert "Position 2 of" in page
    best, worst = best_and_worst(1)
    page = answer(client, 1, best)
    assert "Streak: 2 right in a row (best: 2)" in page
    _best, worst = best_and_worst(2)
    page = answer(client, 2, worst)
    assert f"Not the best: {worst}" in page and "Streak: 0 right in a row (best: 2)" in page


def test_an_illegal_square_or_an_old_position_counts_nothing(alice: Any) -> None:
    client = client_for(alice)
    client.get(reverse("reversi-practice:practice"))
    best, _worst = best_and_worst(0)
    page = answer(client, 0, "a1" if "a1" not in practice.positions()[0]["values"] else "zz")
    assert "That is not a legal move in this position." in page and "Position 1 of" in page
    page = answer(client, 5, best)
    assert "already answered" in page and "Position 1 of" in page and "Streak: 0" in page


@pytest.mark.parametrize("index", [0, 17, 45])
def test_the_stored_values_are_the_exact_values(index: int) -> None:
    """The analysis's solver, independently, gives the stored best value and the worst move's value."""
    position = practice.positions()[index]
    black, white = parse_board(position["board"])
    p, o = (black, white) if position["to_move"] == "B" else (white, black)
    values = position["values"]
    worst = min(values, key=lambda sq: values[sq])
    record = analysis.analyse_position(p, o, SQUARE_INDEX[worst])
    assert record["exact"]
    assert (record["value"], record["played_value"]) == (max(values.values()), values[worst])
    ranked = sorted(values.values(), reverse=True)
    assert ranked[0] - ranked[1] >= 4  # one clear answer


def test_the_reversi_analysis_page_links_to_the_practice(alice: Any, reversi_match: Any) -> None:
    from games import services

    services.resign(match_id=reversi_match.pk, user=alice)
    page = client_for(alice).get(reverse("games:analysis", args=[reversi_match.pk])).content.decode()
    assert f'href="{reverse("reversi-practice:practice")}"' in page


def test_the_page_needs_a_login(client: Any) -> None:
    response = client.get(reverse("reversi-practice:practice"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
