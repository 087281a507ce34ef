"""The immutable Back Alley state, its parts, and its lossless JSON form (``dump_state`` / ``load_state``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.backalley.cards import SUITS, code, parse
from games.kit.codec import Hook, StateCodec, coded, each
from games.kit.events import Event
from games.kit.seats import round_robin

DUMP_FORMAT = 2
PLAYERS = 4
DEALS = 25
# The view shows at most this many recent events; the state keeps exactly as many, so a long match
# does not drag a growing log through every apply (the Action log is the full record).
EVENT_WINDOW = 30

BID, PLAY, OVER = "bid", "play", "over"
PHASES = (BID, PLAY, OVER)
BOARD_NAMES = ("board", "double_board", "triple_board", "quadruple_board")


@dataclass(frozen=True, slots=True)
class Bid:
    """One seat's bid: ``tricks`` for a number (0 = pass), or a board ``level`` 1..4 (BA-9)."""

    tricks: int = 0
    board: int = 0

    def label(self) -> str | int:
        """The wire form: ``"pass"``, a number, or ``"board"`` .. ``"quadruple_board"``."""
        if self.board:
            return BOARD_NAMES[self.board - 1]
        return self.tricks if self.tricks else "pass"

    @staticmethod
    def from_label(value: str | int) -> Bid:
        if value == "pass":
            return Bid()
        if isinstance(value, str):
            return Bid(board=BOARD_NAMES.index(value) + 1)
        return Bid(tricks=value)


PASS = Bid()


@dataclass(frozen=True, slots=True)
class Contract:
    """A team's contract (BA-11): ``tricks`` to take, and the board level (0 = a numeric contract).

    A board contract needs every trick of the deal, so ``tricks`` is then the hand size.
    """

    tricks: int
    board: int = 0

    def json(self) -> dict[str, int]:
        return {"tricks": self.tricks, "board": self.board}


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: the cards in play order, the first played by ``leader``."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def seats(self) -> list[int]:
        return round_robin(self.leader, PLAYERS, len(self.cards))

    def json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [{"seat": s, "card": code(c)} for s, c in zip(self.seats(), self.cards, strict=True)],
            "winner": self.winner,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Trick:
        return Trick(data["leader"], tuple(parse(p["card"]) for p in data["cards"]), data["winner"])


@dataclass(frozen=True, slots=True)
class Swap:
    """BA-7: ``seat`` discarded the joker ``joker`` face up and took ``took`` from the stock."""

    seat: int
    joker: int
    took: int


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the score sheet: a deal that was played out and scored (BA-17..BA-19)."""

    deal: int
    dealer: int
    cards: int
    trump: int | None
    bids: tuple[Bid, ...]
    contracts: tuple[Contract, Contract]
    tricks: tuple[int, int]
    points: tuple[int, int]
    totals: tuple[int, int]

    def json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "cards": self.cards,
            "trump": None if self.trump is None else SUITS[self.trump],
            "bids": [b.label() for b in self.bids],
            "contracts": [c.json() for c in self.contracts],
            "tricks": list(self.tricks),
            "points": list(self.points),
            # Only a failed contract scores below zero (BA-17, BA-18).
            "made": [p >= 0 for p in self.points],
            "totals": list(self.totals),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Row:
        return Row(
            deal=data["deal"],
            dealer=data["dealer"],
            cards=data["cards"],
            trump=None if data["trump"] is None else SUITS.index(data["trump"]),
            bids=tuple(Bid.from_label(b) for b in data["bids"]),
            contracts=(Contract(**data["contracts"][0]), Contract(**data["contracts"][1])),
            tricks=(data["tricks"][0], data["tricks"][1]),
            points=(data["points"][0], data["points"][1]),
            totals=(data["totals"][0], data["totals"][1]),
        )


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a match in progress.

    ``hands`` are kept sorted by card number (a canonical form, so equal positions compare equal);
    ``stock`` is in order, top first. Between deals nothing waits: a state is always in the bidding or
    play of some deal, or over.
    """

    seed: int
    deal_number: int  # 1..25
    dealer: int
    redeals: int  # all-pass redeals so far at this deal number (BA-10); part of the shuffle's seed
    phase: str
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    upcard: int
    trump: int | None
    swap: Swap | None
    bids: tuple[Bid | None, ...]
    leader: int | None  # who leads the current trick; None while bidding
    trick: tuple[int, ...]  # cards of the current trick in play order, the leader's first
    tricks_played: tuple[Trick, ...]  # finished tricks of this deal
    trump_broken: bool  # BA-13 (a): a trump was played in a finished trick of this deal
    last_trick: Trick | None  # survives into the next deal, so the table can still show it
    score_sheet: tuple[Row, ...]
    events: tuple[Event, ...]


def _from_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 dumped an event's fields as [key, value] pairs."""
    events = [{**e, "public": dict(e["public"]), "secret": dict(e["secret"])} for e in data["events"]]
    return {**data, "events": events}


# Cards are ints in the state and codes ("QH", "BB") in the JSON, hands kept sorted; the trump by its letter.
CARD = Hook(code, parse)
CODEC = StateCodec(
    State,
    name="Back Alley",
    format=DUMP_FORMAT,
    older={1: _from_format_1},
    fields={
        "hands": each(each(CARD, sort=True)),
        "stock": each(CARD),
        "upcard": CARD,
        "trump": coded(SUITS),
        "trick": each(CARD),
    },
    types={
        Swap: StateCodec(Swap, fields={"joker": CARD, "took": CARD}),
        Bid: Hook(Bid.label, Bid.from_label),
        Trick: Hook(Trick.json, Trick.from_json),
        Row: Hook(Row.json, Row.from_json),
    },
)
dump_state, load_state = CODEC.dump, CODEC.load
