"""The match page of each game, read by a seated player in Assamese and in Nepali, shows every number
in the reader's digits: counts, scores, rounds, clocks, the match number, the chat's times. Only what
names a thing keeps ASCII digits: card codes (R7, B10), Reversi squares (d4), usernames; attributes
(form values, ids, data-*) are machine values and are not read here."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from random import Random
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import registry, services
from games.models import Match

pytestmark = pytest.mark.django_db

# Names, not numbers: a card's code (DOS "R7", "B10", "W#"; Back Alley "10♠" is drawn as rank and
# suit, its rank a name like "Q"), a Reversi square. Taco Cat cards are bare values, see below.
ALLOWED = re.compile(r"\b(?:[RGBY](?:10|[0-9])|[a-h][1-8])\b")


class _Text(HTMLParser):
    """The text a reader sees: text nodes, without scripts and styles (attributes are never text)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in {"script", "style"}:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def ascii_numbers(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [part for part in parser.parts if re.search(r"[0-9]", ALLOWED.sub("", part))]


def played(game: str, players: list[User], moves: int, seed: int) -> Match:
    """A match of ``game`` between ``players`` (seat 0 first) on a clock, ``moves`` random legal moves
    in, with a line of chat: scores, counts and events to read."""
    engine = registry.get(game).engine
    match = services.create_match(user=players[0], game=game, players=len(players), pace_seconds=24 * 3600)
    for user in players[1:]:
        services.join_match(match_id=match.pk, user=user)
    rng = Random(seed)
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        state = engine.load(match.state)
        seat = sorted(engine.to_act(state))[0]
        action = rng.choice(engine.legal_actions(state, seat))
        services.act(match_id=match.pk, user=players[seat], action=action, version=match.version)
    services.post_chat(match_id=match.pk, user=players[0], text="hello")
    match.refresh_from_db()
    return match


GAMES = {"reversi": (2, 20), "dos": (3, 40), "backalley": (4, 70), "tacocat": (2, 25)}


@pytest.mark.parametrize("language", ["as", "ne"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seated_player_reads_every_number_in_their_own_digits(game: str, language: str, make_user: Any) -> None:
    seats, moves = GAMES[game]
    players = [make_user(name) for name in ["ann", "ben", "cat", "dan"][:seats]]
    match = played(game, players, moves, seed=7)
    assert match.move_count > 0
    User.objects.filter(pk=players[0].pk).update(language=language)
    client = Client()
    client.force_login(players[0])
    html = client.get(match.get_absolute_url()).content.decode()
    own = {"as": "০১২৩৪৫৬৭৮৯", "ne": "०१२३४५६७८९"}[language]
    assert any(d in html for d in own), "no number at all on the page?"
    assert ascii_numbers(html) == []
