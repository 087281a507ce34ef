"""Issue 30: the history page lists the finished tournaments the person played in, with the place the
tournament's own standings give them, in a constant number of queries and in the reader's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services as match_services
from tests.support import client_for
from tests.tournaments.test_views import make, play_round, started
from tournaments import pages, services
from tournaments.models import Entry, Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

HISTORY = "/history/"


@pytest.fixture
def people(make_user: Any) -> list[Any]:
    return [make_user(f"p{i}") for i in range(6)]


def round_robin(organiser: Any, players: list[Any], name: str) -> Tournament:
    """A finished single round-robin where the player listed first always wins, so every place differs."""
    t = started(organiser, players, format=Tournament.Format.ROUND_ROBIN, rounds=1, name=name)
    t.refresh_from_db()
    order = {person.pk: i for i, person in enumerate(players)}
    for number in range(1, t.rounds + 1):
        for p in Pairing.objects.filter(tournament=t, round__number=number).exclude(match=None):
            users = [Entry.objects.get(pk=pk).user for pk in p.sides]
            match_services.resign(match_id=p.match_id, user=max(users, key=lambda u: order[u.pk]))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def section(body: str) -> str:
    """The history's tournament section ("" when the page has none)."""
    found = re.search(r'<section aria-labelledby="history-tournaments-h">.*?</section>', body, re.S)
    return found.group(0) if found else ""


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_each_player_sees_the_place_the_tournament_page_gives_them(alice: Any, people: list[Any]) -> None:
    t = round_robin(alice, people[:3], "Winter Cup")
    running = started(alice, people[:2], name="Spring Cup")
    standings = pages.tournament_context(t, alice)["standings"]
    assert [s["row"].place for s in standings] == [1, 2, 3]
    for s in standings:
        person = s["entry"].user
        listed = words(section(client_for(person).get(HISTORY).content.decode()))
        assert f"Winter Cup Place {s['row'].place} of 3 Reversi · Round-robin ·" in listed
        assert running.name not in listed
    assert f'href="{t.get_absolute_url()}"' in section(client_for(people[0]).get(HISTORY).content.decode())
    # Someone who did not play has no section (and the organiser who did not play is no entrant).
    assert section(client_for(people[4]).get(HISTORY).content.decode()) == ""
    assert section(client_for(alice).get(HISTORY).content.decode()) == ""


def test_the_history_filters_narrow_the_tournaments_as_they_narrow_the_matches(
    alice: Any, people: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.web import views

    monkeypatch.setattr(views, "HISTORY_PAGE_SIZE", 1)  # p0's two matches make two pages
    round_robin(alice, people[:3], "Winter Cup")
    client = client_for(people[0])

    def shown(**params: str) -> bool:
        return "Winter Cup" in section(client.get(HISTORY, params).content.decode())

    assert shown(game="reversi") and not shown(game="dos")
    # The opponent as typed (any case); one's own name is no opponent; someone who was not there.
    assert shown(opponent=people[1].username.upper())
    assert not shown(opponent=people[0].username)
    assert not shown(opponent=people[5].username)
    # A match's result and computer players are not a tournament's: the section steps aside.
    assert not shown(result="win") and not shown(computer="on")
    # Once, on the first page of the history only.
    assert shown(page="1") and not shown(page="2")


def test_the_section_costs_three_queries_however_many_tournaments(alice: Any, people: list[Any]) -> None:
    person = people[0]
    round_robin(alice, people[:3], "First")

    def measure(shown: int) -> tuple[int, list[pages.Placing], bool]:
        with CaptureQueriesContext(connection) as ctx:
            placings, more = pages.finished_placings(person, shown=shown)
        return len(ctx.captured_queries), placings, more

    one, placings, more = measure(10)
    assert (one, [p.tournament.name for p in placings], more) == (3, ["First"], False)
    round_robin(alice, people[:3], "Second")
    round_robin(alice, [person, people[3]], "Third")
    three, placings, more = measure(10)
    assert (three, [p.tournament.name for p in placings]) == (3, ["Third", "Second", "First"])
    # Only the latest are listed, and the list says there are more.
    _count, placings, more = measure(2)
    assert [p.tournament.name for p in placings] == ["Third", "Second"] and more

    # And the whole page: the same number of queries for one tournament and for three.
    counts = []
    for user in (people[1], person):  # people[1] played in two, person in three
        with CaptureQueriesContext(connection) as ctx:
            response = client_for(user).get(reverse("games:history"))
        assert response.status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_older_tournaments_are_a_page_away_with_the_filters_kept(
    alice: Any, people: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.templatetags import tournament_tags

    monkeypatch.setattr(tournament_tags, "IN_HISTORY", 2)
    person = people[0]
    for name in ("First", "Second", "Third"):
        round_robin(alice, [person, people[1]], name)
    client = client_for(person)

    def page(**params: str) -> tuple[str, int]:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(HISTORY, params)
        assert response.status_code == 200
        return section(response.content.decode()), len(ctx.captured_queries)

    def link(html: str, text: str) -> str | None:
        found = re.search(rf'<a href="([^"]*)">{text}</a>', html)
        return found.group(1).replace("&amp;", "&") if found else None

    first, first_queries = page()
    assert "Third" in first and "Second" in first and "First" not in first
    assert link(first, "Newer tournaments") is None
    assert link(first, "Older tournaments") == "?tpage=2#history-tournaments-h"

    second, second_queries = page(tpage="2")
    assert "First" in second and "Second" not in second
    assert link(second, "Older tournaments") is None
    assert link(second, "Newer tournaments") == "?tpage=1#history-tournaments-h"
    assert second_queries == first_queries  # a later page costs what the first does

    # Past the last page: says so, and links the newest.
    past, _ = page(tpage="3")
    assert "No older tournaments." in words(past)
    assert link(past, "Newest tournaments") == "?#history-tournaments-h"

    # Anything but a page number reads as the first page.
    for junk in ("0", "-1", "x", "2.5", "\u0968", "99999999999999999999"):
        assert page(tpage=junk)[0] == first, junk

    # The history's filters stay on the pager's links, and narrow every page.
    filtered, _ = page(game="reversi")
    assert link(filtered, "Older tournaments") == "?game=reversi&tpage=2#history-tournaments-h"
    assert "First" in page(game="reversi", tpage="2")[0]
    assert page(game="dos")[0] == "" and "No older tournaments." in words(page(game="dos", tpage="2")[0])


def test_a_withdrawn_entry_keeps_its_place_and_says_it_withdrew(alice: Any, people: list[Any]) -> None:
    t = started(alice, people[:3], format=Tournament.Format.ROUND_ROBIN, rounds=1, name="Short Cup")
    services.withdraw(tournament_id=t.pk, user=people[2])  # resigns the match in play; later games forfeited
    t.refresh_from_db()
    for number in range(1, t.rounds + 1):
        play_round(t, number)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    place = next(s["row"].place for s in pages.tournament_context(t, alice)["standings"] if s["entry"].withdrawn)
    listed = words(section(client_for(people[2]).get(HISTORY).content.decode()))
    assert f"Short Cup Place {place} of 3 (withdrew)" in listed


@pytest.mark.parametrize(
    ("language", "expected"),
    [("as", "৩ ৰ ভিতৰত ১ নং স্থান"), ("ne", "३ मध्ये १औं स्थान")],
)
def test_the_section_reads_in_assamese_and_nepali_with_their_digits(
    alice: Any, people: list[Any], language: str, expected: str
) -> None:
    t = round_robin(alice, people[:3], "Winter Cup")
    winner = next(s["entry"].user for s in pages.tournament_context(t, alice)["standings"] if s["row"].place == 1)
    body = client_for(winner).get(HISTORY, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    listed = words(section(body))
    assert expected in listed
    assert {"as": "শেষ হোৱা প্ৰতিযোগিতা", "ne": "सकिएका प्रतियोगिता"}[language] in listed
    # The date is in the language's digits too: no Latin digit is left in the section's text.
    assert not re.search(r"[0-9]", listed.replace("Winter Cup", ""))


def test_an_open_or_cancelled_tournament_is_not_listed(alice: Any, people: list[Any]) -> None:
    t = make(alice, name="Never Ran")
    services.register(tournament_id=t.pk, user=people[0])
    assert section(client_for(people[0]).get(HISTORY).content.decode()) == ""
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.CANCELLED)
    assert section(client_for(people[0]).get(HISTORY).content.decode()) == ""


def test_a_partner_sees_the_partnerships_place(alice: Any, people: list[Any]) -> None:
    """Back Alley pairs: the entry is the first player's, the partner joined it; both see its place. (Marked
    finished before any game, so the two partnerships share first place.)"""
    t = make(alice, name="Pairs Cup", game="backalley", format=Tournament.Format.ROUND_ROBIN, min_entries=2)
    first = services.register(tournament_id=t.pk, user=people[0])
    services.register(tournament_id=t.pk, user=people[1], partner_of=first.pk)
    second = services.register(tournament_id=t.pk, user=people[2])
    services.register(tournament_id=t.pk, user=people[3], partner_of=second.pk)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED, finished_at=t.starts_at)
    for person in people[:4]:
        listed = words(section(client_for(person).get(HISTORY).content.decode()))
        assert "Pairs Cup Place 1 of 2 Back Alley · Round-robin ·" in listed
    # The other partnership's second player, as typed, is someone else who played.
    assert "Pairs Cup" in section(client_for(people[1]).get(HISTORY, {"opponent": people[3].username}).content.decode())
