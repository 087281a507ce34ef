"""Under `make run` (DEBUG on) a refused move shows in place: the page keeps its nav and styles, and the
next action works. django-htmx's debug script replaces the whole document for htmx 400/403/404/500."""

from __future__ import annotations

from unittest.mock import patch

from django.contrib.auth import get_user_model
from django.test import override_settings
from playwright.sync_api import Page, expect

from games import services
from tests.e2e.helpers import BrowserTestCase, sign_up, wait_live
from tests.e2e.test_dos_e2e import SOLO, events, hand_card, row_card
from tests.games.tacocat.test_web_pages import OPTIONS


def assert_page_intact(page: Page) -> None:
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    # The site stylesheet still applies: the nav is laid out by site.css, not the browser's default.
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header nav')).display") == "flex"


@override_settings(DEBUG=True)
class DosRefusalUnderDebug(BrowserTestCase):
    def test_match_with_no_card_chosen_is_refused_in_place(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "solo")
        owner = get_user_model().objects.get(username="solo")
        with patch("games.live.realtime.announce"):
            match = services.create_match(user=owner, game="dos", players=2, bot_seats={1}, options=SOLO)
        page.goto(base + match.get_absolute_url())
        wait_live(page)  # the socket's first message redraws the board: refuse after it, not before
        expect(page.locator("#match-body")).to_contain_text("Your turn.")

        page.get_by_role("button", name="Match", exact=True).click()
        expect(page.locator("#match-body .notice-error")).to_be_visible()
        assert_page_intact(page)

        row_card(page, "blue 9").click()
        hand_card(page, "blue 4").click()
        hand_card(page, "blue 5").click()
        page.get_by_role("button", name="Match", exact=True).click()
        expect(events(page)).to_contain_text("solo matched blue 4 + blue 5 on blue 9")
        assert_page_intact(page)


@override_settings(DEBUG=True)
class TacocatRefusalUnderDebug(BrowserTestCase):
    def test_attack_with_nothing_ticked_is_refused_in_place(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "alice")
        users = get_user_model().objects
        alice = users.get(username="alice")
        bob = users.create_user(username="bob", password="correct horse battery")
        with patch("games.live.realtime.announce"):
            match = services.create_match(user=alice, game="tacocat", players=2, options=OPTIONS)
            services.join_match(match_id=match.pk, user=bob)
            for user, action in ((alice, {"type": "replace", "cards": []}), (bob, {"type": "replace", "cards": []})):
                match.refresh_from_db()
                services.act(match_id=match.pk, user=user, action=action, version=match.version)
            for user, card in ((alice, "12"), (bob, "11")):
                match.refresh_from_db()
                services.act(match_id=match.pk, user=user, action={"type": "duel", "card": card}, version=match.version)
        page.goto(base + match.get_absolute_url())
        wait_live(page)  # the socket's first message redraws the board: refuse after it, not before
        expect(page.locator(".taco-step")).to_contain_text("You attack.")

        page.get_by_role("button", name="Attack with the ticked cards").click()
        expect(page.locator("#match-body .notice-error")).to_contain_text("Tick the card or cards to attack with.")
        assert_page_intact(page)

        page.locator(".taco-form label.taco-choice").filter(has_text="2").first.click()
        page.get_by_role("button", name="Attack with the ticked cards").click()
        expect(page.locator(".taco-step")).to_contain_text("bob must answer your attack")
        assert_page_intact(page)
