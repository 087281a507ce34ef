"""Each computer seat plays at the level chosen for it (easy, medium, hard), and pages say which."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.background import bot_worker, bots
from games.models import Match, Seat
from tests.support import client_for

pytestmark = pytest.mark.django_db


def test_each_computer_seat_keeps_its_chosen_level(alice: Any) -> None:
    match = services.create_match(
        user=alice, game="backalley", players=4, bot_seats={1, 2, 3}, bot_levels={1: "easy", 3: "hard"}
    )
    assert list(match.seats.values_list("number", "bot_level")) == [
        (0, "medium"),
        (1, "easy"),
        (2, "medium"),
        (3, "hard"),
    ]


@pytest.mark.parametrize(
    "levels",
    [{0: "hard"}, {1: "impossible"}],
    ids=["a-person's-seat", "unknown-level"],
)
def test_a_level_for_a_seat_that_is_no_computer_or_an_unknown_level_is_refused(
    alice: Any, levels: dict[int, str]
) -> None:
    with pytest.raises(services.MatchError) as refused:
        services.create_match(user=alice, game="reversi", players=2, bot_seats={1}, bot_levels=levels)
    assert refused.value.code == "invalid"
    assert not Match.objects.exists()


def test_the_runner_hands_the_seat_level_to_the_computer(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1}, bot_levels={1: "hard"})
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    asked: list[str] = []

    def compute(bot: Any, view: dict[str, Any], legal: list[dict[str, Any]], budget: float, level: str) -> Any:
        asked.append(level)
        return legal[0]

    assert bots.take_turn(match.pk, now=timezone.now() + timedelta(seconds=10), compute=compute)
    assert asked == ["hard"]


def test_the_worker_passes_the_level_to_the_game_bot() -> None:
    seen: dict[str, Any] = {}

    def choose(view: Any, legal: list[Any], *, rng: random.Random, budget_s: float, level: str) -> Any:
        seen.update(level=level, budget_s=budget_s)
        return legal[-1]

    action = bot_worker.compute(choose, {}, [{"type": "place", "square": "d3"}], 0.5, "easy")
    assert action == {"type": "place", "square": "d3"}
    assert seen == {"level": "easy", "budget_s": 0.5}


def test_pages_name_the_computer_with_its_level(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1}, bot_levels={1: "easy"})
    body = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert "Computer 2 (easy)" in body
    services.resign(match_id=match.pk, user=alice)
    history = client_for(alice).get(reverse("games:history")).content.decode()
    assert "Computer 2 (easy)" in history
    assert Seat.objects.get(match=match, number=1).listed_name() == "Computer 2 (easy)"
