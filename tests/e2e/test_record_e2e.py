"""The record in the browser: a rating chart grows on the profile; a finished Back Alley match replays
with every hand face up."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from accounts.models import User
from games import services
from games.read.replay import replay_states
from tests.e2e.helpers import BrowserTestCase, sign_up
from tests.games.test_fairplay import finished


class RecordInTheBrowser(BrowserTestCase):
    def test_the_profile_shows_a_rating_chart_after_a_few_rated_matches(self) -> None:
        page = self.new_page()
        sign_up(page, self.live_server_url, "ria")
        ria = User.objects.get(username="ria")
        rival = User.objects.create_user(username="rival", password="x" * 20)
        for loser in (rival, ria, rival):
            match = services.create_match(user=ria, game="reversi", players=2, rated=True)
            services.join_match(match_id=match.pk, user=rival)
            services.resign(match_id=match.pk, user=loser)

        page.goto(f"{self.live_server_url}/accounts/u/ria/")
        chart = page.get_by_role("img", name=re.compile("ria's Reversi rating after each rated match"))
        expect(chart).to_be_visible()
        expect(page.locator(".rating-chart circle.point")).to_have_count(3)
        ratings_table = page.locator("table.ratings")
        expect(ratings_table).to_contain_text(re.compile(r"Reversi\s+1\d{3}\?"))
        page.get_by_text("The same as a table").click()
        expect(page.locator("#rating-history details table tbody tr")).to_have_count(3)
        # The rating parts fit a phone: the chart scales instead of scrolling sideways.
        for part in ("table.ratings", ".rating-chart"):
            right = page.locator(part).evaluate("e => e.getBoundingClientRect().right")
            assert right <= page.viewport_size["width"], part

    def test_a_finished_back_alley_match_replays_with_all_hands_visible(self) -> None:
        page = self.new_page(1200, 900)
        sign_up(page, self.live_server_url, "ann")
        others = [User.objects.create_user(username=n, password="x" * 20) for n in ("ben", "cat", "dan")]
        match = finished("backalley", [User.objects.get(username="ann"), *others], {"first_deal": 25})

        page.goto(f"{self.live_server_url}/m/{match.pk}/replay/1/")
        face_up = page.get_by_role("region", name="All cards, face up")
        expect(face_up).to_be_visible()
        for name in ("ann", "ben", "cat", "dan"):
            expect(face_up.get_by_text(re.compile(rf"^{name} \(13 cards\)$"))).to_be_visible()
        # 4 hands of 13 and what is left of the stock: 1 card, or none when the upcard was a joker and
        # the other joker's holder swapped it for the stock's card (BA-7). The upcard, and a swapped
        # joker, lie face up on the table anyway.
        stock = replay_states(match, upto=1)[-1].stock
        expect(face_up.locator(".card-code")).to_have_count(52 + len(stock))
        page.get_by_role("link", name="Forward").click()
        expect(page.locator(".match-status")).to_contain_text("Move 2 of")
        expect(page.get_by_role("region", name="All cards, face up")).to_be_visible()
