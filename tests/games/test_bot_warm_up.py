"""A game's optional ``bot.warm_up`` runs in the bot worker process when it starts, in the background."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

from games import bot_worker, bots, registry
from games.reversi import bot as reversi_bot

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
