from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

# Playwright's sync API keeps an event loop in the test thread; the ORM must still be usable there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"


def pytest_configure(config: pytest.Config) -> None:
    # Browser tests drive the site as people get it: without the test-only apps (Nim), which would show
    # in every game list.
    from django.conf import settings

    if "tests.nim" in settings.INSTALLED_APPS:
        raise pytest.UsageError(
            "Run the browser tests with the site's own settings: pytest tests/e2e --ds=config.settings "
            "(make test does)."
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.fail("Debian's chromium is required for the browser tests: apt-get install -y chromium")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
