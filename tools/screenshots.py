"""Screenshots of every game's table mid-match, for docs/screenshots/ (see docs/design.md).

    .venv/bin/python tools/screenshots.py            # all of them, into docs/screenshots/
    .venv/bin/python tools/screenshots.py --game dos # one game

It builds a throwaway SQLite database, seats "alice" and friends at one match of each game, plays
seeded legal moves through the services (the one door for changes) until it is alice's turn again
mid-match, starts the site on a free local port and photographs alice's page with Debian's Chromium
at 1280x800 and 375x812: light and dark in English, light in Assamese and Nepali. The same matches
are what the table's browser tests (tests/e2e/test_table_e2e.py) check, through ``mid_match``.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from random import Random
from typing import Any
from unittest.mock import patch

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a long enough secret 42"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"]
SIZES = {"wide": (1280, 800), "phone": (375, 812)}
# (language, colour scheme): light and dark in English, light in Assamese and Nepali.
LOOKS = [("en", "light"), ("en", "dark"), ("as", "light"), ("ne", "light")]
# Per game: players, and how many moves to play before stopping at alice's next turn.
GAMES = {"reversi": (2, 18), "dos": (4, 9), "tacocat": (2, 5), "backalley": (4, 10)}
FRIENDS = ["alice", "bob", "carol", "dan"]


def mid_match(
    game: str, users: list[Any], *, moves: int | None = None, players: int | None = None, seed: int = 7
) -> Any:
    """A match of ``game`` between ``users`` (the first is the one looked at; ``players`` of them, by
    default the table's size below), played with seeded
    legal moves until at least ``moves`` are made and it is the first user's turn: a table mid-match.
    Pushes are left out (nobody is watching yet)."""
    from games import registry, services
    from games.models import Match

    table, default_moves = GAMES[game]
    players = players or table
    moves = default_moves if moves is None else moves
    engine = registry.get(game).engine
    rng = Random(seed)
    with patch("games.live.realtime.announce"):
        match = services.create_match(user=users[0], game=game, players=players, is_public=False)
        for user in users[1:players]:
            services.join_match(match_id=match.pk, user=user, token=match.invite_token)
        match.refresh_from_db()
        by_seat = {s.number: s.user for s in match.seats.select_related("user")}
        made = 0
        while True:
            state = engine.load(match.state)
            to_act = engine.to_act(state)
            if match.status != Match.Status.ACTIVE or not to_act:
                raise RuntimeError(f"{game}: the match ended before move {moves}; try another seed")
            if made >= moves and 0 in to_act:
                return match
            seat = to_act[0]
            action = rng.choice(engine.legal_actions(state, seat))
            match = services.act(match_id=match.pk, user=by_seat[seat], action=action, version=match.version)
            made += 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise RuntimeError("the server stopped; see its output above")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    games = args.game or list(GAMES)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    work = tempfile.mkdtemp(prefix="turnwise-shots-")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{work}/shots.sqlite3",
        "DEBUG": "1",
        "FAST_PASSWORD_HASHER": "1",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
    }
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in FRIENDS]
    matches = {game: mid_match(game, users) for game in games}

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    # Only people sit at these tables and none has a clock (no pace): nothing moves while photographed.
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(base + "/accounts/login/", server)
        _photograph(base, matches, out)
    finally:
        server.terminate()
        server.wait(timeout=10)


def _photograph(base: str, matches: dict[str, Any], out: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for language, scheme in LOOKS:
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
                page = context.new_page()
                page.goto(base + "/accounts/login/")
                page.locator("#id_username").fill("alice")
                page.locator("#id_password").fill(PASSWORD)
                page.locator("main form button[type=submit]").click()
                page.wait_for_url(base + "/")
                # As a person would: the footer's language form (it sets the cookie and comes back).
                page.locator("#language-choice").select_option(language)
                page.locator(".language-form button[type=submit]").click()
                page.locator(f"html[lang={language}]").wait_for()
                for game, match in matches.items():
                    page.goto(base + match.get_absolute_url())
                    page.locator("#match-body").wait_for()
                    name = out / f"{game}-{size}-{language}-{scheme}.png"
                    page.screenshot(path=str(name))
                    shown = name.relative_to(ROOT) if name.is_relative_to(ROOT) else name  # --out may be elsewhere
                    print(shown, name.stat().st_size // 1024, "KiB")
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
