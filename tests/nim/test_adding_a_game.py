"""docs/adding-a-game.md, proven: Nim (this folder) was added by its steps alone, and plays like any game.

Nothing in games/ names Nim: it is an app of its own, in INSTALLED_APPS only for the tests
(tests/settings.py), and the core finds it through the registry.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import registry, services
from games.background import bots
from games.models import Match, Move, Seat
from games.read.replay import replays_to_stored_state
from tests.nim import bot, rules, text
from tests.nim.models import NimMatch
from tests.support import client_for

pytestmark = pytest.mark.django_db


def take(match: Match, user: Any, count: int) -> Match:
    match.refresh_from_db()
    return services.act(
        match_id=match.pk, user=user, action={"type": "take", "count": str(count)}, version=match.version
    )


def test_the_registry_holds_nim_from_its_definition() -> None:
    nim = registry.get("nim")
    assert (str(nim.name), nim.model, nim.min_players, nim.max_players) == ("Nim", NimMatch, 2, 2)
    assert (nim.engine, nim.bot, nim.describe_event) == (rules.engine, bot.choose, text.describe_event)
    assert nim.timeout_policy == "claim" and nim.stylesheet is None and nim.options == ()
    assert (nim.template, nim.rules_template) == ("nim/board.html", "nim/rules.html")
    assert nim.slug == "nim" and nim.path is not None and nim.path.name == "nim"
    assert "nim" in {g.slug for g in registry.all_games()}


def test_two_people_play_nim_through_the_services(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="nim", players=2, options={"stones": 5})
    services.join_match(match_id=match.pk, user=bob)
    take(match, alice, 1)
    with pytest.raises(services.MatchError) as refused:
        take(match, alice, 1)
    assert (refused.value.code, refused.value.message) == (services.ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
    with pytest.raises(services.MatchError) as refused:
        take(match, bob, 4)
    assert refused.value.code == services.ErrorCode.ILLEGAL
    take(match, bob, 3)
    match = take(match, alice, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.move_count == 3
    assert [s.outcome for s in match.seats.all()] == [Seat.Outcome.WIN, Seat.Outcome.LOSS]
    assert list(Move.objects.filter(match=match).values_list("seat", flat=True)) == [0, 1, 0]
    assert replays_to_stored_state(match)
    assert list(NimMatch.objects.values_list("pk", flat=True)) == [match.pk]


def test_bad_options_are_refused_before_a_match_exists(alice: Any) -> None:
    with pytest.raises(services.MatchError) as refused:
        services.create_match(user=alice, game="nim", players=2, options={"stones": 0})
    assert refused.value.message == "The heap holds 1 to 50 stones."
    assert not Match.objects.exists()


def test_the_computer_plays_nim(alice: Any) -> None:
    match = services.create_match(user=alice, game="nim", players=2, bot_seats={1}, options={"stones": 6})
    take(match, alice, 1)  # five left: the computer takes one, leaving four
    assert bots.take_turn(match.pk, now=timezone.now() + timedelta(seconds=10))
    match.refresh_from_db()
    assert rules.engine.load(match.state).stones == 4


def test_nim_is_played_on_its_page(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="nim", players=2, options={"stones": 4})
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    client = client_for(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "4 stones left." in page and 'name="count" value="3" data-move' in page
    response = client.post(
        reverse("games:act", args=[match.pk]), {"type": "take", "count": "3", "version": match.version}
    )
    assert response.status_code == 302
    page = client_for(bob).get(match.get_absolute_url()).content.decode()
    assert "1 stone left." in page and "alice took 3 stones." in page
    refused = client.post(reverse("games:act", args=[match.pk]), {"type": "take", "count": "1", "version": 0})
    assert refused.status_code == 409


def test_nim_has_its_rules_page_and_its_new_match_form(alice: Any) -> None:
    client = client_for(alice)
    rules_page = client.get(reverse("games:rules", args=["nim"])).content.decode()
    assert "How to play Nim" in rules_page and "take the last to win" in rules_page
    form = client.get(reverse("games:new") + "?game=nim").content.decode()
    assert "Two players, one heap" in form  # the form is drawn for Nim, with its blurb
    created = client.post(
        reverse("games:new"), {"game": "nim", "players": "2", "seat_1": "bot", "level_1": "hard", "pace": ""}
    )
    assert created.status_code == 302
    assert NimMatch.objects.get().status == Match.Status.ACTIVE


def test_nims_definition_names_all_of_it() -> None:
    from tests.nim.game import GAME

    assert (GAME.engine, GAME.bot, GAME.describe_event) == (rules.engine, bot.choose, text.describe_event)
    assert registry.get("nim").engine is GAME.engine


def test_nim_brings_its_own_translations() -> None:
    """Nim's strings are in its app's catalogue (tests/nim/locale), which Django reads like the site's."""
    from django.utils import translation

    with translation.override("ne"):
        assert str(registry.get("nim").name) == "निम"
        assert text.describe_event({"seat": 0, "count": 2}, ["alice"]) == "alice ले 2 वटा ढुङ्गा लिनुभयो।"
    with translation.override("as"):
        assert str(registry.get("nim").blurb).startswith("দুজন খেলুৱৈ, এটা দ'ম")
        assert translation.gettext("It is not your turn.") == "এতিয়া আপোনাৰ পাল নহয়।"  # the site's


def test_a_resigned_nim_match_shows_how_it_ended(alice: Any, bob: Any) -> None:
    """A game with no running score (no ``standing`` in its definition) ends early without one: the
    core no longer looks for a ``present`` module by its path (Nim has none)."""
    match = services.create_match(user=alice, game="nim", players=2, options={"stones": 5})
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=alice)
    page = client_for(bob).get(match.get_absolute_url())
    assert page.status_code == 200 and "alice resigned." in page.content.decode()
