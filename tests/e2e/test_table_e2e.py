"""The game table, in every game, on a laptop (1280x800) and a phone (375x812): during your turn the
board, your hand and the buttons that act are all in the first screen, without scrolling; the header is
one row on the laptop and at most two on the phone; nothing scrolls sideways; axe-core finds no serious
or critical violation. And a Reversi move is played with JavaScript off.

The matches are those of tools/screenshots.py: seeded legal moves up to alice's turn mid-match."""

from __future__ import annotations

import re
from typing import ClassVar

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.e2e.helpers import PASSWORD, TIMEOUT_MS, BrowserTestCase, wait_live
from tests.e2e.test_every_page_e2e import BAD, overflow
from tools.screenshots import FRIENDS, SIZES, mid_match

# What must be seen during one's turn, per game: the board, the hand, the controls that act.
SEEN = {
    "reversi": {"board": ".board", "hand": None, "acts": "button.sq.legal"},
    "dos": {"board": ".dos-row", "hand": ".dos-hand", "acts": ".dos-buttons button"},
    "tacocat": {"board": ".taco-track", "hand": ".taco-hand-area", "acts": ".taco-hand-area button[type=submit]"},
    "backalley": {"board": ".ba-table", "hand": ".ba-hand", "acts": ".ba-card-button.ba-playable, .ba-bid-button"},
}
# The header's controls are 44 px high: one row, or two, with a little padding.
ONE_ROW, TWO_ROWS = 56, 100


def outside_first_screen(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the first screen (none may be)."""
    return page.evaluate(
        """(selector) => {
        const out = [];
        for (const el of document.querySelectorAll(selector)) {
          const r = el.getBoundingClientRect();
          if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
            out.push(el.className + ' ' + (el.textContent || '').trim().slice(0, 30) + ' ' + JSON.stringify(r));
        }
        return out;
    }""",
        selector,
    )


def sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(f".site-header a[href='/accounts/u/{username}/']")).to_be_visible()


class TableCase(BrowserTestCase):
    game: ClassVar[str] = ""

    def check_table(self) -> None:
        users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in FRIENDS]
        match = mid_match(self.game, users)
        seen = SEEN[self.game]
        problems: list[str] = []
        for size, (width, height) in SIZES.items():
            page = self.new_page(width, height)
            sign_in(page, self.live_server_url, "alice")
            page.goto(self.live_server_url + match.get_absolute_url())
            expect(page.locator(".match-status")).to_contain_text("Your turn.")
            assert page.evaluate("scrollY") == 0
            for part in ("board", "hand", "acts"):
                if seen[part] is None:
                    continue
                expect(page.locator(seen[part]).first).to_be_visible()
                problems += [f"{size}: {part} {where}" for where in outside_first_screen(page, seen[part])]
            header = page.locator(".site-header").bounding_box()
            assert header is not None
            if header["height"] > (ONE_ROW if size == "wide" else TWO_ROWS):
                problems.append(f"{size}: the header is {header['height']} px high")
            if overflow(page):
                problems.append(f"{size}: {overflow(page)} px wider than the screen")
            for violation in Axe().run(page).response["violations"]:
                if violation["impact"] in BAD:
                    problems.append(f"{size}: axe {violation['id']} at {[n['target'] for n in violation['nodes']][:3]}")
            page.context.close()
        assert problems == []


# One test per class, so one live server per test (see test_dos_e2e.py).
class ReversiTable(TableCase):
    game = "reversi"

    def test_board_and_legal_squares_fill_the_first_screen(self) -> None:
        self.check_table()


class DosTable(TableCase):
    game = "dos"

    def test_center_row_hand_and_buttons_fill_the_first_screen(self) -> None:
        self.check_table()


class TacocatTable(TableCase):
    game = "tacocat"

    def test_track_hand_and_buttons_fill_the_first_screen(self) -> None:
        self.check_table()


class BackAlleyTable(TableCase):
    game = "backalley"

    def test_table_hand_and_playable_cards_fill_the_first_screen(self) -> None:
        self.check_table()


class ReversiWithoutJavaScript(BrowserTestCase):
    def test_a_move_is_played_with_plain_forms(self) -> None:
        users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in FRIENDS[:2]]
        match = mid_match("reversi", users)
        context = self.browser.new_context(viewport={"width": 375, "height": 812}, java_script_enabled=False)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        sign_in(page, self.live_server_url, "alice")
        page.goto(self.live_server_url + match.get_absolute_url())
        expect(page.locator(".match-status")).to_contain_text("Your turn.")
        square = page.locator("button.sq.legal").first
        name = square.get_attribute("id").removeprefix("sq-")  # type: ignore[union-attr]
        square.click()  # a plain form post; the server answers with the page again
        expect(page.locator(".match-status")).to_contain_text("Waiting for bob")
        expect(page.locator(f"#sq-{name}")).to_have_attribute("aria-label", re.compile(rf"^{name}, black, last move"))
        match.refresh_from_db()
        assert match.moves.order_by("-seq").first().payload == {"type": "place", "square": name}
        context.close()


class LevelMenuFollowsTheSeat(BrowserTestCase):
    def test_the_level_menu_is_disabled_while_a_person_is_chosen(self) -> None:
        get_user_model().objects.create_user("alice", password=PASSWORD)
        page = self.new_page()
        sign_in(page, self.live_server_url, "alice")
        page.goto(self.live_server_url + "/new/?game=reversi")
        seat = page.get_by_role("group", name=re.compile(r"^Seat 2"))
        level = seat.get_by_label("Level")
        expect(level).to_be_enabled()
        seat.get_by_label("A person (invite or lobby)").check()
        expect(level).to_be_disabled()
        seat.get_by_label("Computer player").check()
        expect(level).to_be_enabled()


# Alice (seat 0) holds R# and R3; the Center Row is R7 and B9. Hands are dealt in turn from seat 0.
WILD = {
    "deck": [
        *(
            c
            for pair in zip(
                ["R#", "R3", "G5", "B6", "Y8", "Y9", "G6"], ["R5", "G3", "G4", "B7", "B8", "Y10", "Y1"], strict=True
            )
            for c in pair
        ),
        *("R7", "B9"),
    ],
    "dealer": 1,
}


class DosWildValueForced(BrowserTestCase):
    def test_a_wild_whose_value_is_forced_is_filled_in_and_the_sum_is_numbers(self) -> None:
        from tests.e2e.test_dos_e2e import create_match, hand_card, row_card

        get_user_model().objects.create_user("alice", password=PASSWORD)
        match = create_match("alice", players=2, bot_seats={1}, options=WILD)
        page = self.new_page(1280, 800)
        sign_in(page, self.live_server_url, "alice")
        page.goto(self.live_server_url + match.get_absolute_url())
        expect(page.locator(".match-status")).to_contain_text("Your turn.")
        wait_live(page)
        value = page.get_by_label("Value of your red Wild #")
        hand_card(page, "red Wild #").click()
        expect(page.locator("#dos-sum")).to_have_text(re.compile(r"^Sum so far: 1\u201310\."))
        hand_card(page, "red 3").click()
        expect(page.locator("#dos-sum")).to_have_text(re.compile(r"^Sum so far: 4\u201313\."))
        row_card(page, "red 7").click()
        expect(value).to_have_value("4")  # 7 - 3: the only value that matches
        expect(page.locator("#dos-sum")).to_have_text("Sum so far: 7.")
        page.get_by_role("button", name="Match", exact=True).click()
        expect(page.locator(".events")).to_contain_text(
            re.compile(r"alice matched (red 3 \+ red Wild # as 4|red Wild # as 4 \+ red 3) on red 7")
        )


class BackAlleyOnAPhoneInEachLanguage(BrowserTestCase):
    """Back Alley's table of four seats on a 375x812 phone, where its words run longest: during alice's
    turn to bid and mid-hand, her hand and the buttons that act are in the first screen, in English,
    Assamese and Nepali."""

    def test_bidding_and_mid_hand_fit_the_first_screen_in_each_language(self) -> None:
        users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in FRIENDS]
        alice = users[0]
        # Bidding: the first deal's full hand and every bid button; mid-hand: cards played to a trick.
        moments = {"bidding": mid_match("backalley", users, moves=0), "mid-hand": mid_match("backalley", users)}
        seen = SEEN["backalley"]
        width, height = SIZES["phone"]
        problems: list[str] = []
        for language in ("en", "as", "ne"):
            alice.language = language
            alice.save(update_fields=["language"])
            page = self.new_page(width, height)
            sign_in(page, self.live_server_url, "alice")
            for moment, match in moments.items():
                page.goto(self.live_server_url + match.get_absolute_url())
                expect(page.locator(f"html[lang={language}] #match-body.my-turn")).to_be_visible()
                acts = ".ba-bid-button" if moment == "bidding" else ".ba-card-button.ba-playable"
                expect(page.locator(acts).first).to_be_visible()
                assert page.evaluate("scrollY") == 0
                for part, selector in (("table", seen["board"]), ("hand", seen["hand"]), ("acts", acts)):
                    outside = outside_first_screen(page, selector)
                    problems += [f"{language} {moment}: {part} {where}" for where in outside]
                if overflow(page):
                    problems.append(f"{language} {moment}: {overflow(page)} px wider than the screen")
            page.context.close()
        assert problems == [], "\n".join(problems)


class WholeMatchLogNumbers(BrowserTestCase):
    """The whole-match log numbers each move by its real number, as the browser draws the list's markers
    (read from Chromium's accessibility tree): move 41 is "41.", in Assamese "৪১."."""

    def markers(self, page: Page) -> list[str]:
        tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")
        return [
            node["name"]["value"].strip()
            for node in tree["nodes"]
            if node.get("role", {}).get("value") == "ListMarker" and node.get("name")
        ]

    def test_move_41_is_numbered_41(self) -> None:
        users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in FRIENDS]
        match = mid_match("reversi", users, moves=44)
        made = match.move_count
        assert made >= 44
        page = self.new_page(*SIZES["phone"])
        sign_in(page, self.live_server_url, "alice")
        page.goto(f"{self.live_server_url}/m/{match.pk}/log/")
        expect(page.locator(".whole-log > li")).to_have_count(made)
        assert self.markers(page) == [f"{n}." for n in range(1, made + 1)]
        alice = users[0]
        alice.language = "as"
        alice.save(update_fields=["language"])
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "as")
        assert self.markers(page)[40] == "৪১."
