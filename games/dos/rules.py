"""DOS (Mattel, first edition): the pure rules engine, the turn and the round as pure functions from state to
state (DOS-4..DOS-18). Rule ids refer to shared/rules/dos.md.

The wire format (options, actions, view, events, result) is documented in docs/games/dos.md; the module
layout (``cards.py``, ``moves.py``, ``actions.py``, ``state.py``, ``view.py``, ``positions.py``) in
docs/engine-conventions.md. Each public function either returns a new state or raises ``IllegalAction``
with the reason; the input state is never changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from games.dos.actions import DRAW, FINISH, SKIP_BONUS, UNDO, Move, check_declaration, parse_action, parse_options
from games.dos.cards import CENTER_SIZE, FULL_DECK, HAND_SIZE, WILD_DOS, hand_points, is_wild, sort_cards
from games.dos.moves import COLOUR_KINDS, DOUBLE_COLOUR, Declaration, effective_value, match_options
from games.dos.seat_view import build_view
from games.dos.state import (
    AFTER_DRAW,
    BONUS,
    MATCH,
    OVER,
    CenterCard,
    Checkpoint,
    Played,
    RoundRecord,
    State,
    add_event,
    compute_result,
    dump_state,
    load_state,
)
from games.engine import Action, IllegalAction, InvalidAction, Result, View
from games.engine import gettext_noop as _
from games.kit.parsing import is_int
from games.kit.seats import check_seat, check_viewer, next_seat
from games.kit.shuffle import rng, shuffled

COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}


# --------------------------------------------------------------------------------------------- drawing


def _reshuffle(state: State) -> State:
    """DOS-16: the discard pile, shuffled from the seed, becomes the draw pile."""
    cards = shuffled(state.discard, state.seed, "reshuffle", state.round, state.reshuffles)
    state = replace(state, draw_pile=tuple(cards), discard=(), reshuffles=state.reshuffles + 1)
    return add_event(state, "reshuffle", count=len(cards))


def _take(state: State, count: int) -> tuple[State, tuple[str, ...]]:
    """Up to ``count`` cards off the draw pile; fewer only if the discard pile is empty too."""
    taken: list[str] = []
    while len(taken) < count:
        if not state.draw_pile:
            if not state.discard:
                break
            state = _reshuffle(state)
        need = count - len(taken)
        taken.extend(state.draw_pile[:need])
        state = replace(state, draw_pile=state.draw_pile[need:])
    return state, tuple(taken)


def _with_hand(state: State, seat: int, cards: Sequence[str]) -> State:
    hands = list(state.hands)
    hands[seat] = sort_cards(cards)
    return replace(state, hands=tuple(hands))


def _without(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


# --------------------------------------------------------------------------------------------- dealing

#: What a new turn starts with.
_TURN_RESET: dict[str, Any] = {
    "drawn": False,
    "drawn_card": None,
    "matches": 0,
    "bonus": 0,
    "penalties": 0,
    "undo": (),
}


def shuffled_deck(seed: int, round_no: int, prefix: Sequence[str] = ()) -> list[str]:
    """``prefix`` (stacked by the ``deck`` option), then the rest of the 108 cards shuffled from the seed."""
    rest = Counter(FULL_DECK)
    rest.subtract(prefix)
    # Sorting first makes the shuffle depend on the seed alone, not on how the Counter was built.
    return [*prefix, *shuffled(sort_cards(rest.elements()), seed, "deal", round_no)]


def deal(state: State, deck: Sequence[str]) -> State:
    """DOS-5: 7 cards one at a time from the dealer's left, 2 cards face up, the rest face down."""
    n = state.players
    hands: list[list[str]] = [[] for _seat in range(n)]
    for i in range(HAND_SIZE * n):
        hands[next_seat(state.dealer, n, 1 + i)].append(deck[i])
    dealt = HAND_SIZE * n
    center = tuple(CenterCard(card) for card in deck[dealt : dealt + CENTER_SIZE])
    state = replace(
        state,
        hands=tuple(sort_cards(hand) for hand in hands),
        draw_pile=tuple(deck[dealt + CENTER_SIZE :]),
        discard=(),
        center=center,
        current=next_seat(state.dealer, n),
        phase=MATCH,
        reshuffles=0,
        **_TURN_RESET,
    )
    return add_event(state, "deal", round=state.round, dealer=state.dealer, center=[cr.card for cr in center])


# ------------------------------------------------------------------------------------------ the turn


def _candidates(state: State) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(CR position, hand codes) pairs that might match; ``match_options`` decides."""
    if state.phase not in (MATCH, AFTER_DRAW) or (state.phase == AFTER_DRAW and state.matches):
        return
    targets = [i for i, cr in enumerate(state.center) if not cr.played and not cr.new]
    if not targets:
        return
    hand = Counter(state.hands[state.current])
    codes = sort_cards(hand)
    if state.phase == AFTER_DRAW:
        # DOS-9: after drawing, the one match must use the drawn card.
        drawn = state.drawn_card
        if drawn is None:
            return
        combos = [(drawn,)]
        combos += [tuple(sort_cards((code, drawn))) for code in codes if code != drawn or hand[drawn] >= 2]
    else:
        combos = [(code,) for code in codes]
        combos += [(a, b) for i, a in enumerate(codes) for b in codes[i:] if a != b or hand[a] >= 2]
    for position in targets:
        for combo in combos:
            yield position, combo


def _match_actions(state: State) -> list[Action]:
    actions: list[Action] = []
    for position, combo in _candidates(state):
        target = state.center[position].card
        target_wild = is_wild(target)
        played_wild = any(is_wild(card) for card in combo)
        for (declarations, target_declaration), _kind in match_options(target, combo).items():
            action: Action = {"type": "match", "target": position, "cards": list(combo)}
            if played_wild:
                action["declare"] = list(declarations)
            if target_wild:
                action["target_declare"] = target_declaration
            actions.append(action)
    return actions


def legal(state: State) -> list[Action]:
    hand = state.hands[state.current]
    undo = [UNDO] if state.undo else []
    if state.phase == MATCH:
        return [*_match_actions(state), FINISH if state.matches else DRAW, *undo]
    if state.phase == AFTER_DRAW:
        return [*_match_actions(state), *({"type": "place", "card": code} for code in sort_cards(set(hand)))]
    if state.phase == BONUS:
        return [*({"type": "bonus", "card": code} for code in sort_cards(set(hand))), SKIP_BONUS, *undo]
    return []


def _open_targets(state: State) -> bool:
    return any(not cr.played and not cr.new for cr in state.center)


def _forced(state: State) -> Action | None:
    """The only legal action, when everyone can see that it is the only one: ``apply`` takes it.

    A step that is forced only because of the cards in a hand is left to the player: taking it
    automatically would tell the table that the hand had no match (or held a single code).
    """
    hand = state.hands[state.current]
    if state.phase == MATCH and not state.matches and not _open_targets(state):
        return DRAW
    if state.phase == AFTER_DRAW and state.drawn_card is None and len(hand) == 1:
        return {"type": "place", "card": hand[0]}
    return None


def _label(card: str, declaration: Declaration) -> str:
    if declaration is None:
        return card
    if isinstance(declaration, str):
        return f"{card} ({COLOUR_NAMES[declaration]})"
    return f"{card} ({declaration})"


def _check_match(state: State, move: Move) -> str:
    """The kind of match ``move`` makes, or the reason it is not allowed."""
    if state.phase == BONUS:
        raise IllegalAction(_("Matching is over for this turn: place a bonus card or skip."))
    if move.target >= len(state.center):
        raise IllegalAction(_("There is no Center Row card at position %(target)s."), {"target": move.target})
    cr = state.center[move.target]
    if cr.played:
        raise IllegalAction(
            _("%(card)s at position %(target)s has already been matched this turn."),
            {"card": cr.card, "target": move.target},
        )
    if cr.new:
        raise IllegalAction(
            _("%(card)s was put in the Center Row this turn and cannot be matched yet."), {"card": cr.card}
        )
    if is_wild(cr.card):
        if not move.has_target_declare:
            raise InvalidAction(
                _("Declare the colour of the Center Row's %(card)s in target_declare.")
                if cr.card == WILD_DOS
                else _("Declare the value of the Center Row's %(card)s in target_declare."),
                {"card": cr.card},
            )
        check_declaration(cr.card, move.target_declare, "target_declare")
    elif move.has_target_declare:
        raise InvalidAction(_("%(card)s is not a wild card: leave out target_declare."), {"card": cr.card})
    hand = Counter(state.hands[state.current])
    for card, count in Counter(move.cards).items():
        if hand[card] < count:
            raise IllegalAction(
                _("You do not hold %(card)s.") if not hand[card] else _("You hold only one %(card)s."), {"card": card}
            )
    if state.phase == AFTER_DRAW and state.drawn_card not in move.cards:
        if state.drawn_card is None:
            raise IllegalAction(_("You could not draw a card, so you cannot match: place a card."))
        raise IllegalAction(
            _("After drawing, your match must use the card you drew (%(drawn_card)s)."),
            {"drawn_card": state.drawn_card},
        )
    kind = match_options(cr.card, move.cards).get((move.declare, move.target_declare))
    if kind is None:
        total = sum(effective_value(c, d) for c, d in zip(move.cards, move.declare, strict=True))
        labels = " + ".join(_label(c, d) for c, d in zip(move.cards, move.declare, strict=True))
        wanted = effective_value(cr.card, move.target_declare)
        raise IllegalAction(
            _("%(labels)s = %(total)s, but %(label)s counts %(wanted)s."),
            {"labels": labels, "total": total, "label": _label(cr.card, move.target_declare), "wanted": wanted},
        )
    return kind


def _checkpoint(state: State, step: str) -> tuple[Checkpoint, ...]:
    """The undo stack with ``state`` pushed as it is before ``step``."""
    saved = Checkpoint(step, state.hands[state.current], state.center, state.matches, state.bonus, state.penalties)
    return (*state.undo, saved)


def _match(state: State, move: Move) -> State:
    kind = _check_match(state, move)
    seat = state.current
    cr = state.center[move.target]
    undo = _checkpoint(state, "match")
    center = list(state.center)
    center[move.target] = replace(
        cr,
        declared=move.target_declare,
        played=tuple(Played(c, d) for c, d in zip(move.cards, move.declare, strict=True)),
        kind=kind,
    )
    state = replace(
        _with_hand(state, seat, _without(state.hands[seat], move.cards)),
        center=tuple(center),
        matches=state.matches + 1,
        bonus=state.bonus + (kind in COLOUR_KINDS),
        penalties=state.penalties + (kind == DOUBLE_COLOUR),
        # DOS-9: after a draw the one match ends the turn, and nothing before a draw can be taken back.
        undo=undo if state.phase == MATCH else (),
    )
    state = add_event(
        state,
        "match",
        seat=seat,
        position=move.target,
        target=cr.card,
        target_declared=move.target_declare,
        cards=list(move.cards),
        declared=list(move.declare),
        kind=kind,
    )
    # DOS-9: one match after drawing. With an empty hand or nothing left to match, the turn is over
    # too; all three are plain to see, so ending the turn reveals nothing.
    if state.phase == AFTER_DRAW or not state.hands[seat] or not _open_targets(state):
        return _end_turn(state)
    return state


def _draw(state: State) -> State:
    if state.phase != MATCH:
        raise IllegalAction(_("You have already drawn this turn.") if state.drawn else _("You cannot draw now."))
    if state.matches:
        raise IllegalAction(_("You have made a match this turn, so you may not draw."))
    seat = state.current
    state, cards = _take(state, 1)
    state = replace(state, phase=AFTER_DRAW, drawn=True, drawn_card=cards[0] if cards else None)
    if not cards:
        return add_event(state, "no_draw", seat=seat)
    state = _with_hand(state, seat, [*state.hands[seat], cards[0]])
    return add_event(state, "draw", seat=seat, owner=seat, secret={"card": cards[0]})


def _finish(state: State) -> State:
    if state.phase == MATCH:
        if not state.matches:
            raise IllegalAction(_("Make a match or draw a card before you end your turn."))
        return _end_turn(state)
    if state.phase == AFTER_DRAW:
        raise IllegalAction(_("After drawing, match with the drawn card or place a card in the Center Row."))
    raise IllegalAction(_("Place a bonus card or skip the remaining bonus."))


def _place(state: State, move: Move) -> State:
    """DOS-9: no match after drawing, so one card goes into the Center Row."""
    if state.phase != AFTER_DRAW:
        raise IllegalAction(_("You place a card only after drawing, instead of a match."))
    state = _put_in_center(state, move.card)
    state = add_event(state, "place", seat=state.current, card=move.card)
    return _end_turn(state)


def _bonus(state: State, move: Move) -> State:
    if state.phase != BONUS:
        raise IllegalAction(_("You have no colour-match bonus to place now."))
    undo = _checkpoint(state, "bonus")
    state = replace(_put_in_center(state, move.card), bonus=state.bonus - 1, undo=undo)
    state = add_event(state, "bonus", seat=state.current, card=move.card, left=state.bonus)
    if state.bonus and state.hands[state.current]:
        return state
    return _after_bonus(state)


def _skip_bonus(state: State) -> State:
    if state.phase != BONUS:
        raise IllegalAction(_("You have no colour-match bonus to skip."))
    state = add_event(state, "skip_bonus", seat=state.current, count=state.bonus)
    return _after_bonus(replace(state, bonus=0))


def _undo(state: State) -> State:
    """Take back the turn's last match or bonus placement: everything it changed is as it was before.

    Only steps that drew nothing and turned nothing up are on the stack (a draw, a refill and the end of
    a turn empty it), so an undo never hides again what the table has learned by chance, and it never
    reaches back past another seat's action: the stack belongs to the current turn.
    """
    if not state.undo:
        if state.drawn:
            raise IllegalAction(_("You drew a card this turn, so there is nothing left to take back."))
        raise IllegalAction(_("There is nothing to take back: you have not matched or placed a card this turn."))
    saved = state.undo[-1]
    seat = state.current
    returned = Counter(saved.hand)
    returned.subtract(state.hands[seat])
    state = replace(
        _with_hand(state, seat, saved.hand),
        center=saved.center,
        matches=saved.matches,
        bonus=saved.bonus,
        penalties=saved.penalties,
        undo=state.undo[:-1],
    )
    return add_event(state, "undo", seat=seat, step=saved.step, cards=list(sort_cards(returned.elements())))


def _put_in_center(state: State, card: str) -> State:
    seat = state.current
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(_("You do not hold %(card)s."), {"card": card})
    state = _with_hand(state, seat, _without(hand, [card]))
    return replace(state, center=(*state.center, CenterCard(card, new=True)))


def _end_turn(state: State) -> State:
    """DOS-10 cleanup and refill, then BONUS (DOS-11) if earned and possible."""
    # The matching is over and the refill turns up unknown cards: no step before it can be taken back.
    state = replace(state, undo=())
    discard = list(state.discard)
    kept: list[CenterCard] = []
    for cr in state.center:
        if cr.played:
            discard += [cr.card, *(p.card for p in cr.played)]
        else:
            kept.append(cr)
    state = replace(state, center=tuple(kept), discard=tuple(discard))
    missing = CENTER_SIZE - len(state.center)
    if missing > 0:
        state, cards = _take(state, missing)
        if cards:
            state = replace(state, center=(*state.center, *(CenterCard(c, new=True) for c in cards)))
            state = add_event(state, "refill", cards=list(cards))
    if state.bonus and state.hands[state.current]:
        return replace(state, phase=BONUS)
    # DOS-E5: bonus placements that an empty hand cannot make are forfeited.
    return _after_bonus(replace(state, bonus=0))


def _after_bonus(state: State) -> State:
    """DOS-12 penalties (seat order from P's left), then DOS-14 out check."""
    seat = state.current
    n = state.players
    if state.penalties:
        for step in range(1, n):
            other = (seat + step) % n
            state, cards = _take(state, state.penalties)
            state = _with_hand(state, other, [*state.hands[other], *cards])
            state = add_event(
                state,
                "penalty_draw",
                seat=other,
                by=seat,
                count=len(cards),
                owed=state.penalties,
                owner=other,
                secret={"cards": list(cards)},
            )
    if not state.hands[seat]:
        return _end_round(state)
    center = tuple(replace(cr, new=False) for cr in state.center)
    return replace(state, center=center, current=next_seat(seat, n), phase=MATCH, **_TURN_RESET)


def _end_round(state: State) -> State:
    """DOS-17 scoring and DOS-18: next round with the deal passed left, or the game is over."""
    winner = state.current
    points = sum(hand_points(hand) for seat, hand in enumerate(state.hands) if seat != winner)
    scores = list(state.scores)
    scores[winner] += points
    record = RoundRecord(state.round, winner, points, state.hands)
    state = replace(state, scores=tuple(scores), history=(*state.history, record), **_TURN_RESET)
    state = add_event(state, "round_end", round=state.round, winner=winner, points=points, scores=list(scores))
    if scores[winner] >= state.target:
        state = replace(state, phase=OVER)
        return add_event(state, "game_end", winner=winner, scores=list(scores), rounds=state.round)
    round_no = state.round + 1
    state = replace(state, round=round_no, dealer=next_seat(state.dealer, state.players))
    return deal(state, shuffled_deck(state.seed, round_no))


def perform(state: State, move: Move) -> State:
    if move.type == "match":
        return _match(state, move)
    if move.type == "draw":
        return _draw(state)
    if move.type == "finish":
        return _finish(state)
    if move.type == "place":
        return _place(state, move)
    if move.type == "bonus":
        return _bonus(state, move)
    if move.type == "undo":
        return _undo(state)
    return _skip_bonus(state)


def resolve(state: State) -> State:
    """Take publicly forced steps until a decision is due or the game is over."""
    while state.phase != OVER and (forced := _forced(state)) is not None:
        state = perform(state, parse_action(forced))
    return state


# ---------------------------------------------------------------------------------------------- engine


class DosEngine:
    slug = "dos"
    name = "DOS"
    min_players = 2
    max_players = 4
    # Options that choose cards or a dealer instead of the seed: for tests and tutorials only. The
    # services refuse them for a real match and games.record.fairplay refuses a record that has them.
    stacking_options = frozenset({"deck", "dealer"})

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not is_int(players) or not self.min_players <= players <= self.max_players:
            raise InvalidAction(_("DOS is played by 2 to 4 players."))
        if not is_int(seed):
            raise InvalidAction(_("The seed must be a whole number."))
        prefix, dealer, target = parse_options(players, options)
        if dealer is None:
            # DOS-4: drawing for the deal is equivalent to a uniformly random first dealer.
            dealer = rng(seed, "dealer").randrange(players)
        state = State(
            players=players,
            seed=seed,
            target=target,
            round=1,
            dealer=dealer,
            current=0,
            phase=MATCH,
            hands=(),
            draw_pile=(),
            discard=(),
            center=(),
            scores=(0,) * players,
        )
        return resolve(deal(state, shuffled_deck(seed, 1, prefix)))

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == OVER else [state.current]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat(seat, state.players)
        if state.phase == OVER or seat != state.current:
            return []
        return legal(state)

    def apply(self, state: State, seat: int, action: Action) -> State:
        check_seat(seat, state.players)
        move = parse_action(action)
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        if seat != state.current:
            raise IllegalAction(_("It is not your turn."))
        return resolve(perform(state, move))

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, check_viewer(seat, state.players))

    def reveal(self, state: State) -> dict[str, Any]:
        """Every card where it lies, for a finished match's face-up replay: never for a match in play."""
        return {
            "hands": [list(hand) for hand in state.hands],
            "piles": [
                {"pile": "draw_pile", "cards": list(state.draw_pile)},
                {"pile": "discard", "cards": list(reversed(state.discard))},
            ],
        }

    def result(self, state: State) -> Result | None:
        return compute_result(state)

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)


engine = DosEngine()
