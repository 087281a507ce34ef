"""Load benchmark of the live path: `python -m bench.live [--quick] [--json FILE]` (or `make bench-live`).

Starts its own daphne (DEBUG off, a fresh database), scripts real clients (sign up, log in, create and
join Reversi matches, open the match and badge sockets, play legal moves with htmx POSTs) and prints,
measured in one run: server CPU per move and per plain page and their ratio, queries per move, push
latency at a steady rate, the saturation rate of one process; the same on PostgreSQL + Redis with one
and then two processes (and the server CPU per move of two over one); the CPU that 50 spectators add
to a move, and each spectator's frame against daphne's own cost of a frame (``bench.live.floor``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from bench.live import floor, scenario
from bench.live.server import (
    REPO,
    Server,
    create_postgres_database,
    delete_redis_keys,
    drop_postgres_database,
    migrate,
    server_env,
)


@dataclass(frozen=True)
class Plan:
    matches: int = 100
    spectators: int = 50
    spectator_moves: int = 60
    floor_requests: int = 300
    sequential_moves: int = 60
    steady_rate: float = 30.0
    steady_seconds: float = 12.0
    ramp_start: float = 2.0
    ramp_factor: float = 1.5
    ramp_steps: int = 13
    # Rates tried between the last sustained step and the failed one: the figure's resolution becomes
    # a factor 1.5 ** (1 / 3), about 14%, instead of 50%.
    ramp_refine: int = 2
    step_seconds: float = 6.0
    ramp_time_limit: float = 150.0
    push_timeout: float = 5.0
    floor_rounds: int = 40  # rounds of the frame floor (bench.live.floor), one frame to each spectator's socket
    # A step is sustained while push p99 stays under this, or under a multiple of the unloaded p99 when the
    # machine is so busy that even single moves are slow (the ramp looks for where the server stops keeping up).
    p99_limit_ms: float = 1000.0
    p99_limit_factor: float = 3.0
    min_completion: float = 0.95
    idle_seconds: float = 2.0

    def rates(self) -> list[float]:
        return [round(self.ramp_start * self.ramp_factor**i, 1) for i in range(self.ramp_steps)]


QUICK = Plan(
    matches=6,
    spectators=6,
    spectator_moves=3,
    floor_requests=30,
    sequential_moves=8,
    steady_rate=5.0,
    steady_seconds=2.0,
    ramp_start=3.0,
    ramp_factor=2.0,
    ramp_steps=3,
    step_seconds=2.0,
    ramp_time_limit=10.0,
    push_timeout=5.0,
    floor_rounds=5,
    idle_seconds=0.5,
)

# The targets of issue 27, item 5 (docs/performance.md): server CPU per move, two processes over one;
# a spectator's frame over daphne's own frame.
TWO_OVER_ONE_TARGET = 1.15
FRAME_OVER_FLOOR_TARGET = 1.5
# Moves of each of the three spectators' matches per turn; the frame floor's rounds fall between turns.
SPECTATOR_BLOCK = 5


def limit_ms(plan: Plan, sequential: dict[str, Any]) -> float:
    unloaded = sequential.get("push_ms_p99") or 0.0
    return round(max(plan.p99_limit_ms, plan.p99_limit_factor * unloaded), 1)


def raise_open_files_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def machine(repo: Path) -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "commit": commit,
        "site_checkout": str(repo),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }


def client() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        timeout=httpx.Timeout(60.0), limits=httpx.Limits(max_connections=100, max_keepalive_connections=100)
    )


def log(message: str) -> None:
    print(f"[bench-live {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


async def one_process(
    server: Server, plan: Plan, tag: str, *, with_spectators: bool, with_ramp: bool
) -> dict[str, Any]:
    async with client() as http:
        site = scenario.Site(http, [server], tag)
        log(f"{tag}: signing up {2 * plan.matches} people and starting {plan.matches} matches")
        pairs = await scenario.make_pairs(site, plan.matches, split=False)
        out: dict[str, Any] = {"processes": 1, "matches": plan.matches, "sockets": 4 * plan.matches}
        out["idle_cpu_ms_per_s"] = round(await scenario.idle_cpu([server], plan.idle_seconds) * 1000, 2)
        log(f"{tag}: plain pages (the floor)")
        out["plain_page"] = await scenario.plain_pages(site, [server], plan.floor_requests)
        log(f"{tag}: moves one at a time")
        out["sequential"] = await scenario.sequential_moves(site, pairs, plan.sequential_moves, plan.push_timeout)
        floor = out["plain_page"]["cpu_ms_per_request"]
        out["move_to_page_cpu_ratio"] = round(out["sequential"]["cpu_ms_per_move"] / floor, 2) if floor else None
        if with_spectators and plan.spectators:
            log(f"{tag}: {plan.spectators} spectators on one match; daphne's own frame between (the floor)")
            out["spectators"], out["frame_floor"] = await spectators_and_floor(site, plan)
            bare = out["frame_floor"]["frame_us"]
            for key, frame in (
                ("spectator_frame_over_floor", out["spectators"]["cpu_us_per_more_spectator_frame"]),
                ("spectator_frame_with_render_over_floor", out["spectators"]["cpu_us_per_spectator_frame"]),
            ):
                out[key] = round(frame / bare, 2) if bare > 0 else None
        log(f"{tag}: steady {plan.steady_rate:g} moves/s")
        out["steady"] = await scenario.at_rate(site, pairs, plan.steady_rate, plan.steady_seconds, plan.push_timeout)
        if with_ramp:
            log(f"{tag}: saturation ramp {plan.rates()}")
            out["saturation"] = await ramp(site, pairs, plan, out["sequential"])
        out["matches_started"] = site.setups
        await scenario.close_pairs(pairs)
        return out


async def spectators_and_floor(site: Any, plan: Plan) -> tuple[dict[str, Any], dict[str, Any]]:
    """The spectators' blocks, and ``bench.live.floor`` (a bare daphne, as many sockets as spectators,
    frames of their size) measured in rounds between those blocks, so that both see the same machine."""
    rounds_per_block = max(1, math.ceil(plan.floor_rounds / max(1, math.ceil(plan.spectator_moves / SPECTATOR_BLOCK))))
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        env = server_env(Path(tmp), database_url=None, redis_url=None, prefix="floor")
        server = Server(env, Path(tmp) / "daphne.log", app="bench.live.floor_app:app")
        server.start()
        try:
            async with client() as http:
                bare = floor.Floor(server, http)
                await bare.open(plan.spectators, 14_400)
                try:
                    watched = await scenario.spectators(
                        site,
                        plan.spectators,
                        plan.spectator_moves,
                        plan.push_timeout,
                        block=SPECTATOR_BLOCK,
                        between=lambda size: bare.block(rounds_per_block, size),
                    )
                finally:
                    await bare.close()
        finally:
            server.stop()
    measured = {
        "sockets": plan.spectators,
        "size": round(statistics.mean(bare.sizes)) if bare.sizes else None,
        "rounds": bare.rounds,
        "blocks": bare.blocks,
    }
    return watched, {**measured, **bare.result()}


async def ramp(site: Any, pairs: Any, plan: Plan, sequential: dict[str, Any]) -> dict[str, Any]:
    """The saturation ramp: offered rates rise until pushes fall behind (see docs/performance.md)."""
    return await scenario.saturation(
        site,
        pairs,
        plan.rates(),
        plan.step_seconds,
        plan.push_timeout,
        limit_ms(plan, sequential),
        plan.min_completion,
        plan.ramp_time_limit,
        plan.ramp_refine,
    )


async def two_processes(servers: list[Server], plan: Plan, tag: str, *, with_ramp: bool) -> dict[str, Any]:
    async with client() as http:
        site = scenario.Site(http, servers, tag)
        log(f"{tag}: {plan.matches} matches, each match's players on different processes")
        pairs = await scenario.make_pairs(site, plan.matches, split=True)
        out: dict[str, Any] = {"processes": 2, "matches": plan.matches, "sockets": 4 * plan.matches}
        out["idle_cpu_ms_per_s"] = round(await scenario.idle_cpu(servers, plan.idle_seconds) * 1000, 2)
        out["sequential"] = await scenario.sequential_moves(site, pairs, plan.sequential_moves, plan.push_timeout)
        out["steady"] = await scenario.at_rate(site, pairs, plan.steady_rate, plan.steady_seconds, plan.push_timeout)
        if with_ramp:
            log(f"{tag}: saturation ramp {plan.rates()}")
            out["saturation"] = await ramp(site, pairs, plan, out["sequential"])
        out["matches_started"] = site.setups
        await scenario.close_pairs(pairs)
        return out


def run_sqlite(plan: Plan, workdir: Path, repo: Path, *, with_ramp: bool) -> dict[str, Any]:
    home = workdir / "sqlite"
    home.mkdir()
    env = server_env(home, database_url=None, redis_url=None, prefix="")
    log("SQLite: migrating a fresh database")
    migrate(env, home / "migrate.log", repo)
    server = Server(env, home / "daphne.log", repo)
    server.start()
    try:
        return asyncio.run(one_process(server, plan, "sq", with_spectators=True, with_ramp=with_ramp))
    finally:
        server.stop()


def run_postgres(
    plan: Plan, workdir: Path, args: argparse.Namespace, pg: dict[str, Any], *, with_ramp: bool
) -> dict[str, Any]:
    home = workdir / "postgres"
    home.mkdir()
    name = f"bench_live_{os.getpid()}"
    prefix = f"bench-live-{os.getpid()}-"
    admin = args.postgres_admin_url
    database_url = admin.rsplit("/", 1)[0] + "/" + name
    create_postgres_database(admin, name)
    servers: list[Server] = []
    try:
        env = server_env(home, database_url=database_url, redis_url=args.redis_url, prefix=prefix)
        log(f"PostgreSQL + Redis: migrating database {name}")
        migrate(env, home / "migrate.log", args.repo)
        servers.append(Server(env, home / "daphne-1.log", args.repo))
        servers[0].start()
        pg["one"] = asyncio.run(one_process(servers[0], plan, "pa", with_spectators=False, with_ramp=with_ramp))
        servers.append(Server(env, home / "daphne-2.log", args.repo))
        servers[1].start()
        pg["two"] = asyncio.run(two_processes(servers, plan, "pb", with_ramp=with_ramp))
        pg.update(cpu_two_over_one(pg["one"], pg["two"]))
        return pg
    finally:
        for server in servers:
            server.stop()
        drop_postgres_database(admin, name)
        delete_redis_keys(args.redis_url, prefix)


def _busy_ms_per_move(data: dict[str, Any], phase: str) -> float | None:
    """CPU per move of a phase less what the processes spend idle (the sweeper's timer, per process)
    over the phase's duration: the work the moves caused."""
    cpu, seconds = _get(data, phase, "cpu_ms_per_move"), _get(data, phase, "seconds")
    idle, moves = data.get("idle_cpu_ms_per_s"), _get(data, phase, "moves")
    if cpu is None or seconds is None or idle is None or not moves:
        return None
    return cpu - idle * seconds / moves


def cpu_two_over_one(one: dict[str, Any], two: dict[str, Any]) -> dict[str, Any]:
    """Server CPU per move summed over both processes, over that of one process (target at most 1.15x):
    one at a time, at the steady rate, and one at a time with the idle processes' own CPU taken out."""

    def ratio(a: float | None, b: float | None) -> float | None:
        return round(a / b, 2) if a is not None and b else None

    return {
        "cpu_per_move_two_over_one": ratio(
            _get(two, "sequential", "cpu_ms_per_move"), _get(one, "sequential", "cpu_ms_per_move")
        ),
        "steady_cpu_per_move_two_over_one": ratio(
            _get(two, "steady", "cpu_ms_per_move"), _get(one, "steady", "cpu_ms_per_move")
        ),
        "busy_cpu_per_move_two_over_one": ratio(
            _busy_ms_per_move(two, "sequential"), _busy_ms_per_move(one, "sequential")
        ),
    }


# --- the report -----------------------------------------------------------------------------------


def _get(data: dict[str, Any] | None, *path: str) -> Any:
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) < 100 else f"{value:.0f}"
    return str(value)


def table(results: dict[str, Any]) -> str:
    columns = [("SQLite, 1 proc", results.get("sqlite"))]
    pg = results.get("postgres") or {}
    if pg:
        columns += [("PG+Redis, 1 proc", pg.get("one")), ("PG+Redis, 2 procs", pg.get("two"))]
    rows = [
        ("server CPU per move (ms)", ("sequential", "cpu_ms_per_move")),
        ("server CPU per plain page (ms)", ("plain_page", "cpu_ms_per_request")),
        ("move / plain page CPU ratio", ("move_to_page_cpu_ratio",)),
        ("queries per move (POST + pushes)", ("sequential", "queries_per_move")),
        ("background queries per s (sweeper)", ("sequential", "background_queries_per_s")),
        ("badge frames per move", ("sequential", "badge_frames_per_move")),
        ("push p50 unloaded (ms)", ("sequential", "push_ms_p50")),
        ("steady rate offered (moves/s)", ("steady", "offered_per_s")),
        ("steady: achieved (moves/s)", ("steady", "achieved_per_s")),
        ("steady: push p50 (ms)", ("steady", "push_ms_p50")),
        ("steady: push p99 (ms)", ("steady", "push_ms_p99")),
        ("steady: POST p99 (ms)", ("steady", "post_ms_p99")),
        ("steady: CPU per move (ms)", ("steady", "cpu_ms_per_move")),
        ("saturation (moves/s sustained)", ("saturation", "saturation_moves_per_s")),
        ("idle server CPU (ms per s)", ("idle_cpu_ms_per_s",)),
        ("matches / sockets", ("sockets",)),
    ]
    width = max(len(r[0]) for r in rows) + 2
    lines = ["".ljust(width) + "".join(name.rjust(20) for name, _ in columns)]
    for label, path in rows:
        cells = []
        for _, data in columns:
            value = _get(data, *path)
            if path == ("sockets",) and data:
                value = f"{data['matches']} / {data['sockets']}"
            cells.append(_fmt(value).rjust(20))
        lines.append(label.ljust(width) + "".join(cells))
    spect = _get(results, "sqlite", "spectators")
    if spect:
        lines.append("")
        lines.append(
            f"{spect['spectators']} spectators on one match (SQLite): CPU per move {spect['cpu_ms_per_move_alone']} ms "
            f"alone, {spect['cpu_ms_per_move_watched']} ms watched: +{spect['cpu_added_percent']}% "
            f"(push to the last spectator p50 {_fmt(spect['push_to_last_spectator_ms_p50'])} ms, "
            f"p99 {_fmt(spect['push_to_last_spectator_ms_p99'])} ms)"
        )
    floor_data = _get(results, "sqlite", "frame_floor")
    if spect and floor_data and floor_data["size"] is not None:
        over = _get(results, "sqlite", "spectator_frame_over_floor")
        with_render = _get(results, "sqlite", "spectator_frame_with_render_over_floor")
        lines.append(
            f"A spectator's frame: {_fmt(spect['cpu_us_per_more_spectator_frame'])} us of server CPU (1 spectator: "
            f"{_fmt(spect['cpu_ms_per_move_one_spectator'])} ms per move, {spect['spectators']}: "
            f"{_fmt(spect['cpu_ms_per_move_watched'])} ms); daphne alone, {floor_data['sockets']} sockets, frames of "
            f"{floor_data['size']:,} characters: {floor_data['frame_us']:.0f} us: {_fmt(over)}x "
            f"(target at most {FRAME_OVER_FLOOR_TARGET}x); with a share of the view's render, "
            f"{_fmt(spect['cpu_us_per_spectator_frame'])} us: {_fmt(with_render)}x"
        )
    pg = results.get("postgres") or {}
    if pg.get("cpu_per_move_two_over_one") is not None:
        lines.append(
            "PostgreSQL + Redis: server CPU per move, two processes (summed) / one process: "
            f"one at a time {_fmt(pg['cpu_per_move_two_over_one'])}x, at the steady rate "
            f"{_fmt(pg.get('steady_cpu_per_move_two_over_one'))}x, one at a time less the idle processes' own CPU "
            f"{_fmt(pg.get('busy_cpu_per_move_two_over_one'))}x (target at most {TWO_OVER_ONE_TARGET}x)"
        )
    ratio = _get(results, "postgres", "two_over_one")
    if ratio is not None:
        cores = _get(results, "machine", "cores") or 0
        note = "" if cores >= 4 else f" (not meaningful on {cores} cores: servers, databases and clients share them)"
        lines.append(f"PostgreSQL + Redis: two processes / one process throughput = {ratio}x{note}")
    for name, data in columns:
        steps = _get(data, "saturation", "steps") or []
        if steps:
            lines.append("")
            limit = _get(data, "saturation", "push_p99_limit_ms")
            lines.append(
                f"{name}: saturation ramp (offered -> achieved moves/s, push p99 ms, completion); "
                f"a step fails at push p99 > {_fmt(limit)} ms or completion < {plan_completion(data)}"
            )
            for s in steps:
                mark = ("ok" if s["sustained"] else "FAILS") + ("  (between the steps)" if s.get("refining") else "")
                lines.append(
                    f"  {s['offered_per_s']:>7} -> {s['achieved_per_s']:>7}  p99 {_fmt(s['push_ms_p99']):>8}  "
                    f"completion {s['completion']:.2f}  CPU/move {_fmt(s['cpu_ms_per_move'])} ms  "
                    f"clients {s.get('client_cpu_share', 0):.0%} of a core  {mark}"
                )
    return "\n".join(lines)


def plan_completion(data: dict[str, Any] | None) -> str:
    value = _get(data, "saturation", "min_completion")
    return "-" if value is None else f"{value:.2f}"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="small numbers: a smoke test in under a minute")
    p.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    p.add_argument("--no-postgres", action="store_true", help="SQLite only (no PostgreSQL + Redis runs)")
    p.add_argument("--no-ramp", action="store_true", help="skip the saturation ramps and the two-process run")
    p.add_argument(
        "--postgres-admin-url",
        default=os.environ.get("BENCH_POSTGRES_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL database to connect to while creating and dropping the bench database",
    )
    p.add_argument(
        "--repo",
        type=Path,
        default=REPO,
        help="run the site from this checkout (default: this one); measure before and after back to back",
    )
    p.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"))
    for f in fields(Plan):
        p.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    # Stopped from outside (a CI timeout, kill, Ctrl-C even when started in the background): unwind
    # through the `finally` blocks so the servers are stopped and the bench database dropped.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    args = parse_args(argv)
    args.repo = args.repo.resolve()
    plan = QUICK if args.quick else Plan()
    overrides = {f.name: getattr(args, f.name) for f in fields(Plan) if getattr(args, f.name) is not None}
    plan = replace(plan, **overrides)
    for url in (args.postgres_admin_url, args.redis_url):
        if urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
            raise SystemExit(f"bench-live only talks to this machine; refusing {url}")
    raise_open_files_limit()
    started = time.monotonic()
    results: dict[str, Any] = {"machine": machine(args.repo), "plan": plan.__dict__, "quick": args.quick}
    workdir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    try:
        results["sqlite"] = run_sqlite(plan, workdir, args.repo, with_ramp=not args.no_ramp)
        if not args.no_postgres:
            pg: dict[str, Any] = {}
            results["postgres"] = pg
            run_postgres(plan, workdir, args, pg, with_ramp=not args.no_ramp)
            one = _get(pg, "one", "saturation", "saturation_moves_per_s")
            two = _get(pg, "two", "saturation", "saturation_moves_per_s")
            pg["two_over_one"] = round(two / one, 2) if one and two is not None else None
    except BaseException as exc:
        log(f"failed; server logs kept in {workdir}")
        if args.json:  # what was measured before the failure is kept
            results["error"] = f"{type(exc).__name__}: {exc}"
            args.json.write_text(json.dumps(results, indent=2) + "\n")
        raise
    results["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    results["seconds"] = round(time.monotonic() - started, 1)
    print(table(results))
    print(
        f"\n(run took {results['seconds']} s; load average {results['machine']['load_average_at_start']} at start, "
        f"{results['machine']['load_average_at_end']} at end: wall-clock figures are noisy, CPU figures less so)"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
