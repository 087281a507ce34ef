"""The way new people come in: an invitation link opened logged out, and watching without an account."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.models import Match
from tests.e2e.helpers import PASSWORD, BrowserTestCase, invite_path, log_out, new_match, sign_up, wait_live


def fill_sign_up(page: Page, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()


class InvitationsInTheBrowser(BrowserTestCase):
    def _invitation(self) -> tuple[Page, str]:
        """alice's private Tacocat match waiting for a second person, and its invitation path."""
        alice = self.new_page()
        sign_up(alice, self.live_server_url, "alice")
        new_match(alice, "tacocat", 2, {2: "human"}, public=False)
        return alice, invite_path(alice)

    def _open_logged_out(self, path: str) -> Page:
        guest = self.new_page()
        guest.goto(self.live_server_url + path)
        expect(
            guest.get_by_role("heading", name="alice invites you to a match of Tacocat Spelled Backwards")
        ).to_be_visible()
        expect(guest.get_by_role("link", name="How to play Tacocat Spelled Backwards")).to_be_visible()
        return guest

    def test_a_logged_out_friend_signs_up_from_the_invitation_and_is_seated(self) -> None:
        alice, path = self._invitation()
        dora = self._open_logged_out(path)
        dora.get_by_role("link", name="Sign up and take your seat").click()
        # The sign-up page still says what the invitation is.
        expect(dora.get_by_text("alice invites you to a match of Tacocat Spelled Backwards")).to_be_visible()
        fill_sign_up(dora, "dora")
        # Straight into the match, seated: no other step.
        expect(dora.locator(".messages")).to_contain_text("You joined the match.")
        expect(dora.locator(".seat.mine")).to_contain_text("dora")
        match = Match.objects.get()
        assert dora.url == f"{self.live_server_url}/m/{match.pk}/"
        assert match.status == Match.Status.ACTIVE and match.seats.filter(user__username="dora").exists()
        expect(alice.locator("#match-body .seats")).to_contain_text("dora")  # live on alice's page

    def test_a_logged_out_player_logs_in_from_the_invitation_and_is_seated(self) -> None:
        bob = self.new_page()
        sign_up(bob, self.live_server_url, "bob")
        log_out(bob)
        expect(bob.get_by_role("navigation", name="Main").get_by_role("link", name="Log in")).to_be_visible()
        alice, path = self._invitation()
        bob.goto(self.live_server_url + path)
        expect(
            bob.get_by_role("heading", name="alice invites you to a match of Tacocat Spelled Backwards")
        ).to_be_visible()
        bob.get_by_role("link", name="Log in and take your seat").click()
        expect(bob.get_by_text("alice invites you to a match of Tacocat Spelled Backwards")).to_be_visible()
        bob.get_by_label("Username").fill("bob")
        bob.get_by_label("Password").fill(PASSWORD)
        bob.locator("main").get_by_role("button", name="Log in").click()
        expect(bob.locator(".messages")).to_contain_text("You joined the match.")
        expect(bob.locator(".seat.mine")).to_contain_text("bob")
        assert Match.objects.get().seats.filter(user__username="bob").exists()
        expect(alice.locator("#match-body .seats")).to_contain_text("bob")

    def test_create_an_account_from_the_log_in_page_keeps_the_invitation(self) -> None:
        _alice, path = self._invitation()
        erin = self._open_logged_out(path)
        erin.get_by_role("link", name="Log in and take your seat").click()
        erin.get_by_role("link", name="Create an account").click()
        fill_sign_up(erin, "erin")
        expect(erin.locator(".seat.mine")).to_contain_text("erin")

    def test_a_public_match_is_watched_live_without_an_account(self) -> None:
        alice = self.new_page()
        sign_up(alice, self.live_server_url, "alice")
        new_match(alice, "reversi", 2, {2: "bot"})
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        wait_live(alice)
        match = Match.objects.get()
        guest = self.new_page()
        guest.goto(f"{self.live_server_url}/lobby/")
        guest.get_by_role("link", name=f"Reversi #{match.pk}").click()
        expect(guest.locator(".guest-notice")).to_contain_text("You are watching as a guest.")
        wait_live(guest)
        alice.locator("#sq-d3").click()
        # alice's move, then the computer's, reach the guest's page without a reload.
        expect(guest.locator("#match-body")).to_have_attribute("data-version", str(match.version + 2))
        expect(guest.locator(".sq.legal")).to_have_count(0)

    def test_the_lobby_shows_a_new_open_match_to_a_guest_without_a_reload(self) -> None:
        from django.contrib.auth import get_user_model

        from games import services

        guest = self.new_page()
        guest.goto(f"{self.live_server_url}/lobby/")
        expect(guest.locator("#lobby-lists")).to_contain_text("No open matches right now.")
        owner = get_user_model().objects.create_user(username="bea", password=PASSWORD)
        match = services.create_match(user=owner, game="dos", players=2)
        # The lists fetch themselves again (every 15 s): the match appears on the page as it is.
        expect(guest.get_by_role("link", name=f"DOS #{match.pk}")).to_be_visible()
        join = guest.get_by_role("link", name="Join")
        expect(join).to_have_attribute("href", f"/accounts/login/?next=/m/{match.pk}/")
