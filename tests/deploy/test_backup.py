"""Backups that restore (docs/deployment.md, "Backups"): pg_dump of a live database, pg_restore into
a fresh one, and every finished match still verifies while every running one replays to its state."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.support import ROOT, Database, clean_environment, private_database

pytestmark = pytest.mark.slow


def manage(database: Database, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**clean_environment(), "DATABASE_URL": database.url, "BOT_WARM_UP": "false"}
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done


def last_json(done: subprocess.CompletedProcess[str]) -> object:
    return json.loads(done.stdout.strip().splitlines()[-1])


def postgres_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"The backup test needs PostgreSQL's {name}: apt-get install -y postgresql-client")
    return found


def test_a_dump_restored_into_a_fresh_database_verifies_and_replays(tmp_path: Path) -> None:
    dump = tmp_path / "turnwise.dump"
    with private_database() as live:
        manage(live, "migrate", "--noinput", "--verbosity", "0")
        made = last_json(manage(live, "shell", "-c", "from tests.deploy.backup_matches import make; make()"))
        assert isinstance(made, dict)
        assert len(made["finished"]) == 2 and len(made["running"]) == 3, made
        # The documented command: the custom format, what pg_restore reads.
        subprocess.run(
            [postgres_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={dump}", f"--dbname={live.url}"],
            check=True,
            timeout=120,
            env={**os.environ},
        )
    with private_database() as restored:
        subprocess.run(
            [postgres_tool("pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={restored.url}", str(dump)],
            check=True,
            timeout=120,
        )
        for match_id in made["finished"]:
            verified = manage(restored, "verify_match", str(match_id))
            assert f"Match {match_id} " in verified.stdout and "verified" in verified.stdout
        check = f"from tests.deploy.backup_matches import check_running; check_running({made['running']})"
        replayed = last_json(manage(restored, "shell", "-c", check))
        assert replayed == {str(match_id): True for match_id in made["running"]}
