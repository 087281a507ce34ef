"""Taking a step back in real browsers: a DOS match taken back within the turn, and a Reversi takeback that
the opponent declines and then accepts, live in two browser contexts."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.helpers import MARK_LIVE, TIMEOUT_MS, BrowserTestCase, invite_path, new_match, sign_up, wait_live
from tests.e2e.test_dos_e2e import SOLO, create_match, events, hand_card, row_card
from tests.e2e.test_reversi_e2e import square


# One test per class, so one live server per test (see tests/e2e/test_dos_e2e.py).
class DosMatchTakenBack(BrowserTestCase):
    def test_a_match_before_end_matching_can_be_taken_back(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "solo")
        match = create_match("solo", players=2, bot_seats={1}, options=SOLO)
        page.goto(base + match.get_absolute_url())
        body = page.locator("#match-body")
        expect(body).to_contain_text("Your turn.")
        wait_live(page)
        take_back = page.get_by_role("button", name="Take back", exact=True)
        expect(take_back).to_have_count(0)  # nothing to take back at the start of a turn

        row_card(page, "blue 9").click()
        hand_card(page, "blue 4").click()
        hand_card(page, "blue 5").click()
        page.get_by_role("button", name="Match", exact=True).click()
        expect(events(page)).to_contain_text("solo matched blue 4 + blue 5 on blue 9")
        expect(page.get_by_role("button", name="Draw a card")).to_have_count(0)

        take_back.click()
        expect(events(page)).to_contain_text("solo took back the match of blue 4, blue 5.")
        # The cards are back in the hand, the row card is open again, and drawing is allowed again.
        expect(hand_card(page, "blue 4")).to_be_visible()
        expect(hand_card(page, "blue 5")).to_be_visible()
        expect(page.get_by_role("button", name="Draw a card")).to_be_visible()
        expect(take_back).to_have_count(0)
        expect(body).to_contain_text("Your turn.")

        # The turn goes on as if the match had never been made.
        row_card(page, "blue 9").click()
        hand_card(page, "blue 4").click()
        hand_card(page, "blue 5").click()
        page.get_by_role("button", name="Match", exact=True).click()
        expect(page.locator(".events li").filter(has_text="solo matched blue 4 + blue 5 on blue 9")).to_have_count(2)
        from games.models import Match
        from games.read.replay import replays_to_stored_state

        assert replays_to_stored_state(Match.objects.get(pk=match.pk))


class ReversiTakeback(BrowserTestCase):
    def test_the_opponent_declines_then_accepts_a_takeback_live(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        new_match(alice, "reversi", 2, {2: "human"}, public=False)
        expect(alice.get_by_role("status")).to_contain_text("Waiting for players")
        bob.goto(base + invite_path(alice))
        bob.get_by_role("button", name="Take a seat").click()
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        wait_live(alice)
        wait_live(bob)

        square(alice, "d3").click()
        expect(square(bob, "d3")).to_have_attribute("aria-label", re.compile(r"^d3, black, last move"))
        ask = alice.get_by_role("button", name="Ask to take back your last move")
        ask.click()
        expect(alice.locator("#match-body")).to_contain_text("waiting for the answer")
        # Bob sees the request without reloading, and declines it.
        expect(bob.locator("#match-body")).to_contain_text("alice asks to take back their last move.")
        bob.get_by_role("button", name="Decline the takeback").click()
        expect(alice.locator("#match-body")).to_contain_text("Your opponent declined the takeback.")
        expect(square(alice, "d3")).to_have_attribute("aria-label", re.compile(r"^d3, black"))
        expect(ask).to_have_count(0)  # not again before the next move

        # Bob replies; alice moves again and asks again; this time bob accepts.
        square(bob, "c3").click()
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        square(alice, "c4").click()
        expect(square(bob, "c4")).to_have_attribute("aria-label", re.compile(r"^c4, black, last move"))
        ask.click()
        expect(bob.locator("#match-body")).to_contain_text("alice asks to take back their last move.")
        bob.get_by_role("button", name="Accept the takeback").click()
        # Both boards are back before c4, and it is alice's turn again.
        expect(square(alice, "c4")).to_have_attribute("aria-label", re.compile(r"^c4, empty, legal move"))
        expect(square(bob, "c4")).to_have_attribute("aria-label", re.compile(r"^c4, empty"))
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        expect(bob.locator("#match-body")).to_contain_text("Waiting for alice")


class ConfirmMoves(BrowserTestCase):
    def test_with_confirm_moves_on_a_first_tap_selects_and_a_second_makes_the_move(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "careful")
        page.goto(base + "/accounts/settings/")
        page.get_by_role("group", name="Confirm moves").get_by_label("Always").check()
        page.get_by_role("region", name="Playing").get_by_role("button", name="Save").click()
        expect(page.get_by_text("Your play settings are saved.")).to_be_visible()

        new_match(page, "reversi", 2, {2: "bot"})
        body = page.locator("#match-body")
        expect(body).to_contain_text("Your turn.")
        wait_live(page)
        version = body.get_attribute("data-version")
        square(page, "d3").click()
        expect(square(page, "d3")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#board-announcer")).to_contain_text("Tap it again to make this move.")
        # Another square moves the selection; nothing was posted.
        square(page, "c4").click()
        expect(square(page, "c4")).to_have_attribute("aria-pressed", "true")
        expect(square(page, "d3")).not_to_have_attribute("aria-pressed", "true")
        assert body.get_attribute("data-version") == version
        square(page, "c4").click()
        expect(body).not_to_have_attribute("data-version", version)
        expect(square(page, "c4")).to_have_attribute("aria-label", re.compile(r"^c4, black"))
        # The computer's reply, pushed live: a page without JavaScript shows only what is there when it loads.
        expect(body).to_contain_text("Your turn.")

        # Without JavaScript the same setting changes nothing: one click posts the move.
        context = self.browser.new_context(java_script_enabled=False, storage_state=page.context.storage_state())
        plain = context.new_page()
        plain.goto(page.url)
        expect(plain.locator("#match-body")).to_contain_text("Your turn.")
        plain.locator("button.sq.legal").first.click()
        expect(plain.locator("#match-body")).to_contain_text(re.compile(r"Waiting for|Your turn"))
        from games.models import Match

        assert Match.objects.get(pk=int(page.url.rstrip("/").split("/")[-1])).move_count >= 3


class ConfirmMovesOnTouchScreens(BrowserTestCase):
    def test_the_touch_setting_asks_for_a_second_tap_on_a_touch_screen_only(self) -> None:
        base = self.live_server_url
        page = self.new_page(width=1280, height=800)  # a mouse: the first click moves
        sign_up(page, base, "thumbs")
        page.goto(base + "/accounts/settings/")
        page.get_by_role("group", name="Confirm moves").get_by_label("On touch screens").check()
        page.get_by_role("region", name="Playing").get_by_role("button", name="Save").click()
        expect(page.get_by_text("Your play settings are saved.")).to_be_visible()
        new_match(page, "reversi", 2, {2: "human"}, public=False)
        match_url = page.url
        bob = self.new_page()
        sign_up(bob, base, "bob")
        bob.goto(base + invite_path(page))
        bob.get_by_role("button", name="Take a seat").click()
        body = page.locator("#match-body")
        expect(body).to_contain_text("Your turn.")
        wait_live(page)
        square(page, "d3").click()
        expect(square(page, "d3")).to_have_attribute("aria-label", re.compile(r"^d3, black, last move"))

        # On a phone (touch, coarse pointer) the first tap only selects.
        phone = self.browser.new_context(
            viewport={"width": 390, "height": 844},
            has_touch=True,
            is_mobile=True,
            storage_state=page.context.storage_state(),
        )
        phone.set_default_timeout(TIMEOUT_MS)
        phone.add_init_script(MARK_LIVE)
        tapped = phone.new_page()
        bob.get_by_role("button", name=re.compile("^c3")).click()
        tapped.goto(match_url)
        phone_body = tapped.locator("#match-body")
        expect(phone_body).to_contain_text("Your turn.")
        wait_live(tapped)  # the socket's first message redraws the board: tap after it
        version = phone_body.get_attribute("data-version")
        square(tapped, "c4").tap()
        expect(square(tapped, "c4")).to_have_attribute("aria-pressed", "true")
        assert phone_body.get_attribute("data-version") == version
        square(tapped, "c4").tap()
        expect(square(tapped, "c4")).to_have_attribute("aria-label", re.compile(r"^c4, black, last move"))
