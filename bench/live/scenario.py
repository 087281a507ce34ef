"""The scripted players and the measured phases.

Every figure comes from what a browser sees (HTTP replies, WebSocket frames and when they arrive), the
server processes' CPU time (/proc) and the bench-only query counter. Nothing here imports the site.
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.live.client import Browser, Socket, invite_path, invite_token, legal_squares, versions_in
from bench.live.server import Server

PASSWORD = "bench-live-Pa55word!"
_MATCH_PATH = re.compile(r"/m/(\d+)/")


class BenchError(RuntimeError):
    """The site did not behave as the script expects (a step that a browser would see fail)."""


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


@dataclass
class Player:
    browser: Browser
    server: Server
    match_sock: Socket | None = None
    me_sock: Socket | None = None
    reply_version: int | None = None
    reply_text: str = ""

    def view(self) -> tuple[int | None, str]:
        """The newest state this player has been shown: its own POST reply or a pushed frame."""
        sock = self.match_sock
        if (
            sock is not None
            and sock.latest_version is not None
            and (self.reply_version is None or sock.latest_version > self.reply_version)
        ):
            return sock.latest_version, sock.latest_text
        return self.reply_version, self.reply_text


@dataclass
class Pair:
    """Two people playing Reversi against each other, one match at a time."""

    players: list[Player]
    public: bool = True
    match_id: int = 0
    version: int = 0
    busy: bool = False
    over: bool = False
    matches: int = 0
    rng: random.Random = field(default_factory=random.Random)


@dataclass
class Move:
    sent: float
    replied: float | None = None
    status: int = 0
    pushed: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.pushed is not None


class Site:
    """The browsers of one benchmark run, against one or two server processes."""

    def __init__(self, client: httpx.AsyncClient, servers: list[Server], tag: str, seed: int = 1) -> None:
        self.client = client
        self.servers = servers
        self.tag = tag
        self.rng = random.Random(seed)
        self.users = 0
        self.setups = 0

    def browser(self, server: Server) -> Browser:
        return Browser(self.client, server.base, server.ws_base)

    # --- accounts ---------------------------------------------------------------------------------

    async def sign_up(self, server: Server) -> Browser:
        """A new account (the sign-up form), then a log-in from a fresh browser, as a returning person."""
        self.users += 1
        username = f"{self.tag}{self.users}"
        first = self.browser(server)
        await first.get("/accounts/signup/")
        data = {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD}
        r = await first.post("/accounts/signup/", data, follow=False)
        if not r.is_redirect or "sessionid" not in first.cookies:
            raise BenchError(f"sign-up of {username} failed: HTTP {r.status_code}")
        browser = self.browser(server)
        await browser.get("/accounts/login/")
        r = await browser.post("/accounts/login/", {"username": username, "password": PASSWORD}, follow=False)
        if not r.is_redirect or "sessionid" not in browser.cookies:
            raise BenchError(f"log-in of {username} failed: HTTP {r.status_code}")
        browser.username = username
        return browser

    async def new_pair(self, servers: tuple[Server, Server], public: bool = True) -> Pair:
        a, b = await asyncio.gather(self.sign_up(servers[0]), self.sign_up(servers[1]))
        pair = Pair([Player(a, servers[0]), Player(b, servers[1])], public=public)
        pair.rng.seed(self.rng.random())
        for player in pair.players:
            player.me_sock = await player.browser.open_socket("/ws/me/")
        await self.start_match(pair)
        return pair

    # --- a match ----------------------------------------------------------------------------------

    async def start_match(self, pair: Pair, timeout: float = 30) -> None:
        """Create a match, join it through the invitation link, open both match pages and sockets."""
        self.setups += 1
        creator, joiner = pair.players
        form = {"game": "reversi", "players": "2", "pace": "", "seat_1": "human"}
        if pair.public:
            form["is_public"] = "on"
        r = await creator.browser.post("/new/", form)
        m = _MATCH_PATH.search(r.url.path)
        link = invite_path(r.text)
        if r.status_code != 200 or m is None or link is None:
            raise BenchError(f"creating a match failed: HTTP {r.status_code} at {r.url.path}")
        match_id = int(m.group(1))
        r = await joiner.browser.get(link)
        token = invite_token(r.text)
        if token is None:
            raise BenchError(f"the invitation page of match {match_id} has no join form (HTTP {r.status_code})")
        joined = await joiner.browser.post(f"/m/{match_id}/join/", {"token": token})
        if joined.status_code != 200 or _MATCH_PATH.search(joined.url.path) is None:
            raise BenchError(f"joining match {match_id} failed: HTTP {joined.status_code}")
        # The creator's page still shows the waiting match: it reloads, as the page would on its push.
        pages = [await creator.browser.get(f"/m/{match_id}/"), joined]
        for player, page in zip(pair.players, pages, strict=True):
            if player.match_sock is not None:
                await player.match_sock.close()
            player.reply_version, player.reply_text = versions_in(page.text), page.text
            player.match_sock = await player.browser.open_socket(f"/ws/match/{match_id}/")
        for player in pair.players:
            assert player.match_sock is not None
            # A page that connects is sent the full current state.
            await player.match_sock.wait_frames(1, timeout)
        versions = [v for v in (p.view()[0] for p in pair.players) if v is not None]
        if not versions:
            raise BenchError(f"match {match_id}: no version found in its page or frames")
        pair.match_id, pair.version, pair.over = match_id, max(versions), False
        pair.matches += 1

    async def resync(self, pair: Pair) -> tuple[Player, list[str]] | None:
        """Ask the JSON API (as a client would after losing track) who may move, and where."""
        for player in pair.players:
            r = await player.browser.get(f"/api/matches/{pair.match_id}/")
            if r.status_code != 200:
                continue
            state = r.json()
            pair.version = max(pair.version, int(state["version"]))
            if state["status"] != "active":
                pair.over = True
                return None
            squares = [a["square"] for a in state.get("legal", []) if a.get("type") == "place"]
            if squares:
                return player, squares
        return None

    async def to_move(self, pair: Pair) -> tuple[Player, list[str]] | None:
        for player in pair.players:
            version, text = player.view()
            if version == pair.version:
                squares = legal_squares(text)
                if squares:
                    return player, squares
        return await self.resync(pair)

    async def move(self, pair: Pair, push_timeout: float, watchers: list[Socket] | None = None) -> Move | None:
        """One legal move by whoever is to move, timed until the opponent's socket shows it.

        ``watchers`` (spectators' sockets) must all show it too before the move counts as done.
        Returns None when the match is over (nothing was sent).
        """
        chosen = await self.to_move(pair)
        if chosen is None:
            return None
        player, squares = chosen
        opponent = pair.players[1] if player is pair.players[0] else pair.players[0]
        data = {"version": str(pair.version), "type": "place", "square": pair.rng.choice(squares)}
        move = Move(sent=time.perf_counter())
        r = await player.browser.post(f"/m/{pair.match_id}/act/", data, htmx=True, follow=False)
        move.replied, move.status = time.perf_counter(), r.status_code
        if r.status_code != 200:
            await self.resync(pair)
            return move
        # A reply without a version (a bare acknowledgement) still means the next version is on its way.
        new_version = versions_in(r.text) or pair.version + 1
        if new_version <= pair.version:
            await self.resync(pair)
            return move
        player.reply_version, player.reply_text = new_version, r.text
        assert opponent.match_sock is not None
        frame = await opponent.match_sock.wait_version(new_version, move.sent, push_timeout)
        pair.version = new_version
        if frame is None:
            return move
        move.pushed = frame.at
        if watchers:
            remaining = push_timeout - (time.perf_counter() - move.sent)
            seen = await asyncio.gather(*(w.wait_version(new_version, move.sent, remaining) for w in watchers))
            # Done when the last spectator has it.
            move.pushed = None if any(f is None for f in seen) else max([frame.at, *(f.at for f in seen if f)])
        return move


# --- measuring ------------------------------------------------------------------------------------


def cpu(servers: list[Server]) -> float:
    return sum(s.cpu_seconds() for s in servers)


async def settle(servers: list[Server], quiet: float = 0.3, limit: float = 8) -> bool:
    """Wait until the servers stop using CPU (pushes still being delivered, connections closing)."""
    deadline = time.monotonic() + limit
    last = cpu(servers)
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        now = cpu(servers)
        if now - last > 0.011:
            quiet_since = time.monotonic()
        last = now
        if time.monotonic() - quiet_since >= quiet:
            return True
    return False


# An overloaded server can take long to work off the pushes queued by a load phase; the next phase
# must not start (or be charged) with that backlog.
DRAIN_LIMIT = 90.0


async def queries(client: httpx.AsyncClient, servers: list[Server]) -> tuple[int, int]:
    """Statements run so far by requests and sockets, and by the background threads (on a timer)."""
    total = background = 0
    for server in servers:
        r = await client.get(f"{server.base}/__bench__/queries/")
        total += int(r.json()["total"])
        background += int(r.json().get("background", 0))
    return total, background


async def idle_cpu(servers: list[Server], seconds: float) -> float:
    """CPU the servers use per second while nobody does anything (background loops)."""
    before = cpu(servers)
    await asyncio.sleep(seconds)
    return (cpu(servers) - before) / seconds


async def plain_pages(site: Site, servers: list[Server], count: int, concurrency: int = 4) -> dict[str, Any]:
    """The floor: anonymous GETs of the log-in page, CPU per request."""
    browsers = [site.browser(servers[i % len(servers)]) for i in range(concurrency)]
    await asyncio.gather(*(b.get("/accounts/login/") for b in browsers))  # warm every code path once
    await settle(servers)
    before = cpu(servers)
    walls: list[float] = []

    async def worker(browser: Browser, n: int) -> None:
        for _ in range(n):
            browser.cookies.clear()
            t = time.perf_counter()
            r = await browser.get("/accounts/login/")
            walls.append(time.perf_counter() - t)
            if r.status_code != 200:
                raise BenchError(f"log-in page answered HTTP {r.status_code}")

    per = max(1, count // concurrency)
    await asyncio.gather(*(worker(b, per) for b in browsers))
    await settle(servers)
    spent = cpu(servers) - before
    return {
        "requests": len(walls),
        "cpu_ms_per_request": round(spent / len(walls) * 1000, 3),
        "wall_ms_p50": ms(percentile(walls, 50)),
    }


def _latencies(moves: list[Move]) -> dict[str, Any]:
    pushes = [m.pushed - m.sent for m in moves if m.pushed is not None]
    posts = [m.replied - m.sent for m in moves if m.replied is not None]
    return {
        "push_ms_p50": ms(percentile(pushes, 50)),
        "push_ms_p99": ms(percentile(pushes, 99)),
        "push_ms_max": ms(max(pushes) if pushes else None),
        "post_ms_p50": ms(percentile(posts, 50)),
        "post_ms_p99": ms(percentile(posts, 99)),
    }


@dataclass
class OneAtATime:
    """What a run of moves played one at a time cost: runs add up (the spectators' blocks)."""

    moves: list[Move] = field(default_factory=list)
    cpu: float = 0.0
    queries: int = 0
    background_queries: int = 0
    seconds: float = 0.0
    badge_frames: int = 0
    new_matches: int = 0

    def __add__(self, other: OneAtATime) -> OneAtATime:
        return OneAtATime(
            self.moves + other.moves,
            self.cpu + other.cpu,
            self.queries + other.queries,
            self.background_queries + other.background_queries,
            self.seconds + other.seconds,
            self.badge_frames + other.badge_frames,
            self.new_matches + other.new_matches,
        )

    def summary(self) -> dict[str, Any]:
        done = [m for m in self.moves if m.ok]
        accepted = [m for m in self.moves if m.status == 200]
        if not done:
            raise BenchError("no move completed with its push")
        return {
            "moves": len(self.moves),
            "completed": len(done),
            "cpu_ms_per_move": round(self.cpu / len(accepted) * 1000, 3),
            "queries_per_move": round(self.queries / len(accepted), 2),
            "background_queries_per_s": round(self.background_queries / max(self.seconds, 1e-9), 2),
            "badge_frames_per_move": round(self.badge_frames / len(accepted), 2),
            "new_matches_during": self.new_matches,
            "seconds": round(self.seconds, 3),
            **_latencies(self.moves),
        }


async def one_at_a_time(
    site: Site, pairs: list[Pair], count: int, push_timeout: float, watchers: list[Socket] | None = None
) -> OneAtATime:
    """Play ``count`` moves one at a time (each waits for its push, to ``watchers`` too if given)."""
    servers = site.servers
    await settle(servers)
    q0 = await queries(site.client, servers)
    t0 = time.monotonic()
    await settle(servers)
    c0 = cpu(servers)
    frames0 = sum(len(p.me_sock.frames) for pair in pairs for p in pair.players if p.me_sock)
    setups0 = site.setups
    moves: list[Move] = []
    for i in range(count * 3):  # a finished match is skipped; bounded all the same
        if len(moves) >= count:
            break
        pair = pairs[i % len(pairs)]
        if pair.over:
            continue
        move = await site.move(pair, push_timeout, watchers)
        if move is not None:
            moves.append(move)
    await settle(servers, limit=DRAIN_LIMIT)
    spent = cpu(servers) - c0
    q1 = await queries(site.client, servers)
    return OneAtATime(
        moves=moves,
        cpu=spent,
        queries=q1[0] - q0[0],
        background_queries=q1[1] - q0[1],
        seconds=time.monotonic() - t0,
        badge_frames=sum(len(p.me_sock.frames) for pair in pairs for p in pair.players if p.me_sock) - frames0,
        new_matches=site.setups - setups0,
    )


async def sequential_moves(
    site: Site, pairs: list[Pair], count: int, push_timeout: float, watchers: list[Socket] | None = None
) -> dict[str, Any]:
    """Moves one at a time (each waits for its push): CPU and queries per move, unloaded latency."""
    return (await one_at_a_time(site, pairs, count, push_timeout, watchers)).summary()


async def at_rate(site: Site, pairs: list[Pair], rate: float, duration: float, push_timeout: float) -> dict[str, Any]:
    """Offer ``rate`` moves/s for ``duration`` s, round robin over the pairs free to move."""
    servers = site.servers
    started_quiet = await settle(servers, limit=DRAIN_LIMIT)
    c0 = cpu(servers)
    moves: list[Move] = []
    tasks: set[asyncio.Task[None]] = set()
    offered = max(1, round(rate * duration))
    skipped = 0
    cursor = 0

    failures: list[str] = []

    async def play(pair: Pair) -> None:
        try:
            move = await site.move(pair, push_timeout)
            if move is not None:
                moves.append(move)
            if pair.over:
                await site.start_match(pair)  # the same two people start their next match
        except (httpx.HTTPError, OSError, BenchError) as exc:
            # A client that gives up (a timeout, a refused connection) is a failed move, not a crash.
            failures.append(f"{type(exc).__name__}: {exc}")
        finally:
            pair.busy = False

    start = time.perf_counter()
    # The clients share the machine (and measure latency on their own event loop): their CPU tells
    # whether a step failed in the server or in the harness.
    client_cpu0 = time.process_time()
    for k in range(offered):
        delay = start + k / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        chosen = None
        for j in range(len(pairs)):
            pair = pairs[(cursor + j) % len(pairs)]
            if not pair.busy:
                chosen, cursor = pair, (cursor + j + 1) % len(pairs)
                break
        if chosen is None:
            skipped += 1  # every match is still waiting on its last move: the offer cannot be placed
            continue
        chosen.busy = True
        task = asyncio.get_running_loop().create_task(play(chosen))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    offer_time = time.perf_counter() - start
    if tasks:
        await asyncio.wait(set(tasks), timeout=push_timeout + 30)
    client_share = (time.process_time() - client_cpu0) / max(time.perf_counter() - start, 1e-9)
    for task in list(tasks):
        task.cancel()
    drained = await settle(servers, limit=DRAIN_LIMIT)
    spent = cpu(servers) - c0
    done = [m for m in moves if m.ok]
    errors = [m for m in moves if m.status != 200]
    # Every accepted move costs its pushes, whether or not they arrived in time: CPU is per accepted move.
    accepted = len(moves) - len(errors)
    return {
        "offered_per_s": round(rate, 1),
        "offered": offered,
        "not_placed": skipped,
        "moves": len(moves),
        "completed": len(done),
        "http_errors": len(errors),
        "client_errors": len(failures),
        "started_quiet": started_quiet,
        "drained": drained,
        "first_client_error": failures[0] if failures else None,
        "pushes_missing": len([m for m in moves if m.status == 200 and m.pushed is None]),
        "completion": round(len(done) / offered, 3),
        "achieved_per_s": round(len(done) / max(offer_time, duration), 1),
        "cpu_ms_per_move": round(spent / accepted * 1000, 3) if accepted else None,
        "client_cpu_share": round(client_share, 2),
        **_latencies(moves),
    }


def sustained(step: dict[str, Any], p99_limit_ms: float, min_completion: float) -> bool:
    p99 = step["push_ms_p99"]
    return step["completion"] >= min_completion and p99 is not None and p99 <= p99_limit_ms


async def saturation(
    site: Site,
    pairs: list[Pair],
    rates: list[float],
    step_seconds: float,
    push_timeout: float,
    p99_limit_ms: float,
    min_completion: float,
    time_limit: float,
    refine: int = 0,
) -> dict[str, Any]:
    """Raise the offered rate step by step until push p99 or completion falls apart; then try ``refine``
    rates between the last step sustained and the one that failed (evenly spaced by ratio), upward until
    one fails, so the figure is not limited to the ramp's coarse steps."""
    steps = []
    best: dict[str, Any] | None = None
    failed: float | None = None
    started = time.monotonic()
    for rate in rates:
        if time.monotonic() - started > time_limit:
            break
        step = await at_rate(site, pairs, rate, step_seconds, push_timeout)
        step["sustained"] = sustained(step, p99_limit_ms, min_completion)
        steps.append(step)
        if not step["sustained"]:
            failed = rate
            break
        best = step
    if best is not None and failed is not None:
        low = best["offered_per_s"]
        for k in range(1, refine + 1):
            step = await at_rate(site, pairs, low * (failed / low) ** (k / (refine + 1)), step_seconds, push_timeout)
            step["sustained"] = sustained(step, p99_limit_ms, min_completion)
            step["refining"] = True
            steps.append(step)
            if not step["sustained"]:
                break
            best = step
    return {
        "saturation_moves_per_s": best["achieved_per_s"] if best else 0.0,
        "push_p99_limit_ms": p99_limit_ms,
        "min_completion": min_completion,
        "highest_sustained_offer": best["offered_per_s"] if best else None,
        "reached_top_of_ramp": bool(steps) and steps[-1]["sustained"],
        "steps": steps,
    }


async def close_pairs(pairs: list[Pair]) -> None:
    socks = [s for pair in pairs for p in pair.players for s in (p.match_sock, p.me_sock) if s is not None]
    await asyncio.gather(*(s.close() for s in socks))


async def make_pairs(site: Site, count: int, split: bool, concurrency: int = 8) -> list[Pair]:
    """``count`` pairs with a started match each; ``split``: the two players on different servers."""
    servers = site.servers
    placement = (servers[0], servers[1]) if split and len(servers) > 1 else (servers[0], servers[0])
    limit = asyncio.Semaphore(concurrency)

    async def one() -> Pair:
        async with limit:
            for attempt in range(3):
                try:
                    return await site.new_pair(placement)
                except (httpx.TransportError, BenchError):
                    # An overloaded server may drop a connection mid-setup: new people try again.
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def spectators(
    site: Site,
    count: int,
    moves: int,
    push_timeout: float,
    concurrency: int = 8,
    warmup: int = 10,
    block: int = 5,
    between: Callable[[int], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """CPU per move of a public match nobody watches, of one a single person watches, and of one
    ``count`` people watch, their moves taken in turn in blocks of ``block`` (a block here, a block
    there, each measured apart), so that a machine whose speed drifts during the run charges all three
    the same. One spectator against ``count``: what each more spectator costs, the one render of their
    view (made as soon as anyone watches) left out. ``between`` is awaited after each turn of the
    three with the size of the frame the spectators were just sent (the frame floor's rounds go there,
    so that the drift charges them alike too)."""
    server = site.servers[0]
    alone_pair = await site.new_pair((server, server), public=True)
    single_pair = await site.new_pair((server, server), public=True)
    watched_pair = await site.new_pair((server, server), public=True)
    # Into the middlegame first: the first moves of a match cost less (a shorter event list to show).
    for pair in (alone_pair, single_pair, watched_pair):
        await sequential_moves(site, [pair], warmup, push_timeout)
    limit = asyncio.Semaphore(concurrency)
    watchers: list[Player] = []
    single: list[Player] = []

    async def watcher(pair: Pair, into: list[Player]) -> None:
        async with limit:
            browser = await site.sign_up(server)
            player = Player(browser, server)
            await browser.get(f"/m/{pair.match_id}/")
            player.me_sock = await browser.open_socket("/ws/me/")
            player.match_sock = await browser.open_socket(f"/ws/match/{pair.match_id}/")
            await player.match_sock.wait_frames(1, push_timeout)
            into.append(player)

    await asyncio.gather(watcher(single_pair, single), *(watcher(watched_pair, watchers) for _ in range(count)))
    socks = [w.match_sock for w in watchers if w.match_sock is not None]
    single_socks = [w.match_sock for w in single if w.match_sock is not None]
    alone_runs, single_runs, watched_runs = OneAtATime(), OneAtATime(), OneAtATime()
    block_sizes: list[int] = []
    for done in range(0, moves, block):
        if alone_pair.over or single_pair.over or watched_pair.over:
            break
        n = min(block, moves - done)
        alone_runs += await one_at_a_time(site, [alone_pair], n, push_timeout)
        single_runs += await one_at_a_time(site, [single_pair], n, push_timeout, watchers=single_socks)
        # A move must not start before the last one reached every spectator, or the backlog, not the
        # spectators, is measured.
        watched_runs += await one_at_a_time(site, [watched_pair], n, max(push_timeout, 15.0), watchers=socks)
        # The size of the frame each spectator is sent (their fragment in the middlegame): the frame
        # floor (bench.live.floor) is measured with frames of this size.
        sizes = [len(sock.latest_text) for sock in socks if sock.latest_text]
        if sizes:
            block_sizes.append(round(statistics.mean(sizes)))
            if between is not None:
                await between(block_sizes[-1])
    everyone = [*watchers, *single]
    await asyncio.gather(*(s.close() for w in everyone for s in (w.match_sock, w.me_sock) if s is not None))
    await close_pairs([alone_pair, single_pair, watched_pair])
    alone, one, watched = alone_runs.summary(), single_runs.summary(), watched_runs.summary()
    added = (watched["cpu_ms_per_move"] - alone["cpu_ms_per_move"]) / alone["cpu_ms_per_move"] * 100
    more = max(len(socks) - 1, 1)
    return {
        "spectators": count,
        "moves_each": alone["moves"],
        "cpu_ms_per_move_alone": alone["cpu_ms_per_move"],
        "cpu_ms_per_move_watched": watched["cpu_ms_per_move"],
        "cpu_added_percent": round(added, 1),
        # What one more spectator costs a move: their frame, and their share of the one render of the view.
        "cpu_us_per_spectator_frame": round(
            (watched["cpu_ms_per_move"] - alone["cpu_ms_per_move"]) / max(len(socks), 1) * 1000, 1
        ),
        "cpu_ms_per_move_one_spectator": one["cpu_ms_per_move"],
        # Each spectator past the first: their frame alone, the render shared by all left out.
        "cpu_us_per_more_spectator_frame": round(
            (watched["cpu_ms_per_move"] - one["cpu_ms_per_move"]) / more * 1000, 1
        ),
        "frame_chars": round(statistics.mean(block_sizes)) if block_sizes else None,
        "queries_per_move_alone": alone["queries_per_move"],
        "queries_per_move_watched": watched["queries_per_move"],
        # A watched move is done when the last spectator has it.
        "push_to_last_spectator_ms_p50": watched["push_ms_p50"],
        "push_to_last_spectator_ms_p99": watched["push_ms_p99"],
        "completed_watched": watched["completed"],
    }
