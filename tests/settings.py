"""The site's settings, plus the apps that exist only for tests: Nim, the game docs/adding-a-game.md adds."""

from config.settings import *  # noqa: F403
from config.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.nim"]
