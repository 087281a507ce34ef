"""The Tacocat Spelled Backwards rules engine (rule ids TAC-n refer to shared/rules/tacocat.md).

Seat 0 is player A (goal at -4), seat 1 is player B (goal at +4). A round: deal (TAC-5), replace
(TAC-6), duel (TAC-7), attacks and answers (TAC-8..TAC-10) until both hold one card, showdown
(TAC-11), the cat moves and a tile covers the space it left (TAC-12), the game ends in a goal (TAC-13).
Simultaneous choices (the duel; replacing on a two-arrow space) are commit-then-reveal: each seat's
``apply`` records a secret commit and the second commit reveals both. The wire format is in
docs/games/tacocat.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engine import Action, IllegalAction, InvalidAction, Result, Text, View
from games.engine import gettext_noop as _
from games.kit.events import event
from games.kit.seats import check_seat, check_viewer, next_seat
from games.tacocat.actions import parse_action, parse_options
from games.tacocat.cards import GOALS, codes, deal_order
from games.tacocat.moves import (
    attack_error,
    attack_kind,
    defence_options,
    judge_answers,
    legal_attacks,
    missing,
    not_held,
    outcome,
    remove,
    submultisets,
)
from games.tacocat.seat_view import build_view
from games.tacocat.state import (
    ATTACK,
    DEFEND,
    DUEL,
    OVER,
    REPLACE,
    Hand,
    RoundOutcome,
    State,
    dump_state,
    load_state,
)

PLAYERS = 2

EXPECTED = {REPLACE: "replace", DUEL: "duel", ATTACK: "attack", DEFEND: "defend"}
WHAT_NOW = {
    REPLACE: Text(_("it is time to choose the cards to replace (none is allowed)")),
    DUEL: Text(_("it is time to choose a duel card")),
    ATTACK: Text(_("it is time to attack")),
    DEFEND: Text(_("an attack is waiting for its answer")),
}


def _with_hand(state: State, seat: int, hand: Hand) -> tuple[Hand, Hand]:
    return (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)


def _start_round(state: State, round_no: int, stacked: tuple[int, ...] | None = None) -> State:
    """TAC-5: all cards reshuffled, ``hand_size`` dealt alternately from seat 0, the rest is the draw pile."""
    config = state.config
    n = config.hand_size(state.cat)
    order = deal_order(config, state.seed, round_no, stacked)
    hands = (tuple(sorted(order[0 : 2 * n : 2])), tuple(sorted(order[1 : 2 * n : 2])))
    first = config.first_replacer(state.cat)
    return replace(
        state,
        round_no=round_no,
        hands=hands,
        draw=tuple(order[2 * n :]),
        discard=(),
        phase=REPLACE,
        replaced=(None, None),
        cap=None,
        commits=(None, None),
        attacker=None,
        attack=(),
        revealed=None,
        events=state.with_events(
            event("round_start", round=round_no, position=state.cat, hand_size=n, first_replacer=first)
        ),
    )


def _execute_replace(state: State, seat: int, cards: Hand, *, forced: bool = False) -> State:
    """TAC-6: discard ``cards`` face up, then draw as many from the top of the draw pile."""
    k = len(cards)
    # TAC-E1: a board with hand sizes <= 9 cannot run the 38-card pile dry; config validation ensures it.
    assert k <= len(state.draw), "draw pile exhausted during replacement"
    drawn = state.draw[:k]
    kept = remove(state.hands[seat], cards)
    assert kept is not None
    replaced = (k, state.replaced[1]) if seat == 0 else (state.replaced[0], k)
    return replace(
        state,
        hands=_with_hand(state, seat, tuple(sorted((*kept, *drawn)))),
        draw=state.draw[k:],
        discard=(*state.discard, *cards),
        replaced=replaced,
        events=state.with_events(
            event(
                "replace",
                seat=seat,
                count=k,
                discarded=codes(cards),
                forced=forced,
                owner=seat,
                secret={"drawn": codes(drawn)},
            )
        ),
    )


def _to_duel(state: State) -> State:
    return replace(state, phase=DUEL, commits=(None, None))


def _commit(state: State, seat: int, cards: Hand, step: str) -> State:
    commits = (cards, state.commits[1]) if seat == 0 else (state.commits[0], cards)
    return replace(state, commits=commits, events=state.with_events(event("commit", seat=seat, step=step)))


def _replace(state: State, seat: int, cards: Hand) -> State:
    absent = missing(state.hands[seat], cards)
    if absent is not None:
        raise IllegalAction(not_held(state.hands[seat], absent))
    first = state.config.first_replacer(state.cat)
    if first is None:
        # A two-arrow space (always the centre, TAC-E15): both commit in secret, A's replacement is
        # executed before B's only so that the draw order is fixed.
        state = _commit(state, seat, cards, "replace")
        c0, c1 = state.commits
        if c0 is None or c1 is None:
            return state
        reveal = event("reveal", step="replace", counts=[len(c0), len(c1)])
        state = replace(state, events=state.with_events(reveal))
        state = _execute_replace(_execute_replace(state, 0, c0), 1, c1)
        return _to_duel(state)
    if seat != first and state.cap is not None and len(cards) > state.cap:
        # TAC-E2
        raise IllegalAction(
            _("You may replace at most 1 card: as many as the first replacer did.")
            if state.cap == 1
            else _("You may replace at most %(cap)s cards: as many as the first replacer did."),
            {"cap": state.cap},
        )
    state = _execute_replace(state, seat, cards)
    if seat == first:
        state = replace(state, cap=len(cards))
        if not cards:
            # TAC-E3: a cap of 0 leaves the second replacer no choice; that step is forced.
            state = _execute_replace(state, 1 - first, (), forced=True)
    if None in state.replaced:
        return state
    return _to_duel(state)


def _duel(state: State, seat: int, card: int) -> State:
    if card not in state.hands[seat]:
        raise IllegalAction(_("You do not hold a %(card)s."), {"card": card})
    state = _commit(state, seat, (card,), "duel")
    c0, c1 = state.commits
    if c0 is None or c1 is None:
        return state
    a, b = c0[0], c1[0]
    hand0, hand1 = remove(state.hands[0], (a,)), remove(state.hands[1], (b,))
    assert hand0 is not None and hand1 is not None
    # TAC-7: the higher card attacks; a tie discards both and the duel is repeated (TAC-E4).
    winner = 0 if a > b else 1 if b > a else None
    state = replace(
        state,
        hands=(hand0, hand1),
        discard=(*state.discard, a, b),
        commits=(None, None),
        revealed=(a, b),
        attacker=winner,
        events=state.with_events(event("reveal", step="duel", cards=codes((a, b)), winner=winner)),
    )
    if len(hand0) == 1:
        # TAC-E5: with one card each there is nothing left to duel or attack with.
        return _showdown(state)
    return replace(state, phase=DUEL if winner is None else ATTACK)


def _attack(state: State, seat: int, cards: Hand) -> State:
    hand = state.hands[seat]
    error = attack_error(hand, cards)
    if error:
        raise IllegalAction(error)
    kept = remove(hand, cards)
    assert kept is not None
    return replace(
        state,
        hands=_with_hand(state, seat, kept),
        attack=cards,
        phase=DEFEND,
        events=state.with_events(event("attack", seat=seat, cards=codes(cards), kind=attack_kind(cards))),
    )


def _defend(state: State, seat: int, answers: Hand) -> State:
    hand, attack = state.hands[seat], state.attack
    won = judge_answers(hand, attack, answers)
    # Equivalent answer lists (same cards leave, same winner) are recorded in one canonical form, so
    # the resulting state depends only on what matters to the game.
    canonical = {outcome(a, w): a for a, w in defence_options(hand, attack)}[outcome(answers, won)]
    kept = remove(hand, canonical)
    assert kept is not None
    attacker = seat if won else next_seat(seat, PLAYERS)
    answer_events = [
        event("defend" if v >= a else "sacrifice", seat=seat, attack=str(a), card=str(v))
        for a, v in zip(attack, canonical, strict=True)
    ]
    state = replace(
        state,
        hands=_with_hand(state, seat, kept),
        discard=(*state.discard, *attack, *canonical),
        attack=(),
        attacker=attacker,
        events=state.with_events(*answer_events, event("exchange", seat=attacker, defended=won)),
    )
    if len(kept) == 1:
        return _showdown(state)
    return replace(state, phase=ATTACK)


def destination(cat: int, covered: tuple[int, ...], winner: int) -> tuple[int, tuple[int, ...]]:
    """TAC-12 / TAC-E10: the first uncovered position toward the winner's goal, and the tiles jumped."""
    step = -1 if winner == 0 else 1
    position = cat + step
    skipped: list[int] = []
    while position not in GOALS and position in covered:
        skipped.append(position)
        position += step
    return position, tuple(skipped)


def _showdown(state: State) -> State:
    """TAC-11..TAC-13, forced: reveal the last cards, move the cat, cover, win or deal again."""
    (a,), (b,) = state.hands
    tie = a == b
    if not tie:
        winner: int | None = 0 if a < b else 1
    elif state.config.tie_rule == "arrow":
        # Decision register #3: the alternative rule; a two-arrow space favours nobody.
        winner = state.config.first_replacer(state.cat)
    else:
        winner = None
    events = [event("showdown", cards=codes((a, b)), winner=winner, tie=tie)]
    state = replace(state, hands=((), ()), discard=(*state.discard, a, b), attacker=None)
    cat = state.cat
    if winner is None:
        # TAC-E9 default: no movement, no tile, a new round on the same space.
        last = RoundOutcome(state.round_no, (a, b), None, tie, cat, cat, (), None)
        state = replace(state, last_round=last, events=state.with_events(*events))
        return _start_round(state, state.round_no + 1)
    to, skipped = destination(cat, state.covered, winner)
    events.append(event("cat_move", seat=winner, **{"from": cat, "to": to, "skipped": list(skipped)}))
    events.append(event("tile", position=cat))
    last = RoundOutcome(state.round_no, (a, b), winner, tie, cat, to, skipped, cat)
    state = replace(state, cat=to, covered=tuple(sorted((*state.covered, cat))), last_round=last)
    if to in GOALS:
        # TAC-13 / TAC-E11: entering a goal ends the game at once.
        events.append(event("win", seat=winner))
        return replace(state, phase=OVER, winner=winner, events=state.with_events(*events))
    return _start_round(replace(state, events=state.with_events(*events)), state.round_no + 1)


class TacocatEngine:
    slug = "tacocat"
    name = "Tacocat Spelled Backwards"
    min_players = PLAYERS
    max_players = PLAYERS
    # Options that choose cards or a dealer instead of the seed: for tests and tutorials only. The
    # services refuse them for a real match and games.record.fairplay refuses a record that has them.
    stacking_options = frozenset({"deck"})

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """TAC-4: cat on the centre, nothing covered, round 1 dealt (``options["deck"]`` stacks it)."""
        if players != 2:
            raise InvalidAction(_("Tacocat Spelled Backwards is played by exactly 2 players."))
        config, stacked = parse_options(options)
        blank = State(
            config=config,
            seed=seed,
            round_no=0,
            cat=0,
            covered=(),
            hands=((), ()),
            draw=(),
            discard=(),
            phase=REPLACE,
        )
        return _start_round(blank, 1, stacked)

    def to_act(self, state: State) -> list[int]:
        if state.phase in (ATTACK, DEFEND):
            assert state.attacker is not None
            return [state.attacker if state.phase == ATTACK else 1 - state.attacker]
        if state.phase == OVER:
            return []
        if state.simultaneous():
            return [seat for seat in (0, 1) if state.commits[seat] is None]
        first = state.config.first_replacer(state.cat)
        assert first is not None
        return [first] if state.replaced[first] is None else [1 - first]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat(seat, PLAYERS)
        if seat not in self.to_act(state):
            return []
        hand = state.hands[seat]
        if state.phase == REPLACE:
            first = state.config.first_replacer(state.cat)
            limit = len(hand) if first is None or seat == first else state.cap or 0
            return [{"type": "replace", "cards": codes(c)} for c in submultisets(hand, limit)]
        if state.phase == DUEL:
            return [{"type": "duel", "card": str(v)} for v in sorted(set(hand))]
        if state.phase == ATTACK:
            return [{"type": "attack", "cards": codes(c)} for c in legal_attacks(hand)]
        return [{"type": "defend", "answers": codes(a)} for a, _kind in defence_options(hand, state.attack)]

    def apply(self, state: State, seat: int, action: Action) -> State:
        check_seat(seat, PLAYERS)
        kind, payload = parse_action(action)
        if state.over:
            raise IllegalAction(_("The game is over."))
        if seat not in self.to_act(state):
            if state.simultaneous() and state.commits[seat] is not None:
                raise IllegalAction(_("You have already chosen."))
            if state.phase == REPLACE and state.replaced[seat] is not None:
                raise IllegalAction(_("You have already replaced cards this round."))
            raise IllegalAction(_("It is not your turn."))
        if kind != EXPECTED[state.phase]:
            raise IllegalAction(
                _("You cannot %(kind)s now: %(what_now)s."), {"kind": kind, "what_now": WHAT_NOW[state.phase]}
            )
        if kind == "duel":
            return _duel(state, seat, payload)
        cards = tuple(payload) if kind == "defend" else tuple(sorted(payload))
        if kind == "replace":
            return _replace(state, seat, cards)
        if kind == "attack":
            return _attack(state, seat, cards)
        return _defend(state, seat, cards)

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, check_viewer(seat, PLAYERS), self.to_act(state), self.result(state))

    def reveal(self, state: State) -> dict[str, Any]:
        """Every card where it lies, for a finished match's face-up replay: never for a match in play."""
        piles = [
            {"pile": "draw_pile", "cards": codes(state.draw)},
            {"pile": "discard", "cards": codes(reversed(state.discard))},
        ]
        piles += [{"pile": f"commit_{seat}", "cards": codes(c)} for seat, c in enumerate(state.commits) if c]
        return {"hands": [codes(hand) for hand in state.hands], "piles": piles}

    def result(self, state: State) -> Result | None:
        if state.winner is None:
            return None
        w = state.winner
        return {
            "scores": [1 if s == w else 0 for s in (0, 1)],
            "ranks": [1 if s == w else 2 for s in (0, 1)],
            "detail": {"winner": w, "goal": GOALS[w], "rounds": state.round_no},
        }

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)


engine = TacocatEngine()
