"""Build an exact mid-game position, for tests, tutorials and bug reports.

``options["deck"]`` can only stack the first deal; the rules file's scenarios start anywhere (cat on
+1, hands of 4, an attack on the table). :func:`position` places the given cards and puts every other
card of the deck into the draw pile, under ``draw_top``, so the 38 cards are always all there.
:func:`scramble` reshuffles what one seat cannot know, for the hidden-information tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from random import Random
from typing import Any

from games.tacocat.actions import parse_options
from games.tacocat.state import ATTACK, DEFEND, PHASES, Hand, State


def _sorted(cards: Iterable[int]) -> Hand:
    return tuple(sorted(cards))


def position(
    hands: tuple[Iterable[int], Iterable[int]],
    *,
    phase: str = ATTACK,
    attacker: int | None = None,
    attack: Iterable[int] = (),
    cat: int = 0,
    covered: Iterable[int] = (),
    draw_top: Iterable[int] = (),
    discard: Iterable[int] = (),
    replaced: tuple[int | None, int | None] = (None, None),
    cap: int | None = None,
    commits: tuple[Iterable[int] | None, Iterable[int] | None] = (None, None),
    round_no: int = 1,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> State:
    """A state with these cards where given and the rest of the deck at the bottom of the draw pile.

    Raises ValueError when the cards are not part of the configured deck or the phase lacks its parts.
    """
    config, _ = parse_options({k: v for k, v in (options or {}).items() if k != "deck"})
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    if phase in (ATTACK, DEFEND) and attacker is None:
        raise ValueError(f"The {phase} phase needs an attacker.")
    h0, h1, on_table = _sorted(hands[0]), _sorted(hands[1]), _sorted(attack)
    top, pile = tuple(draw_top), tuple(discard)
    rest = Counter(config.deck())
    rest.subtract((*h0, *h1, *on_table, *top, *pile))
    if any(n < 0 for n in rest.values()):
        short = sorted(v for v, n in rest.items() if n < 0)
        raise ValueError(f"More cards of value(s) {short} are placed than the deck holds.")
    return State(
        config=config,
        seed=seed,
        round_no=round_no,
        cat=cat,
        covered=_sorted(covered),
        hands=(h0, h1),
        draw=(*top, *sorted(rest.elements())),
        discard=pile,
        phase=phase,
        replaced=replaced,
        cap=cap,
        commits=(
            None if commits[0] is None else _sorted(commits[0]),
            None if commits[1] is None else _sorted(commits[1]),
        ),
        attacker=attacker,
        attack=on_table,
    )


def scramble(state: State, viewer: int | None, rng: Random) -> State:
    """Reshuffle everything ``viewer`` may not know, keeping every count (section 1.6, 0.2)."""
    hidden = [0, 1] if viewer is None else [1 - viewer]
    pool = [*state.draw, *(c for s in hidden for c in state.hands[s])]
    rng.shuffle(pool)
    hands = list(state.hands)
    commits = list(state.commits)
    for s in hidden:
        n = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:n])), pool[n:]
        if commits[s] is not None:
            # The other seat's committed choice is secret too: any choice of as many cards will do.
            commits[s] = tuple(sorted(rng.sample(hands[s], len(commits[s]))))
    events = tuple(
        replace(e, secret=tuple((k, tuple(str(rng.randint(1, 12)) for _ in v)) for k, v in e.secret))
        if e.owner in hidden
        else e
        for e in state.events
    )
    return replace(
        state,
        hands=(hands[0], hands[1]),
        draw=tuple(pool),
        commits=(commits[0], commits[1]),
        events=events,
        seed=rng.randrange(2**62),
    )
