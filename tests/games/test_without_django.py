"""Engine tests run without Django (docs/engine-conventions.md): ``pytest -p no:django tests/games/<g>``
runs a game's engine tests, and skips (saying why) the tests of that folder that need the web side.

tests/conftest.py keeps its Django fixtures for every other run; this checks the other way round, in a
pytest of its own, since this one has Django loaded."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_tests_run_with_django_switched_off() -> None:
    files = [
        "tests/games/reversi/test_rules.py",  # pure engine tests: must run
        "tests/games/reversi/test_practice.py",  # marked for the database: skipped
        "tests/games/backalley/test_pages.py",  # imports the web side: skipped
    ]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": ""}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:django", "-rs", *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    passed = re.search(r"(\d+) passed", out)
    assert passed and int(passed.group(1)) > 50, out
    assert not re.search(r"\d+ (errors?|failed)\b", out), out
    assert "needs Django: run it without -p no:django" in out, out
    assert "Unknown config option" not in out, out
    assert "test_pages.py" in out, out  # the module that cannot be imported is reported as skipped
