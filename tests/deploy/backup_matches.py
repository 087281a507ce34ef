"""Matches for the backup test, made through the services in the database DATABASE_URL names (run by
``manage.py shell`` in a process of its own: the test's own database is another one)."""

from __future__ import annotations

import json
import random

from django.contrib.auth import get_user_model

from games import registry, services
from games.models import Match


def play(match_id: int, moves: int | None, rng: random.Random) -> None:
    """Random legal moves by the seated people: ``moves`` of them, or (None) until the match is over."""
    made = 0
    while moves is None or made < moves:
        match = Match.objects.get(pk=match_id)
        engine = registry.get(match.game).engine
        state = engine.load(match.state)
        seats = engine.to_act(state)
        if not seats:
            return
        seat = match.seats.get(number=seats[0])
        action = rng.choice(engine.legal_actions(state, seat.number))
        services.act(match_id=match_id, user=seat.user, action=action, version=match.version)
        made += 1


def make() -> None:
    users = [get_user_model().objects.create_user(username=f"player{n}", password="x" * 12) for n in range(4)]
    rng = random.Random(7)
    made: dict[str, list[int]] = {"finished": [], "running": []}
    for game, players, moves in (
        ("reversi", 2, None),
        ("dos", 2, None),
        ("reversi", 2, 9),
        ("dos", 2, 6),
        ("backalley", 4, 5),
    ):
        match = services.create_match(user=users[0], game=game, players=players)
        for user in users[1:players]:
            services.join_match(match_id=match.pk, user=user)
        play(match.pk, moves, rng)
        done = Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
        made["finished" if done else "running"].append(match.pk)
    print(json.dumps(made))


def check_running(ids: list[int]) -> None:
    from games.read.replay import replays_to_stored_state

    print(json.dumps({match_id: replays_to_stored_state(Match.objects.get(pk=match_id)) for match_id in ids}))
