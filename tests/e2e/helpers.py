"""What the browser tests share: a live server class, signing up, and making matches by the UI."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import override_settings
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.e2e.live import LiveServerTestCase

PASSWORD = "a long enough secret 42"

# What a page shows may take a while on a small, busy machine (computer players, pushes, a cold
# server): a test waits for it, and must not fail because the machine is slow. Playwright's
# assertions default to 5 s and ignore the context's default timeout, so both get this bound.
TIMEOUT_MS = 30_000
expect.set_options(timeout=TIMEOUT_MS)


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="My matches")).to_be_visible()


def log_out(page: Page) -> None:
    """Log out the way a person does: open the account menu, then press Log out."""
    page.locator("summary", has_text="Account menu").click()
    page.get_by_role("button", name="Log out").click()


# Marks the page once its match socket has delivered a message. On connect the server sends the page's
# full state, which replaces the board: a test that ticks cards before that message arrives (a busy
# machine delays it) would see its ticks wiped, as a person clicking that fast would. (An attribute,
# not a JavaScript predicate: the CSP forbids the eval that wait_for_function would need.)
# Every message the match socket delivers, drawn or not: its first state is not drawn again when the
# page already shows that version (static/js/turnwise.js), and the page is live all the same.
MARK_LIVE = """
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  var url = event.target.getAttribute && event.target.getAttribute("ws-connect");
  if (url && url.indexOf("/ws/match/") === 0) document.documentElement.setAttribute("data-test-live", "yes");
});
"""


def htmx_settled(page: Page) -> None:
    """Wait until htmx has finished every request and swap, so new controls have their listeners (a
    change made to a control htmx has not yet processed would be lost)."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")).to_have_count(0)


def wait_live(page: Page) -> None:
    """Wait until the match page's socket has delivered the current state (so the board stays put)."""
    expect(page.locator("html")).to_have_attribute("data-test-live", "yes")


def new_match(page: Page, game: str, players: int, seats: dict[int, str], *, public: bool = True) -> None:
    """Fill the new-match form: ``seats`` maps seat numbers (1-based as shown, 2..n) to "bot" or "human"."""
    page.get_by_role("link", name="New match", exact=True).click()
    # Choosing a game or a player count redraws the seats and options (htmx, on every change event,
    # even to the value already chosen). Choose only what differs, so that the wait below sees the
    # redrawn form: a redraw of an unchanged choice could replace seats already ticked.
    choice = page.get_by_label("Game")
    if choice.input_value() != game:
        choice.select_option(game)
    expect(page.locator(f"#match-setup a[href='/rules/{game}/']")).to_be_visible()
    # The redrawn form is on the page, but a choice made before htmx has processed it is lost.
    htmx_settled(page)
    count = page.get_by_label("Number of players")
    if count.count() and count.input_value() != str(players):
        count.select_option(str(players))
    expect(page.locator(".seat-choice")).to_have_count(players - 1)
    for seat, kind in seats.items():
        label = "Computer player" if kind == "bot" else "A person (invite or lobby)"
        page.get_by_role("group", name=f"Seat {seat}").get_by_label(label).check()
    if not public:
        page.get_by_label("List in the lobby").uncheck()
    page.get_by_role("button", name="Create match").click()


# Computer players quick, and computed in a thread: a worker process would outlive the test server.
def invite_path(page: Page) -> str:
    """The invitation link shown on a waiting match, as a path (it names the configured site)."""
    return urlsplit(page.get_by_label("Invitation link").input_value()).path


@override_settings(
    BOT_DELAY_SECONDS=0.05, BOT_FOLLOW_UP_DELAY_SECONDS=0.05, BOT_BUDGET_SECONDS=0.02, BOT_SEPARATE_PROCESS=False
)
class BrowserTestCase(LiveServerTestCase):
    """A live server (computer players quick) and a Chromium to drive it."""

    @pytest.fixture(autouse=True)
    def _browser(self, browser: Browser) -> None:
        self.browser = browser

    def new_page(self, width: int = 390, height: int = 844) -> Page:
        context = self.browser.new_context(viewport={"width": width, "height": height})  # a phone by default
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(MARK_LIVE)
        return context.new_page()


def console_errors(page: Page) -> list[str]:
    """The page's console errors and uncaught exceptions, collected from now on (a live list)."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors
