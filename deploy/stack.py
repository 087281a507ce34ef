"""Turnwise's production stack on one machine: nginx (TLS) in front of several daphne processes, the
workers, PostgreSQL and Redis. For a trial (`make prod-up`, `make prod-down`) and for the tests; real
servers run the same commands under systemd (deploy/systemd/).

    python deploy/stack.py up             prepare a release, start the supervisor, wait until healthy
    python deploy/stack.py down           stop everything the supervisor started
    python deploy/stack.py status         the processes and their health
    python deploy/stack.py restart-web    restart each daphne in turn (a deploy), waiting for each
    python deploy/stack.py nginx-site     print the nginx site file for this environment
    python deploy/stack.py local-env FILE write a trial's settings from deploy/env.example
    python deploy/stack.py prune-metrics  forget the open-socket gauges of processes that are gone

Every setting comes from the environment, after the file named by TURNWISE_ENV_FILE (KEY=value
lines; the environment wins); deploy/env.example lists them. The supervisor restarts a process that
exits (after TURNWISE_RESTART_SECONDS), as systemd's Restart=always does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The venv's programs by their path: daphne is not on PATH unless the venv is activated.
VENV_BIN = Path(sys.executable).parent
NGINX_SITE_TEMPLATE = ROOT / "deploy" / "nginx" / "turnwise.conf"
STOP_SECONDS = 15.0


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=value lines (systemd's EnvironmentFile format): no quotes needed, # starts a comment line."""
    values: dict[str, str] = {}
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip().isidentifier():
            raise SystemExit(f"{path}:{number}: expected KEY=value, got {raw!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    environ = dict(os.environ if environ is None else environ)
    env_file = environ.get("TURNWISE_ENV_FILE")
    if env_file:
        return {**read_env_file(Path(env_file)), **environ}
    return environ


@dataclass(frozen=True)
class Config:
    """What the stack needs to know, from the environment."""

    env: dict[str, str]
    run_dir: Path
    web_ports: list[int]
    workers: int
    http_port: int
    https_port: int
    server_name: str
    static_root: Path
    tls_certificate: Path
    tls_certificate_key: Path
    redis_port: int | None  # a private redis-server run by the stack; None: Redis is a service of its own
    restart_seconds: float
    nginx: str

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Config:
        run_dir = Path(env.get("TURNWISE_RUN_DIR") or ROOT / "var" / "prod").resolve()
        certificate = env.get("TLS_CERTIFICATE", "")
        key = env.get("TLS_CERTIFICATE_KEY", "")
        if bool(certificate) != bool(key):
            raise SystemExit("Set both TLS_CERTIFICATE and TLS_CERTIFICATE_KEY, or neither (a local certificate).")
        ports = [int(p) for p in env.get("TURNWISE_WEB_PORTS", "8001,8002").split(",") if p.strip()]
        if not ports:
            raise SystemExit("TURNWISE_WEB_PORTS names no port.")
        return cls(
            env=dict(env),
            run_dir=run_dir,
            web_ports=ports,
            workers=int(env.get("TURNWISE_WORKERS", "1")),
            http_port=int(env.get("TURNWISE_HTTP_PORT", "8080")),
            https_port=int(env.get("TURNWISE_HTTPS_PORT", "8443")),
            server_name=env.get("TURNWISE_SERVER_NAME", "localhost"),
            # As config/settings.py: STATIC_ROOT, or staticfiles/ in the checkout.
            static_root=Path(env.get("STATIC_ROOT") or ROOT / "staticfiles").resolve(),
            tls_certificate=Path(certificate or run_dir / "tls" / "local.crt"),
            tls_certificate_key=Path(key or run_dir / "tls" / "local.key"),
            redis_port=int(env["TURNWISE_REDIS_PORT"]) if env.get("TURNWISE_REDIS_PORT") else None,
            restart_seconds=float(env.get("TURNWISE_RESTART_SECONDS", "1")),
            # (Not NGINX: nginx itself reads that variable, for sockets handed over by its old binary.)
            nginx=env.get("TURNWISE_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx",
        )

    @property
    def local_certificate(self) -> bool:
        return not self.env.get("TLS_CERTIFICATE")

    @property
    def base_url(self) -> str:
        return f"https://{self.server_name}:{self.https_port}"

    @property
    def state_file(self) -> Path:
        return self.run_dir / "state.json"

    @property
    def prometheus_dir(self) -> Path:
        return self.run_dir / "prometheus"

    def process_env(self) -> dict[str, str]:
        return {**self.env, "PROMETHEUS_MULTIPROC_DIR": str(self.prometheus_dir), "PYTHONUNBUFFERED": "1"}

    def ssl_context(self) -> ssl.SSLContext:
        """Checks the proxy's certificate: against the local one the stack made, else the system's CAs."""
        if self.local_certificate:
            return ssl.create_default_context(cafile=str(self.tls_certificate))
        return ssl.create_default_context()


@dataclass
class Spec:
    name: str
    argv: list[str]
    port: int | None = None
    health_url: str | None = None
    extra_env: dict[str, str] = field(default_factory=dict)


def process_specs(config: Config) -> list[Spec]:
    """In start order; stopped in the reverse order (nginx first, Redis last)."""
    specs: list[Spec] = []
    if config.redis_port is not None:
        specs.append(
            Spec(
                "redis",
                [
                    "redis-server",
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(config.redis_port),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(config.run_dir),
                ],
                port=config.redis_port,
            )
        )
    for number, port in enumerate(config.web_ports, start=1):
        specs.append(
            Spec(
                f"web.{number}",
                [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                port=port,
                health_url=f"http://127.0.0.1:{port}/healthz/web/",
                # Computer moves, deadlines and email belong to the workers.
                extra_env={"BOT_RUNNER_IN_PROCESS": "false"},
            )
        )
    for number in range(1, config.workers + 1):
        specs.append(Spec(f"worker.{number}", [str(VENV_BIN / "python"), "manage.py", "run_worker"]))
    nginx_dir = config.run_dir / "nginx"
    specs.append(
        Spec(
            "nginx",
            [
                config.nginx,
                "-p",
                f"{nginx_dir}/",
                "-c",
                str(nginx_dir / "nginx.conf"),
                "-e",
                str(config.run_dir / "logs" / "nginx-error.log"),
            ],
            port=config.https_port,
        )
    )
    return specs


# --- the release: what runs once before the processes start ----------------------------------------


def render_nginx_site(config: Config) -> str:
    port_suffix = "" if config.https_port == 443 else f":{config.https_port}"
    values = {
        "UPSTREAM_SERVERS": "\n".join(f"    server 127.0.0.1:{port} max_fails=0;" for port in config.web_ports),
        "HTTP_PORT": str(config.http_port),
        "HTTPS_PORT": str(config.https_port),
        "HTTPS_PORT_SUFFIX": port_suffix,
        "SERVER_NAME": config.server_name,
        "STATIC_ROOT": str(config.static_root),
        "TLS_CERTIFICATE": str(config.tls_certificate),
        "TLS_CERTIFICATE_KEY": str(config.tls_certificate_key),
        "ACCESS_LOG": config.env.get("NGINX_ACCESS_LOG") or str(config.run_dir / "logs" / "nginx-access.log"),
    }
    text = NGINX_SITE_TEMPLATE.read_text()
    for name, value in values.items():
        text = text.replace("{{ " + name + " }}", value)
    if left := re.findall(r"\{\{ [A-Z_]+ \}\}", text):
        raise SystemExit(f"{NGINX_SITE_TEMPLATE}: placeholders left unfilled: {', '.join(left)}")
    return text


def render_nginx_main(config: Config) -> str:
    """The trial's own nginx.conf around the site file: nothing read from or written to /etc/nginx or
    /var/lib/nginx but the MIME types."""
    nginx_dir = config.run_dir / "nginx"
    temp = nginx_dir / "temp"
    return f"""# Written by deploy/stack.py for a trial on one machine; a server uses Debian's nginx.conf.
daemon off;
worker_processes 1;
pid {nginx_dir}/nginx.pid;
error_log {config.run_dir}/logs/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    server_tokens off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {nginx_dir}/turnwise.conf;
}}
"""


def make_local_certificate(config: Config) -> None:
    """A self-signed certificate for the server name (and localhost), kept across runs."""
    if config.tls_certificate.exists() and config.tls_certificate_key.exists():
        return
    config.tls_certificate.parent.mkdir(parents=True, exist_ok=True)
    names = sorted({config.server_name, "localhost"})
    alt = ",".join([*(f"DNS:{n}" for n in names), "IP:127.0.0.1"])
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "365",
            "-subj",
            f"/CN={config.server_name}",
            "-addext",
            f"subjectAltName={alt}",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-keyout",
            str(config.tls_certificate_key),
            "-out",
            str(config.tls_certificate),
        ],
        check=True,
        capture_output=True,
    )
    config.tls_certificate_key.chmod(0o600)


def manage(config: Config, *args: str) -> None:
    subprocess.run([str(VENV_BIN / "python"), "manage.py", *args], cwd=ROOT, env=config.process_env(), check=True)


def prepare_release(config: Config) -> None:
    """What a release runs once, before its processes start (docs/deployment.md, step 4)."""
    for sub in ("logs", "nginx/temp", "tls"):
        (config.run_dir / sub).mkdir(parents=True, exist_ok=True)
    # nginx's workers run as an unprivileged user when it is started as root: they must reach the files.
    config.run_dir.chmod(0o755)
    if config.prometheus_dir.exists():
        shutil.rmtree(config.prometheus_dir)  # figures of processes that are gone (prometheus_client asks so)
    config.prometheus_dir.mkdir()
    subprocess.run([str(VENV_BIN / "python"), "tools/compile_catalogues.py"], cwd=ROOT, check=True)
    manage(config, "migrate", "--noinput")
    manage(config, "collectstatic", "--noinput", "--verbosity", "0")
    if config.local_certificate:
        make_local_certificate(config)
    nginx_dir = config.run_dir / "nginx"
    (nginx_dir / "turnwise.conf").write_text(render_nginx_site(config))
    (nginx_dir / "nginx.conf").write_text(render_nginx_main(config))
    subprocess.run(
        [
            config.nginx,
            "-t",
            "-q",
            "-p",
            f"{nginx_dir}/",
            "-c",
            str(nginx_dir / "nginx.conf"),
            "-e",
            str(config.run_dir / "logs" / "nginx-error.log"),
        ],
        check=True,
    )


# --- the supervisor ------------------------------------------------------------------------------


def prune_dead_process_metrics(directory: Path) -> None:
    """Forget the live gauges (open sockets) of processes that are gone, as prometheus_client asks."""
    from prometheus_client import multiprocess

    for path in directory.glob("gauge_live*_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        if not _alive(pid):
            multiprocess.mark_process_dead(pid, str(directory))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Supervisor:
    """Starts the processes, restarts one that exits, stops them all on SIGTERM (in reverse order)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.specs = process_specs(config)
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.restart_at: dict[str, float] = {}
        self.restarts: dict[str, int] = {}
        self.stopping = False

    def start(self, spec: Spec) -> None:
        log = open(self.config.run_dir / "logs" / f"{spec.name}.log", "ab")  # noqa: SIM115 (the child's)
        with log:
            self.running[spec.name] = subprocess.Popen(
                spec.argv,
                cwd=ROOT,
                env={**self.config.process_env(), **spec.extra_env},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # The supervisor waits with these blocked; the child must get them as usual.
                preexec_fn=_unblock_signals,
            )
        self.write_state()

    def write_state(self) -> None:
        state = {
            "supervisor": os.getpid(),
            "processes": {
                spec.name: {
                    "pid": self.running[spec.name].pid if spec.name in self.running else None,
                    "port": spec.port,
                    "health_url": spec.health_url,
                    "restarts": self.restarts.get(spec.name, 0),
                }
                for spec in self.specs
            },
        }
        temporary = self.config.state_file.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2))
        temporary.replace(self.config.state_file)

    def reap(self) -> None:
        for name, process in list(self.running.items()):
            code = process.poll()
            if code is None:
                continue
            del self.running[name]
            prune_dead_process_metrics(self.config.prometheus_dir)
            if not self.stopping:
                print(f"supervisor: {name} (pid {process.pid}) exited with {code}; restarting", flush=True)
                self.restart_at[name] = time.monotonic() + self.config.restart_seconds
            self.write_state()

    def run(self) -> None:
        watched = {signal.SIGCHLD, signal.SIGTERM, signal.SIGINT}
        signal.pthread_sigmask(signal.SIG_BLOCK, watched)
        for spec in self.specs:
            self.start(spec)
        by_name = {spec.name: spec for spec in self.specs}
        while not self.stopping:
            now = time.monotonic()
            for name, when in list(self.restart_at.items()):
                if when <= now:
                    del self.restart_at[name]
                    self.restarts[name] = self.restarts.get(name, 0) + 1
                    self.start(by_name[name])
            timeout = min([when - time.monotonic() for when in self.restart_at.values()] + [5.0])
            received = signal.sigtimedwait(watched, max(0.01, timeout))
            if received is not None and received.si_signo in (signal.SIGTERM, signal.SIGINT):
                self.stopping = True
            self.reap()
        self.stop_all()

    def stop_all(self) -> None:
        for spec in reversed(self.specs):
            process = self.running.get(spec.name)
            if process is None:
                continue
            # nginx stops at once on SIGTERM ("fast shutdown"); daphne closes its sockets and exits.
            process.terminate()
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            del self.running[spec.name]
        self.config.state_file.unlink(missing_ok=True)
        prune_dead_process_metrics(self.config.prometheus_dir)


def _unblock_signals() -> None:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD, signal.SIGTERM, signal.SIGINT})


# --- the commands --------------------------------------------------------------------------------


def read_state(config: Config) -> dict | None:
    try:
        return json.loads(config.state_file.read_text())
    except FileNotFoundError:
        return None


def get(url: str, config: Config, timeout: float = 3.0) -> tuple[int, bytes]:
    """GET without following redirects; (status, body), status 0 when nothing answers."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(
        NoRedirect(), urllib.request.HTTPSHandler(context=config.ssl_context() if url.startswith("https") else None)
    )
    try:
        with opener.open(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (urllib.error.URLError, OSError):
        return 0, b""


def wait_for(what: str, condition: Callable[[], bool], timeout: float) -> None:
    """Poll ``condition`` until it holds (a few times a second); fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"Timed out after {timeout:.0f} s waiting for {what}.")
        time.sleep(0.1)


def healthy(config: Config) -> bool:
    """Every process up: each daphne answers directly, and the site answers through nginx (with a worker)."""
    state = read_state(config)
    if state is None:
        return False
    for name, process in state["processes"].items():
        if process["pid"] is None:
            return False
        if process["health_url"] and get(process["health_url"], config)[0] != 200:
            return False
        if name == "redis" and not _port_open(process["port"]):
            return False
    return get(f"{config.base_url}/healthz/", config)[0] == 200


def _port_open(port: int) -> bool:
    import socket

    with contextlib.closing(socket.socket()) as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def ensure_database(config: Config) -> None:
    """Create the PostgreSQL database DATABASE_URL names if it does not exist (a trial's convenience; a
    server's database is made by its administrator, docs/deployment.md)."""
    import dj_database_url
    import psycopg
    from psycopg import sql

    settings = dj_database_url.parse(config.env["DATABASE_URL"])
    if settings["ENGINE"] != "django.db.backends.postgresql":
        return
    params = {
        "host": settings["HOST"] or None,
        "port": settings["PORT"] or None,
        "user": settings["USER"] or None,
        "password": settings["PASSWORD"] or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [settings["NAME"]]).fetchone() is None:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(settings["NAME"])))


def write_local_env(path: Path) -> None:
    """deploy/env.example for a trial on this machine: a fresh secret, files under var/prod/."""
    import secrets

    run_dir = ROOT / "var" / "prod"
    replacements = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATIC_ROOT": str(run_dir / "static"),
        "TURNWISE_RUN_DIR": str(run_dir),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/turnwise",
    }
    lines = []
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        key = line.partition("=")[0]
        lines.append(f"{key}={replacements[key]}" if key in replacements else line)
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)
    print(f"Wrote {path} from deploy/env.example: edit it to change the trial's settings.")


def up(config: Config, timeout: float) -> None:
    if (state := read_state(config)) is not None and _alive(state["supervisor"]):
        raise SystemExit(f"Already running (supervisor pid {state['supervisor']}); `make prod-down` first.")
    started = time.monotonic()
    ensure_database(config)
    prepare_release(config)
    prepared = time.monotonic()
    log = open(config.run_dir / "logs" / "supervisor.log", "ab")  # noqa: SIM115 (the supervisor's)
    with log:
        supervisor = subprocess.Popen(
            [str(VENV_BIN / "python"), str(Path(__file__).resolve()), "supervise"],
            cwd=ROOT,
            env={**config.env},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # outlives `make prod-up`; its children share its process group
        )
    (config.run_dir / "supervisor.pid").write_text(str(supervisor.pid))

    def ready() -> bool:
        if supervisor.poll() is not None:
            raise SystemExit(f"The supervisor exited; see {config.run_dir}/logs/.")
        return healthy(config)

    wait_for("every process to answer its health check", ready, timeout)
    print(
        f"Turnwise is up at {config.base_url}/ (release {prepared - started:.1f} s, "
        f"processes {time.monotonic() - prepared:.1f} s). Logs: {config.run_dir}/logs/"
    )


def down(config: Config) -> None:
    pid_file = config.run_dir / "supervisor.pid"
    if not pid_file.exists():
        print("Not running.")
        return
    pid = int(pid_file.read_text())
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    try:
        wait_for("the supervisor to stop its processes", lambda: not _alive(pid) or _zombie(pid), STOP_SECONDS + 10)
    except SystemExit:
        # Whatever is left of its process group (the supervisor leads it).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
    print("Turnwise stopped.")


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def restart_web(config: Config, timeout: float, names: list[str] | None = None) -> None:
    """A deploy: each daphne in turn is stopped (its pages reconnect to the others) and started again
    by the supervisor; the next one only once this one answers."""
    state = read_state(config)
    if state is None:
        raise SystemExit("Not running.")
    for name, process in state["processes"].items():
        if not name.startswith("web.") or (names is not None and name not in names):
            continue
        old_pid = process["pid"]
        os.kill(old_pid, signal.SIGTERM)

        def back(name: str = name, old_pid: int = old_pid) -> bool:
            now = read_state(config)
            entry = now and now["processes"][name]
            return bool(entry and entry["pid"] not in (None, old_pid) and get(entry["health_url"], config)[0] == 200)

        wait_for(f"{name} to come back", back, timeout)
        print(f"{name} restarted")


def status(config: Config) -> int:
    state = read_state(config)
    if state is None:
        print("Not running.")
        return 1
    for name, process in state["processes"].items():
        health = ""
        if process["health_url"]:
            health = f" health={get(process['health_url'], config)[0]}"
        print(f"{name:10} pid={process['pid']} port={process['port']} restarts={process['restarts']}{health}")
    code, body = get(f"{config.base_url}/healthz/", config)
    print(f"{config.base_url}/healthz/ {code} {body.decode(errors='replace')}")
    return 0 if code == 200 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "command",
        choices=["up", "down", "status", "restart-web", "nginx-site", "local-env", "prune-metrics", "supervise"],
    )
    parser.add_argument("path", nargs="?", help="local-env: the file to write")
    parser.add_argument("--only", action="append", help="restart-web: this process only (web.1, ...)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for health (up, restart-web)")
    args = parser.parse_args(argv)
    if args.command == "local-env":
        write_local_env(Path(args.path or ROOT / "deploy" / "local.env"))
        return 0
    if args.command == "prune-metrics":  # systemd's ExecStopPost (deploy/systemd/)
        prune_dead_process_metrics(Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]))
        return 0
    config = Config.from_env(load_environment())
    if args.command == "up":
        up(config, args.timeout)
    elif args.command == "down":
        down(config)
    elif args.command == "status":
        return status(config)
    elif args.command == "restart-web":
        restart_web(config, args.timeout, args.only)
    elif args.command == "nginx-site":
        print(render_nginx_site(config), end="")
    else:
        Supervisor(config).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
