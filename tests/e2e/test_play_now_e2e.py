"""Play now in real browsers: two people ask for Reversi and land in the same match."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from accounts.models import User
from games.services import pairing, people
from tests.e2e import test_every_page_e2e as every  # the module, so its test class is not collected twice
from tests.e2e.helpers import BrowserTestCase, console_errors, sign_up


class PlayNowInTheBrowser(BrowserTestCase):
    def test_two_people_asking_for_reversi_land_in_the_same_match(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        errors = console_errors(alice)
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")

        alice.get_by_role("link", name="Play now", exact=True).first.click()
        expect(alice.get_by_role("heading", name="Play now")).to_be_visible()
        alice.get_by_role("button", name="Play Reversi now").click()
        expect(alice.get_by_role("status")).to_contain_text("You are waiting for opponents")
        waiting = alice.locator("#open-seeks")
        expect(waiting).to_contain_text("Reversi")
        expect(waiting.get_by_role("button", name="Stop waiting")).to_be_visible()

        bob.get_by_role("link", name="Play now", exact=True).first.click()
        bob.get_by_role("button", name="Play Reversi now").click()
        expect(bob).to_have_url(re.compile(r"/m/\d+/$"))
        expect(bob.get_by_role("status").first).to_contain_text("Opponents found: your match has started.")

        # Alice's page learns of the pairing live (no reload) and leads her to the same match.
        found = alice.get_by_role("link", name="Opponents found: open the match")
        expect(found).to_be_visible()
        expect(alice.locator("#open-seeks")).to_have_count(0)
        found.click()
        expect(alice).to_have_url(bob.url)
        for page in (alice, bob):
            expect(page.locator("main")).to_contain_text("alice")
            expect(page.locator("main")).to_contain_text("bob")
        assert errors == []


class PlayNowPagesOnAPhone(BrowserTestCase):
    def test_the_play_now_people_and_profile_pages_fit_a_phone_and_are_axe_clean(self) -> None:
        page = self.new_page(every.PHONE, 740)
        errors = console_errors(page)
        problems: list[str] = []
        sign_up(page, self.live_server_url, "ann")
        ann = User.objects.get(username="ann")
        for name in ("bea", "cal"):
            User.objects.create_user(username=name, password="not used here 42")
        people.follow(user=ann, username="bea")
        people.block(user=ann, username="cal")
        pairing.post_seek(user=ann, game="dos", players=3, pace_seconds=None, rated=True)
        bea = User.objects.get(username="bea")
        pairing.post_seek(user=bea, game="backalley", players=4, pace_seconds=None, rated=False, partner="ann")
        page.goto(self.live_server_url + "/play/")
        expect(page.locator("#partner-asks")).to_contain_text("bea asks you to be partners in Back Alley.")
        for path in ("/play/", "/people/", "/accounts/u/bea/", "/accounts/u/cal/", "/rules/reversi/"):
            every.EveryPageOnAPhone.check(self, page, path, errors, problems)  # type: ignore[arg-type]
        assert problems == [], "\n".join(problems)
