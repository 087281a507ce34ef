"""The DOS game state (immutable), its lossless JSON form, and the final result."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.dos.moves import Declaration
from games.engine import Result
from games.kit.events import Event, event

MATCH = "match"
AFTER_DRAW = "after_draw"
BONUS = "bonus"
OVER = "over"
PHASES = (MATCH, AFTER_DRAW, BONUS, OVER)

#: The view shows about the last 30 events; older ones are not kept.
MAX_EVENTS = 30


@dataclass(frozen=True)
class Played:
    """A hand card matched onto a Center Row card this turn, with its declaration."""

    card: str
    declared: Declaration = None


@dataclass(frozen=True)
class CenterCard:
    card: str
    #: Turned up or placed during the current turn, so it cannot be matched before the next turn.
    new: bool = False
    #: The matcher's declaration for a wild CR card (value of a Wild #, colour of a Wild DOS).
    declared: Declaration = None
    played: tuple[Played, ...] = ()
    kind: str | None = None


@dataclass(frozen=True)
class Checkpoint:
    """What one takeable-back step of the current turn changed, as it was before that step.

    A match or a bonus placement that neither ends the turn nor draws touches only the acting seat's
    hand, the Center Row and the turn's counters, so restoring these undoes it exactly. The event log is
    not restored: the table saw the step, and the undo is told as an event of its own.
    """

    step: str
    hand: tuple[str, ...]
    center: tuple[CenterCard, ...]
    matches: int
    bonus: int
    penalties: int


@dataclass(frozen=True)
class RoundRecord:
    round: int
    winner: int
    points: int
    #: Every seat's hand at the end of the round (revealed then, as at a real table).
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class State:
    players: int
    seed: int
    target: int
    round: int
    dealer: int
    current: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    #: Index 0 is the top card, the next one drawn.
    draw_pile: tuple[str, ...]
    #: The last card is the top of the (face-up) discard pile.
    discard: tuple[str, ...]
    center: tuple[CenterCard, ...]
    scores: tuple[int, ...]
    drawn: bool = False
    drawn_card: str | None = None
    matches: int = 0
    #: Bonus placements still owed to the current player: +1 per colour match, -1 per placement.
    bonus: int = 0
    #: Double colour matches this turn: each other seat draws this many at the end of the turn.
    penalties: int = 0
    #: Reshuffles of the discard pile this round; part of the seed of the next one.
    reshuffles: int = 0
    #: The current turn's steps that may still be taken back, oldest first (empty after a draw or a refill).
    undo: tuple[Checkpoint, ...] = ()
    history: tuple[RoundRecord, ...] = ()
    events: tuple[Event, ...] = ()
    event_count: int = 0


def add_event(
    state: State,
    event_type: str,
    /,
    *,
    owner: int | None = None,
    secret: dict[str, Any] | None = None,
    **data: Any,
) -> State:
    number = state.event_count + 1
    new = event(event_type, owner=owner, secret=secret, n=number, **data)
    return replace(state, events=(*state.events, new)[-MAX_EVENTS:], event_count=number)


def compute_result(state: State) -> Result | None:
    if state.phase != OVER:
        return None
    scores = list(state.scores)
    # Only a round's winner scores, so the seat that reached the target is alone at the top.
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return {"scores": scores, "ranks": ranks, "detail": {"rounds": state.round, "target": state.target}}


def dump_state(state: State) -> dict[str, Any]:
    return {
        "players": state.players,
        "seed": state.seed,
        "target": state.target,
        "round": state.round,
        "dealer": state.dealer,
        "current": state.current,
        "phase": state.phase,
        "hands": [list(hand) for hand in state.hands],
        "draw_pile": list(state.draw_pile),
        "discard": list(state.discard),
        "center": _dump_center(state.center),
        "scores": list(state.scores),
        "drawn": state.drawn,
        "drawn_card": state.drawn_card,
        "matches": state.matches,
        "bonus": state.bonus,
        "penalties": state.penalties,
        "reshuffles": state.reshuffles,
        **({"undo": [dump_checkpoint(c) for c in state.undo]} if state.undo else {}),
        "history": [
            {"round": r.round, "winner": r.winner, "points": r.points, "hands": [list(h) for h in r.hands]}
            for r in state.history
        ],
        "events": [e.dump() for e in state.events],
        "event_count": state.event_count,
    }


def _dump_center(center: tuple[CenterCard, ...]) -> list[dict[str, Any]]:
    return [
        {
            "card": cr.card,
            "new": cr.new,
            "declared": cr.declared,
            "played": [[p.card, p.declared] for p in cr.played],
            "kind": cr.kind,
        }
        for cr in center
    ]


def _load_center(data: list[dict[str, Any]]) -> tuple[CenterCard, ...]:
    return tuple(
        CenterCard(
            card=cr["card"],
            new=cr["new"],
            declared=cr["declared"],
            played=tuple(Played(card, declared) for card, declared in cr["played"]),
            kind=cr["kind"],
        )
        for cr in data
    )


def dump_checkpoint(checkpoint: Checkpoint) -> dict[str, Any]:
    return {
        "step": checkpoint.step,
        "hand": list(checkpoint.hand),
        "center": _dump_center(checkpoint.center),
        "matches": checkpoint.matches,
        "bonus": checkpoint.bonus,
        "penalties": checkpoint.penalties,
    }


def load_checkpoint(data: dict[str, Any]) -> Checkpoint:
    return Checkpoint(
        step=data["step"],
        hand=tuple(data["hand"]),
        center=_load_center(data["center"]),
        matches=data["matches"],
        bonus=data["bonus"],
        penalties=data["penalties"],
    )


def load_state(data: dict[str, Any]) -> State:
    return State(
        players=data["players"],
        seed=data["seed"],
        target=data["target"],
        round=data["round"],
        dealer=data["dealer"],
        current=data["current"],
        phase=data["phase"],
        hands=tuple(tuple(hand) for hand in data["hands"]),
        draw_pile=tuple(data["draw_pile"]),
        discard=tuple(data["discard"]),
        center=_load_center(data["center"]),
        scores=tuple(data["scores"]),
        drawn=data["drawn"],
        drawn_card=data["drawn_card"],
        matches=data["matches"],
        bonus=data["bonus"],
        penalties=data["penalties"],
        reshuffles=data["reshuffles"],
        undo=tuple(load_checkpoint(c) for c in data.get("undo", ())),
        history=tuple(
            RoundRecord(r["round"], r["winner"], r["points"], tuple(tuple(h) for h in r["hands"]))
            for r in data["history"]
        ),
        events=tuple(Event.load(e if "type" in e else _legacy_event(e)) for e in data["events"]),
        event_count=data["event_count"],
    )


def _legacy_event(data: dict[str, Any]) -> dict[str, Any]:
    """An event as dumped before games.kit: its type among the public fields."""
    public = dict(data["data"])
    return {"type": public.pop("type"), "public": public, "owner": data["owner"], "secret": data["secret"]}
