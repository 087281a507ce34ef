"""Issue 30 in a browser: the history's finished tournaments on a 375 px phone, in English, Assamese and
Nepali: no sideways scroll, axe clean, and the place in the language's digits."""

from __future__ import annotations

from unittest.mock import patch

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.e2e.helpers import BrowserTestCase, console_errors, sign_up
from tests.e2e.test_every_page_e2e import BAD, PHONE, overflow
from tests.e2e.test_languages_e2e import choose_language
from tests.tournaments.test_history import round_robin
from tournaments.models import Tournament
from tournaments.templatetags.tournament_tags import IN_HISTORY

# A name longer than a phone's line, so the row has to wrap.
NAME = "Brahmaputra Valley Monsoon Reversi Round-robin Championship"


def finished_round_robin(usernames: list[str], name: str = NAME) -> Tournament:
    """A round-robin the first named wins every game of (the others are made here)."""
    User = get_user_model()
    users = [User.objects.get_or_create(username=n, defaults={"email": f"{n}@example.com"})[0] for n in usernames]
    with patch("games.live.realtime.announce"):
        return round_robin(users[0], users, name)


class HistoryTournamentsOnAPhone(BrowserTestCase):
    def test_the_section_fits_a_phone_in_three_languages(self) -> None:
        page = self.new_page(PHONE, 740)
        errors = console_errors(page)
        sign_up(page, self.live_server_url, "ann")
        finished_round_robin(["ann", "bijoy", "chandra"])
        for language, heading, place in (
            ("en", "Finished tournaments", "Place 1 of 3"),
            ("as", "শেষ হোৱা প্ৰতিযোগিতা", "৩ ৰ ভিতৰত ১ নং স্থান"),
            ("ne", "सकिएका प्रतियोगिता", "३ मध्ये १औं स्थान"),
        ):
            page.goto(self.live_server_url + "/history/")
            if language != "en":
                choose_language(page, language)
            section = page.get_by_role("region", name=heading)
            expect(section.get_by_role("link", name=NAME)).to_be_visible()
            expect(section.locator(".tag")).to_have_text(place)
            assert overflow(page) == 0, language
            violations = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in BAD]
            assert violations == [], (language, violations)
        assert errors == []

    def test_older_tournaments_are_reached_by_keyboard_on_a_phone(self) -> None:
        page = self.new_page(PHONE, 740)
        errors = console_errors(page)
        sign_up(page, self.live_server_url, "ann")
        # One more than a page holds (IN_HISTORY; the live server runs apart, so it cannot be patched).
        for number in range(IN_HISTORY + 1):
            finished_round_robin(["ann", "bijoy"], f"Cup {number + 1}")
        page.goto(self.live_server_url + "/history/")
        section = page.get_by_role("region", name="Finished tournaments")
        expect(section.get_by_role("link", name=f"Cup {IN_HISTORY + 1}")).to_be_visible()
        expect(section.get_by_role("link", name="Cup 1", exact=True)).to_have_count(0)
        older = section.get_by_role("link", name="Older tournaments")
        older.focus()
        page.keyboard.press("Enter")
        expect(section.get_by_role("link", name="Cup 1", exact=True)).to_be_visible()
        expect(section.get_by_role("link", name=f"Cup {IN_HISTORY + 1}")).to_have_count(0)
        expect(section.get_by_role("link", name="Newer tournaments")).to_be_visible()
        # The link lands on the section, not the top of the page.
        assert page.url.endswith("?tpage=2#history-tournaments-h")
        assert overflow(page) == 0
        violations = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in BAD]
        assert violations == [], violations
        assert errors == []
