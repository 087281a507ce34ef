"""A game's optional ``bot.warm_up`` runs in the bot worker process when it starts, in the background."""

from __future__ import annotations

import os
import random
import threading
from typing import Any

import pytest

from games import registry, services
from games.background import bot_worker, bots
from games.reversi import bot as reversi_bot
from games.reversi.endgame import Budget
from games.reversi.rules import engine as reversi_engine
from tests.support import client_for

_ran = threading.Event()


def _note_it() -> None:
    _ran.set()


def test_the_layout_finds_a_game_s_warm_up_and_leaves_it_empty_otherwise() -> None:
    assert registry.get("reversi").warm_up is reversi_bot.warm_up
    assert registry.get("dos").warm_up is None


def test_the_worker_initializer_runs_each_warm_up_in_a_background_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    watched: list[int] = []
    monkeypatch.setattr(bot_worker, "die_with_parent", watched.append)
    _ran.clear()
    bot_worker.start(1234, (_note_it,))
    assert watched == [1234]
    assert _ran.wait(10)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_pool_passes_the_registered_warm_ups_unless_turned_off(
    monkeypatch: pytest.MonkeyPatch, settings: Any, enabled: bool
) -> None:
    made: dict[str, Any] = {}

    class Pool:
        def __init__(self, **kwargs: Any) -> None:
            made.update(kwargs)

    settings.BOT_WARM_UP = enabled
    monkeypatch.setattr(bots, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(bots, "_pool", None)
    bots._pool_executor()
    assert made["initializer"] is bot_worker.start
    parent, warm_ups = made["initargs"]
    assert parent == os.getpid()
    assert (reversi_bot.warm_up in warm_ups) is enabled
    assert all(game.warm_up in warm_ups for game in registry.all_games() if game.warm_up) is enabled


class _WaitOpensTheGate(threading.Event):
    """The compiled flag; a thread that starts waiting on it lets the (gated) compile finish."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__()
        self.gate = gate

    def wait(self, timeout: float | None = None) -> bool:
        self.gate.set()
        return super().wait(timeout)


def test_a_hard_reversi_move_right_after_the_worker_starts_waits_for_the_compiled_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker has just started: its warm-up thread is still compiling (held at a gate until the
    move waits on it) when a hard move is asked for. Counted, not timed: the pure-Python search runs
    no node and the compiled search spends hard's own budget of units."""
    reversi_bot.warm_up()  # compile once in this test process (the gate below holds a second "compile")
    gate, compiling = threading.Event(), threading.Event()
    monkeypatch.setattr(reversi_bot, "_COMPILED", _WaitOpensTheGate(gate))
    real_core = reversi_bot._core

    def gated_core() -> Any:
        if threading.current_thread().name == "bot-warm-up":
            compiling.set()
            gate.wait(60)
        return real_core()

    gated_core.cache_info = real_core.cache_info  # type: ignore[attr-defined]  # read by forget()
    monkeypatch.setattr(reversi_bot, "_core", gated_core)

    def no_fallback(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a hard move was searched by the pure-Python fallback")

    monkeypatch.setattr(reversi_bot, "best_square", no_fallback)
    compiled: list[tuple[int, int]] = []
    real_deep_search = reversi_bot._deep_search

    def counted(p: int, o: int, order: list[int], budget: Budget, core: Any) -> tuple[int, int, int]:
        result = real_deep_search(p, o, order, budget, core)
        if threading.current_thread().name != "bot-warm-up":
            compiled.append((budget.limit, budget.nodes))
        return result

    monkeypatch.setattr(reversi_bot, "_deep_search", counted)
    monkeypatch.setattr(bot_worker, "die_with_parent", lambda pid: None)
    try:
        bot_worker.start(os.getpid(), (reversi_bot.warm_up,))
        assert compiling.wait(30)  # the worker's warm-up is under way, not finished
        state = _midgame()
        legal = reversi_engine.legal_actions(state, state.to_move)
        view = reversi_engine.view(state, state.to_move)
        action = bot_worker.compute(reversi_bot.choose, view, legal, 0.02, "hard")
    finally:
        gate.set()
    assert action in legal
    limit = int(0.02 * reversi_bot.NODES_PER_SECOND["hard"])
    assert [lim for lim, _ in compiled] == [limit]
    assert compiled[0][1] > 0


def _midgame() -> Any:
    """A position 20 random plies in, past the opening book."""
    rng = random.Random(3)
    state = reversi_engine.new_game(2, 3)
    for _ in range(20):
        seat = state.to_move
        state = reversi_engine.apply(state, seat, rng.choice(reversi_engine.legal_actions(state, seat)))
    return state


def test_the_runner_starts_the_worker_before_any_move_is_due(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """So the warm-ups run as the server starts, not when the first computer move falls due."""
    submitted: list[Any] = []

    class Pool:
        def __init__(self, **kwargs: Any) -> None:
            pass

        def submit(self, fn: Any, *args: Any) -> None:
            submitted.append(fn)

    settings.BOT_SEPARATE_PROCESS = True
    monkeypatch.setattr(bots, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(bots, "_pool", None)
    bots.start_worker()
    assert submitted == [os.getpid]


@pytest.mark.django_db
def test_while_a_computer_move_waits_the_match_page_shows_the_computer_thinking(alice: Any) -> None:
    """The wait for the compiler happens while the computer's seat is on move (its move not yet made),
    so the page says what it says during any computer move: that the computer is thinking."""
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1}, bot_levels={1: "hard"})
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    body = client_for(alice).get(match.get_absolute_url()).content.decode()
    status = body[body.index('class="match-status"') :]
    assert "Waiting for Computer 2 (thinking…)" in status[: status.index("</p>")], status[:300]
