"""Starting and stopping the daphne processes under test, and reading their CPU time."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

# The checkout this harness lives in; the server may run from another one (``--repo``, for before/after).
REPO = Path(__file__).resolve().parent.parent.parent
# Variables of the developer's shell that would point the server at another database or layer.
_INHERITED = ("DATABASE_URL", "REDIS_URL", "CHANNELS_PREFIX", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE", "DEBUG")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(workdir: Path, *, database_url: str | None, redis_url: str | None, prefix: str) -> dict[str, str]:
    """Production-like settings: DEBUG off, a throwaway key, no bot runner in the web process."""
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED}
    # The site comes from the server's working directory; `bench.live` (a namespace package portion)
    # from this checkout too, so a checkout without it can be measured with this harness.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    static_root = workdir / "static"
    static_root.mkdir(exist_ok=True)
    env.update(
        DJANGO_SETTINGS_MODULE="bench.live.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        BOT_RUNNER_IN_PROCESS="false",
        # Sign-up and log-in hash passwords; the real hasher would dominate the setup and is not measured.
        FAST_PASSWORD_HASHER="1",
        LOG_LEVEL="WARNING",
        STATIC_ROOT=str(static_root),
        # No collectstatic here (the benchmark measures the live path, not static files): pages link the
        # plain names, which production's hashed names would refuse without a manifest.
        STATIC_HASHED_NAMES="false",
        PYTHONUNBUFFERED="1",
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        env["SQLITE_PATH"] = str(workdir / "db.sqlite3")
    if redis_url:
        env["REDIS_URL"] = redis_url
        env["CHANNELS_PREFIX"] = prefix
    return env


def migrate(env: dict[str, str], log: Path, repo: Path = REPO, timeout: float = 300) -> None:
    with log.open("ab") as out:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=repo,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
            timeout=timeout,
        )


def _process_cpu_clock(pid: int) -> int:
    """The clock id of another process's CPU time: Linux's MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
    (what glibc's ``clock_getcpuclockid`` returns; Python has no wrapper for it)."""
    return (~pid << 3) | 2


@dataclass
class Server:
    """One daphne process on a free loopback port."""

    env: dict[str, str]
    log: Path
    repo: Path = REPO
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    # The ASGI application daphne serves (``bench.live.floor`` serves its own bare one).
    app: str = "config.asgi:application"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), self.app],
            cwd=self.repo,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.proc.returncode}; see {self.log}:\n{self.tail()}")
            try:
                if httpx.get(f"{self.base}/__bench__/queries/", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"daphne did not answer within {timeout:.0f} s; see {self.log}:\n{self.tail()}")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def cpu_seconds(self) -> float:
        """CPU time of the daphne process, all its threads, ended ones included, to the nanosecond.

        ``/proc/<pid>/stat`` counts in clock ticks (10 ms), too coarse for phases of a few hundred
        milliseconds, and adding up the live threads' ``schedstat`` loses precision whenever a thread
        ends (its time falls back to ticks): a tiny run could measure a negative cost. The kernel keeps
        the exact total as the process's CPU clock, which another process may read on Linux.
        """
        assert self.proc is not None
        return time.clock_gettime(_process_cpu_clock(self.proc.pid))

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def create_postgres_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_postgres_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def delete_redis_keys(redis_url: str, prefix: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i : i + 500])
        return len(keys)
    finally:
        client.close()
