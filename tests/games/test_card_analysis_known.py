"""The card games' second analysis question: what the hard computer player would have chosen with every
other hand known (the draw pile still unknown), beside what it chose from the seat's view.

Each game gets a position built twice with the same view for the deciding seat and the other hands
dealt otherwise: the suggestion from the view is the same (it cannot see the difference), the one with
every hand known follows the hands, so in one of the two it is another choice, and the record shows
both. The page shows the column; nothing of it is reachable before the end.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.backalley import analysis as backalley_analysis
from games.backalley import bot as backalley_bot
from games.backalley.cards import parse
from games.backalley.rules import engine as backalley_engine
from games.background import analysis
from games.dos import analysis as dos_analysis
from games.dos import bot as dos_bot
from games.dos.cards import sort_cards
from games.dos.rules import engine as dos_engine
from games.kit.analysis import DISAGREED
from games.models import Analysis, Match
from games.tacocat import analysis as taco_analysis
from games.tacocat import bot as taco_bot
from games.tacocat.bot import Search
from games.tacocat.rules import engine as taco_engine
from games.tacocat.state import ATTACK
from tests.support import client_for


def played(engine: Any, bot: Any, state: Any, until: Any, seed: int = 1, limit: int = 400) -> Any:
    """``state`` played on by the medium computer player (seeded) until ``until(state, actions)``."""
    rng = random.Random(seed)
    for actions in range(limit):
        if until(state, actions):
            return state
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        state = engine.apply(state, seat, bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.01))
    pytest.fail("the position was never reached")


def record_of(analysis_module: Any, engine: Any, state: Any, seat: int) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    (task,) = analysis_module.tasks([state], [(seat, legal[0])])
    return analysis_module.evaluate(task)


def both_shown(record: dict[str, Any], same: Any) -> None:
    """The record holds both answers, and says they differ."""
    assert {"best", "known_best", "known_same"} <= set(record)
    assert not same(record["best"], record["known_best"])
    assert record["known_same"] is False


# --- Tacocat --------------------------------------------------------------------------------------


def tacocat_with_hands(state: Any, seat: int, mine: tuple[int, ...], theirs: tuple[int, ...]) -> Any:
    """``state`` with these two hands, the cards they replace put back in the draw pile (in its order,
    then the old hands'), so the deck stays whole and ``seat`` sees the same table whatever ``theirs``."""
    pool = Counter(state.draw) + Counter(state.hands[0]) + Counter(state.hands[1])
    pool.subtract(mine)
    pool.subtract(theirs)
    assert min(pool.values()) >= 0
    draw = []
    for card in (*state.draw, *state.hands[0], *state.hands[1]):
        if pool[card] > 0:
            draw.append(card)
            pool[card] -= 1
    hands = [(), ()]
    hands[seat], hands[1 - seat] = tuple(sorted(mine)), tuple(sorted(theirs))
    return dataclasses.replace(state, hands=tuple(hands), draw=tuple(draw))


def test_tacocat_knowing_the_opponents_hand_changes_the_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacking with 1, 5, 11 against three unseen cards, the hard player attacks with the 5 whatever
    they are (it cannot see them). With the opponent's 9, 11, 12 known it attacks with the 11: played
    out exactly with both hands open, the 11 wins the round and the 5 loses it."""
    monkeypatch.setattr(taco_analysis, "BUDGET_S", 0.2)
    # The search's memo is the process's: the tests before this one may have warmed it, and a warm
    # memo solves more samples within a budget, so the computer's choices (from the start) differ.
    monkeypatch.setattr(taco_bot, "_MEMO", {})
    start = played(
        taco_engine,
        taco_bot,
        taco_engine.new_game(2, 1, {}),
        lambda s, _n: s.phase == ATTACK and len(s.hands[s.attacker]) == 3,
    )
    me = start.attacker
    high = tacocat_with_hands(start, me, (1, 5, 11), (9, 11, 12))
    low = tacocat_with_hands(start, me, (1, 5, 11), (1, 3, 10))
    assert taco_engine.view(high, me) == taco_engine.view(low, me)
    records = []
    for s in (high, low):
        taco_bot._MEMO.clear()  # each as cold as the other
        records.append(record_of(taco_analysis, taco_engine, s, me))
    record, other = records
    assert record["best"] == other["best"] == {"type": "attack", "cards": ["5"]}
    assert record["known_best"] == {"type": "attack", "cards": ["11"]}
    both_shown(record, taco_analysis.same)
    search = Search(10**7, prune=False)
    assert search.attack_value((1, 5), (11,), (9, 11, 12)) == 1.0
    assert search.attack_value((1, 11), (5,), (9, 11, 12)) == 0.0


# --- DOS ------------------------------------------------------------------------------------------


def dos_opponent_exchanged(state: Any, seat: int, at: int) -> Any:
    """The opponent's hand exchanged with as many cards of the draw pile from position ``at`` on: the
    same table for ``seat`` (the same counts), another hand behind it."""
    opponent = 1 - seat
    hand, draw = list(state.hands[opponent]), list(state.draw_pile)
    taken = draw[at : at + len(hand)]
    draw[at : at + len(hand)] = hand
    hands = list(state.hands)
    hands[opponent] = sort_cards(taken)
    return dataclasses.replace(state, hands=tuple(hands), draw_pile=tuple(draw))


def test_dos_knowing_the_last_card_of_the_opponent_changes_what_is_placed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up, holding Y8 and W2 with nothing to match, one must be placed on the Center Row, and
    the opponent holds one card. Placed, the Y8 lets an opponent holding an 8 match it and go out; the
    W2 does not. With that hand known, the hard player places the W2; the opponent holding a W2, the
    Y8 is safe and it places the Y8. From the view alone, the same choice in both."""
    monkeypatch.setattr(dos_analysis, "BUDGET_S", 0.2)
    state = played(
        dos_engine,
        dos_bot,
        dos_engine.new_game(2, 3, {"target": 30}),
        lambda _s, n: n == 27,
        seed=3,
    )
    assert dos_engine.to_act(state) == [0] and [c.card for c in state.center] == ["G1", "B9"]
    assert state.hands[1] == ("G8",)
    safe = dos_opponent_exchanged(state, 0, 0)
    assert safe.hands[1] == ("W2",) and dos_engine.view(safe, 0) == dos_engine.view(state, 0)
    eight, two = (record_of(dos_analysis, dos_engine, s, 0) for s in (state, safe))
    assert eight["best"] == two["best"]
    assert eight["known_best"] == {"type": "place", "card": "W2"}
    assert two["known_best"] == {"type": "place", "card": "Y8"}
    differs = eight if eight["best"] != eight["known_best"] else two
    both_shown(differs, dos_analysis.same)


# --- Back Alley -----------------------------------------------------------------------------------


def swapped(state: Any, a: int, b: int) -> Any:
    hands = list(state.hands)
    hands[a], hands[b] = hands[b], hands[a]
    return dataclasses.replace(state, hands=tuple(hands))


def backalley_after(actions: int) -> Any:
    """Deal 21 (nine cards each) after ``actions`` bids and plays."""
    return played(
        backalley_engine,
        backalley_bot,
        backalley_engine.new_game(4, 1, {"first_deal": 21}),
        lambda _s, n: n == actions,
    )


def test_backalley_knowing_the_next_hand_wins_the_trick_with_the_ten(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clubs trumps, seat 1 led the 4 of diamonds; seat 2 holds the ace, ten and three of diamonds, and
    the queen and king are unseen: from its view it plays the ace. The next seat (3, the last to play)
    holding them, that stays the choice with every hand known; holding the 8 and 9 instead, the ten
    wins the trick as surely and keeps the ace."""
    monkeypatch.setattr(backalley_analysis, "BUDGET_S", 0.05)
    state = backalley_after(17)
    assert backalley_engine.to_act(state) == [2]
    assert {parse("QD"), parse("KD")} <= set(state.hands[3])
    other = swapped(state, 0, 3)
    assert not {parse(c) for c in ("QD", "KD", "JD")} & set(other.hands[3])
    assert backalley_engine.view(other, 2) == backalley_engine.view(state, 2)
    kept, swapped_record = (record_of(backalley_analysis, backalley_engine, s, 2) for s in (state, other))
    assert kept["best"] == swapped_record["best"] == {"type": "play", "card": "AD"}
    assert kept["known_best"] == kept["best"] and kept["known_same"] is True
    assert swapped_record["known_best"] == {"type": "play", "card": "10D"}
    both_shown(swapped_record, lambda a, b: a == b)


def test_backalley_a_bid_with_every_hand_known_plays_out_the_true_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first bid: from the view, the hard player bids from 64 sampled deals; with every hand known,
    from the one true deal, played out once, so two deals of the other hands that look the same to the
    bidder get their own bids."""
    monkeypatch.setattr(backalley_analysis, "BUDGET_S", 0.1)
    state = backalley_after(0)
    seat = backalley_engine.to_act(state)[0]
    others = [s for s in range(4) if s != seat]
    records = [record_of(backalley_analysis, backalley_engine, s, seat) for s in (state, swapped(state, *others[:2]))]
    assert records[0]["best"] == records[1]["best"]
    assert records[0]["known_best"] != records[1]["known_best"]
    both_shown(next(r for r in records if r["known_best"] != r["best"]), lambda a, b: a == b)


def test_the_known_hands_bid_costs_one_deal() -> None:
    """Measured by the work the bot reports: one deal's plays, not 64 deals'."""
    state = backalley_after(0)
    seat = backalley_engine.to_act(state)[0]
    view, legal = backalley_engine.view(state, seat), backalley_engine.legal_actions(state, seat)
    hands = backalley_analysis.hands(state)
    rng = random.Random(0)
    sampled = backalley_bot.decide(view, legal, rng=rng, budget_s=0.5, level="hard")
    known = backalley_bot.decide(view, legal, rng=rng, budget_s=0.5, level="hard", known_hands=hands)
    one_deal = sum(len(h) for h in state.hands)
    assert known.work == one_deal < sampled.work


# --- the page -------------------------------------------------------------------------------------


def analysed_tacocat(make_user: Any, **known: Any) -> Any:
    """A finished Tacocat match of ann and ben with one planted decision (ann played 4, hard would have
    played 9), plus the ``known`` fields of the every-hand-known question if given."""
    from tests.games.test_fairplay import finished as played_out

    people = [make_user(name) for name in ("ann", "ben")]
    match = played_out("tacocat", people, {})
    record = {
        "step": 3,
        "seat": 0,
        "played": {"type": "duel", "card": "4"},
        "best": {"type": "duel", "card": "9"},
        "grade": DISAGREED,
        **known,
    }
    Analysis.objects.create(match=match, requested_by=people[0], status=Analysis.Status.DONE, records=[record])
    return match


@pytest.mark.django_db
def test_the_page_shows_the_column_and_the_replay_the_sentence(make_user: Any, carol: Any) -> None:
    """A finished Tacocat match analysed with a record planted whose known choice differs: the table
    has the column, labelled in words, and the replay step says it."""
    match = analysed_tacocat(make_user, known_best={"type": "duel", "card": "2"}, known_same=False)
    page = client_for(carol).get(reverse("games:analysis", args=[match.pk])).content.decode()
    assert "With every hand known" in page and "Every decision as a table" in page
    assert "duel with 9" in page and "duel with 2" in page and "(another choice)" in page
    assert "with every hand known: duel with 2" in page
    # The summary's column (its apostrophe as the page escapes it).
    assert re.search(r"<th scope=\"col\">Knowing every hand changes the computer(&#x27;|')s choice</th>", page)
    replay = client_for(carol).get(reverse("games:replay-step", args=[match.pk, 3])).content.decode()
    assert "With every hand known, it would have chosen: duel with 2." in replay
    assert "Knowing the hands changes its choice." in replay
    reader = make_user("dev")
    reader.language = "ne"
    reader.save()
    nepali = client_for(reader).get(reverse("games:analysis", args=[match.pk])).content.decode()
    assert "With every hand known" not in nepali and "सबै हात थाहा भए" in nepali


@pytest.mark.django_db
def test_an_analysis_made_before_the_known_column_shows_none(make_user: Any, carol: Any) -> None:
    match = analysed_tacocat(make_user)
    page = client_for(carol).get(reverse("games:analysis", args=[match.pk])).content.decode()
    assert "Decisions where the computer disagreed" in page and "With every hand known" not in page


@pytest.mark.django_db
def test_nothing_of_the_known_choice_is_reachable_before_the_end(make_user: Any, carol: Any) -> None:
    """An unfinished DOS match with a done analysis planted (no code path makes one): the analysis
    page, the replay, the API and the match page show nothing of it, to players and spectators."""
    people = [make_user(name) for name in ("ann", "ben")]
    match = services.create_match(user=people[0], game="dos", players=2, options={})
    services.join_match(match_id=match.pk, user=people[1])
    match.refresh_from_db()
    assert match.status != Match.Status.FINISHED
    Analysis.objects.create(
        match=match,
        status=Analysis.Status.DONE,
        records=[
            {
                "step": 0,
                "seat": 0,
                "played": {"type": "draw"},
                "best": {"type": "draw"},
                "grade": "",
                "known_best": {"type": "place", "card": "SECRET"},
                "known_same": False,
            }
        ],
    )
    for user in (*people, carol):
        client = client_for(user)
        assert client.get(reverse("games:analysis", args=[match.pk])).status_code == 302
        api = client.get(reverse("games:api-analysis", args=[match.pk]))
        assert api.status_code == 409 and "SECRET" not in api.content.decode()
        for url in (reverse("games:match", args=[match.pk]), reverse("games:replay-step", args=[match.pk, 0])):
            response = client.get(url)
            body = response.content.decode()
            assert "SECRET" not in body and "With every hand known" not in body
    assert analysis.replay_step(match, Analysis.objects.get(match=match), 0, {}) is None
