"""DOS (Mattel, first edition): the pure rules engine. Rule ids refer to shared/rules/dos.md.

The wire format (options, actions, view, events, result) is documented in docs/games/dos.md. The
engine is split into ``cards.py`` (codes, deck, points, order), ``matching.py`` (which matches exist,
with their declarations), ``actions.py`` (parsing actions and options), ``play.py`` (the turn and the
round), ``state.py`` (the immutable state, dump/load, result) and ``view.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from games.dos import play
from games.dos.actions import DEFAULT_TARGET, check_code, is_int, parse_action, parse_options
from games.dos.cards import FULL_DECK, sort_cards
from games.dos.state import MATCH, OVER, CenterCard, State, compute_result, dump_state, load_state
from games.dos.view import build_view
from games.engine import Action, IllegalAction, InvalidAction, Result, View


class DosEngine:
    slug = "dos"
    name = "DOS"
    min_players = 2
    max_players = 4

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not is_int(players) or not self.min_players <= players <= self.max_players:
            raise InvalidAction("DOS is played by 2 to 4 players.")
        if not is_int(seed):
            raise InvalidAction("The seed must be a whole number.")
        prefix, dealer, target = parse_options(players, options)
        if dealer is None:
            # DOS-4: drawing for the deal is equivalent to a uniformly random first dealer.
            dealer = Random(f"{seed}:dealer").randrange(players)
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
        return play.resolve(play.deal(state, play.shuffled_deck(seed, 1, prefix)))

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == OVER else [state.current]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.current:
            return []
        return play.legal(state)

    def apply(self, state: State, seat: int, action: Action) -> State:
        move = parse_action(action)
        if state.phase == OVER:
            raise IllegalAction("The game is over.")
        if seat != state.current:
            raise IllegalAction("It is not your turn.")
        return play.resolve(play.perform(state, move))

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

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


def position(
    *,
    hands: Sequence[Sequence[str]],
    center: Sequence[str],
    draw: Sequence[str] = (),
    discard: Sequence[str] = (),
    rest: str = "draw",
    current: int = 0,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    round_no: int = 1,
    target: int = DEFAULT_TARGET,
    seed: int = 0,
    resolve: bool = True,
) -> State:
    """A mid-round state at the start of ``current``'s turn, for tests and tutorials.

    ``draw`` lists the top of the draw pile (first drawn first) and ``discard`` the discard pile
    (last on top). The cards of the deck not named anywhere go, shuffled from ``seed``, under the
    draw pile (``rest="draw"``) or under the discard pile (``rest="discard"``). With ``resolve`` the
    publicly forced steps of the turn are taken, as ``apply`` would.
    """
    players = len(hands)
    if not 2 <= players <= 4 or not 0 <= current < players:
        raise InvalidAction("A position needs 2 to 4 hands and a current seat among them.")
    named = [*(c for hand in hands for c in hand), *center, *draw, *discard]
    for code in named:
        check_code(code)
    left = Counter(FULL_DECK)
    left.subtract(named)
    if min(left.values()) < 0:
        raise InvalidAction("The position uses more copies of a card than the deck has.")
    remaining = list(sort_cards(left.elements()))
    Random(f"{seed}:position").shuffle(remaining)
    state = State(
        players=players,
        seed=seed,
        target=target,
        round=round_no,
        dealer=(current - 1) % players if dealer is None else dealer,
        current=current,
        phase=MATCH,
        hands=tuple(sort_cards(hand) for hand in hands),
        draw_pile=tuple(draw) + (tuple(remaining) if rest == "draw" else ()),
        discard=(tuple(remaining) if rest == "discard" else ()) + tuple(discard),
        center=tuple(CenterCard(card) for card in center),
        scores=tuple(scores) if scores is not None else (0,) * players,
    )
    return play.resolve(state) if resolve else state
