"""People in real browsers play Tacocat Spelled Backwards: two friends choose in secret and see both
choices revealed live, a jumbo attack is answered card by card and the round's showdown moves the cat,
and a round against the computer runs to its showdown."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import Locator, Page, expect

from games import services
from tests.e2e.helpers import BrowserTestCase, invite_path, new_match, sign_up, wait_live
from tests.games.tacocat.test_web_pages import OPTIONS  # alice 12 1 2 3 4 5 6, bob 11 7 8 9 10 10 12


def card_label(page: Page, value: str) -> Locator:
    """The first card of the hand form showing ``value`` (the label of its checkbox or radio)."""
    return page.locator(".taco-form label.taco-choice").filter(has_text=re.compile(rf"^{value}$")).first


def step(page: Page) -> Locator:
    return page.locator(".taco-step")


class TacocatInTheBrowser(BrowserTestCase):
    def test_two_friends_choose_in_secret_and_both_choices_are_revealed_live(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        new_match(alice, "tacocat", 2, {2: "human"}, public=False)
        bob.goto(base + invite_path(alice))
        bob.get_by_role("button", name="Take a seat").click()
        expect(step(bob)).to_contain_text("You both choose at the same time")
        expect(step(alice)).to_contain_text("You both choose at the same time")  # live: the match started
        wait_live(bob)  # before ticking: the socket's first message redraws the board

        # Bob ticks a card; Alice's choice arrives live and Bob's tick survives the update.
        first = bob.locator(".taco-form input[name='cards[]']").first
        card_label(bob, first.get_attribute("value")).click()
        expect(first).to_be_checked()
        alice.get_by_role("button", name="Keep all my cards").click()
        expect(step(alice)).to_contain_text("You chose to keep all your cards; waiting for bob to choose.")
        expect(step(bob)).to_contain_text("alice has chosen.")
        expect(first).to_be_checked()
        bob.get_by_role("button", name="Replace the ticked cards").click()
        for page in (alice, bob):
            expect(page.locator("#taco-step-title")).to_have_text("Duel")
            expect(page.locator(".events")).to_contain_text("bob replaces 1 card")

        # The duel: Alice by keyboard, then Bob by mouse. Only "has chosen" shows until both are in.
        radio = alice.locator(".taco-form input[name='card']").first
        alice_card = radio.get_attribute("value")
        radio.focus()
        alice.keyboard.press("Space")
        expect(radio).to_be_checked()
        alice.get_by_role("button", name="Play this card face down").focus()
        alice.keyboard.press("Enter")
        expect(step(alice)).to_contain_text(f"You chose {alice_card}; waiting for bob to choose.")
        expect(step(bob)).to_contain_text("alice has chosen.")
        expect(bob.locator(".taco-duel")).to_have_count(0)
        bob_card = bob.locator(".taco-form input[name='card']").last.get_attribute("value")
        card_label(bob, bob_card).click()
        bob.get_by_role("button", name="Play this card face down").click()
        reveal = re.compile(rf"Duel:\s+alice {alice_card}\s+vs\s+{bob_card} bob\s+— ")
        expect(alice.locator(".taco-duel")).to_have_text(reveal)  # live on the page that waited
        expect(bob.locator(".taco-duel")).to_have_text(reveal)

    def test_a_jumbo_attack_is_answered_card_by_card_and_the_showdown_moves_the_cat(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page(1200, 900)
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        users = get_user_model().objects
        match = services.create_match(user=users.get(username="alice"), game="tacocat", players=2, options=OPTIONS)
        services.join_match(match_id=match.pk, user=users.get(username="bob"))
        for page in (alice, bob):
            page.goto(base + match.get_absolute_url())
            wait_live(page)
            page.get_by_role("button", name="Keep all my cards").click()
        for page, card in ((alice, "12"), (bob, "11")):
            expect(page.locator("#taco-step-title")).to_have_text("Duel")
            card_label(page, card).click()
            page.get_by_role("button", name="Play this card face down").click()

        expect(step(alice)).to_contain_text("You attack.")
        for value in ("2", "3", "4", "5", "6"):
            card_label(alice, value).click()
        alice.get_by_role("button", name="Attack with the ticked cards").click()
        expect(step(alice)).to_contain_text("bob must answer your attack: 2-3-4-5-6.")

        expect(step(bob)).to_contain_text("alice attacks with 2-3-4-5-6 (a jumbo attack: a sequence).")
        expect(bob.get_by_label("Against 2")).to_have_value("7")  # the cheapest full defence, preselected
        bob.get_by_label("Against 6").select_option(label="Defend with 12")
        bob.get_by_label("Against 5").select_option(label="Defend with 10")
        bob.get_by_role("button", name="Answer the attack").click()

        for page in (alice, bob):
            result = page.locator(".taco-result")
            expect(result).to_contain_text("Round 1: showdown")
            expect(result).to_contain_text("The lower card wins: alice wins the round.")
            expect(result).to_contain_text("The cat runs from O (0) to C (-1).")
            expect(result).to_contain_text("A tile now covers O (0).")
            expect(page.locator(".taco-has-cat")).to_contain_text("C (-1): 6 cards each, bob replaces first")
            expect(page.locator(".taco-covered")).to_contain_text("tile")
        expect(step(bob)).to_contain_text("You replace first")
        expect(step(alice)).to_contain_text("bob replaces first; you may then replace at most as many cards.")

    def test_a_round_against_the_computer_runs_to_its_showdown(self) -> None:
        page = self.new_page()
        sign_up(page, self.live_server_url, "solo")
        new_match(page, "tacocat", 2, {2: "bot"})
        wait_live(page)
        title = page.locator("#taco-step-title")
        body = page.locator("#match-body")
        for _ in range(40):
            expect(body).to_contain_text(re.compile(r"Your turn\.|Round 1: showdown"))
            if page.locator(".taco-result").count():
                break
            kind = title.inner_text()
            # Wait for this player's own move to be answered: the computer's moves also change the page
            # (and its version) while a request is in flight.
            with page.expect_response(lambda r: r.url.endswith("/act/") and r.request.method == "POST"):
                if kind == "Replace cards":
                    page.get_by_role("button", name="Keep all my cards").click()
                elif kind in ("Duel", "Attack"):
                    page.locator(".taco-form label.taco-choice").first.click()
                    name = "Play this card face down" if kind == "Duel" else "Attack with the ticked cards"
                    page.get_by_role("button", name=name).click()
                else:  # an answer: the first button is the cheapest defence, or "Answer the attack"
                    page.locator(".taco-buttons button").first.click()
            # ... and swapped in (htmx drops its request class after the swap): until then the page
            # still shows the step just played, and its "Your turn." would be read as the next one.
            expect(page.locator(".htmx-request")).to_have_count(0)
        expect(page.locator(".taco-result")).to_contain_text(re.compile(r"(wins the round|A tie)"))
        expect(page.locator(".events")).to_contain_text("Showdown:")
