"""Verifiable shuffles and match export: a finished match can be checked with only the pure engine."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import registry, services
from games.engine import IllegalAction
from games.models import Match, Move
from games.record import export, fairplay
from tests.support import client_for, streamed_body

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


def test_a_finished_match_of_a_game_outside_games_verifies(alice: Any, bob: Any, tmp_path: Any) -> None:
    """The engine comes from the game's definition in the registry, not from ``games.<game>.rules``:
    Nim's app is ``tests.nim``, and its records verify like any game's, by id and from the file alone."""
    match = finished("nim", [alice, bob], {"stones": 9})
    assert match.status == Match.Status.FINISHED and registry.get("nim").engine.__module__ == "tests.nim.rules"
    assert fairplay.engine_for("nim") is registry.get("nim").engine
    assert "verified" in verify(match.pk)
    data = record_of(match)
    assert data["game"] == "nim" and len(data["actions"]) >= 3 and fairplay.verify(data) == []
    assert "(nim) verified" in verify_file(data, tmp_path)
    # Not vacuous: a changed take is found.
    entry = data["actions"][0]
    taken = int(entry["action"]["count"])
    entry["action"] = {**entry["action"], "count": str(1 + taken % 3)}
    with pytest.raises(CommandError, match="FAILED"):
        verify_file(data, tmp_path)


@pytest.mark.parametrize(
    ("game", "problem"),
    [
        ("chess", "There is no game 'chess' to replay the record with."),
        # A name that is a module of games/ but no installed game's slug: looked up, never imported.
        ("rules", "There is no game 'rules' to replay the record with."),
        ("games.dos", "The record's 'game' must be a game name, not 'games.dos'."),
    ],
)
def test_a_record_of_a_game_not_installed_names_it(dos_match: Match, game: str, problem: str) -> None:
    with pytest.raises(ValueError, match="There is no game"):
        fairplay.engine_for(game)
    assert problem in fairplay.verify({**record_of(dos_match), "game": game})


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
    names = sorted(zipfile.ZipFile(io.BytesIO(streamed_body(response))).namelist())
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


# --- The commitment binds the setup (docs/fair-play.md, "The commitment") -------------------------------


def record_of(match: Match) -> dict[str, Any]:
    match.refresh_from_db()
    return export.record(match)


def verify_file(data: Any, tmp_path: Any, *, raw: str | None = None) -> str:
    """``manage.py verify_match --file`` on ``data`` (or on the text ``raw``), as a user would run it."""
    path = tmp_path / "record.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    call_command("verify_match", file=str(path), stdout=out)
    return out.getvalue()


def test_the_commitment_covers_every_option(dos_match: Match) -> None:
    """A record whose options were changed after the commitment fails, even a rule option."""
    data = record_of(dos_match)
    assert fairplay.verify(data) == []
    for options in ({"target": 31}, {}, {"target": 30, "extra": 1}):
        problems = fairplay.verify({**data, "options": options})
        assert any("do not hash to the commitment" in p and "options" in p for p in problems), (options, problems)
    for key, value in (("game", "backalley"), ("players", 4)):
        assert any("do not hash to the commitment" in p for p in fairplay.verify({**data, key: value}))


def test_a_stacked_deal_never_verifies_even_with_a_matching_commitment(four: list[Any]) -> None:
    """The attack: a server commits to a seed, then deals stacked hands. A stacked deck or a chosen
    dealer is refused by the verifier, whatever the commitment says."""
    deck = ["R1", "R3", "R4", "R5", "R6", "R7", "R8", "G1", "G3", "G4", "G5", "G6", "G7", "G8"]
    for options in ({"target": 30, "deck": deck}, {"target": 30, "dealer": 1}):
        match = finished("dos", four[:2], options)  # the test settings let a test stack a deal
        data = record_of(match)
        assert data["commitment"] == fairplay.commitment(
            game="dos", players=2, options=options, seed=data["seed"], salt=data["salt"]
        )
        stacked = ", ".join(sorted({"deck", "dealer"} & set(options)))
        with pytest.raises(CommandError, match=rf"FAILED[\s\S]*choose the deal instead of the seed \({stacked}\)"):
            verify(match.pk)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("dos", 2, {"deck": ["R1"]}),
        ("dos", 2, {"dealer": 0}),
        ("backalley", 4, {"dealer": 3}),
        ("backalley", 4, {"first_deal": 25}),
        ("tacocat", 2, {"deck": ["1"]}),
        ("tacocat", 2, {"distribution": {str(v): 3 for v in range(1, 13)} | {"6": 4, "7": 4}}),
        ("reversi", 2, {"to_move": "W"}),
    ],
)
def test_outside_tests_a_match_cannot_be_created_with_options_that_set_up_tests(
    game: str, players: int, options: dict[str, Any], alice: Any, settings: Any
) -> None:
    settings.ALLOW_TEST_SETUPS = False  # as on the real site
    with pytest.raises(services.MatchError, match="set up tests") as refused:
        services.create_match(user=alice, game=game, players=players, options=options)
    assert refused.value.code == services.ErrorCode.INVALID
    assert not Match.objects.exists()


def test_outside_tests_the_options_players_are_offered_are_accepted(alice: Any, settings: Any) -> None:
    settings.ALLOW_TEST_SETUPS = False
    dos = services.create_match(user=alice, game="dos", players=2, options={"target": 100})
    taco = services.create_match(user=alice, game="tacocat", players=2, options={"tie_rule": "arrow"})
    assert dos.options == {"target": 100} and taco.options == {"tie_rule": "arrow"}


def test_the_new_match_form_creates_a_match_outside_tests(alice: Any, settings: Any) -> None:
    settings.ALLOW_TEST_SETUPS = False
    response = client_for(alice).post(
        reverse("games:new"), {"game": "dos", "players": "2", "seat_1": "human", "option_target": "300", "pace": ""}
    )
    match = Match.objects.get()
    assert response.status_code == 302 and match.options == {"target": 300}


def legacy(match: Match) -> None:
    """Make ``match`` what a match created before this change is: commitment version 1, no chain."""
    Match.objects.filter(pk=match.pk).update(
        commitment_version=fairplay.LEGACY_COMMITMENT,
        shuffle_commitment=fairplay.legacy_commitment(match.seed, match.shuffle_salt),
        log_digest="",
    )
    Move.objects.filter(match=match).update(digest="")


def test_an_old_match_still_verifies_by_the_old_rule_and_says_what_it_does_not_prove(
    dos_match: Match, tmp_path: Any
) -> None:
    legacy(dos_match)
    out = verify(dos_match.pk)
    assert "verified" in out and "sha256(salt:seed)" in out
    assert "commitment version 1" in out and "not chained" in out
    # A record downloaded before this change (format 1: no commitment version, no digests) too.
    data = record_of(dos_match)
    assert data["commitment_version"] == 1 and all(a["digest"] is None for a in data["actions"])
    old = {k: v for k, v in data.items() if k != "commitment_version"} | {"format": "turnwise-match/1"}
    old["actions"] = [{k: v for k, v in a.items() if k != "digest"} for a in data["actions"]]
    assert "verified" in verify_file(old, tmp_path)
    # The old rule still checks what it covered: the seed.
    with pytest.raises(CommandError, match="do not hash to the commitment"):
        verify_file({**old, "seed": old["seed"] + 1}, tmp_path)


def test_an_old_match_in_play_goes_on_unchained(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    legacy(match)
    match.refresh_from_db()
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "f5"}, version=match.version)
    match.refresh_from_db()
    assert match.log_digest == "" and Move.objects.get(match=match).digest == ""


# --- The chained log (docs/fair-play.md, "The chained action log") ---------------------------------------


def test_every_move_is_chained_to_the_commitment_and_the_match_shows_the_latest_link(dos_match: Match) -> None:
    engine = registry.get("dos").engine
    state = engine.new_game(dos_match.player_count, dos_match.seed, dos_match.options)
    previous = dos_match.shuffle_commitment
    moves = list(Move.objects.filter(match=dos_match).order_by("seq"))
    for move in moves:
        state = engine.apply(state, move.seat, move.payload)
        expected = fairplay.link(
            previous=previous,
            seq=move.seq,
            seat=move.seat,
            action=move.payload,
            state=fairplay.state_digest(engine.dump(state), dos_match.shuffle_salt),
        )
        assert move.digest == expected, move.seq
        previous = move.digest
    assert dos_match.log_digest == moves[-1].digest


def fixed_seed_dos_match(users: list[Any], monkeypatch: pytest.MonkeyPatch, seed: int) -> Match:
    """A two-player DOS match dealt from ``seed``, played to the end through the services by a fixed
    random policy: the same match every run."""
    import random

    import games.models

    monkeypatch.setattr(games.models.secrets, "randbits", lambda bits: seed)
    match = services.create_match(user=users[0], game="dos", players=2, options={"target": 30})
    services.join_match(match_id=match.pk, user=users[1])
    monkeypatch.undo()
    engine = registry.get("dos").engine
    rng = random.Random(7)
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        state = engine.load(match.state)
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        services.act(match_id=match.pk, user=users[seat], action=action, version=match.version)


def engine_final(data: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    engine = fairplay.engine_for(data["game"])
    state = engine.new_game(data["players"], data["seed"], data["options"])
    for entry in data["actions"]:
        state = engine.apply(state, entry["seat"], entry["action"])
    return engine.dump(state), json.loads(json.dumps(engine.result(state)))


def harmless_rewrite(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The first logged wild declaration that another declaration could replace with no lasting effect:
    the rest of the log still replays, to the same final state. Its seq and the other action."""
    engine = fairplay.engine_for(data["game"])
    states = [engine.new_game(data["players"], data["seed"], data["options"])]
    for entry in data["actions"]:
        states.append(engine.apply(states[-1], entry["seat"], entry["action"]))
    for i, entry in enumerate(data["actions"]):
        action = entry["action"]
        if "declare" not in action and "target_declare" not in action:
            continue
        for other in engine.legal_actions(states[i], entry["seat"]):
            same_cards = all(other.get(k) == action.get(k) for k in ("type", "target", "cards"))
            if other == action or not same_cards:
                continue
            state = engine.apply(states[i], entry["seat"], other)
            try:
                for later in data["actions"][i + 1 :]:
                    state = engine.apply(state, later["seat"], later["action"])
            except IllegalAction:
                continue
            if engine.dump(state) == data["final_state"]:
                return entry["seq"], other
    raise AssertionError("no harmless rewrite in this match")


def test_an_action_changed_with_no_lasting_effect_breaks_the_chain_at_its_seq(
    four: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wild declared in another colour (or value) that changes nothing later: the replay still ends in
    the recorded final state and result, so only the chain can tell, and it names the action."""
    match = fixed_seed_dos_match(four[:2], monkeypatch, seed=6)
    seq, other = harmless_rewrite(record_of(match))
    original = Move.objects.get(match=match, seq=seq)
    assert original.payload != other
    Move.objects.filter(pk=original.pk).update(payload=other)
    data = record_of(match)
    # What the checks before the chain compare still holds: the change left no trace in the end.
    assert engine_final(data) == (data["final_state"], data["result"])
    problems = fairplay.check(data).problems
    assert len(problems) == 1 and problems[0].startswith(f"The action chain breaks at action {seq}: "), problems
    with pytest.raises(CommandError, match=rf"chain breaks at action {seq}:"):
        verify(match.pk)
    Move.objects.filter(pk=original.pk).update(payload=original.payload)  # the suite replays every match after
    assert "every link of the action chain holds" in verify(match.pk)


def test_a_rewritten_log_with_a_recomputed_final_state_still_breaks_the_chain(dos_match: Match) -> None:
    """A server that changes an action and writes the final state and result the new log leads to
    passes every check but the chain."""
    data = record_of(dos_match)
    engine = fairplay.engine_for("dos")
    for i, entry in enumerate(data["actions"]):
        state = engine.new_game(data["players"], data["seed"], data["options"])
        for earlier in data["actions"][:i]:
            state = engine.apply(state, earlier["seat"], earlier["action"])
        others = [a for a in engine.legal_actions(state, entry["seat"]) if a != entry["action"]]
        if others:
            break
    forged_actions = [*data["actions"][:i], {**entry, "action": others[0]}]
    state = engine.apply(state, entry["seat"], others[0])
    forged = {**data, "actions": forged_actions, "final_state": engine.dump(state), "result": engine.result(state)}
    assert fairplay.check(forged).problems == [
        f"The action chain breaks at action {entry['seq']}: its digest does not cover that action, seat, "
        "sequence number and resulting state."
    ]


def test_a_chained_move_costs_no_more_queries_than_an_unchained_one(alice: Any, bob: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for chained in (True, False):
        match = services.create_match(user=alice, game="reversi", players=2)
        services.join_match(match_id=match.pk, user=bob)
        if not chained:
            legacy(match)
        match.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "f5"}, version=match.version)
        match.refresh_from_db()
        assert bool(match.log_digest) is chained
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_latest_digest_is_shown_during_play_and_reveals_no_hidden_card(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    engine = registry.get("dos").engine
    state = engine.load(match.state)
    seat = engine.to_act(state)[0]
    action = engine.legal_actions(state, seat)[0]
    services.act(match_id=match.pk, user=[alice, bob][seat], action=action, version=match.version)
    match.refresh_from_db()
    page = client_for(alice).get(reverse("games:match", args=[match.pk])).content.decode()
    api = json.loads(client_for(alice).get(reverse("games:api-match", args=[match.pk])).content)
    assert match.log_digest in page
    assert api["log"] == {"moves": match.move_count, "digest": match.log_digest}
    # Without the salt, the state behind the digest cannot be tried: even knowing the exact state, its
    # unsalted hash is not what the link covers.
    unsalted = fairplay.digest(match.state)
    assert unsalted not in page and fairplay.state_digest(match.state, "") != fairplay.state_digest(
        match.state, match.shuffle_salt
    )
    for secret in (str(match.seed), match.shuffle_salt):
        assert secret not in page and secret not in json.dumps(api)


# --- Malformed records: a clear failure, never a traceback ------------------------------------------------


def test_a_string_seed_fails_verification_plainly(backalley_match: Match, tmp_path: Any) -> None:
    data = record_of(backalley_match)
    with pytest.raises(CommandError, match=r"Verification FAILED:\n- The record's 'seed' must be a whole number"):
        verify_file({**data, "seed": str(data["seed"])}, tmp_path)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("{not json", "is not a JSON match record"),
        ("[]", "A match record is a JSON object, not list."),
        ('{"format": "turnwise-match/2"}', "The record has no 'game'."),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("\udcff", "is not a JSON match record"),
    ],
)
def test_a_file_that_is_no_record_fails_verification_plainly(raw: str, says: str, tmp_path: Any) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(raw.encode("utf-8", "surrogateescape"))
    with pytest.raises(CommandError, match="Verification FAILED") as failed:
        call_command("verify_match", file=str(path), stdout=io.StringIO())
    assert says in str(failed.value)


def test_a_missing_file_fails_verification_plainly(tmp_path: Any) -> None:
    with pytest.raises(CommandError, match="Verification FAILED: cannot read"):
        call_command("verify_match", file=str(tmp_path / "nowhere.json"), stdout=io.StringIO())


def test_the_command_exits_non_zero_on_a_malformed_record(tmp_path: Any) -> None:
    import subprocess
    import sys

    path = tmp_path / "record.json"
    # A record downloaded before this change, with the seed as a string (it crashed the command).
    record = {"format": "turnwise-match/1", "game": "dos", "players": 2, "options": {}, "commitment": "0" * 64}
    path.write_text(json.dumps({**record, "seed": "12", "salt": "ab", "actions": []}), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "manage.py", "verify_match", "--file", str(path)],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "DJANGO_SETTINGS_MODULE": "tests.settings"},
        check=False,
    )
    assert run.returncode != 0
    assert "Verification FAILED" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("slug", ["dos", "backalley", "tacocat"])
def test_a_card_game_declares_its_stacking_options_and_never_offers_them(slug: str) -> None:
    """``deck`` is a stacking option of every card game; none is offered on the new-match form, and each
    is an option the engine really reads (a bad value is refused as that option, not as unknown)."""
    game = registry.get(slug)
    stacking = fairplay.stacking_options(game.engine)
    assert "deck" in stacking
    assert not stacking & {o.key for o in game.options}
    for key in stacking:
        with pytest.raises(IllegalAction) as refused:
            game.engine.new_game(game.engine.min_players, 1, {key: {"not": "valid"}})
        assert "nknown option" not in refused.value.message
