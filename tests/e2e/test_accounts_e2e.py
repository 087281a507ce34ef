"""In the browser: a paused log-in says why and when to try again; a look-alike name is refused."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import BrowserTestCase, sign_up


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
