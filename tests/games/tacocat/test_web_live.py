"""Live pages during a simultaneous step: the one who has not chosen gets a push saying only that the
other has chosen, keeps its place (same step id), and its form from before the push is still accepted."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.models import Match
from tests.games.tacocat.test_web_pages import OPTIONS
from tests.support import match_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def start_duel(alice: Any, bob: Any) -> Match:
    match = services.create_match(user=alice, game="tacocat", players=2, options=OPTIONS)
    services.join_match(match_id=match.pk, user=bob)
    for user in (alice, bob):
        match.refresh_from_db()
        services.act(match_id=match.pk, user=user, action={"type": "replace", "cards": []}, version=match.version)
    match.refresh_from_db()
    return match


def form_id(fragment: str) -> str:
    found = re.search(r'<form id="(taco-form-\d+)"', fragment)
    assert found is not None
    return found.group(1)


async def test_a_commit_pushes_has_chosen_and_the_other_form_stays_valid(alice: Any, bob: Any) -> None:
    match = await start_duel(alice, bob)
    alice_ws, bob_ws = await match_socket(alice, match.pk), await match_socket(bob, match.pk)
    await alice_ws.receive_from(timeout=15)
    before = await bob_ws.receive_from(timeout=15)
    loaded = match.version

    await sync_to_async(services.act)(
        match_id=match.pk, user=alice, action={"type": "duel", "card": "12"}, version=loaded
    )
    pushed_alice = await alice_ws.receive_from(timeout=5)
    pushed_bob = await bob_ws.receive_from(timeout=5)
    assert "You chose 12; waiting for bob to choose." in pushed_alice
    assert "alice has chosen." in pushed_bob and "You chose" not in pushed_bob
    assert f'data-version="{loaded + 1}"' in pushed_bob
    # The same step: the pushed form has the same id and is preserved, so Bob's form stays as he left it.
    assert form_id(pushed_bob) == form_id(before)
    assert f'<form id="{form_id(before)}" hx-preserve="true"' in pushed_bob
    assert "hx-preserve" not in before

    await sync_to_async(services.act)(
        match_id=match.pk, user=bob, action={"type": "duel", "card": "11"}, version=loaded
    )
    revealed = {"alice": await alice_ws.receive_from(timeout=5), "bob": await bob_ws.receive_from(timeout=5)}
    for fragment in revealed.values():
        assert re.search(
            r"Duel:</span>\s*<span class=\"taco-shown\">alice <span class=\"taco-card taco-high\">12", fragment
        )
    # A new step, a new form id: the attack form replaces whatever was on the page.
    assert form_id(revealed["alice"]) != form_id(before)
    assert "taco-form-" not in revealed["bob"]
    await alice_ws.disconnect()
    await bob_ws.disconnect()
