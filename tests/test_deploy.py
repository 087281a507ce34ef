"""Production settings pass Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_under_production_settings() -> None:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "a-production-secret-that-is-long-and-random-" + "k7Qz" * 10,
        "ALLOWED_HOSTS": "turnwise.example",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests in this process
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_production_settings_refuse_to_start_without_a_secret_key() -> None:
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": ""}
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr
