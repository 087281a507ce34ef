"""Nim, the smallest game the site can host: players take 1 to 3 stones from one heap in turn; whoever
takes the last stone wins. Pure and deterministic (no Django), like every game's engine."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.engine import Action, IllegalAction, InvalidAction, Result, Text, View
from games.engine import gettext_noop as _
from games.kit.codec import StateCodec
from games.kit.seats import check_seat, check_viewer, next_seat

MAX_TAKE = 3
PLAYERS = 2


@dataclass(frozen=True)
class State:
    stones: int
    to_move: int
    # Every take so far, as (seat, stones): the events a view shows.
    takes: tuple[tuple[int, int], ...] = ()
    # Nim needs no chance, but every game keeps its seed: the contract test scrambles it.
    seed: int = 0


# The state's JSON is the dataclass's, field by field: {"stones": 7, "to_move": 1, "takes": [[0, 3]], "seed": 0}.
CODEC = StateCodec(State, name="Nim")
dump_state, load_state = CODEC.dump, CODEC.load


class NimEngine:
    slug = "nim"
    name = "Nim"
    min_players = PLAYERS
    max_players = PLAYERS

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        options = options or {}
        if players != 2:
            raise InvalidAction(_("Nim is for exactly 2 players."))
        stones = options.get("stones", 10)
        if type(stones) is not int or not 1 <= stones <= 50:
            raise InvalidAction(_("The heap holds 1 to 50 stones."))
        return State(stones=stones, to_move=0, seed=seed)

    def to_act(self, state: State) -> list[int]:
        return [state.to_move] if state.stones else []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat(seat, PLAYERS)
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "count": str(n)} for n in range(1, min(MAX_TAKE, state.stones) + 1)]

    def apply(self, state: State, seat: int, action: Action) -> State:
        check_seat(seat, PLAYERS)
        if action.get("type") != "take" or set(action) != {"type", "count"}:
            raise InvalidAction(_("Take 1 to 3 stones."))
        count = action["count"]
        if not isinstance(count, str) or not count.isdigit():
            raise InvalidAction(_("Take 1 to 3 stones."))
        if seat not in self.to_act(state):
            raise IllegalAction(_("It is not your turn."))
        taken = int(count)
        if not 1 <= taken <= min(MAX_TAKE, state.stones):
            raise IllegalAction(Text(_("You may take 1 to %(most)s stones."), {"most": min(MAX_TAKE, state.stones)}))
        return replace(
            state, stones=state.stones - taken, to_move=next_seat(seat, PLAYERS), takes=(*state.takes, (seat, taken))
        )

    def view(self, state: State, seat: int | None) -> View:
        return {
            "seat": check_viewer(seat, PLAYERS),
            "stones": state.stones,
            "to_act": self.to_act(state),
            "over": not state.stones,
            "result": self.result(state),
            "events": [{"type": "take", "seat": s, "count": n} for s, n in state.takes],
        }

    def result(self, state: State) -> Result | None:
        if state.stones:
            return None
        winner = state.takes[-1][0]
        return {"scores": [int(s == winner) for s in (0, 1)], "ranks": [1 if s == winner else 2 for s in (0, 1)]}

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)


engine = NimEngine()
