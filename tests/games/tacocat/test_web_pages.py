"""The Tacocat match page and act endpoint: what each seat sees, commit-then-reveal, jumbo attacks and
their answers, refusals, the computer player, and query counts."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import registry, services
from games.background import bots
from games.models import Match, Seat
from games.read import pages
from games.tacocat.models import TacocatMatch
from games.tacocat.positions import position
from tests.support import client_for

pytestmark = pytest.mark.django_db

engine = registry.get("tacocat").engine

# Round 1 (7 cards each, dealt alternately): alice 12 1 2 3 4 5 6, bob 11 7 8 9 10 10 12.
# Both keep; alice duels 12 against 11 and attacks with 2-3-4-5-6; bob defends it all with 7 8 9 10 10;
# the showdown is alice's 1 against bob's 12, so alice wins the round and the cat runs to C (-1).
DECK = ["12", "11", "1", "7", "2", "8", "3", "9", "4", "10", "5", "10", "6", "12"]
# The physical game's deck and outer spaces are unknown (rules decision register #1, #2): spell out the
# setup these pages are checked against rather than lean on the engine's placeholder defaults.
SETUP = {
    "distribution": {str(v): 3 for v in range(1, 13)} | {"6": 4, "7": 4},
    "board": [
        {"hand_size": 4, "arrow": "B"},
        {"hand_size": 5, "arrow": "B"},
        {"hand_size": 6, "arrow": "B"},
        {"hand_size": 7, "arrow": "both"},
        {"hand_size": 6, "arrow": "A"},
        {"hand_size": 5, "arrow": "A"},
        {"hand_size": 4, "arrow": "A"},
    ],
}
OPTIONS = {**SETUP, "deck": DECK}


def page(user: Any, match: Match) -> str:
    response = client_for(user).get(match.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def text(body: str) -> str:
    """The page's words, tags stripped and whitespace squeezed, for asserting sentences."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def post(user: Any, match: Match, data: dict[str, Any], *, htmx: bool = False, version: int | None = None) -> Any:
    match.refresh_from_db()
    payload = {"version": match.version if version is None else version, **data}
    headers = {"HX-Request": "true"} if htmx else {}
    return client_for(user).post(reverse("games:act", args=[match.pk]), payload, headers=headers)


@pytest.fixture
def duo(alice: Any, bob: Any) -> Match:
    """Alice (seat 0, goal WOW) against Bob (seat 1, goal YAY), on the stacked deck, both to replace."""
    match = services.create_match(user=alice, game="tacocat", players=2, options=OPTIONS)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


@pytest.fixture
def solo(alice: Any) -> Match:
    match = services.create_match(user=alice, game="tacocat", players=2, bot_seats={1}, options=OPTIONS)
    match.refresh_from_db()
    return match


def state(match: Match) -> Any:
    match.refresh_from_db()
    return engine.load(match.state)


def both_keep(match: Match, alice: Any, bob: Any) -> None:
    assert post(alice, match, {"type": "replace", "keep": "1"}).status_code == 302
    assert post(bob, match, {"type": "replace", "keep": "1"}).status_code == 302


def to_attack(match: Match, alice: Any, bob: Any) -> None:
    both_keep(match, alice, bob)
    assert post(alice, match, {"type": "duel", "card": "12"}).status_code == 302
    assert post(bob, match, {"type": "duel", "card": "11"}).status_code == 302
    assert state(match).phase == "attack"


# --- what the page shows ---------------------------------------------------------------------------


def test_the_page_shows_the_track_goals_hand_counts_and_a_replacement_form(solo: Match, alice: Any) -> None:
    body = page(alice, solo)
    words = text(body)
    assert TacocatMatch.objects.filter(pk=solo.pk).exists()
    assert "tacocat/style.css" in body
    # The track: seven spaces T-A-C-O-C-A-T with their hand sizes and arrows, the cat on O, two goals.
    letters = re.findall(r'<span class="taco-letter" aria-hidden="true">(\w)</span>', body)
    assert "".join(letters) == "TACOCAT"
    assert "O (0): 7 cards each, both replace at once, the cat is here" in words
    assert "T (-3): 4 cards each, Computer 2 replaces first" in words
    assert "T (+3): 4 cards each, alice replaces first" in words
    assert "Your goal is WOW, on the left; Computer 2 heads for YAY, on the right." in words
    assert ": goal of alice (yours)" in words
    # Alice's hand, sorted by value, as ticking boxes with the number as their text.
    assert re.findall(r'name="cards\[\]" value="(\d+)"', body) == ["1", "2", "3", "4", "5", "6", "12"]
    assert 'label for="taco-card-0" class="taco-card taco-choice">1</label>' in body
    assert "Your hand (7 cards)" in words
    # The opponent: a count only.
    assert "Computer 2 7 cards" in words
    assert "Draw pile: 24 cards" in words
    assert "Discard pile: 0 cards, face up" in words
    assert "Replace the ticked cards" in words and "Keep all my cards" in words
    assert "You both choose at the same time" in words
    assert f'name="version" value="{solo.version}"' in body
    assert 'hx-post="{}"'.format(reverse("games:act", args=[solo.pk])) in body


def test_a_spectator_sees_counts_and_no_hand(duo: Match, carol: Any) -> None:
    words = text(page(carol, duo))
    assert "You are watching: both hands are hidden." in words
    assert "alice 7 cards" in words and "bob 7 cards" in words
    assert "Your hand" not in words
    assert "alice runs the cat left into WOW, bob right into YAY." in words


# --- simultaneous choices --------------------------------------------------------------------------


def test_a_replacement_commit_shows_only_that_the_other_has_chosen(duo: Match, alice: Any, bob: Any) -> None:
    response = post(alice, duo, {"type": "replace", "cards[]": ["1", "12"]})
    assert response.status_code == 302
    assert "You chose to replace 1, 12; waiting for bob to choose." in text(page(alice, duo))
    bob_words = text(page(bob, duo))
    assert "alice has chosen." in bob_words
    assert "replace 1, 12" not in bob_words
    # Nothing is discarded or drawn until both have chosen.
    assert "Discard pile: 0 cards" in bob_words and "alice 7 cards" in bob_words


def test_a_duel_commit_by_each_player_plain_then_htmx_reveals_both_cards(duo: Match, alice: Any, bob: Any) -> None:
    both_keep(duo, alice, bob)
    duo.refresh_from_db()
    bob_loaded = duo.version  # Bob's page, loaded before Alice chooses.

    response = post(alice, duo, {"type": "duel", "card": "12"})
    assert response.status_code == 302
    alice_words = text(page(alice, duo))
    assert "You chose 12; waiting for bob to choose." in alice_words
    assert "A choice cannot be changed" in alice_words
    assert 'name="type" value="duel"' not in page(alice, duo)
    bob_body = page(bob, duo)
    assert "alice has chosen." in text(bob_body)
    assert "You chose" not in text(bob_body)

    # Bob's form still carries the version from before Alice's commit: the step's start version is accepted.
    response = post(bob, duo, {"type": "duel", "card": "11"}, htmx=True, version=bob_loaded)
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<section id="match-body"')
    words = text(fragment)
    assert "Duel: alice 12 vs 11 bob — alice attacks first." in words
    assert "alice is choosing an attack." in words
    assert "Duel: alice 12 vs 11 bob — alice attacks first." in text(page(alice, duo))
    assert state(duo).phase == "attack"


def test_an_old_version_is_accepted_only_within_the_same_simultaneous_step(duo: Match, alice: Any, bob: Any) -> None:
    duo.refresh_from_db()
    start = duo.version
    assert post(alice, duo, {"type": "replace", "keep": "1"}).status_code == 302
    assert post(bob, duo, {"type": "replace", "keep": "1"}, version=start).status_code == 302
    # The duel is a new step: a page from the replacement step is out of date.
    response = post(alice, duo, {"type": "duel", "card": "12"}, htmx=True, version=start)
    assert response.status_code == 409
    assert "The match has moved on" in text(response.content.decode())
    assert state(duo).commits == (None, None)


def test_a_commit_cannot_be_changed(duo: Match, alice: Any, bob: Any) -> None:
    both_keep(duo, alice, bob)
    assert post(alice, duo, {"type": "duel", "card": "1"}).status_code == 302
    before = state(duo)
    response = post(alice, duo, {"type": "duel", "card": "12"}, htmx=True)
    assert response.status_code == 409
    assert 'role="alert"' in response.content.decode()
    assert state(duo) == before
    assert before.commits[0] == (1,)


# --- attacks and answers ---------------------------------------------------------------------------


def test_a_jumbo_attack_by_ticks_and_its_defence_by_selects_end_the_round(duo: Match, alice: Any, bob: Any) -> None:
    to_attack(duo, alice, bob)
    alice_body = page(alice, duo)
    assert 'aria-label="Attack with 2-3-4-5-6">2-3-4-5-6</button>' in alice_body  # a jumbo attack: one button
    assert re.search(r'<button [^>]*name="jumbo"[^>]* data-move ', alice_body)  # one tap: confirm-moves may ask twice
    response = post(alice, duo, {"type": "attack", "cards[]": ["6", "2", "4", "3", "5"]}, htmx=True)
    assert response.status_code == 200
    assert "bob must answer your attack: 2-3-4-5-6." in text(response.content.decode())

    bob_body = page(bob, duo)
    words = text(bob_body)
    assert "alice attacks with 2-3-4-5-6 (a jumbo attack: a sequence)." in words
    assert "Answer each of the 5 cards with one card" in words
    # One select per attack card, offering only cards that can answer it, the cheapest full defence chosen.
    selects = re.findall(r'<select name="answer_(\d)" id="taco-answer-\d">(.*?)</select>', bob_body, re.S)
    assert [i for i, _ in selects] == ["0", "1", "2", "3", "4"]
    first = re.findall(r'<option value="(\w+)"( selected)?>', selects[0][1])
    # Bob's lowest card, 7, beats every attack card: a sacrifice is not a choice here (TAC-E8).
    assert first == [("7", " selected"), ("8", ""), ("9", ""), ("10", ""), ("12", "")]
    assert 'name="hand" value="7 8 9 10 10 12"' in bob_body

    answers = {f"answer_{i}": v for i, v in enumerate(["7", "8", "9", "10", "10"])}
    response = post(bob, duo, {"type": "defend", "hand": "7 8 9 10 10 12", **answers}, htmx=True)
    assert response.status_code == 200
    for body in (response.content.decode(), page(alice, duo)):
        words = text(body)
        assert "Round 1: showdown" in words
        assert "alice 1 vs 12 bob" in words
        assert "The lower card wins: alice wins the round." in words
        assert "The cat runs from O (0) to C (-1)." in words
        assert "A tile now covers O (0)." in words
        assert "O (0): 7 cards each, both replace at once, covered by a tile" in words
        assert "C (-1): 6 cards each, bob replaces first, the cat is here" in words
    after = state(duo)
    assert after.round_no == 2 and after.cat == -1 and after.covered == (0,)


def test_a_jumbo_attack_button_and_a_sacrifice_filled_with_the_lowest_card(alice: Any, bob: Any) -> None:
    # alice 12 1 1 6 7 8 9, bob 11 2 3 4 5 10 12: alice attacks 7-8-9; bob can defend 7 with 10 or 12 only.
    deck = ["12", "11", "1", "2", "1", "3", "6", "4", "7", "5", "8", "10", "9", "12"]
    match = services.create_match(user=alice, game="tacocat", players=2, options={**SETUP, "deck": deck})
    services.join_match(match_id=match.pk, user=bob)
    to_attack(match, alice, bob)
    assert post(alice, match, {"type": "attack", "jumbo": "7 8 9", "cards[]": ["1"]}).status_code == 302
    bob_body = page(bob, match)
    assert "You cannot defend every card: the attacker keeps the attack." in text(bob_body)
    answers = {"answer_0": "10", "answer_1": "12", "answer_2": "sacrifice"}
    assert post(bob, match, {"type": "defend", "hand": "2 3 4 5 10 12", **answers}).status_code == 302
    after = state(match)
    # 10 defends 7, 12 defends 8 and the lowest card, 2, is sacrificed against 9: alice keeps the attack.
    assert after.hands[1] == (3, 4, 5)
    assert after.attacker == 0 and after.phase == "attack"
    assert after.discard[-6:] == (7, 8, 9, 10, 12, 2)
    words = text(page(alice, match))
    assert "bob sacrifices 2 against 9." in words and "alice keeps the attack." in words


def test_a_single_attack_is_answered_by_one_button_per_legal_answer(duo: Match, alice: Any, bob: Any) -> None:
    to_attack(duo, alice, bob)
    assert post(alice, duo, {"type": "attack", "cards[]": ["5"]}).status_code == 302
    body = page(bob, duo)
    buttons = re.findall(r'<button type="submit" name="answers\[\]" value="(\d+)"[^>]*>([^<]+)</button>', body)
    legal = [a["answers"] for a in engine.legal_actions(state(duo), 1)]
    assert sorted([v] for v, _ in buttons) == sorted(legal)
    assert ("7", "Defend with 7") in buttons and ("12", "Defend with 12") in buttons
    assert (
        body.count('name="answers[]"')
        == body.count('name="answers[]" value=')
        == len(re.findall(r'name="answers\[\]" value="\d+" data-move', body))
    )  # each answer is one tap: marked for confirm-moves
    assert not any(label.startswith("Sacrifice") for _, label in buttons)  # bob's lowest card, 7, beats 5
    response = post(bob, duo, {"type": "defend", "answers[]": ["7"]}, htmx=True)
    assert response.status_code == 200
    assert "bob defends 5 with 7." in text(response.content.decode())
    assert state(duo).attacker == 1


# --- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "status", "reason"),
    [
        (
            {"type": "attack", "cards[]": ["1", "2"]},
            422,
            "1-2 is not an attack: two cards must be a set of the same value.",
        ),
        (
            {"type": "attack", "cards[]": ["1", "2", "3", "4", "5", "6"]},
            422,
            "An attack must leave you at least one card.",
        ),
        ({"type": "attack"}, 422, "Tick the card or cards to attack with."),
        ({"type": "attack", "cards[]": ["11"]}, 422, "You do not hold a 11."),
        ({"type": "duel", "card": "3"}, 422, "You cannot duel now: it is time to attack."),
        ({"type": "defend", "answer_0": "sacrifice", "hand": "1"}, 422, "You cannot defend now"),
        ({"type": "fly"}, 422, "Unknown action type 'fly'."),
    ],
)
def test_an_illegal_action_is_refused_with_the_reason_and_changes_nothing(
    duo: Match, alice: Any, bob: Any, data: dict[str, Any], status: int, reason: str
) -> None:
    to_attack(duo, alice, bob)
    duo.refresh_from_db()
    before, version, moves = duo.state, duo.version, duo.move_count
    response = post(alice, duo, data, htmx=True)
    assert response.status_code == status
    body = response.content.decode()
    notice = re.search(r'<p class="notice notice-error" role="alert">(.*?)</p>', body, re.S)
    assert notice is not None and reason in html.unescape(notice.group(1))
    duo.refresh_from_db()
    assert (duo.state, duo.version, duo.move_count) == (before, version, moves)
    # The form is still there to try again.
    assert 'name="type" value="attack"' in body


def test_the_second_replacer_may_not_exceed_the_cap(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="tacocat", players=2, options=OPTIONS)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    # Put the cat on C (-1) in round 2, where bob (arrow B) replaces first.
    s = engine.load(match.state)
    s2 = position(
        ([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]), phase="replace", cat=-1, covered=[0], seed=s.seed, options=SETUP
    )
    match.state = engine.dump(replace(s2, round_no=2))
    match.save()
    Seat.objects.filter(match=match, number=0).update(to_act=False)
    bob_words = text(page(bob, match))
    assert "You replace first" in bob_words
    assert post(bob, match, {"type": "replace", "cards[]": ["7"]}).status_code == 302
    words = text(page(alice, match))
    assert "Replacement cap: 1 card (set by bob)" in words
    assert "bob replaced 1 card, so you may replace up to 1" in words
    response = post(alice, match, {"type": "replace", "cards[]": ["1", "2"]}, htmx=True)
    assert response.status_code == 422
    assert "You may replace at most 1 card: as many as the first replacer did." in text(response.content.decode())


# --- against the computer --------------------------------------------------------------------------


def test_the_computer_commits_in_secret_and_the_round_goes_on(solo: Match, alice: Any) -> None:
    later = timezone.now() + timedelta(seconds=10)
    assert bots.run_due(now=later) == 1  # the computer chooses its replacement
    words = text(page(alice, solo))
    assert "Computer 2 has chosen." in words
    assert post(alice, solo, {"type": "replace", "keep": "1"}).status_code == 302
    assert state(solo).phase == "duel"
    assert bots.run_due(now=later + timedelta(seconds=10)) == 1  # its duel card
    assert "Computer 2 has chosen." in text(page(alice, solo))
    assert post(alice, solo, {"type": "duel", "card": "12"}).status_code == 302
    assert "Duel: alice 12 vs" in text(page(alice, solo))
    # Play on: alice takes the first legal action whenever it is her turn, the computer the rest.
    for step in range(200):
        match = Match.objects.get(pk=solo.pk)
        if match.status != Match.Status.ACTIVE or engine.load(match.state).round_no > 1:
            break
        s = engine.load(match.state)
        if 0 in engine.to_act(s):
            action = engine.legal_actions(s, 0)[0]
            services.act(match_id=match.pk, user=alice, action=action, version=match.version)
        else:
            assert bots.run_due(now=later + timedelta(seconds=20 + step)) == 1
    assert state(solo).round_no == 2
    assert "Round 1: showdown" in text(page(alice, solo))


# --- cost ------------------------------------------------------------------------------------------


def count_queries(client: Client, url: str, **kwargs: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, **kwargs).status_code == 200
    return len(queries)


def test_match_page_queries_stay_constant_as_the_match_grows(duo: Match, alice: Any, bob: Any) -> None:
    client = client_for(alice)
    url = duo.get_absolute_url()
    htmx_get = {"headers": {"HX-Request": "true"}}
    # Measured both times while alice waits on bob (a waiting page also looks for her next match).
    assert post(alice, duo, {"type": "replace", "keep": "1"}).status_code == 302
    start = (count_queries(client, url), count_queries(client, url, **htmx_get))
    assert post(bob, duo, {"type": "replace", "keep": "1"}).status_code == 302
    assert post(alice, duo, {"type": "duel", "card": "12"}).status_code == 302
    assert post(bob, duo, {"type": "duel", "card": "11"}).status_code == 302
    assert post(alice, duo, {"type": "attack", "cards[]": ["2", "3", "4", "5", "6"]}).status_code == 302
    answers = {f"answer_{i}": v for i, v in enumerate(["7", "8", "9", "10", "10"])}
    assert post(bob, duo, {"type": "defend", "hand": "7 8 9 10 10 12", **answers}).status_code == 302
    assert state(duo).round_no == 2 and engine.to_act(state(duo)) == [1]
    services.post_chat(match_id=duo.pk, user=bob, text="well played")
    assert (count_queries(client, url), count_queries(client, url, **htmx_get)) == start


def test_the_live_fragment_is_the_page_fragment(duo: Match, alice: Any, bob: Any) -> None:
    both_keep(duo, alice, bob)
    post(alice, duo, {"type": "duel", "card": "12"})
    duo.refresh_from_db()
    for user in (alice, bob):
        assert pages.render_live_fragments(duo, user) == pages.render_fragment(pages.match_context(duo, user))
