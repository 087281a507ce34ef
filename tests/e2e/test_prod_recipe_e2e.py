"""The production recipe (deploy/), brought up as docs/deployment.md says and put through what a
deployment meets: people in real browsers play through nginx while a daphne is killed, each daphne is
restarted in turn, the worker is killed and Redis is restarted; nothing is lost.

Its own PostgreSQL database, Redis server, ports and directory; all torn down at the end, also when
the test fails. Debian's nginx is required (the test fails, never skips, without it).
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from tests.deploy.support import Database, Stack, running_stack, wait_until
from tests.e2e.helpers import MARK_LIVE, TIMEOUT_MS, htmx_settled, invite_path, new_match, sign_up, wait_live

pytestmark = pytest.mark.slow

ACT = re.compile(r'"POST /m/(\d+)/act/ HTTP/1\.1" (\d{3}) .* upstream=127\.0\.0\.1:(\d+)')


@pytest.fixture(scope="module")
def recipe(request: pytest.FixtureRequest) -> Iterator[tuple[Stack, Database, float]]:
    failed_before = request.session.testsfailed
    with running_stack() as running:
        yield running
        if request.session.testsfailed > failed_before:
            # What each process said: a failed step alone rarely tells which process went wrong.
            print(running[0].logs())


SOCKETS: dict[Page, MatchSocket] = {}


def new_person(browser: Browser) -> tuple[BrowserContext, Page]:
    # The stack's certificate is its own (self-signed), as on a trial machine.
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1000, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(MARK_LIVE)
    page = context.new_page()
    SOCKETS[page] = MatchSocket(page)
    return context, page


class MatchSocket:
    """The page's latest match socket, as the browser sees it: a page may act once that socket is open
    and has delivered the match's state (a reconnect replaces the board; a click on the old one is lost)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.latest: WebSocket | None = None
        self.frames = 0
        page.on("websocket", self._opened)

    def _opened(self, socket: WebSocket) -> None:
        if "/ws/match/" not in socket.url:
            return
        self.latest, self.frames = socket, 0
        socket.on("framereceived", lambda _: self._frame(socket))

    def _frame(self, socket: WebSocket) -> None:
        if socket is self.latest:
            self.frames += 1

    def live(self) -> bool:
        return self.latest is not None and not self.latest.is_closed() and self.frames > 0


def wait_pages(pages: dict[str, Page], what: str, condition: Callable[[], bool]) -> None:
    """Wait for ``condition``, letting Playwright deliver the pages' events meanwhile."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    first = next(iter(pages.values()))
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"Timed out waiting for {what}.")
        first.wait_for_timeout(50)  # a poll that also runs the pages' event handlers


def version(page: Page) -> int:
    return int(page.locator("#match-body").get_attribute("data-version") or "0")


def play(pages: dict[str, Page]) -> int:
    """Whoever's turn it is plays their first legal square; every page shows the new version live.
    Returns that version."""
    wait_pages(pages, "every page's match socket to be open", lambda: all(SOCKETS[p].live() for p in pages.values()))
    for page in pages.values():
        htmx_settled(page)
    movers: list[Page] = []

    def someone_to_move() -> bool:
        movers[:] = [page for page in pages.values() if "Your turn." in page.locator("#match-body").inner_text()]
        return bool(movers)

    wait_until("a page to show the player's turn", someone_to_move, timeout=TIMEOUT_MS / 1000)
    mover = movers[0]
    before = version(mover)
    mover.locator("button.sq.legal").first.click()
    expect(mover.locator("#match-body")).not_to_have_attribute("data-version", str(before))
    after = version(mover)
    for page in pages.values():
        expect(page.locator("#match-body")).to_have_attribute("data-version", str(after))
    return after


def act_posts(recipe: Stack) -> list[tuple[int, int, int]]:
    """(match, status, daphne port) of every move posted through nginx so far, from its access log."""
    log = recipe.config.run_dir / "logs" / "nginx-access.log"
    return [tuple(map(int, m.groups())) for m in ACT.finditer(log.read_text())]  # type: ignore[misc]


def test_a_match_through_the_proxy_survives_kills_restarts_and_a_deploy(
    recipe: tuple[Stack, Database, float], browser: Browser
) -> None:
    stack, database, up_seconds = recipe
    base = stack.base
    figures = {"up_seconds": round(up_seconds, 1)}

    alice_context, alice = new_person(browser)
    _, bob = new_person(browser)
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    new_match(alice, "reversi", 2, {2: "human"}, public=False)
    expect(alice.get_by_role("status")).to_contain_text("Waiting for players")
    match_id = int(alice.url.rstrip("/").rsplit("/", 1)[1])
    bob.goto(base + invite_path(alice))
    bob.get_by_role("button", name="Take a seat").click()
    expect(alice.locator("#match-body")).to_contain_text("Your turn.")
    pages = {"alice": alice, "bob": bob}
    for page in pages.values():
        wait_live(page)
    moves = 0
    for _ in range(2):
        play(pages)
        moves += 1

    # kill -9 of a daphne mid-match: the pages whose sockets it held reconnect through nginx to the other
    # one, whose state they are sent; the next move goes there too, and both pages show it.
    killed_pid = stack.pid("web.1")
    assert killed_pid is not None
    killed_at = time.monotonic()
    os.kill(killed_pid, signal.SIGKILL)
    play(pages)
    moves += 1
    figures["failover_seconds"] = round(time.monotonic() - killed_at, 1)
    wait_until("web.1 to be restarted by the supervisor", lambda: stack.restarted("web.1", killed_pid))

    # Players on different daphne processes: every socket is on web.2 now (web.1 was down when the pages
    # reconnected), so a move web.1 handles reaches them only through Redis. Moves until nginx's round
    # robin hands one to web.1 (it skips web.1 for a few seconds after its failure).
    web1_port = stack.port("web.1")

    def sockets(name: str) -> int | None:
        return (stack.web_health(name) or {}).get("sockets")

    # Two pages, two sockets each (the match's and the turn badge's), all on web.2.
    wait_until("every socket to be on web.2", lambda: sockets("web.1") == 0 and sockets("web.2") == 4)
    posted_before = len(act_posts(stack))
    for _ in range(12):
        play(pages)
        moves += 1
        if any(m == match_id and port == web1_port for m, _, port in act_posts(stack)[posted_before:]):
            break
    else:
        pytest.fail(f"No move was handled by web.1 in 12 tries: {act_posts(stack)}")

    # A deploy: each daphne restarted in turn, a move after each; nothing is lost.
    for name in ("web.1", "web.2"):
        old = stack.pid(name)
        stack.command("restart-web", "--only", name)
        assert stack.pid(name) != old
        play(pages)
        moves += 1

    # Redis restarted (the stack's private one): every process subscribes again to what its pages
    # watch, and moves are pushed live again. (A move made while a process is cut off from Redis is
    # not pushed to its pages: they catch up at the next move or reconnect; docs/deployment.md.)
    assert stack.config.redis_port is not None
    redis_client = redis.Redis(port=stack.config.redis_port)
    subscribed = set(redis_client.pubsub_channels())
    assert subscribed, "no process subscribed to anything in Redis"
    redis_pid = stack.pid("redis")
    assert redis_pid is not None
    redis_killed_at = time.monotonic()
    os.kill(redis_pid, signal.SIGKILL)
    wait_until("Redis to be restarted by the supervisor", lambda: stack.restarted("redis", redis_pid))

    def subscribed_again() -> bool:
        try:
            return set(redis_client.pubsub_channels()) >= subscribed
        except redis.ConnectionError:
            return False

    wait_until("the web processes to subscribe again", subscribed_again)
    figures["redis_resubscribe_seconds"] = round(time.monotonic() - redis_killed_at, 1)
    play(pages)
    moves += 1

    with database.connect() as db:
        logged = db.execute("SELECT count(*) FROM games_move WHERE match_id = %s", [match_id]).fetchone()[0]
        stored_version = db.execute("SELECT version FROM games_match WHERE id = %s", [match_id]).fetchone()[0]
    assert logged == moves
    for page in pages.values():
        expect(page.locator("#match-body")).to_have_attribute("data-version", str(stored_version))

    # The worker killed while a computer move falls due: started again, it makes that move, once.
    solo = alice_context.new_page()
    solo.goto(base + "/")
    new_match(solo, "reversi", 2, {2: "bot"})
    body = solo.locator("#match-body")
    expect(body).to_contain_text("Your turn.")
    wait_live(solo)
    solo_id = int(solo.url.rstrip("/").rsplit("/", 1)[1])
    worker_pid = stack.pid("worker.1")
    assert worker_pid is not None
    os.kill(worker_pid, signal.SIGKILL)
    before = version(solo)
    solo.locator("button.sq.legal").first.click()
    wait_until("the worker to be restarted by the supervisor", lambda: stack.restarted("worker.1", worker_pid))
    expect(body).to_contain_text("Your turn.")
    expect(body).not_to_have_attribute("data-version", str(before))
    with database.connect() as db:
        rows = db.execute("SELECT seat FROM games_move WHERE match_id = %s ORDER BY seq", [solo_id])
        seats = [row[0] for row in rows]
    assert seats == [0, 1], f"the person's move, then the computer's once: {seats}"

    # Health and figures, summed across the processes.
    code, body_bytes = stack.get(f"{base}/healthz/")
    assert code == 200, body_bytes
    assert json.loads(body_bytes)["worker"] == "ok"
    code, text = stack.get(f"{base}/metrics")
    assert code == 200
    total = re.search(rb"^turnwise_moves_total ([0-9.e+]+)$", text, re.MULTILINE)
    assert total is not None and float(total.group(1)) >= moves + 2, text[:2000]
    print(f"\nproduction recipe: {figures}")


def test_the_proxy_serves_tls_static_files_and_the_client_address(recipe: tuple[Stack, Database, float]) -> None:
    stack, database, _ = recipe
    base = stack.base
    certificate = stack.config.ssl_context()
    with httpx.Client(verify=certificate, base_url=base, timeout=30) as client:
        # Plain HTTP is sent to HTTPS by nginx itself.
        plain = httpx.get(f"http://localhost:{stack.config.http_port}/lobby/?x=1", timeout=30)
        assert plain.status_code == 301
        assert plain.headers["location"] == f"{base}/lobby/?x=1"

        # Pages link static files by their hashed names, which nginx serves for a year (gzipped on request).
        page = client.get("/accounts/login/")
        assert page.status_code == 200
        assert "Strict-Transport-Security" in page.headers
        script = re.search(r'src="(/static/js/turnwise\.[0-9a-f]{12}\.js)"', page.text)
        assert script is not None, "the page does not link the hashed name"
        asset = client.get(script.group(1), headers={"Accept-Encoding": "gzip"})
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert asset.headers["content-encoding"] == "gzip"
        assert asset.headers["server"] == "nginx"

        # The health check asked directly of a daphne, over plain HTTP, is answered, not redirected.
        code, _ = stack.get(f"http://127.0.0.1:{stack.port('web.1')}/healthz/web/")
        assert code == 200

        # A failed log-in counts against the address nginx saw, not the one the client wrote.
        token = client.cookies["csrftoken"]
        refused = client.post(
            "/accounts/login/",
            data={"username": "nobody", "password": "wrong password", "csrfmiddlewaretoken": token},
            headers={"X-Forwarded-For": "203.0.113.9", "Origin": base, "Referer": f"{base}/accounts/login/"},
        )
        assert refused.status_code == 200, refused.text[:500]
    with database.connect() as db:
        addresses = [str(row[0]) for row in db.execute("SELECT ip_address FROM axes_accessattempt")]
    assert addresses == ["127.0.0.1"]
