"""A four-player Swiss of Reversi in four browsers, from the organiser's form to the final standings."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.helpers import BrowserTestCase, sign_up
from tournaments.models import Entry, Pairing

NAMES = ("olga", "pete", "quin", "rosa")


class SwissInTheBrowser(BrowserTestCase):
    def resign_as(self, page: Page, match_id: int) -> None:
        page.goto(f"{self.live_server_url}/m/{match_id}/")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Resign").click()
        expect(page.locator("#match-body")).to_contain_text("resigned")

    def test_four_players_enter_play_three_rounds_and_see_the_final_standings(self) -> None:
        base = self.live_server_url
        pages = {name: self.new_page(1200, 900) for name in NAMES}
        for name, page in pages.items():
            sign_up(page, base, name)
        olga = pages["olga"]

        olga.get_by_role("link", name="Tournaments").click()
        olga.get_by_role("link", name="Organise a tournament").click()
        olga.get_by_label("Name").fill("Browser Swiss")
        olga.get_by_label("Game").select_option("reversi")
        olga.get_by_label("Format").select_option("swiss")
        olga.get_by_label("Rounds").fill("3")
        olga.get_by_role("button", name="Create the tournament").click()
        expect(olga.get_by_role("heading", name="Browser Swiss")).to_be_visible()
        url = olga.url

        for page in pages.values():
            page.goto(f"{base}/tournaments/")
            page.get_by_role("link", name="Browser Swiss").click()
            page.get_by_role("button", name="Enter", exact=True).click()
            expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
        olga.get_by_role("button", name="Start now").click()
        expect(olga.locator("#tournament-status")).to_contain_text("Round 1 of 3")

        watcher = pages["rosa"].context.new_page()  # rosa's second tab, kept on the tournament page
        watcher.goto(url)
        for number in (1, 2, 3):
            expect(watcher.locator("#tournament-status")).to_contain_text(f"Round {number} of 3")
            # Each board's second player resigns in their own browser.
            for pairing in Pairing.objects.filter(round__tournament__name="Browser Swiss", round__number=number):
                loser = Entry.objects.select_related("user").get(pk=pairing.sides[1]).user.username
                self.resign_as(pages[loser], pairing.match_id)
        # The open page learns of each round, and of the end, by itself (polled), without a reload.
        expect(watcher.locator("#tournament-status")).to_contain_text("Finished")
        standings = watcher.locator("#standings tbody tr")
        expect(standings).to_have_count(4)
        for name in NAMES:
            expect(watcher.locator("#standings")).to_contain_text(name)
        # Two games a round, three rounds: six points shared out.
        expect(watcher.get_by_role("heading", name="Round 3", exact=True)).to_be_visible()
        expect(watcher.locator("#standings tbody tr").first.locator("td").first).to_have_text("1")
        cells = [standings.nth(i).locator("td").nth(1).inner_text() for i in range(4)]
        assert sum(float(c.replace("½", ".5")) for c in cells) == 6
        # The tournament stays on the players' profiles.
        olga.goto(f"{base}/accounts/u/pete/")
        expect(olga.get_by_role("link", name="Browser Swiss")).to_be_visible()
