"""DOS in real browsers: a round against the computer by mouse and keyboard, and a live four-player table."""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import patch

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games import services
from tests.e2e.helpers import BrowserTestCase, new_match, sign_up, wait_live

# Seat 0 sheds six cards in the first turn (two double colour matches, two bonus cards) and goes out with
# R# in the second; the computer's low yellow cards match nothing it is left, so it draws and places.
SOLO = {
    "deck": [
        *("R#", "Y1", "G3", "Y1", "G4", "Y1", "G8", "Y3", "B4", "Y3", "B5", "Y3", "B8", "Y4"),
        *("G7", "B9"),
        *("G9", "B10", "R1", "R3", "G1"),
    ],
    "dealer": 1,
}
# Four hands dealt round the table from seat 0 (alice), then the Center Row R7, W2.
FOUR = [
    ["R3", "R4", "G5", "B6", "Y7", "Y8", "W2"],
    ["R5", "G3", "G4", "B7", "B8", "Y9", "Y10"],
    ["R6", "G6", "B3", "B4", "Y1", "Y5", "R#"],
    ["R8", "G8", "G9", "B9", "Y3", "Y4", "B#"],
]
TABLE = {"deck": [*(FOUR[i % 4][i // 4] for i in range(28)), "R7", "W2", "G10", "B10", "Y6", "G7"], "dealer": 3}


def hand_card(page: Page, name: str) -> Any:
    """The label (the drawn card) of a hand card, by its spoken name, e.g. "blue 4" (not "blue 10")."""
    return page.locator(".dos-hand-cards label").filter(has_text=re.compile(rf"{re.escape(name)}(?!\d)")).first


def row_card(page: Page, name: str) -> Any:
    return page.locator(".dos-row-cards label").filter(has_text=re.compile(rf"{re.escape(name)}(?!\d)")).first


def events(page: Page) -> Any:
    return page.locator(".events")


def create_match(username: str, **kwargs: Any) -> Any:
    """``services.create_match`` for a user who signed up in the browser (the live server shares the database).

    The announcement after commit is left out: from this process it could not reach the server's channel
    layer anyway (and ``async_to_sync`` cannot run beside Playwright's event loop). Nobody is on the
    match's page yet, and the server's runner finds due computer moves in the database.
    """
    owner = get_user_model().objects.get(username=username)
    with patch("games.live.realtime.announce"):
        return services.create_match(user=owner, game="dos", **kwargs)


# One test per class, so one live server per test: with SQLite, rows this process writes after the first
# test of a class were not seen by that class's server (the match page answered 404).
class DosAgainstTheComputer(BrowserTestCase):
    def test_a_round_against_the_computer_by_mouse_and_keyboard(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "solo")
        # The new-match form offers DOS; the page deals a hand at once.
        new_match(page, "dos", 2, {2: "bot"})
        expect(page.locator(".dos-hand")).to_contain_text("Your hand (")
        expect(page.locator(".dos-row-cards li")).to_have_count(2)

        # A stacked deck, so that the round ends within two turns.
        match = create_match("solo", players=2, bot_seats={1}, options=SOLO)
        page.goto(base + match.get_absolute_url())
        body = page.locator("#match-body")
        expect(body).to_contain_text("Your turn.")
        wait_live(page)  # before choosing cards: the socket's first message redraws the board

        # B4 + B5 on B9, with the mouse.
        row_card(page, "blue 9").click()
        hand_card(page, "blue 4").click()
        hand_card(page, "blue 5").click()
        page.get_by_role("button", name="Match", exact=True).click()
        expect(events(page)).to_contain_text(
            "solo matched blue 4 + blue 5 on blue 9: double colour match, everyone else draws 1."
        )

        # G3 + G4 on G7, with the keyboard: Space picks a card or a row card, Enter presses a button.
        page.get_by_role("radio", name=re.compile(r"^green 7")).focus()
        page.keyboard.press("Space")
        page.get_by_role("checkbox", name=re.compile(r"^green 3")).focus()
        page.keyboard.press("Space")
        page.keyboard.press("Tab")  # to green 4
        page.keyboard.press("Space")
        expect(page.get_by_role("checkbox", name=re.compile(r"^green 4"))).to_be_checked()
        page.get_by_role("button", name="Match", exact=True).focus()
        page.keyboard.press("Enter")
        expect(events(page)).to_contain_text("solo matched green 3 + green 4 on green 7")

        # Two colour matches: two bonus cards.
        expect(body).to_contain_text("Colour match bonus")
        for name in ("green 8", "blue 8"):
            hand_card(page, name).click()
            page.get_by_role("button", name="Place the chosen card as a bonus").click()
            expect(events(page)).to_contain_text(f"solo put {name} in the Center Row as a colour-match bonus.")

        # The computer's turn happens by itself and shows up live.
        expect(events(page)).to_contain_text("Computer 2 drew a card.")
        expect(events(page)).to_contain_text(
            "Computer 2 made no match after drawing and put yellow 4 in the Center Row."
        )
        expect(body).to_contain_text("Your turn.")

        # The last card, a Wild #, goes on G9: declared as 9 in the select that appears when it is chosen.
        declare = page.get_by_label("Value of your red Wild #")
        expect(declare).to_be_hidden()
        hand_card(page, "red Wild #").click()
        expect(declare).to_be_visible()
        declare.select_option("9")
        row_card(page, "green 9").click()
        page.get_by_role("button", name="Match", exact=True).click()

        summary = page.locator(".dos-summary")
        expect(summary).to_contain_text("Round 1: solo went out and scored 17 points.")
        expect(summary).to_have_attribute("open", "")
        expect(summary).to_contain_text("17 points in hand:")
        expect(page.locator(".dos-players")).to_contain_text("17")


class DosAtATableOfFour(BrowserTestCase):
    def test_four_at_a_table_see_each_others_moves_live(self) -> None:
        base = self.live_server_url
        alice, bob, carol = (self.new_page() for _ in range(3))
        for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            sign_up(page, base, name)
        match = create_match("alice", players=4, bot_seats={3}, options=TABLE)
        url = base + match.get_absolute_url()
        alice.goto(url)
        expect(alice.get_by_role("status")).to_contain_text("Waiting for players")
        for page in (bob, carol):
            page.goto(url)
            page.get_by_role("button", name="Join this match").click()
        # The match starts when carol takes the last seat; alice's page learns it without a reload.
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        expect(bob.locator("#match-body")).to_contain_text("alice is playing.")

        row_card(alice, "red 7").click()
        hand_card(alice, "red 3").click()
        hand_card(alice, "red 4").click()
        alice.get_by_role("button", name="Match", exact=True).click()
        for page in (bob, carol):
            expect(events(page)).to_contain_text("alice matched red 3 + red 4 on red 7: double colour match")
            expect(page.locator(".dos-row-cards")).to_contain_text("matched: double colour match")

        alice.get_by_role("button", name="End matching").click()
        alice.get_by_role("button", name="Skip the bonus").click()
        # Everyone else drew a penalty card; bob sees his own, the others only that he drew one.
        expect(events(bob)).to_contain_text("bob drew 1 penalty card for alice's double colour match: blue 10.")
        expect(events(carol)).to_contain_text("bob drew 1 penalty card for alice's double colour match.")
        expect(bob.locator("#match-body")).to_contain_text("Your turn.")
        expect(carol.locator(".dos-players")).to_contain_text(re.compile(r"alice\s*5"))

        bob.get_by_role("button", name="Draw a card").click()
        for page in (alice, carol):
            expect(events(page)).to_contain_text("bob drew a card.")
        hand_card(bob, "yellow 10").click()
        bob.get_by_role("button", name="Put the chosen card in the Center Row").click()
        for page in (alice, carol):
            expect(events(page)).to_contain_text("bob made no match after drawing and put yellow 10 in the Center Row.")
        expect(carol.locator("#match-body")).to_contain_text("Your turn.")
