"""The recipe's files on their own: production settings from deploy/env.example, email without a
server, the nginx site file and the systemd units."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.support import ROOT, stack


def production_env(**extra: str) -> dict[str, str]:
    """The process environment with deploy/env.example's settings (and a real-looking secret)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    for name in ("DATABASE_URL", "REDIS_URL", "EMAIL_HOST", "EMAIL_BACKEND"):
        env.pop(name, None)
    example = stack.read_env_file(ROOT / "deploy" / "env.example")
    # No server is needed to check the settings or send mail: the database stays SQLite, layers in memory.
    example.pop("DATABASE_URL")
    example.pop("REDIS_URL")
    return {**env, **example, "SECRET_KEY": "a-production-secret-that-is-long-and-random-" + "k7Qz" * 10, **extra}


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_the_recipes_settings() -> None:
    done = manage(production_env(), "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr


def test_without_an_email_server_mail_is_dropped_with_one_warning_not_a_traceback_per_message() -> None:
    send_three = (
        "from django.core.mail import send_mail\n"
        "for n in range(3):\n"
        "    assert send_mail('Your turn', 'It is your turn.', None, ['bea@example.com']) == 1\n"
    )
    done = manage(production_env(), "shell", "-c", send_three)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("Email is not configured") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_the_worker_says_once_at_its_start_that_mail_is_dropped(tmp_path: Path) -> None:
    """Not at the first notice, maybe hours later: when the operator is watching it start."""
    env = production_env(SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert manage(env, "migrate", "--no-input").returncode == 0
    done = manage(env, "run_worker", "--once")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("Email is not configured") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_with_an_email_server_named_mail_goes_to_smtp() -> None:
    show = "from django.conf import settings; print(settings.MAILERS['default']['BACKEND'])"
    done = manage(production_env(EMAIL_HOST="smtp.example.org"), "shell", "-c", show)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "accounts.mail_delivery.EmailBackend"


def test_the_nginx_site_names_every_daphne_and_leaves_no_placeholder(tmp_path: Path) -> None:
    config = stack.Config.from_env(
        {"TURNWISE_RUN_DIR": str(tmp_path), "TURNWISE_WEB_PORTS": "8001,8002,8003", "TURNWISE_HTTPS_PORT": "443"}
    )
    site = stack.render_nginx_site(config)
    assert [line.split()[1] for line in site.splitlines() if line.strip().startswith("server 127.")] == [
        "127.0.0.1:8001",
        "127.0.0.1:8002",
        "127.0.0.1:8003",
    ]
    assert "return 301 https://$host$request_uri;" in site  # no port on the standard one
    assert "{{" not in site.replace("{12}", "")


def test_an_operators_certificate_is_used_as_given_and_half_of_one_is_refused(tmp_path: Path) -> None:
    given = {"TLS_CERTIFICATE": "/etc/ssl/a.crt", "TLS_CERTIFICATE_KEY": "/etc/ssl/a.key"}
    config = stack.Config.from_env({"TURNWISE_RUN_DIR": str(tmp_path), **given})
    assert not config.local_certificate
    assert "ssl_certificate /etc/ssl/a.crt;" in stack.render_nginx_site(config)
    with pytest.raises(SystemExit, match="both TLS_CERTIFICATE and TLS_CERTIFICATE_KEY"):
        stack.Config.from_env({"TLS_CERTIFICATE": "/etc/ssl/a.crt"})


def test_the_systemd_units_are_valid(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is needed to check deploy/systemd/: apt-get install -y systemd")
    # As installed, with the checkout where the units expect it.
    for unit in (ROOT / "deploy" / "systemd").glob("*.service"):
        (tmp_path / unit.name).write_text(unit.read_text().replace("/srv/turnwise", str(ROOT)))
    (tmp_path / "turnwise.target").write_text((ROOT / "deploy" / "systemd" / "turnwise.target").read_text())
    units = sorted(str(path) for path in tmp_path.iterdir())
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "turnwise" not in done.stderr, done.stderr


def test_the_env_file_reader_takes_systemds_format(tmp_path: Path) -> None:
    path = tmp_path / "turnwise.env"
    path.write_text("# a comment\n\nDEBUG=false\nALLOWED_HOSTS = a.example,b.example\nSITE_URL='https://a.example'\n")
    assert stack.read_env_file(path) == {
        "DEBUG": "false",
        "ALLOWED_HOSTS": "a.example,b.example",
        "SITE_URL": "https://a.example",
    }
    path.write_text("not a setting\n")
    with pytest.raises(SystemExit, match="expected KEY=value"):
        stack.read_env_file(path)
