"""An independent re-reading of BA-12..BA-18 on card codes, checked against the engine at every step of
random matches: the legal cards, each trick's winner, "trump broken", the first leader and the points.

The oracle works on the public view and the acting seat's hand only (strings, no engine helpers), so a
shared bug in the engine's card arithmetic cannot hide here.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.backalley import bot
from games.backalley.rules import engine

POWER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "LB", "BB"]


def _rank(card: str) -> str:
    return card if card in ("BB", "LB") else card[:-1]


def _is_trump(card: str, trump: str | None) -> bool:
    return trump is not None and (card in ("BB", "LB") or card[-1] == trump)


def oracle_legal(hand: list[str], trick: list[str], trump: str | None, broken: bool, board: bool) -> set[str]:
    if not trick:
        if trump is None or broken or board or all(_is_trump(c, trump) for c in hand):
            return set(hand)
        return {c for c in hand if not _is_trump(c, trump)}
    led = trick[0]
    trumps = [c for c in hand if _is_trump(c, trump)]
    if led in ("BB", "LB") and trump is not None:
        if not trumps:
            return set(hand)
        pick = max if led == "BB" else min
        return {pick(trumps, key=lambda c: POWER.index(_rank(c)))}
    if _is_trump(led, trump):
        return set(trumps) or set(hand)
    same = {c for c in hand if c not in ("BB", "LB") and c[-1] == led[-1]}
    return same or set(hand)


def oracle_winner(cards: list[dict], trump: str | None) -> int:
    led = cards[0]["card"]
    led_suit = trump if led in ("BB", "LB") else led[-1]

    def key(entry: dict) -> tuple[int, int]:
        c = entry["card"]
        if _is_trump(c, trump):
            return (2, POWER.index(_rank(c)))
        if c not in ("BB", "LB") and c[-1] == led_suit:
            return (1, POWER.index(_rank(c)))
        return (0, 0)

    return max(cards, key=key)["seat"]


def oracle_leader(bids: list, dealer: int) -> int:
    order = [(dealer + k) % 4 for k in range(1, 5)]
    levels = ["board", "double_board", "triple_board", "quadruple_board"]
    boards = [s for s in order if bids[s] in levels]
    if boards:
        return max(boards, key=lambda s: levels.index(bids[s]))
    best = max(b for b in bids if isinstance(b, int))
    return next(s for s in order if bids[s] == best)


def oracle_points(bids: list, team: int, tricks: int, cards: int) -> int:
    levels = ["board", "double_board", "triple_board", "quadruple_board"]
    mine = [bids[team], bids[team + 2]]
    level = max((levels.index(b) + 1 for b in mine if b in levels), default=0)
    if level:
        return 10 * cards * level * (1 if tricks == cards else -1)
    contract = sum(b for b in mine if isinstance(b, int))
    return 5 * contract + tricks - contract if tricks >= contract else -5 * contract


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), use_bot=st.booleans())
def test_the_engine_agrees_with_an_independent_reading_of_the_rules(seed: int, use_bot: bool) -> None:
    state = engine.new_game(4, seed)
    rng = random.Random(seed)
    scored = 0
    while engine.result(state) is None:
        (seat,) = engine.to_act(state)
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        if view["phase"] == "play":
            team = seat % 2
            board = any(view["bids"][s] not in ("pass", None) and isinstance(view["bids"][s], str)
                        for s in (team, team + 2))  # fmt: skip
            if not view["tricks_played"] and not view["trick"]:
                assert view["leader"] == oracle_leader(view["bids"], view["dealer"])
            broken = any(_is_trump(e["card"], view["trump"]) for t in view["tricks_played"] for e in t["cards"])
            assert view["trump_broken"] == broken
            expected = oracle_legal(view["hand"], [e["card"] for e in view["trick"]], view["trump"], broken, board)
            assert {a["card"] for a in legal} == expected
            assert set(view["unplayable"]) == set(view["hand"]) - expected
            for t in view["tricks_played"]:
                assert t["winner"] == oracle_winner(t["cards"], view["trump"])
        action = bot.choose(view, legal, rng=rng, budget_s=0.1) if use_bot else rng.choice(legal)
        state = engine.apply(state, seat, action)
        sheet = engine.view(state, None)["score_sheet"]
        if len(sheet) > scored:
            row = sheet[-1]
            scored = len(sheet)
            for team in (0, 1):
                assert row["points"][team] == oracle_points(row["bids"], team, row["tricks"][team], row["cards"])
