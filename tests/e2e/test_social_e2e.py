"""Playing with people in real browsers: challenges, private rematches, and Web Push."""

from __future__ import annotations

import json
from datetime import timedelta

from django.test import override_settings
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts import push
from accounts.models import PushSubscription
from games.background import notify
from games.models import Match
from tests.e2e.helpers import BrowserTestCase, htmx_settled, invite_path, new_match, sign_up, wait_live
from tests.push_service import BrowserKeys, PushService

# The browser's push service, played by the stand-in: the real service worker registers, and its
# PushManager hands out a subscription to the stand-in's endpoint with keys the test holds.
FAKE_PUSH_MANAGER = """
(function (subscription) {
  var current = null;
  var made = {endpoint: subscription.endpoint, toJSON: function () { return subscription; },
              unsubscribe: function () { current = null; return Promise.resolve(true); }};
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
  PushManager.prototype.subscribe = function (options) {
    window.subscribedWith = options;
    current = made;
    return Promise.resolve(made);
  };
  Notification.requestPermission = function () { return Promise.resolve("granted"); };
})(SUBSCRIPTION);
"""


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


@override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"})
class PlayingWithPeopleInTheBrowser(BrowserTestCase):
    def test_a_challenge_by_username_is_accepted_live_by_the_other_player(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        alice.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")  # bob stays on his home page

        new_match(alice, "reversi", 2, {2: "human"}, public=False)
        link = alice.get_by_label("Invitation link")
        expect(link).to_have_value(f"{base}{invite_path(alice)}")  # the address the site is served at
        alice.get_by_role("button", name="Copy link").click()
        expect(alice.locator(".copy-status")).to_have_text("Link copied.")
        assert alice.evaluate("navigator.clipboard.readText()") == link.input_value()

        alice.get_by_label("Challenge a player by username").fill("bob")
        alice.get_by_role("button", name="Challenge", exact=True).click()
        expect(alice.locator("#match-body")).to_contain_text("A seat is kept for bob: waiting for their answer.")

        inbox = alice.context.new_page()  # alice's home page, in another tab
        inbox.goto(f"{base}/")
        expect(inbox.get_by_role("heading", name="Your turn")).to_be_visible()
        expect(inbox.locator("#your-turn-list")).to_have_count(0)

        # Bob's inbox and badge learn of it without a reload.
        challenge = bob.locator("#challenge-list li").filter(has_text="alice challenges you.")
        expect(challenge).to_be_visible()
        expect(bob.locator("#challenge-badge")).to_contain_text("1 challenge")
        challenge.get_by_role("button", name="Accept").click()
        expect(bob.locator("#match-body")).to_contain_text("Waiting for alice")
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")  # live on alice's page
        # ... and the list on her home page, not only the badge.
        expect(inbox.locator("#your-turn-list")).to_contain_text("Reversi")

    def test_a_challenge_from_a_profile_picks_its_terms_and_its_answer_shows_live(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")  # bob stays on his home page

        alice.goto(f"{base}/accounts/u/bob/")
        alice.get_by_role("link", name="Choose players, pace and options").click()
        expect(alice.get_by_role("heading", name="Challenge bob")).to_be_visible()
        alice.get_by_label("Game").select_option("dos")
        expect(alice.locator("#match-setup a[href='/rules/dos/']")).to_be_visible()
        htmx_settled(alice)
        alice.get_by_label("Number of players").select_option("3")
        expect(alice.locator(".seat-choice")).to_have_count(1)  # seat 2 is bob's: only seat 3 to fill
        htmx_settled(alice)
        alice.get_by_role("group", name="Seat 3").get_by_label("Computer player").check()
        alice.get_by_label("Points to win").select_option("100")
        alice.get_by_label("Time per move").select_option(label="1 day per move")
        alice.get_by_role("button", name="Challenge", exact=True).click()
        expect(alice.locator(".messages")).to_contain_text("bob has been challenged.")
        expect(alice.locator("#match-body")).to_contain_text("A seat is kept for bob: waiting for their answer.")
        wait_live(alice)

        # Bob sees the terms before answering, in his inbox, without a reload.
        terms = "3 players · 1 day per move · casual · Points to win: 100 points (short)"
        challenge = bob.locator("#challenge-list li").filter(has_text="alice challenges you.")
        expect(challenge).to_contain_text(terms)
        challenge.get_by_role("button", name="Decline").click()

        # Alice's page learns of it live, and the message it contradicts goes.
        expect(alice.locator("#match-body")).to_contain_text("bob declined the challenge; the seat is open again.")
        expect(alice.get_by_text("bob has been challenged.")).to_have_count(0)

    def test_a_private_rematch_is_offered_on_the_result_screen_and_accepted(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        new_match(alice, "reversi", 2, {2: "human"}, public=False)
        bob.goto(base + invite_path(alice))
        bob.get_by_role("button", name="Take a seat").click()
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")
        resign(bob)
        expect(alice.locator("#match-body")).to_contain_text("You won!")
        expect(bob.locator("#match-body")).to_contain_text("You lost.")

        alice.get_by_role("button", name="Offer a rematch").click()
        expect(alice.locator("#match-body")).to_contain_text("Waiting for players to join.")
        # Bob sees the offer appear on his result screen, live.
        offer = bob.locator("#match-body .challenge").filter(has_text="alice offers a rematch.")
        expect(offer).to_be_visible()
        offer.get_by_role("button", name="Accept").click()
        # Seats rotate: bob plays Black now and moves first; alice's page follows live.
        expect(bob.locator("#match-body")).to_contain_text("Your turn.")
        expect(alice.locator("#match-body")).to_contain_text("Waiting for bob")
        assert Match.objects.get(rematch_of__isnull=False).status == Match.Status.ACTIVE

    def test_a_browser_subscribed_to_push_gets_the_turn_when_no_tab_is_open(self) -> None:
        """Headless Chromium has no push service to subscribe with, so the page's PushManager is
        replaced by one that hands out a subscription to the local stand-in; everything after it
        (the page's toggle, the server, encryption, delivery) is real."""
        base = self.live_server_url
        keys = BrowserKeys()
        with PushService() as service:
            subscription = {"endpoint": service.endpoint("bob"), "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}
            context = self.browser.new_context(viewport={"width": 390, "height": 844})
            context.set_default_timeout(15_000)
            context.add_init_script(FAKE_PUSH_MANAGER.replace("SUBSCRIPTION", json.dumps(subscription)))
            bob = context.new_page()
            alice = self.new_page()
            sign_up(alice, base, "alice")
            sign_up(bob, base, "bob")
            new_match(alice, "reversi", 2, {2: "human"}, public=False)
            bob.goto(base + invite_path(alice))
            bob.get_by_role("button", name="Take a seat").click()

            bob.goto(f"{base}/accounts/settings/")
            bob.get_by_role("button", name="Turn on notifications for this browser").click()
            expect(bob.locator("#push-status")).to_have_text("Notifications are on for this browser.")
            expect(bob.get_by_role("button", name="Turn off notifications for this browser")).to_be_visible()
            # The real service worker registered for the whole site, and was given the site's VAPID key.
            assert bob.evaluate("navigator.serviceWorker.getRegistration('/').then(r => r.scope)") == f"{base}/"
            assert bob.evaluate("window.subscribedWith.userVisibleOnly") is True
            assert bob.evaluate("window.subscribedWith.applicationServerKey.length") == 65
            assert PushSubscription.objects.get().endpoint == service.endpoint("bob")
            context.close()  # no Turnwise tab open for bob any more

            alice.locator("#sq-d3").click()
            expect(alice.locator("#match-body")).to_contain_text("Waiting for bob")
            match = Match.objects.get()
            later = timezone.now() + notify.GRACE + timedelta(seconds=1)
            notify.send_due(later)
            push.drain(later)  # the push thread's delivery, to its end
            [received] = service.received
        message = json.loads(keys.decrypt(received.body))
        assert f"Reversi #{match.pk}" in message["body"]
        assert message["url"] == match.get_absolute_url()
