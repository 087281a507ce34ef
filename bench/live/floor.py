"""What a WebSocket frame costs daphne itself: the floor under the spectators' figure.

Run: ``.venv/bin/python -m bench.live.floor [--sockets 50] [--size 14400] [--rounds 40]``. It starts
daphne with a bare ASGI application (``bench.live.floor_app``: no Django, no Channels), opens the
sockets, then asks for a frame of ``--size`` characters (the size of the spectators' Reversi fragment)
to be sent to every socket, ``--rounds`` times, each round done when every socket has it; and the same
rounds sending nothing. Server CPU per frame = the difference over the frames sent. What 50
spectators add to a move can never be less than 50 of these plus one render of their view.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

import httpx
import websockets

from bench.live.scenario import cpu, settle
from bench.live.server import Server, server_env


async def rounds(server: Server, http: httpx.AsyncClient, count: int, size: int, sockets: list[object]) -> float:
    """Server CPU seconds for ``count`` rounds of one frame to each of ``sockets``."""
    await settle([server])
    start = cpu([server])
    for _ in range(count):
        params = {"size": size} if sockets else {"size": size, "to": "none"}
        response = await http.get(f"{server.base}/fire/", params=params)
        assert int(response.text) == len(sockets)
        await asyncio.gather(*(ws.recv() for ws in sockets))  # type: ignore[attr-defined]
    await settle([server])
    return cpu([server]) - start


class Floor:
    """daphne's own cost of a frame, measured in blocks that another measurement's blocks can fall
    between (``bench.live`` takes the spectators' moves and these rounds in turn, so that a machine
    whose speed drifts during the run charges both alike)."""

    def __init__(self, server: Server, http: httpx.AsyncClient) -> None:
        self.server, self.http = server, http
        self.sockets: list[object] = []
        self.empty = self.full = 0.0
        self.rounds = self.blocks = 0
        self.sizes: list[int] = []

    async def open(self, sockets: int, size: int) -> None:
        await rounds(self.server, self.http, 5, size, [])  # warm up
        self.sockets = [
            await websockets.connect(f"{self.server.ws_base}/ws/", max_size=None, compression=None, ping_interval=None)
            for _ in range(sockets)
        ]
        await rounds(self.server, self.http, 5, size, self.sockets)  # warm up

    async def block(self, count: int, size: int) -> None:
        """``count`` rounds with no socket open and ``count`` with all of them, frames of ``size``."""
        self.empty += await rounds(self.server, self.http, count, size, [])
        self.full += await rounds(self.server, self.http, count, size, self.sockets)
        self.rounds += count
        self.blocks += 1
        self.sizes += [size] * count

    async def close(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self.sockets))  # type: ignore[attr-defined]

    def result(self) -> dict[str, float]:
        if not self.rounds or not self.sockets:  # no block ran (no frame reached the spectators): no figure
            return {"request_ms": 0.0, "frame_us": 0.0, "frames_ms": 0.0}
        per_frame_us = (self.full - self.empty) / (self.rounds * len(self.sockets)) * 1e6
        return {
            "request_ms": self.empty / self.rounds * 1000,
            "frame_us": per_frame_us,
            "frames_ms": per_frame_us * len(self.sockets) / 1000,
        }


async def measure(server: Server, sockets: int, size: int, count: int) -> dict[str, float]:
    async with httpx.AsyncClient(timeout=30) as http:
        floor = Floor(server, http)
        await floor.open(sockets, size)
        try:
            await floor.block(count, size)
        finally:
            await floor.close()
    return floor.result()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.live.floor", description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--size", type=int, default=14_400)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        env = server_env(Path(tmp), database_url=None, redis_url=None, prefix="floor")
        server = Server(env, Path(tmp) / "daphne.log", app="bench.live.floor_app:app")
        server.start()
        try:
            result = asyncio.run(measure(server, args.sockets, args.size, args.rounds))
        finally:
            server.stop()
    print(
        f"daphne alone, {args.sockets} sockets, frames of {args.size:,} characters, {args.rounds} rounds: "
        f"{result['frame_us']:.0f} us of server CPU per frame, {result['frames_ms']:.2f} ms per round of "
        f"{args.sockets} (the request that sends them: {result['request_ms']:.2f} ms)"
    )


if __name__ == "__main__":
    main()
