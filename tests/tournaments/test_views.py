"""The tournament pages: list, organiser's form, the tournament page, registration and withdrawal."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services as match_services
from games.models import Match
from tournaments import services
from tournaments.models import Entry, Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 24 * 3600


def make(organiser: Any, **overrides: Any) -> Tournament:
    fields: dict[str, Any] = {
        "organiser": organiser,
        "name": "Club Swiss",
        "game": "reversi",
        "format": Tournament.Format.SWISS,
        "rounds": 3,
        "pace_seconds": DAY,
        "round_seconds": 3 * DAY,
        "rated": False,
        "starts_at": timezone.now() + timedelta(hours=1),
        "min_entries": 2,
        "max_entries": 16,
        "is_public": True,
        **overrides,
    }
    return services.create_tournament(**fields)


def started(organiser: Any, users: list[Any], **overrides: Any) -> Tournament:
    t = make(organiser, **overrides)
    for u in users:
        services.register(tournament_id=t.pk, user=u)
    services.start(tournament_id=t.pk, now=timezone.now(), by=organiser)
    return t


def play_round(t: Tournament, number: int) -> None:
    for p in Pairing.objects.filter(round__tournament=t, round__number=number).select_related("match"):
        if p.match is not None and p.match.status == Match.Status.ACTIVE:
            loser = Entry.objects.select_related("user").get(pk=p.sides[1]).user
            match_services.resign(match_id=p.match_id, user=loser)


def queries(client: Any, url: str, **extra: Any) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **extra)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


@pytest.fixture
def people(make_user: Any) -> list[Any]:
    return [make_user(f"p{i}") for i in range(8)]


def test_the_list_shows_open_running_and_finished_in_constant_queries(
    client: Any, alice: Any, people: list[Any]
) -> None:
    client.force_login(alice)
    make(alice, name="Open one")
    small, _response = queries(client, reverse("tournaments:list"))
    make(alice, name="Open two")
    started(alice, people[:2], name="Running one")
    finished = started(alice, people[2:4], name="Finished one", rounds=1)
    play_round(finished, 1)
    count, response = queries(client, reverse("tournaments:list"))
    assert count == small
    text = response.content.decode()
    assert text.index("Open two") < text.index("Running one") < text.index("Finished one")


def test_the_tournament_page_costs_the_same_in_round_one_and_after_several(
    client: Any, alice: Any, people: list[Any]
) -> None:
    """Standings, crosstable and every round's results, in a constant number of queries."""
    client.force_login(alice)
    small = started(alice, people[:2], rounds=1)
    big = started(alice, people, rounds=3, name="Eight")
    first, _response = queries(client, small.get_absolute_url())
    play_round(big, 1)
    play_round(big, 2)
    count, response = queries(client, big.get_absolute_url())
    assert count == first
    text = response.content.decode()
    for heading in ("Standings", "Buchholz", "Sonneborn-Berger", "Crosstable", "Round 1", "Round 3"):
        assert heading in text
    # Every round's results are there: round one's winners show their point.
    assert text.count("<strong>1</strong>") >= 8


def test_the_live_part_alone_for_htmx(client: Any, alice: Any, people: list[Any]) -> None:
    client.force_login(alice)
    t = started(alice, people[:4])
    response = client.get(t.get_absolute_url(), HTTP_HX_REQUEST="true")
    text = response.content.decode().strip()
    assert text.startswith('<div id="live"') and "<html" not in text


def test_an_invitation_only_tournament_is_hidden_without_the_link(client: Any, alice: Any, bob: Any) -> None:
    t = make(alice, is_public=False)
    client.force_login(bob)
    assert client.get(t.get_absolute_url()).status_code == 404
    assert client.post(reverse("tournaments:register", args=[t.pk])).status_code == 404
    assert "Club Swiss" not in client.get(reverse("tournaments:list")).content.decode()
    url = f"{t.get_absolute_url()}?token={t.invite_token}"
    assert client.get(url).status_code == 200
    client.post(reverse("tournaments:register", args=[t.pk]), {"token": t.invite_token})
    assert Entry.objects.filter(tournament=t, user=bob).exists()
    assert client.get(t.get_absolute_url()).status_code == 200  # an entrant sees it without the link


def test_register_and_withdraw_by_the_buttons(client: Any, alice: Any, bob: Any) -> None:
    t = make(alice)
    client.force_login(bob)
    page = client.get(t.get_absolute_url()).content.decode()
    assert reverse("tournaments:register", args=[t.pk]) in page
    client.post(reverse("tournaments:register", args=[t.pk]))
    assert Entry.objects.filter(tournament=t, user=bob).count() == 1
    page = client.get(t.get_absolute_url()).content.decode()
    assert reverse("tournaments:withdraw", args=[t.pk]) in page
    client.post(reverse("tournaments:withdraw", args=[t.pk]))
    assert not Entry.objects.filter(tournament=t, user=bob).exists()


def test_only_the_organiser_starts_early(client: Any, alice: Any, bob: Any, carol: Any) -> None:
    t = make(alice)
    services.register(tournament_id=t.pk, user=bob)
    services.register(tournament_id=t.pk, user=carol)
    client.force_login(bob)
    response = client.post(reverse("tournaments:start", args=[t.pk]), follow=True)
    assert "Only the organiser can start the tournament." in response.content.decode()
    t.refresh_from_db()
    assert t.status == Tournament.Status.OPEN
    client.force_login(alice)
    client.post(reverse("tournaments:start", args=[t.pk]))
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_the_organisers_form_creates_a_tournament(client: Any, alice: Any) -> None:
    client.force_login(alice)
    assert client.get(reverse("tournaments:new")).status_code == 200
    when = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Spring Round-robin",
        "game": "tacocat",
        "format": "round_robin",
        "rounds": "1",
        "pace": str(DAY),
        "round_length": str(7 * DAY),
        "rated": "on",
        "starts_at": when,
        "min_entries": "3",
        "max_entries": "8",
    }
    response = client.post(reverse("tournaments:new"), form)
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert (t.game, t.format, t.rated, t.is_public, t.organiser) == ("tacocat", "round_robin", True, False, alice)


def test_a_nepali_organiser_reads_and_types_the_numbers_in_devanagari(client: Any, alice: Any) -> None:
    alice.language = "ne"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    page = client.get(reverse("tournaments:new")).content.decode()
    assert 'type="number"' not in page
    # Rounds 3, entries 4 and 16 (the defaults), each with its range tied to it for screen readers.
    for name, value, hint in (
        ("rounds", "३", "१ देखि ३० सम्मको पूर्णाङ्क।"),
        ("min_entries", "४", "२ देखि ६४"),
        ("max_entries", "१६", "२ देखि ६४"),
    ):
        assert f'name="{name}" value="{value}" inputmode="numeric"' in page
        assert f'aria-describedby="id_{name}_helptext"' in page
        assert f'id="id_{name}_helptext">' in page and hint in page
    when = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Dashain Cup",
        "game": "reversi",
        "format": "swiss",
        "rounds": "५",
        "pace": str(DAY),
        "round_length": str(7 * DAY),
        "starts_at": when,
        "min_entries": "4",  # ASCII still works beside Devanagari
        "max_entries": "६५",  # one more than MAX_ENTRIES
        "is_public": "on",
    }
    refused = client.post(reverse("tournaments:new"), form)
    assert refused.status_code == 200
    assert "२ देखि ६४ सम्मको पूर्णाङ्क लेख्नुहोस्।" in refused.content.decode()
    assert 'name="max_entries" value="६५"' in refused.content.decode()
    assert not Tournament.objects.exists()
    response = client.post(reverse("tournaments:new"), {**form, "max_entries": "१२"})
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.rounds, t.min_entries, t.max_entries) == (5, 4, 12)


def test_the_form_refuses_a_format_the_game_cannot_play(client: Any, alice: Any) -> None:
    client.force_login(alice)
    when = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "DOS Swiss",
        "game": "dos",
        "format": "swiss",
        "rounds": "3",
        "pace": str(DAY),
        "round_length": str(7 * DAY),
        "starts_at": when,
        "min_entries": "3",
        "max_entries": "8",
        "is_public": "on",
    }
    response = client.post(reverse("tournaments:new"), form)
    assert response.status_code == 200
    assert "DOS cannot be played in that format." in response.content.decode()
    assert not Tournament.objects.exists()


def test_finished_tournaments_show_on_the_profile(client: Any, alice: Any, people: list[Any]) -> None:
    t = started(alice, people[:2], rounds=1, name="Winter Cup")
    client.force_login(alice)
    profile = reverse("accounts:profile", args=[people[0].username])
    assert "Winter Cup" not in client.get(profile).content.decode()
    play_round(t, 1)
    assert "Winter Cup" in client.get(profile).content.decode()


def test_the_list_counts_every_entry_of_a_private_tournament_one_has_entered(
    client: Any, alice: Any, people: list[Any]
) -> None:
    t = make(alice, is_public=False, name="Invitational")
    for person in people[:3]:
        services.register(tournament_id=t.pk, user=person, token=t.invite_token)
    client.force_login(people[0])
    text = client.get(reverse("tournaments:list")).content.decode()
    assert "Invitational" in text and "3 entries" in text


def test_the_crosstable_and_boards_show_each_result(alice: Any, people: list[Any]) -> None:
    """A three-player round-robin where the first side always wins: each row of the crosstable holds
    the entry's score against each other entry, a cross on its own cell; byes are named on the boards."""
    from tournaments import pages

    t = started(alice, people[:3], format=Tournament.Format.ROUND_ROBIN, rounds=1)
    for n in (1, 2, 3):
        play_round(t, n)
    t.refresh_from_db()
    context = pages.tournament_context(t, alice)
    order = [s["entry"].pk for s in context["standings"]]
    games = {(p.sides[0], p.sides[1]) for p in t.pairings.all() if not p.is_bye}
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            cell = context["standings"][i]["cells"][j]
            expected = pages.SELF if a == b else "1" if (a, b) in games else "0"
            assert cell == expected
    notes = [b.note for r in context["rounds"] for b in r.boards if b.note]
    assert notes == ["Bye (counts as a win)"] * 3
