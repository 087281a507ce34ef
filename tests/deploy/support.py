"""What the production recipe's tests share: a private PostgreSQL database and the stack on free ports.

Each run makes its own database (``turnwise_prod_<pid>_<n>``), never the shared test database, and
drops it at the end; the stack gets its own Redis (a private redis-server on a free port, which a test
may restart without disturbing anyone else), its own run directory and free ports.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
import psycopg
import pytest
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "deploy"))

import stack  # noqa: E402  (deploy/stack.py: the recipe itself)

# The server the databases are made on: the test run's own PostgreSQL when it uses one (CI), else the
# local one. Never the database that URL names: a fresh one is made beside it.
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
_numbers = itertools.count()


def postgres_server_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_POSTGRES


def _connect_params(url: str) -> dict[str, object]:
    parsed = dj_database_url.parse(url)
    return {
        "host": parsed["HOST"] or None,
        "port": parsed["PORT"] or None,
        "user": parsed["USER"] or None,
        "password": parsed["PASSWORD"] or None,
    }


@dataclass(frozen=True)
class Database:
    name: str
    url: str

    def connect(self) -> psycopg.Connection:
        return psycopg.connect(dbname=self.name, autocommit=True, **_connect_params(self.url))


@contextlib.contextmanager
def private_database() -> Iterator[Database]:
    """A new, empty PostgreSQL database for this test alone, dropped afterwards whatever happens."""
    server = postgres_server_url()
    params = _connect_params(server)
    name = f"turnwise_prod_{os.getpid()}_{next(_numbers)}"
    try:
        admin = psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=5, **params)
    except psycopg.OperationalError as exc:
        pytest.fail(f"The production recipe's tests need a PostgreSQL server ({server}): {exc}")
    with admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        parsed = dj_database_url.parse(server)
        auth = parsed["USER"] + (f":{parsed['PASSWORD']}" if parsed["PASSWORD"] else "")
        url = f"postgres://{auth}@{parsed['HOST'] or '127.0.0.1'}:{parsed['PORT'] or 5432}/{name}"
        try:
            yield Database(name, url)
        finally:
            # FORCE: a process killed by a test may have left a session behind.
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def free_ports(count: int) -> list[int]:
    """Ports nothing listens on now (held open together, so they differ)."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def require_nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if found is None:
        pytest.fail(
            "The production recipe's test needs Debian's nginx: `make nginx` (or apt-get install -y nginx); "
            ".ci/run installs it."
        )
    return found


def clean_environment() -> dict[str, str]:
    """This process's environment without what pytest set for itself (the stack reads the site's settings)."""
    env = dict(os.environ)
    for name in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "REDIS_URL", "PYTEST_VERSION"):
        env.pop(name, None)
    return env


def wait_until(what: str, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll ``condition`` until it holds; fail the test naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"Timed out after {timeout:.0f} s waiting for {what}.")
        time.sleep(0.05)


class Stack:
    """The recipe (deploy/stack.py) on free ports, with its own database, Redis and run directory."""

    def __init__(self, database: Database, run_dir: Path) -> None:
        web1, web2, http, https, redis = free_ports(5)
        self.env = {
            **clean_environment(),
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "localhost,127.0.0.1",
            "SITE_URL": f"https://localhost:{https}",
            "DATABASE_URL": database.url,
            "REDIS_URL": f"redis://127.0.0.1:{redis}/0",
            "CHANNELS_PREFIX": f"turnwise-prod-{os.getpid()}",
            "STATIC_ROOT": str(run_dir / "static"),
            "BOT_RUNNER_IN_PROCESS": "false",
            "TRUSTED_PROXY_HEADER": "X-Forwarded-For",
            "TRUSTED_PROXY_COUNT": "1",
            "SECURE_HSTS_SECONDS": "60",
            # Computer players quick, and no compiled search to warm up on a small machine.
            "BOT_DELAY_SECONDS": "0.3",
            "BOT_BUDGET_SECONDS": "0.05",
            "BOT_WARM_UP": "false",
            "TURNWISE_RUN_DIR": str(run_dir / "run"),
            "TURNWISE_WEB_PORTS": f"{web1},{web2}",
            "TURNWISE_WORKERS": "1",
            "TURNWISE_HTTP_PORT": str(http),
            "TURNWISE_HTTPS_PORT": str(https),
            "TURNWISE_SERVER_NAME": "localhost",
            "TURNWISE_REDIS_PORT": str(redis),
            "TURNWISE_RESTART_SECONDS": "1",
            "TURNWISE_NGINX": require_nginx(),
        }
        self.config = stack.Config.from_env(self.env)
        self.base = self.config.base_url

    def command(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, str(ROOT / "deploy" / "stack.py"), *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, f"stack.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}\n{self.logs()}"
        return done

    def logs(self) -> str:
        logs = self.config.run_dir / "logs"
        if not logs.exists():
            return ""
        return "\n".join(
            f"== {path.name}\n" + "\n".join(path.read_text(errors="replace").splitlines()[-60:])
            for path in sorted(logs.glob("*.log"))
        )

    def state(self) -> dict:
        state = stack.read_state(self.config)
        assert state is not None, "the supervisor is not running"
        return state

    def pid(self, name: str) -> int | None:
        return self.state()["processes"][name]["pid"]

    def port(self, name: str) -> int:
        return self.state()["processes"][name]["port"]

    def get(self, url: str) -> tuple[int, bytes]:
        return stack.get(url, self.config)

    def web_health(self, name: str) -> dict | None:
        """The daphne's own /healthz/web/ (asked directly, not through nginx), or None when it is down."""
        import json

        code, body = self.get(f"http://127.0.0.1:{self.port(name)}/healthz/web/")
        return json.loads(body) if code == 200 else None

    def restarted(self, name: str, old_pid: int) -> bool:
        """``name`` runs again under a new pid and (for a web process) answers."""
        pid = self.pid(name)
        if pid in (None, old_pid):
            return False
        return not name.startswith("web.") or self.web_health(name) is not None


@contextlib.contextmanager
def running_stack() -> Iterator[tuple[Stack, Database, float]]:
    """The stack up (and the seconds `up` took); down and its database dropped afterwards, even on failure."""
    run_dir = Path(tempfile.mkdtemp(prefix="turnwise-prod-"))
    run_dir.chmod(0o755)  # nginx's workers (an unprivileged user when the test runs as root) read the static files
    try:
        with private_database() as database:
            recipe = Stack(database, run_dir)
            try:
                started = time.monotonic()
                recipe.command("up")
                yield recipe, database, time.monotonic() - started
            except BaseException:
                print(recipe.logs())  # `up` failed: what each process said
                raise
            finally:
                with contextlib.suppress(Exception):
                    recipe.command("down", timeout=60)
                # Whatever a failed `down` left: the supervisor leads the process group of them all.
                pid_file = recipe.config.run_dir / "supervisor.pid"
                if pid_file.exists():
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(int(pid_file.read_text()), 9)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
