"""A turn reaches the player on any page of the site, live: badge and tab title."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.helpers import TIMEOUT_MS, BrowserTestCase, new_match, sign_up


class TurnBadgeInTheBrowser(BrowserTestCase):
    def test_a_move_updates_the_opponents_badge_and_title_on_another_page(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(1200, 800), self.new_page(1200, 800)
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        new_match(alice, "reversi", 2, {2: "human"})
        match_url = alice.url
        bob.goto(match_url)
        bob.get_by_role("button", name="Join this match").click()
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")

        history = bob.context.new_page()  # bob's other tab, on another page of the site
        history.goto(f"{base}/history/")
        expect(history.locator("#turn-badge")).to_have_attribute("data-count", "0")
        expect(history).to_have_title(re.compile(r"^History"))

        alice.locator("#sq-d3").click()
        expect(history.locator("#turn-badge")).to_have_attribute("data-count", "1")
        expect(history.locator("#turn-badge")).to_contain_text("Your turn: 1 match")
        expect(history).to_have_title(re.compile(r"^\(1\) History"))
        # And back when bob has moved.
        bob.locator("#sq-c3").click()
        expect(history.locator("#turn-badge")).to_have_attribute("data-count", "0")
        expect(history).to_have_title(re.compile(r"^History"))

    def test_a_background_tab_raises_a_browser_notification_when_a_turn_arrives(self) -> None:
        base = self.live_server_url
        alice = self.new_page(1200, 800)
        sign_up(alice, base, "alice")
        new_match(alice, "reversi", 2, {2: "human"})
        match_url = alice.url

        context = self.browser.new_context(viewport={"width": 1200, "height": 800})
        context.set_default_timeout(TIMEOUT_MS)
        # A tab in the background, with notifications allowed: record what the page asks to show.
        context.add_init_script(
            """
            Object.defineProperty(document, "hidden", {get: () => true});
            window.shown = [];
            window.Notification = function (title, options) { window.shown.push([title, options.body]); };
            window.Notification.permission = "granted";
            window.Notification.requestPermission = () => Promise.resolve("granted");
            """
        )
        bob = context.new_page()
        sign_up(bob, base, "bob")
        bob.goto(match_url)
        bob.get_by_role("button", name="Join this match").click()
        settings_tab = context.new_page()
        settings_tab.goto(f"{base}/accounts/settings/")
        expect(settings_tab.get_by_role("button", name="Turn on browser notifications")).to_be_visible()
        expect(settings_tab.locator("#turn-badge")).to_have_attribute("data-count", "0")

        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        alice.locator("#sq-d3").click()
        expect(settings_tab.locator("#turn-badge")).to_have_attribute("data-count", "1")
        settings_tab.wait_for_function("window.shown.length > 0")
        assert settings_tab.evaluate("window.shown") == [["Turnwise", "Your turn: 1 match"]]
