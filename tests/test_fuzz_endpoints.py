"""Every endpoint that takes input, fuzzed: odd input never gets a 5xx, and input that must be refused
changes nothing (the Match, Seat, Action and ChatMessage rows are the same before and after).

The endpoints come from the URLconf: a route added without a fuzz plan here fails
``test_every_route_has_a_fuzz_plan``. Each example runs in a savepoint that is rolled back, so the
examples of one endpoint all start from the same matches. CI runs this against PostgreSQL.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry, services
from games.models import ChatMessage, Match, Move, Seat
from games.support import metrics

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "15"))
# Django's own admin is left to Django (staff only); everything else is ours.
NOT_OURS = {"admin"}

# --- what a client may send ------------------------------------------------------------------------

ODD = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "Infinity",
    "-Infinity",
    "NaN",
    "1e400",
    "-1",
    "0",
    "1.5",
    "9" * 30,
    "9" * 5000,
    "true",
    "null",
    "[]",
    "{}",
    "[" * 5000,
    '{"a": ' * 3000,
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%00",
    "\u202e\u0430dmin",
    "\ufeff",
    "x" * 3000,
]
# Surrogates cannot be encoded as UTF-8 by any client, so they never reach a view.
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)
JSONISH = st.text(alphabet='[]{}":,0123456789eE.-+ \\ntrufalsNI', max_size=400)
STRINGS = st.one_of(st.sampled_from(ODD), TEXT, JSONISH)

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    STRINGS,
)
JSON_VALUES = st.recursive(
    JSON_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4), max_leaves=12
)
ACTION_KEYS = ["type", "square", "card", "cards", "target", "declare", "target_declare", "bid", "answers", "seat"]
ACTION_TYPES = ["place", "pass", "match", "draw", "finish", "bonus", "skip_bonus", "replace", "duel", "attack"]
ACTION_TYPES += ["defend", "bid", "play"]
ACTIONS = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(ACTION_TYPES), STRINGS)},
        optional={key: JSON_VALUES for key in ACTION_KEYS[1:]},
    ),
)
FORM_KEYS = [
    *("type", "square", "card", "cards[]", "target", "bid", "answers[]", "answer_0", "answer_1", "hand", "jumbo"),
    *("keep", "declare_W2", "target_declare_0", "action", "version", "text", "token", "page", "game", "players"),
    *("pace", "is_public", "seat_1", "seat_2", "form", "days", "email", "email_turns", "username", "password"),
    *("password1", "password2", "old_password", "new_password1", "new_password2", "next"),
]
FORMS = st.dictionaries(
    st.one_of(st.sampled_from(FORM_KEYS), TEXT.filter(bool)),
    st.one_of(STRINGS, st.lists(STRINGS, max_size=3)),
    max_size=6,
)
QUERY_KEYS = ["page", "game", "next", "status", "q", "vs", "opponent", "result"]
QUERY = st.dictionaries(st.sampled_from(QUERY_KEYS), STRINGS, max_size=2)


# --- the cast and their matches --------------------------------------------------------------------


@dataclass
class Cast:
    users: dict[str, Any]
    public: Match  # reversi, alice and bob, in play, alice to move
    private: Match  # reversi, alice and bob, by invitation: carol may not see it
    finished: Match  # reversi, bob resigned
    by_game: dict[str, Match]  # one match in play per game, with the seat to act held by a person
    clients: dict[str, Client] = field(default_factory=dict)

    def client(self, who: str) -> Client:
        if who not in self.clients:
            self.clients[who] = Client()
            if who != "anonymous":
                self.clients[who].force_login(self.users[who])
        return self.clients[who]

    def to_act(self, match: Match) -> str:
        seat = match.seats.filter(to_act=True).select_related("user").first()
        assert seat is not None and seat.user is not None
        return seat.user.username


@pytest.fixture
def cast(make_user: Callable[[str], Any]) -> Cast:
    users = {name: make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")}
    alice, bob = users["alice"], users["bob"]

    def two(game: str, *, public: bool = True) -> Match:
        match = services.create_match(user=alice, game=game, players=2, is_public=public)
        services.join_match(match_id=match.pk, user=bob, token=match.invite_token)
        return Match.objects.get(pk=match.pk)

    finished = two("reversi")
    services.resign(match_id=finished.pk, user=bob)
    four = services.create_match(user=alice, game="backalley", players=4)
    for name in ("bob", "dave", "erin"):
        services.join_match(match_id=four.pk, user=users[name])
    by_game = {"reversi": two("reversi"), "dos": two("dos"), "tacocat": two("tacocat"), "backalley": four}
    return Cast(
        users=users,
        public=by_game["reversi"],
        private=two("reversi", public=False),
        finished=Match.objects.get(pk=finished.pk),
        by_game={slug: Match.objects.get(pk=m.pk) for slug, m in by_game.items()},
    )


# --- one request, and what it may change -----------------------------------------------------------


@dataclass
class Request:
    who: str
    method: str
    path: str
    data: Any = None
    content_type: str | None = None
    htmx: bool = False
    # True: the input must be refused, so nothing may change. Else a check of what did change.
    refused: bool = True
    allowed: Callable[[Any], bool] | None = None


Plan = Callable[[Cast, st.DataObject], Request]


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    return {
        model.__name__: list(model.objects.order_by("pk").values_list()) for model in (Match, Seat, Move, ChatMessage)
    }


def legal_now(match: Match) -> list[Any]:
    match.refresh_from_db()
    engine = registry.get(match.game).engine
    state = engine.load(match.state)
    return [action for seat in engine.to_act(state) for action in engine.legal_actions(state, seat)]


def _seg(value: str) -> str:
    """A path segment as a client would send it: anything, percent-encoded."""
    return quote(value, safe="") or "x"


def _match_id(cast: Cast, data: st.DataObject) -> int:
    return data.draw(
        st.one_of(
            st.sampled_from([cast.public.pk, cast.private.pk, cast.finished.pk, 0, 987654, 10**25]),
            st.integers(min_value=0, max_value=10**30),
        ),
        label="match id",
    )


def _who(data: st.DataObject, *names: str) -> str:
    return data.draw(st.sampled_from(names or ("alice", "carol", "anonymous")), label="who")


def get_page(path: Callable[[Cast, st.DataObject], str]) -> Plan:
    """A GET with a fuzzed query string: reads only."""

    def plan(cast: Cast, data: st.DataObject) -> Request:
        return Request(
            _who(data), "get", path(cast, data), data.draw(QUERY, label="query"), htmx=data.draw(st.booleans())
        )

    return plan


def outsider_post(action: str) -> Plan:
    """A fuzzed form post to a match endpoint by someone who holds no seat there: always refused."""

    def plan(cast: Cast, data: st.DataObject) -> Request:
        match = data.draw(st.sampled_from([cast.private, cast.public, cast.finished]), label="match")
        who = _who(data, "carol", "anonymous")
        if match.is_public and action in ("join",):
            who = "anonymous"  # carol may join a public match: that is not a refusal
        form = data.draw(FORMS, label="form")
        return Request(who, "post", f"/m/{match.pk}/{action}/", form, htmx=data.draw(st.booleans()))

    return plan


def missing_post(action: str) -> Plan:
    def plan(cast: Cast, data: st.DataObject) -> Request:
        match_id = data.draw(st.sampled_from([0, 987654, 10**25]), label="match id")
        return Request(_who(data), "post", f"/m/{match_id}/{action}/", data.draw(FORMS), htmx=data.draw(st.booleans()))

    return plan


def either(*plans: Plan) -> Plan:
    def plan(cast: Cast, data: st.DataObject) -> Request:
        return data.draw(st.sampled_from(plans), label="plan")(cast, data)

    return plan


def act_by_form(cast: Cast, data: st.DataObject) -> Request:
    """The player to act posts a fuzzed form at the current version: never a legal action, so refused."""
    match = data.draw(st.sampled_from(list(cast.by_game.values())), label="game")
    form = data.draw(FORMS, label="form")
    if data.draw(st.booleans(), label="current version"):
        form["version"] = str(match.version)
    spec = registry.get(match.game)
    query = QueryDict(mutable=True)
    for key, value in form.items():
        query.setlist(key, value if isinstance(value, list) else [value])
    try:
        parsed = spec.parse_form(query)
    except Exception:  # the view must refuse whatever the parser refuses: checked below
        parsed = None
    refused = parsed not in legal_now(match)
    return Request(
        cast.to_act(match), "post", f"/m/{match.pk}/act/", form, htmx=data.draw(st.booleans()), refused=refused
    )


def act_by_api(cast: Cast, data: st.DataObject) -> Request:
    """The player to act posts fuzzed JSON: odd bodies, odd versions, actions no engine allows."""
    match = data.draw(st.sampled_from(list(cast.by_game.values())), label="game")
    action = data.draw(ACTIONS, label="action")
    version = data.draw(st.one_of(st.just(match.version), JSON_VALUES), label="version")
    body = data.draw(
        st.one_of(
            st.just(json.dumps({"action": action, "version": version})),
            JSON_VALUES.map(json.dumps),
            st.sampled_from(ODD),
            JSONISH,
            st.binary(max_size=200),
        ),
        label="body",
    )
    refused = action not in legal_now(match)
    return Request(
        cast.to_act(match), "post", f"/api/matches/{match.pk}/act/", body, "application/json", refused=refused
    )


def chat_post(cast: Cast, data: st.DataObject) -> Request:
    """Alice writes anything; an accepted line is the text she sent, nothing else changes."""
    match = data.draw(st.sampled_from([cast.public, cast.private, cast.finished]), label="match")
    form = data.draw(FORMS, label="form")
    text = data.draw(STRINGS, label="text")
    form["text"] = text

    def only_her_line(before: dict[str, list[tuple[Any, ...]]]) -> bool:
        after = snapshot()
        new = ChatMessage.objects.exclude(pk__in=[row[0] for row in before["ChatMessage"]])
        return {k: v for k, v in after.items() if k != "ChatMessage"} == {
            k: v for k, v in before.items() if k != "ChatMessage"
        } and [(m.user_id, m.text) for m in new] == [(cast.users["alice"].pk, text.strip())]

    return Request(
        "alice",
        "post",
        f"/m/{match.pk}/chat/",
        form,
        htmx=data.draw(st.booleans()),
        refused=False,
        allowed=only_her_line,
    )


def join_with_a_token(cast: Cast, data: st.DataObject) -> Request:
    """Carol guesses the private match's invitation: any token but the real one is refused."""
    form = data.draw(FORMS, label="form")
    form["token"] = data.draw(STRINGS.filter(lambda t: t != cast.private.invite_token), label="token")
    return Request("carol", "post", f"/m/{cast.private.pk}/join/", form, htmx=data.draw(st.booleans()))


def new_match_post(cast: Cast, data: st.DataObject) -> Request:
    def one_new_match(before: dict[str, list[tuple[Any, ...]]]) -> bool:
        # A form that happens to be valid creates a match of alice's; nothing existing changes.
        return all(row in snapshot()["Match"] for row in before["Match"])

    form = data.draw(FORMS, label="form")
    return Request("alice", "post", "/new/", form, refused=False, allowed=one_new_match)


def creating_post(path: Callable[[Cast, st.DataObject], str]) -> Plan:
    """Alice posts a fuzzed form that may, if it happens to be valid, create matches of hers; nothing
    that existed changes (new challenges, open challenges)."""

    def plan(cast: Cast, data: st.DataObject) -> Request:
        def only_new(before: dict[str, list[tuple[Any, ...]]]) -> bool:
            after = snapshot()
            return all(row in after[model] for model in ("Match", "Action") for row in before[model])

        form = data.draw(FORMS, label="form")
        return Request("alice", "post", path(cast, data), form, refused=False, allowed=only_new)

    return plan


def accounts_post(path: str, *who: str) -> Plan:
    """Account forms: they never touch a match."""

    def plan(cast: Cast, data: st.DataObject) -> Request:
        return Request(_who(data, *who), "post", path, data.draw(FORMS, label="form"))

    return plan


def with_segment(template: str, *who: str, post: bool = False) -> Plan:
    """GET (or POST) a path whose ``{}`` parts are fuzzed strings."""

    def plan(cast: Cast, data: st.DataObject) -> Request:
        parts = [_seg(data.draw(STRINGS, label="segment")) for _ in range(template.count("{}"))]
        method = "post" if post and data.draw(st.booleans(), label="post") else "get"
        body = data.draw(FORMS, label="form") if method == "post" else data.draw(QUERY, label="query")
        return Request(_who(data, *who), method, template.format(*parts), body)

    return plan


def replay_step(cast: Cast, data: st.DataObject) -> Request:
    match_id = data.draw(st.one_of(st.just(cast.finished.pk), st.just(cast.private.pk), st.integers(0, 10**25)))
    step = data.draw(st.integers(min_value=0, max_value=10**30), label="step")
    return Request(_who(data), "get", f"/m/{match_id}/replay/{step}/", htmx=data.draw(st.booleans()))


def language_post(cast: Cast, data: st.DataObject) -> Request:
    """The language switcher: any code and any address to go back to; it never touches a match."""
    form = {
        "language": data.draw(st.one_of(st.sampled_from(["en", "as", "ne"]), STRINGS), label="language"),
        "next": data.draw(st.one_of(st.just("/history/"), STRINGS), label="next"),
    }
    return Request(_who(data), "post", "/language/", data.draw(st.one_of(st.just(form), FORMS), label="form"))


def on_healthy_process(path: str) -> Plan:
    """The health checks and the metrics, asked of a process whose worker went round just now (else
    /healthz/ answers 503 on purpose): a GET with a fuzzed query string by anyone."""

    def plan(cast: Cast, data: st.DataObject) -> Request:
        metrics.record_runner_loop()
        return get_page(lambda cast, data: path)(cast, data)

    return plan


def on_match(suffix: str) -> Callable[[Cast, st.DataObject], str]:
    return lambda cast, data: f"/m/{_match_id(cast, data)}/{suffix}"


PLANS: dict[str, Plan] = {
    "games:home": get_page(lambda cast, data: "/"),
    "games:lobby": get_page(lambda cast, data: "/lobby/"),
    "games:new": either(get_page(lambda cast, data: "/new/"), new_match_post),
    "games:history": get_page(lambda cast, data: "/history/"),
    "games:invite": with_segment("/invite/{}/"),
    "games:match": get_page(on_match("")),
    "games:act": either(act_by_form, outsider_post("act"), missing_post("act")),
    "games:join": either(outsider_post("join"), missing_post("join"), join_with_a_token),
    "games:resign": either(outsider_post("resign"), missing_post("resign")),
    "games:takeback": either(outsider_post("takeback"), missing_post("takeback")),
    "games:abort": either(outsider_post("abort"), missing_post("abort")),
    "games:claim": either(outsider_post("claim"), missing_post("claim")),
    "games:reclaim": either(outsider_post("reclaim"), missing_post("reclaim")),
    "games:rematch": either(outsider_post("rematch"), missing_post("rematch")),
    "games:chat": either(chat_post, outsider_post("chat"), missing_post("chat")),
    "games:replay": get_page(on_match("replay/")),
    "games:log": get_page(on_match("log/")),
    "games:replay-step": replay_step,
    "games:api-match": get_page(lambda cast, data: f"/api/matches/{_match_id(cast, data)}/"),
    "games:api-act": act_by_api,
    "games:analysis": get_page(on_match("analysis/")),
    "games:analysis-progress": get_page(on_match("analysis/progress/")),
    "games:analysis-request": either(outsider_post("analysis/request"), missing_post("analysis/request")),
    "games:api-analysis": get_page(lambda cast, data: f"/api/matches/{_match_id(cast, data)}/analysis/"),
    "reversi-practice:practice": get_page(lambda cast, data: "/practice/reversi/"),
    "reversi-practice:answer": accounts_post("/practice/reversi/answer/"),
    "accounts:signup": either(
        get_page(lambda cast, data: "/accounts/signup/"), accounts_post("/accounts/signup/", "anonymous")
    ),
    "accounts:login": either(
        get_page(lambda cast, data: "/accounts/login/"), accounts_post("/accounts/login/", "anonymous")
    ),
    "accounts:logout": accounts_post("/accounts/logout/"),
    "accounts:password_change": either(
        get_page(lambda cast, data: "/accounts/password/change/"), accounts_post("/accounts/password/change/", "alice")
    ),
    "accounts:password_change_done": get_page(lambda cast, data: "/accounts/password/change/done/"),
    "accounts:password_reset": either(
        get_page(lambda cast, data: "/accounts/password/reset/"), accounts_post("/accounts/password/reset/")
    ),
    "accounts:password_reset_done": get_page(lambda cast, data: "/accounts/password/reset/sent/"),
    "accounts:password_reset_confirm": with_segment("/accounts/password/reset/{}/{}/", "anonymous", post=True),
    "accounts:password_reset_complete": get_page(lambda cast, data: "/accounts/password/reset/done/"),
    "accounts:profile": either(with_segment("/accounts/u/{}/"), get_page(lambda cast, data: "/accounts/u/alice/")),
    "accounts:settings": either(
        get_page(lambda cast, data: "/accounts/settings/"), accounts_post("/accounts/settings/", "alice")
    ),
    "accounts:unsubscribe": with_segment("/accounts/unsubscribe/{}/", post=True),
    "accounts:email_change": either(
        get_page(lambda cast, data: "/accounts/settings/email/"), accounts_post("/accounts/settings/email/", "alice")
    ),
    "accounts:email_confirm": with_segment("/accounts/settings/email/confirm/{}/", post=True),
    "accounts:email_verify": with_segment("/accounts/email/verify/{}/", post=True),
    "accounts:push-subscribe": accounts_post("/accounts/push/subscribe/"),
    "accounts:push-unsubscribe": accounts_post("/accounts/push/unsubscribe/"),
    "service-worker": get_page(lambda cast, data: "/sw.js"),
    "healthz": on_healthy_process("/healthz/"),
    "healthz-web": on_healthy_process("/healthz/web/"),
    "metrics": on_healthy_process("/metrics"),
    "javascript-catalog": either(get_page(lambda cast, data: "/jsi18n/ne/"), with_segment("/jsi18n/{}/")),
    "set-language": language_post,
    "games:status": get_page(lambda cast, data: "/status/"),
    "games:rules": with_segment("/rules/{}/"),
    "games:export": get_page(
        lambda cast, data: f"/m/{_match_id(cast, data)}/export.{_seg(data.draw(STRINGS, label='format'))}"
    ),
    "games:export-all": get_page(lambda cast, data: "/history/export.zip"),
    "games:leaderboards": get_page(lambda cast, data: "/leaderboard/"),
    "games:leaderboard": with_segment("/leaderboard/{}/"),
    "games:api-history": get_page(lambda cast, data: "/api/history/"),
    "games:api-profile": with_segment("/api/users/{}/"),
    "games:api-leaderboard": with_segment("/api/leaderboard/{}/"),
    "games:inbox": get_page(lambda cast, data: "/inbox/"),
    "games:open-challenge": either(
        creating_post(lambda cast, data: "/lobby/challenge/"), accounts_post("/lobby/challenge/", "anonymous")
    ),
    "games:challenge": either(outsider_post("challenge"), missing_post("challenge")),
    "games:challenge-accept": either(outsider_post("challenge/accept"), missing_post("challenge/accept")),
    "games:challenge-decline": either(outsider_post("challenge/decline"), missing_post("challenge/decline")),
    "games:challenge-player": creating_post(
        lambda cast, data: f"/challenge/{_seg(data.draw(STRINGS, label='username'))}/"
    ),
    # Play now and the people page: asking may (alone) create a seek, never touch a match that exists.
    "games:play": either(get_page(lambda cast, data: "/play/"), creating_post(lambda cast, data: "/play/")),
    "games:play-seeks": get_page(lambda cast, data: "/play/seeks/"),
    "games:cancel-seek": with_segment("/play/{}/cancel/", post=True),
    "games:people": get_page(lambda cast, data: "/people/"),
    "games:follow": with_segment("/people/{}/follow/", post=True),
    "games:unfollow": with_segment("/people/{}/unfollow/", post=True),
    "games:block": with_segment("/people/{}/block/", post=True),
    "games:unblock": with_segment("/people/{}/unblock/", post=True),
    "games:people-challenge": creating_post(
        lambda cast, data: f"/people/{_seg(data.draw(STRINGS, label='username'))}/challenge/"
    ),
    # Tournaments never change a match from these forms unless one is running (the cast has none).
    "tournaments:list": get_page(lambda cast, data: "/tournaments/"),
    "tournaments:new": either(
        get_page(lambda cast, data: "/tournaments/new/"), accounts_post("/tournaments/new/", "alice")
    ),
    "tournaments:detail": with_segment("/tournaments/{}/"),
    "tournaments:register": with_segment("/tournaments/{}/register/", post=True),
    "tournaments:withdraw": with_segment("/tournaments/{}/withdraw/", post=True),
    "tournaments:start": with_segment("/tournaments/{}/start/", post=True),
}


def route_names(patterns: list[Any], namespace: str = "") -> set[str]:
    names = set()
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace in NOT_OURS:
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names |= route_names(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern):
            names.add(f"{namespace}{entry.name}")
    return names


def test_every_route_has_a_fuzz_plan() -> None:
    assert route_names(get_resolver().url_patterns) == set(PLANS)


def run(cast: Cast, request: Request) -> None:
    before = snapshot()
    client = cast.client(request.who)
    headers = {"HX-Request": "true"} if request.htmx else {}
    call = getattr(client, request.method)
    if request.content_type:
        response = call(request.path, request.data, content_type=request.content_type, headers=headers)
    else:
        response = call(request.path, request.data or {}, headers=headers)
    assert response.status_code < 500, (request, response.status_code)
    if request.refused:
        assert snapshot() == before, request
    elif request.allowed is not None and snapshot() != before:
        assert request.allowed(before), request


@pytest.mark.parametrize("route", sorted(PLANS))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_odd_input_never_gets_a_server_error_and_refused_input_changes_nothing(
    cast: Cast, route: str, data: st.DataObject
) -> None:
    request = PLANS[route](cast, data)
    # Each example starts from the same matches: undo whatever it did.
    with transaction.atomic():
        run(cast, request)
        transaction.set_rollback(True)
    cast.clients.clear()  # their sessions were rolled back too
