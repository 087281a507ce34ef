"""Lighthouse on each game's match page mid-game, signed in, with mobile emulation (docs/design.md).

    (cd /somewhere/outside/the/repo && npm install lighthouse@12.2.3)
    .venv/bin/python tools/lighthouse.py --modules /somewhere/outside/the/repo/node_modules
    .venv/bin/python tools/lighthouse.py --modules ... --game dos --runs 3 --language as

The site runs as in production, not as in development: DEBUG off, collectstatic's hashed and gzipped
files served by WhiteNoise with their year-long cache headers, one daphne process (nginx in front adds
TLS, which Lighthouse's simulated network accounts for anyway). It builds a throwaway SQLite database,
seats alice and her friends at one match of each game mid-match on alice's turn (the matches of
tools/screenshots.py), and runs Lighthouse's default mobile emulation (Moto G Power, simulated slow 4G
and a 4x slower CPU) on alice's page (tools/lighthouse.mjs), her session cookie in the browser, so
the page's live socket connects as it does for her (the script checks that it did). It prints each
category's score, the metrics, and every audit that did not pass; --json keeps Lighthouse's reports.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.screenshots import CHROMIUM, FRIENDS, GAMES, PASSWORD, _free_port, _wait_for, mid_match  # noqa: E402

ASGI_APP = "config.asgi:application"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
CATEGORY_LIST = ",".join(CATEGORIES)
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "speed-index": "SI",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", required=True, help="the node_modules folder lighthouse@12.2.3 is installed in")
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--language", default="en", choices=["en", "as", "ne"])
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the median performance is shown")
    parser.add_argument("--json", help="a directory to keep Lighthouse's JSON reports in")
    parser.add_argument("--keep", action="store_true", help="keep the database and the server's log")
    args = parser.parse_args()
    games = args.game or list(GAMES)

    work = Path(tempfile.mkdtemp(prefix="turnwise-lighthouse-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{work}/lighthouse.sqlite3",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "STATIC_ROOT": str(work / "static"),
        # Plain HTTP on the loopback: TLS is nginx's (deploy/nginx), and no proxy is in front here.
        "SECURE_SSL_REDIRECT": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "FAST_PASSWORD_HASHER": "1",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        "BOT_SEPARATE_PROCESS": "0",
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in FRIENDS]
    alice = users[0]
    alice.language = args.language
    alice.save(update_fields=["language"])
    matches = {game: mid_match(game, users) for game in games}
    client = Client()
    client.force_login(alice)
    session = client.cookies["sessionid"].value

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = (work / "daphne.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "--access-log", "-", "-b", "127.0.0.1", "-p", str(port), ASGI_APP],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for(base + "/healthz/", server)
        for game, match in matches.items():
            url = base + match.get_absolute_url()
            reports = [
                _run_again_if_the_trace_failed(args.modules, url, session, work / "daphne.log")
                for _ in range(args.runs)
            ]
            if args.json:
                Path(args.json).mkdir(parents=True, exist_ok=True)
                for number, report in enumerate(reports, 1):
                    Path(args.json, f"{game}-{args.language}-{number}.json").write_text(json.dumps(report))
            _print(game, args.language, reports)
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def _run_again_if_the_trace_failed(*args: Any) -> dict[str, Any]:
    for attempt in range(3):
        try:
            return _run(*args)
        except RuntimeError as error:
            if attempt == 2 or "lighthouse: " not in str(error):
                raise
            print(f"  ({error}; again)")
    raise AssertionError("unreachable")


def _run(modules: str, url: str, session: str, server_log: Path) -> dict[str, Any]:
    sockets_before = server_log.read_text().count("WSCONNECT /ws/match/")
    result = subprocess.run(
        [
            "node",
            str(ROOT / "tools" / "lighthouse.mjs"),
            modules,
            CHROMIUM,
            url,
            "sessionid",
            session,
            ",".join(CATEGORIES),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed: {result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    if report.get("runtimeError"):
        # NO_NAVSTART and the like: the trace itself failed (a busy machine), not the page.
        raise RuntimeError(f"lighthouse: {report['runtimeError']['message']}")
    if report.get("finalDisplayedUrl", url) != url:
        raise RuntimeError(f"the page went to {report['finalDisplayedUrl']}: was the session refused?")
    time.sleep(0.5)  # the access log line of the socket's handshake
    report["turnwiseSocketConnected"] = server_log.read_text().count("WSCONNECT /ws/match/") > sockets_before
    return report


def _print(game: str, language: str, reports: list[dict[str, Any]]) -> None:
    performance = [r["categories"]["performance"]["score"] for r in reports]
    # The median run (the lower of the middle two): its other scores and metrics are shown.
    median = sorted(reports, key=lambda r: r["categories"]["performance"]["score"])[(len(reports) - 1) // 2]
    categories = median["categories"]
    scores = " ".join(f"{name}={round(categories[name]['score'] * 100)}" for name in CATEGORIES if name in categories)
    runs = "/".join(str(round(p * 100)) for p in performance)
    middle = round(statistics.median(performance) * 100)
    print(f"{game} ({language}): {scores}  [performance of each run: {runs}; median {middle}]")
    audits = median["audits"]
    print("  " + "  ".join(f"{short} {audits[key]['displayValue']}" for key, short in METRICS.items()))
    print(f"  live socket connected: {'yes' if all(r['turnwiseSocketConnected'] for r in reports) else 'NO'}")
    for category in CATEGORIES:
        for ref in median["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            counted = audit["scoreDisplayMode"] not in ("informative", "manual")
            if audit["score"] is not None and audit["score"] < 0.9 and counted:
                print(f"  {category}: {audit['id']}: {audit['title']} {audit.get('displayValue', '')}")


if __name__ == "__main__":
    main()
