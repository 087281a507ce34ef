"""Verifiable shuffles and match export: a finished match can be checked with only the pure engine."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import export, fairplay, registry, services
from games.models import Match, Move
from tests.support import client_for

pytestmark = pytest.mark.django_db


def play_out(match: Match, users: dict[int, Any]) -> Match:
    """Play every seat with the game's own computer player, through the service layer, to the end."""
    import random

    spec = registry.get(match.game)
    rng = random.Random(7)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        state = spec.engine.load(match.state)
        seat = spec.engine.to_act(state)[0]
        action = spec.bot(spec.engine.view(state, seat), spec.engine.legal_actions(state, seat), rng=rng, budget_s=0.01)
        services.act(match_id=match.pk, user=users[seat], action=action, version=match.version)
    raise AssertionError("the match did not end")


def finished(game: str, users: list[Any], options: dict[str, Any]) -> Match:
    match = services.create_match(user=users[0], game=game, players=len(users), options=options)
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    return play_out(match, dict(enumerate(users)))


@pytest.fixture
def four(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


@pytest.fixture
def dos_match(four: list[Any]) -> Match:
    return finished("dos", four[:3], {"target": 30})


@pytest.fixture
def backalley_match(four: list[Any]) -> Match:
    return finished("backalley", four, {"first_deal": 25})


def verify(match_id: int) -> str:
    out = io.StringIO()
    call_command("verify_match", str(match_id), stdout=out)
    return out.getvalue()


def test_the_commitment_is_published_at_creation_and_hashes_the_secret_seed(alice: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2)
    # The commitment (version 2) binds the seed and salt together with the game, players and options.
    setup = {"game": "dos", "players": 2, "options": match.options, "salt": match.shuffle_salt}
    assert match.shuffle_commitment == fairplay.commitment(seed=match.seed, **setup)
    assert match.shuffle_commitment != fairplay.commitment(seed=match.seed + 1, **setup)
    assert len(match.shuffle_commitment) == 64


@pytest.mark.parametrize("fixture", ["dos_match", "backalley_match"])
def test_a_finished_card_match_verifies(fixture: str, request: pytest.FixtureRequest) -> None:
    match = request.getfixturevalue(fixture)
    assert match.status == Match.Status.FINISHED
    assert "verified" in verify(match.pk)


@pytest.mark.parametrize("fixture", ["dos_match", "backalley_match"])
def test_tampering_with_one_action_fails_verification(fixture: str, request: pytest.FixtureRequest) -> None:
    match = request.getfixturevalue(fixture)
    # Swap two different actions of the same seat: each stays a plausible action of that player.
    rows = list(Move.objects.filter(match=match, seat=0).order_by("seq"))
    first = rows[0]
    other = next(r for r in rows[1:] if r.payload != first.payload)
    Move.objects.filter(pk=first.pk).update(payload=other.payload)
    with pytest.raises(CommandError, match="FAILED"):
        verify(match.pk)
    Move.objects.filter(pk=first.pk).update(payload=first.payload)  # the suite replays every match after
    assert "verified" in verify(match.pk)


@pytest.mark.parametrize("fixture", ["dos_match", "backalley_match"])
def test_a_different_seed_fails_verification(fixture: str, request: pytest.FixtureRequest) -> None:
    match = request.getfixturevalue(fixture)
    Match.objects.filter(pk=match.pk).update(seed=match.seed + 1)
    with pytest.raises(CommandError, match="do not hash to the commitment"):
        verify(match.pk)
    Match.objects.filter(pk=match.pk).update(seed=match.seed)  # the suite replays every match after


def test_a_match_in_play_cannot_be_verified_or_exported(reversi_match: Match, alice: Any) -> None:
    with pytest.raises(CommandError, match="only when the match has ended"):
        verify(reversi_match.pk)
    response = client_for(alice).get(reverse("games:export", args=[reversi_match.pk, "json"]))
    assert response.status_code == 404
    assert str(reversi_match.seed) not in response.content.decode()


def test_the_exported_record_replays_to_the_final_state_and_result(backalley_match: Match, four: list[Any]) -> None:
    response = client_for(four[1]).get(reverse("games:export", args=[backalley_match.pk, "json"]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    engine = fairplay.engine_for(data["game"])
    state = engine.new_game(data["players"], data["seed"], data["options"])
    for entry in data["actions"]:
        state = engine.apply(state, entry["seat"], entry["action"])
    assert engine.dump(state) == backalley_match.state
    assert json.loads(json.dumps(engine.result(state))) == backalley_match.result
    assert fairplay.verify(data) == []
    # The file alone is enough: the command checks it without the database's copy.
    path = f"/tmp/turnwise-export-{backalley_match.pk}.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    out = io.StringIO()
    call_command("verify_match", file=path, stdout=out)
    assert "verified" in out.getvalue()


def test_a_reversi_match_exports_its_move_transcript(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    for seat, square in [(0, "f5"), (1, "d6"), (0, "c3")]:
        match.refresh_from_db()
        services.act(
            match_id=match.pk,
            user=[alice, bob][seat],
            action={"type": "place", "square": square},
            version=match.version,
        )
    services.resign(match_id=match.pk, user=bob)
    response = client_for(bob).get(reverse("games:export", args=[match.pk, "txt"]))
    assert response.status_code == 200
    assert response.content.decode().strip() == "f5d6c3"


def test_a_private_match_is_exported_only_to_its_players(alice: Any, bob: Any, carol: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    services.join_match(match_id=match.pk, user=bob, token=match.invite_token)
    services.resign(match_id=match.pk, user=bob)
    assert client_for(carol).get(reverse("games:export", args=[match.pk, "json"])).status_code == 404
    assert client_for(bob).get(reverse("games:export", args=[match.pk, "json"])).status_code == 200


def test_a_player_downloads_all_their_finished_matches_as_one_archive(alice: Any, bob: Any) -> None:
    ids = []
    for _ in range(2):
        match = services.create_match(user=alice, game="reversi", players=2)
        services.join_match(match_id=match.pk, user=bob)
        services.resign(match_id=match.pk, user=bob)
        ids.append(match.pk)
    services.create_match(user=alice, game="reversi", players=2)  # not finished: not in the archive
    response = client_for(alice).get(reverse("games:export-all"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    names = sorted(zipfile.ZipFile(io.BytesIO(response.content)).namelist())
    assert names == sorted([export.filename(Match(pk=i, game="reversi"), e) for i in ids for e in ("json", "txt")])


def test_the_seed_is_revealed_on_the_match_page_only_after_the_end(dos_match: Match, four: list[Any]) -> None:
    page = client_for(four[0]).get(reverse("games:match", args=[dos_match.pk])).content.decode()
    assert str(dos_match.seed) in page and dos_match.shuffle_salt in page and dos_match.shuffle_commitment in page


def test_the_commitment_but_never_the_seed_is_shown_during_play(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    for user in (alice, bob):
        page = client_for(user).get(reverse("games:match", args=[match.pk])).content.decode()
        api = client_for(user).get(reverse("games:api-match", args=[match.pk])).content.decode()
        assert match.shuffle_commitment in page and match.shuffle_commitment in api
        for secret in (str(match.seed), match.shuffle_salt):
            assert secret not in page and secret not in api


@pytest.mark.parametrize("fixture", ["dos_match", "backalley_match"])
def test_a_finished_card_match_replays_with_every_hand_face_up(fixture: str, request: pytest.FixtureRequest) -> None:
    match = request.getfixturevalue(fixture)
    spec = registry.get(match.game)
    state = spec.engine.new_game(match.player_count, match.seed, match.options)
    first = Move.objects.filter(match=match).order_by("seq").first()
    state = spec.engine.apply(state, first.seat, first.payload)
    hands = spec.engine.reveal(state)["hands"]
    watcher = request.getfixturevalue("four")[0]
    page = client_for(watcher).get(reverse("games:replay-step", args=[match.pk, 1])).content.decode()
    assert "All cards, face up" in page
    for hand in hands:
        shown = ", ".join(f'<span class="card-code">{spec.card_label(c)}</span>' for c in hand)
        assert shown in page


def test_a_reversi_replay_has_no_face_up_section(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=bob)
    page = client_for(alice).get(reverse("games:replay", args=[match.pk])).content.decode()
    assert "All cards, face up" not in page
