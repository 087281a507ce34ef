"""The DOS game state (immutable), its lossless JSON form, and the final result."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.dos.moves import Declaration
from games.engine import Result
from games.kit.codec import Hook, StateCodec, each
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


def _load_event(data: dict[str, Any]) -> Event:
    return Event.load(data if "type" in data else _legacy_event(data))


# A card matched onto a Center Row card is a [card, declared] pair.
PLAYED = Hook(lambda p: [p.card, p.declared], lambda data: Played(data[0], data[1]))
# No takeback stack is written while it is empty (the format before undo had none).
CODEC = StateCodec(
    State,
    name="DOS",
    types={Played: PLAYED},
    fields={"events": each(Hook(Event.dump, _load_event))},
    omit_default=("undo",),
)
CHECKPOINT = StateCodec(Checkpoint, types={Played: PLAYED})
dump_state, load_state = CODEC.dump, CODEC.load
dump_checkpoint, load_checkpoint = CHECKPOINT.dump, CHECKPOINT.load


def _legacy_event(data: dict[str, Any]) -> dict[str, Any]:
    """An event as dumped before games.kit: its type among the public fields."""
    public = dict(data["data"])
    return {"type": public.pop("type"), "public": public, "owner": data["owner"], "secret": data["secret"]}
