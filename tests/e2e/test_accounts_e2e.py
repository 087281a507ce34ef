"""In the browser: a paused log-in says why and when to try again; a look-alike name is refused."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, BrowserTestCase, invite_path, new_match, sign_up


class AccountSafetyInTheBrowser(BrowserTestCase):
    def test_too_many_wrong_passwords_pause_logging_in_with_a_clear_page(self) -> None:
        base = self.live_server_url
        sign_up(self.new_page(), base, "erin")
        page = self.new_page()  # a fresh browser, not logged in
        page.goto(f"{base}/accounts/login/")
        for _ in range(4):
            page.get_by_label("Username").fill("erin")
            page.get_by_label("Password").fill("not the password")
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_role("alert")).to_contain_text("Please enter a correct username and password")
        page.get_by_label("Username").fill("erin")
        page.get_by_label("Password").fill("not the password")
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("heading", name="Logging in is paused")).to_be_visible()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("Too many wrong passwords were tried for “erin” from your connection")
        expect(alert).to_contain_text("You can try again in 15 minutes")
        expect(page.get_by_role("link", name="Forgot your password? Reset it by email.")).to_be_visible()

    def test_a_name_that_looks_like_an_existing_one_is_refused(self) -> None:
        base = self.live_server_url
        sign_up(self.new_page(), base, "erin")
        page = self.new_page()
        page.goto(f"{base}/accounts/signup/")
        page.get_by_label("Username").fill("er\u0456n")  # a Cyrillic i
        page.get_by_label("Password", exact=True).fill("a long enough secret 42")
        page.get_by_label("Password confirmation").fill("a long enough secret 42")
        page.get_by_role("button", name="Create account").click()
        expect(page.get_by_role("alert")).to_contain_text("looks too much like the existing player “erin”")

    def test_a_page_of_the_session_that_changed_the_password_reconnects_and_stays_live(self) -> None:
        """The change closes every socket of the account with 4012; the page reconnects (its session is
        still valid) and the opponent's next move arrives without a reload."""
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        new_match(alice, "reversi", 2, {2: "human"}, public=False)
        bob.goto(base + invite_path(alice))
        bob.get_by_role("button", name="Take a seat").click()
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        alice.locator("#sq-d3").click()
        expect(bob.locator("#match-body")).to_contain_text("Your turn.")

        settings = alice.context.new_page()  # another tab of the same session
        settings.goto(f"{base}/accounts/password/change/")
        settings.get_by_label("Old password").fill(PASSWORD)
        settings.get_by_label("New password", exact=True).fill("a brand new secret 42")
        settings.get_by_label("New password confirmation").fill("a brand new secret 42")
        settings.get_by_role("button", name="Change password").click()
        expect(settings.get_by_role("heading", name="Password changed")).to_be_visible()

        bob.locator("#sq-c3").click()
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        expect(alice.locator("#sq-c3")).to_have_attribute("aria-label", re.compile(r"^c3, white, last move"))
