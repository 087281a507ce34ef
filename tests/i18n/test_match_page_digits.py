"""The match page of each game, read by a seated player in Assamese and in Nepali, shows every number
in the reader's digits: counts, scores, rounds, clocks, the match number, the chat's times, card
values, DOS cards in event lines (named as on the board: "blue 7", issue #29). Only what names a
thing keeps ASCII digits: Reversi squares (d4) and the board's row numbers (marked translate="no"),
the fair-play hash (in <code>);
attributes (form values, ids, data-*) are machine values and are not read here."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from random import Random
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from games import registry, services
from games.models import Match

pytestmark = pytest.mark.django_db

# Names, not numbers: a Reversi square, the hash's name.
ALLOWED = re.compile(r"\b[a-h][1-8]\b|SHA-256")
# The caption explains the squares' ASCII names (rows 1 to 8).
CAPTION = "Reversi board: rows 1 to 8 from the top, columns a to h from the left"


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Text(HTMLParser):
    """The text a reader sees: text nodes (attributes are never text), without scripts, styles,
    machine values in <code> and what is marked translate="no"."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._open: list[bool] = []  # per open element: is its text skipped?

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in VOID:
            return
        skipped = tag in {"script", "style", "code"} or ("translate", "no") in attrs
        self._open.append(skipped or bool(self._open and self._open[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if not (self._open and self._open[-1]) and data.strip():
            self.parts.append(data.strip())


def ascii_numbers(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    caption = gettext(CAPTION)
    return [part for part in parser.parts if part != caption and re.search(r"[0-9]", ALLOWED.sub("", part))]


def played(game: str, players: list[User], moves: int, seed: int, *, rated: bool = False) -> Match:
    """A match of ``game`` between ``players`` (seat 0 first) on a clock, ``moves`` random legal moves
    in (or to its end), with a line of chat: scores, counts and events to read."""
    engine = registry.get(game).engine
    match = services.create_match(user=players[0], game=game, players=len(players), pace_seconds=24 * 3600, rated=rated)
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


def watching(match: Match, user: User, language: str) -> str:
    User.objects.filter(pk=user.pk).update(language=language)
    client = Client()
    client.force_login(user)
    html = client.get(match.get_absolute_url()).content.decode()
    assert f'lang="{language}"' in html and 'id="match-body"' in html and " mine" not in html  # no seat of theirs
    return html


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
    assert f'lang="{language}"' in html
    own = {"as": "০১২৩৪৫৬৭৮৯", "ne": "०१२३४५६७८९"}[language]
    assert any(d in html for d in own), "no number at all on the page?"
    with translation.override(language):
        assert ascii_numbers(html) == []
        assert ascii_numbers(watching(match, make_user("eve"), language)) == []  # a spectator's view too


@pytest.mark.parametrize("language", ["as", "ne"])
def test_a_finished_rated_match_reads_its_scores_and_rating_changes_in_the_readers_digits(
    language: str, make_user: Any
) -> None:
    players = [make_user("ann"), make_user("ben")]
    match = played("reversi", players, 200, seed=3, rated=True)
    assert match.status == Match.Status.FINISHED
    User.objects.filter(pk=players[1].pk).update(language=language)
    client = Client()
    client.force_login(players[1])
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'class="final-score"' in html and "rating-change" in html
    with translation.override(language):
        assert ascii_numbers(html) == []
