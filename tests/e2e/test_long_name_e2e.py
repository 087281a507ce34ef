"""A name as long as the site allows (150 characters) never makes its owner's pages wider than a phone:
in the header it is cut short with an ellipsis, and the whole name stays readable (title, accessible
name)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import BrowserTestCase, sign_up
from tests.e2e.test_every_page_e2e import PHONE, make, overflow, resign

LONG = "Z" + "a" * 148 + "z"


class LongNameOnAPhone(BrowserTestCase):
    def test_a_150_character_name_does_not_widen_any_page_of_its_owner(self) -> None:
        page = self.new_page(PHONE, 740)
        sign_up(page, self.live_server_url, LONG)
        playing = make(LONG, "reversi", players=2, bot_seats={1})
        done = make(LONG, "reversi", players=2, bot_seats={1})
        resign(LONG, done)
        paths = ["/", "/lobby/", "/history/", f"/accounts/u/{LONG}/", "/accounts/settings/"]
        paths += [playing.get_absolute_url(), done.get_absolute_url(), f"/m/{done.pk}/replay/"]
        wide = {}
        for path in paths:
            page.goto(self.live_server_url + path)
            expect(page.locator("main")).to_be_visible()
            wide[path] = overflow(page)
        assert wide == dict.fromkeys(paths, 0)
        me = page.locator(".site-header .me")
        expect(me).to_have_attribute("title", LONG)
        expect(me).to_have_accessible_name(LONG)
        box = me.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE
