"""Live pages: each socket gets its own seat's Back Alley table; nobody is sent another's hand."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.backalley.cards import deck_for
from games.backalley.present import card
from games.models import Match
from tests.support import match_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HANDS = [["AH", "2C"], ["KH", "3C"], ["QH", "4C"], ["JH", "5C"]]
OPTIONS = {"first_deal": 12, "dealer": 3, "deck": deck_for(HANDS, "2S", dealer=3)}


@sync_to_async
def four_people(make_user: Any) -> tuple[Match, list[Any]]:
    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    match = services.create_match(user=users[0], game="backalley", players=4, options=OPTIONS)
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, users


def names_in(html: str) -> set[str]:
    return {code for hand in HANDS for code in hand if f">{card(code)['name']}<" in html}


async def test_each_socket_gets_its_own_hand_and_the_bid_arrives_live(make_user: Any) -> None:
    match, users = await four_people(make_user)
    alice_ws = await match_socket(users[0], match.pk)
    bob_ws = await match_socket(users[1], match.pk)
    first_alice = await alice_ws.receive_from(timeout=15)
    first_bob = await bob_ws.receive_from(timeout=15)
    assert names_in(first_alice) == {"AH", "2C"} and names_in(first_bob) == {"KH", "3C"}
    assert 'name="bid"' in first_alice and 'name="bid"' not in first_bob

    await sync_to_async(services.act)(
        match_id=match.pk, user=users[0], action={"type": "bid", "bid": 1}, version=match.version
    )
    pushed_alice = await alice_ws.receive_from(timeout=5)
    pushed_bob = await bob_ws.receive_from(timeout=5)
    assert 'Bid: <strong class="ba-bid">1</strong>' in pushed_bob
    assert 'name="bid"' in pushed_bob and 'name="bid"' not in pushed_alice
    assert names_in(pushed_bob) == {"KH", "3C"}
    await alice_ws.disconnect()
    await bob_ws.disconnect()
