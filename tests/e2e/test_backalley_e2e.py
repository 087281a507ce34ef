"""A person plays Back Alley with three computer players in a phone-sized browser: bids, plays a whole
hand by clicking (and once by keyboard) only the cards the page offers, and sees it scored."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import BrowserTestCase, new_match, sign_up

CARD_NAME = re.compile(r"^(\w+ of (spades|hearts|diamonds|clubs)|Big Blooper|Little Blooper)$")
NOT_PLAYABLE = re.compile(r"^(\w+ of (spades|hearts|diamonds|clubs)|Big Blooper|Little Blooper) \(not playable\)$")


def wait_for_my_card_or_next_hand(page: Page) -> bool:
    """True when a card is to be played; False once hand 1 is over."""
    body = page.locator("#match-body")
    expect(body).to_contain_text(re.compile(r"Your (turn|lead): play a card\.|Hand 2 of 25"))
    return "Hand 2 of 25" not in body.inner_text()


class BackAlleyInTheBrowser(BrowserTestCase):
    def test_a_whole_hand_against_three_computers_bid_play_and_score(self) -> None:
        page = self.new_page()  # 390 x 844
        sign_up(page, self.live_server_url, "solo")
        new_match(page, "backalley", 4, {2: "bot", 3: "bot", 4: "bot"})
        body = page.locator("#match-body")

        # Bidding: one button per legal bid, each with a spoken name.
        expect(body).to_contain_text("Your bid: how many tricks will you take?")
        expect(page.get_by_role("button", name="Pass (no tricks)")).to_be_enabled()
        expect(page.get_by_role("button", name="Bid 12 tricks")).to_be_visible()
        board = re.compile(r"^Bid (double |triple |quadruple )?board: all 13 tricks$")
        expect(page.get_by_role("button", name=board)).to_be_visible()
        expect(page.get_by_role("button", name="Bid 13 tricks")).to_have_count(0)
        page.get_by_role("button", name="Bid 1 trick", exact=True).click()
        expect(page.locator(".ba-at-bottom .ba-bid")).to_have_text("1")

        keyboard_used = saw_reason = False
        played = 0
        while wait_for_my_card_or_next_hand(page):
            hand = page.locator(".ba-play-form .ba-card-button")
            playable = page.locator(".ba-play-form .ba-card-button:not([disabled])")
            assert playable.count() >= 1
            # Every card that is not offered says why, in words on the page and in its description.
            disabled = page.locator(".ba-play-form .ba-card-button[disabled]")
            if disabled.count():
                saw_reason = True
                expect(page.locator("#ba-why")).to_be_visible()
                expect(page.locator("#ba-why")).to_contain_text("cannot be played now")
                expect(disabled.first).to_have_accessible_name(NOT_PLAYABLE)
                expect(disabled.first).to_have_attribute("aria-describedby", "ba-why")
            card = playable.first
            code = card.get_attribute("value")
            expect(card).to_have_accessible_name(CARD_NAME)
            count = hand.count()
            if not keyboard_used:
                card.focus()
                page.keyboard.press("Enter")
                keyboard_used = True
            else:
                card.click()
            played += 1
            # The card leaves the hand; the trick on the table shows it (or the trick was completed).
            expect(page.locator(f"#card-{code}")).to_have_count(0)
            if played == 1:
                page.get_by_text(re.compile(r"^Last trick \(won by ")).wait_for()
                page.locator("details.ba-last summary").click()
                expect(page.locator("details.ba-last li")).to_have_count(4)
            assert count == 14 - played
        assert played == 13
        # In thirteen tricks some card is always held back by the rules (following suit, BA-13..BA-15).
        assert saw_reason

        # Hand 1 is on the score sheet; hand 2 is dealt (12 cards).
        rows = page.locator(".ba-sheet-table tbody tr")
        expect(rows).to_have_count(1)
        expect(rows.first.locator("th")).to_contain_text("1")
        expect(body).to_contain_text("12 cards each")
        expect(page.get_by_text("No hand has been scored yet.")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
