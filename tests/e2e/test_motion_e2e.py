"""The game table in real browsers (docs/design.md): a move animates on the mover's page and on the page
that gets it pushed, once per state and not at all under reduced motion; every card face has a text
name in the page's language; no sound, and no audio context, until the account turns sound on."""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import patch

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games import services
from games.models import Match
from tests.e2e.helpers import (
    MARK_LIVE,
    TIMEOUT_MS,
    BrowserTestCase,
    console_errors,
    htmx_settled,
    sign_up,
    wait_live,
)

# Counts the audio contexts a page creates (the sound script's gate): set before any page script runs.
COUNT_AUDIO = """
(function () {
  var Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = function () {
    var n = parseInt(document.documentElement.getAttribute("data-test-audio") || "0", 10) + 1;
    document.documentElement.setAttribute("data-test-audio", String(n));
    return new Real();
  };
})();
"""


def create_match(username: str, game: str, **kwargs: Any) -> Match:
    """A match against computers for a user who signed up in the browser (see test_dos_e2e.create_match)."""
    owner = get_user_model().objects.get(username=username)
    with patch("games.live.realtime.announce"):
        return services.create_match(user=owner, game=game, **kwargs)


def serious_axe_violations(page: Page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


class TableTestCase(BrowserTestCase):
    def page_for(self, *, reduced: bool = False, width: int = 390, height: int = 844, dark: bool = False) -> Page:
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            reduced_motion="reduce" if reduced else "no-preference",
            color_scheme="dark" if dark else "light",
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(MARK_LIVE)
        context.add_init_script(COUNT_AUDIO)
        page = context.new_page()
        self.errors = console_errors(page)
        return page

    def signed_up(self, username: str, *, reduced: bool = False, dark: bool = False) -> Page:
        page = self.page_for(reduced=reduced, dark=dark)
        sign_up(page, self.live_server_url, username)
        return page

    def open_live(self, page: Page, match: Match) -> None:
        page.goto(self.live_server_url + match.get_absolute_url())
        wait_live(page)

    def wait_for_computer_then_check(self, page: Page, before: str, *, reduced: bool) -> None:
        """After the person's move (from version ``before``) the computers answer through the socket: once
        it is the person's turn again, the page has animated the newest state it got (pushed), or nothing
        under reduced motion."""
        expect(page.locator("#match-body")).not_to_have_attribute("data-version", before)
        expect(page.locator(".match-status")).to_contain_text("Your turn.")
        self.check_table(page, reduced=reduced)

    def check_table(self, page: Page, *, reduced: bool) -> None:
        """The state shown has been through the motion script: animated, or under reduced motion not at all
        (no animation counted, none running); no sound, no console error, no serious axe violation."""
        shown = page.locator("#match-body").get_attribute("data-version")
        html = page.locator("html")
        expect(html).to_have_attribute("data-motion-version", shown or "")
        if reduced:
            expect(html).to_have_attribute("data-motion-count", "0")
            assert page.evaluate("document.getAnimations().length") == 0
        else:
            assert int(html.get_attribute("data-motion-count") or "0") > 0
        # No sound unless turned on: no audio context was ever made.
        assert html.get_attribute("data-test-audio") is None
        assert html.get_attribute("data-sound-cue") is None
        assert self.errors == []
        # The faces, the board and the dark theme keep axe content (contrast, names) clean.
        assert serious_axe_violations(page) == []


def version(page: Page) -> str:
    return page.locator("#match-body").get_attribute("data-version") or ""


def play_reversi(page: Page) -> None:
    page.locator("button.sq.legal").first.click()


class ReversiMotion(TableTestCase):
    def test_a_placed_disc_and_the_flipped_ones_animate_and_the_computers_reply_too(self) -> None:
        page = self.signed_up("alice")
        match = create_match("alice", "reversi", players=2, bot_seats={1})
        self.open_live(page, match)
        before = version(page)
        play_reversi(page)
        # The mover's own reply animates too: the disc drops in and the flipped one turns.
        expect(page.locator("html")).to_have_attribute("data-motion-version", re.compile(r"\d"))
        self.wait_for_computer_then_check(page, before, reduced=False)


class ReversiSameStateTwice(TableTestCase):
    def test_a_state_drawn_again_is_not_animated_again(self) -> None:
        page = self.signed_up("alice")
        match = create_match("alice", "reversi", players=2, bot_seats={1})
        self.open_live(page, match)
        before = version(page)
        play_reversi(page)
        self.wait_for_computer_then_check(page, before, reduced=False)
        html = page.locator("html")
        states = html.get_attribute("data-motion-states")
        shown = version(page)
        # The same state drawn again (as a reconnecting socket or a reload of the fragment does).
        page.evaluate(
            "htmx.ajax('GET', location.pathname, {target: '#match-body', select: '#match-body', swap: 'outerHTML'})"
        )
        expect(page.locator("#match-body")).to_have_attribute("data-version", shown)
        htmx_settled(page)
        expect(html).to_have_attribute("data-motion-states", states or "")
        expect(html).to_have_attribute("data-motion-version", shown)


class ReversiReducedMotion(TableTestCase):
    def test_nothing_moves_under_reduced_motion(self) -> None:
        page = self.signed_up("alice", reduced=True)
        match = create_match("alice", "reversi", players=2, bot_seats={1})
        self.open_live(page, match)
        before = version(page)
        play_reversi(page)
        self.wait_for_computer_then_check(page, before, reduced=True)


# Seat 0 (alice) plays first; the first card she draws is G9 (tests/e2e/test_dos_e2e.py, SOLO).
DOS_DECK = {
    "deck": [
        *("R#", "Y1", "G3", "Y1", "G4", "Y1", "G8", "Y3", "B4", "Y3", "B5", "Y3", "B8", "Y4"),
        *("G7", "B9"),
        *("G9", "B10", "R1", "R3", "G1"),
    ],
    "dealer": 1,
}


def acted(page: Page) -> Any:
    """Waits for the person's own move to be answered and swapped in."""
    return page.expect_response(lambda r: r.url.endswith("/act/") and r.request.method == "POST")


def dos_draw(page: Page) -> None:
    """Alice draws (G9): still her turn, with a new card in her hand."""
    before = version(page)
    with acted(page):
        page.get_by_role("button", name="Draw a card").click()
    expect(page.locator("#match-body")).not_to_have_attribute("data-version", before)


def dos_play_green_3(page: Page) -> None:
    page.locator(".dos-hand-cards label").filter(has_text="green 3").first.click()
    with acted(page):
        page.get_by_role("button", name="Put the chosen card in the Center Row").click()


def backalley_to_first_card(page: Page) -> None:
    """Bids if the deal asks alice first, then waits until she may play a card."""
    body = page.locator("#match-body")
    expect(body).to_contain_text(
        re.compile(r"Your bid: how many tricks will you take\?|Your (turn|lead): play a card\.")
    )
    if page.locator(".ba-bids").count():
        with acted(page):
            page.locator(".ba-bids button").first.click()
    expect(body).to_contain_text(re.compile(r"Your (turn|lead): play a card\."))


def backalley_play_a_card(page: Page) -> None:
    with acted(page):
        page.locator(".ba-play-form .ba-card-button:not([disabled])").first.click()


def tacocat_round(page: Page) -> None:
    """Alice plays the first round to its showdown (the cat runs along the track there)."""
    body = page.locator("#match-body")
    title = page.locator("#taco-step-title")
    for _ in range(40):
        expect(body).to_contain_text(re.compile(r"Your turn\.|Round 1: showdown"))
        if page.locator(".taco-result").count():
            break
        kind = title.inner_text()
        with acted(page):
            if kind == "Replace cards":
                page.get_by_role("button", name="Keep all my cards").click()
            elif kind in ("Duel", "Attack"):
                page.locator(".taco-form label.taco-choice").first.click()
                name = "Play this card face down" if kind == "Duel" else "Attack with the ticked cards"
                page.get_by_role("button", name=name).click()
            else:
                page.locator(".taco-buttons button").first.click()
        expect(page.locator(".htmx-request")).to_have_count(0)
    expect(page.locator(".taco-result")).to_contain_text(re.compile(r"(wins the round|A tie)"))
    expect(page.locator("html")).to_have_attribute("data-motion-version", version(page))


class DosMotion(TableTestCase):
    def test_a_drawn_card_and_a_placed_card_travel_and_the_computers_turn_is_animated(self) -> None:
        page = self.signed_up("alice", dark=True)
        match = create_match("alice", "dos", players=2, bot_seats={1}, options=DOS_DECK)
        self.open_live(page, match)
        dos_draw(page)
        # The drawn card came into the hand: that is a motion on the mover's own page.
        assert int(page.locator("html").get_attribute("data-motion-count") or "0") > 0
        before = version(page)
        dos_play_green_3(page)
        self.wait_for_computer_then_check(page, before, reduced=False)


class BackAlleyMotion(TableTestCase):
    def test_a_played_card_travels_to_the_trick_and_the_computers_cards_come_from_their_seats(self) -> None:
        page = self.signed_up("alice")
        match = create_match("alice", "backalley", players=4, bot_seats={1, 2, 3})
        self.open_live(page, match)
        backalley_to_first_card(page)
        before = version(page)
        backalley_play_a_card(page)
        self.wait_for_computer_then_check(page, before, reduced=False)


class TacocatMotion(TableTestCase):
    def test_the_cat_runs_along_the_track_at_the_showdown(self) -> None:
        page = self.signed_up("alice", dark=True)
        match = create_match("alice", "tacocat", players=2, bot_seats={1})
        self.open_live(page, match)
        tacocat_round(page)
        assert int(page.locator("html").get_attribute("data-motion-count") or "0") > 0
        assert serious_axe_violations(page) == []


class CardGamesReducedMotion(TableTestCase):
    """ReversiReducedMotion for the card games: the same moves as above, and nothing moves."""

    def test_dos(self) -> None:
        page = self.signed_up("alice", reduced=True)
        self.open_live(page, create_match("alice", "dos", players=2, bot_seats={1}, options=DOS_DECK))
        dos_draw(page)
        expect(page.locator("html")).to_have_attribute("data-motion-count", "0")
        before = version(page)
        dos_play_green_3(page)
        self.wait_for_computer_then_check(page, before, reduced=True)

    def test_back_alley(self) -> None:
        page = self.signed_up("alice", reduced=True)
        self.open_live(page, create_match("alice", "backalley", players=4, bot_seats={1, 2, 3}))
        backalley_to_first_card(page)
        before = version(page)
        backalley_play_a_card(page)
        self.wait_for_computer_then_check(page, before, reduced=True)

    def test_tacocat(self) -> None:
        # A whole round, not one move: the showdown's run of the cat is Tacocat's main motion, and a
        # duel is simultaneous, so "Your turn." can show before the computer's push has arrived.
        page = self.signed_up("alice", reduced=True)
        self.open_live(page, create_match("alice", "tacocat", players=2, bot_seats={1}))
        tacocat_round(page)
        self.check_table(page, reduced=True)


class SoundOnceTurnedOn(TableTestCase):
    def test_no_audio_until_the_setting_is_on_then_a_move_plays_a_cue(self) -> None:
        page = self.signed_up("alice")
        match = create_match("alice", "reversi", players=2, bot_seats={1})
        self.open_live(page, match)
        before = version(page)
        # A touch on the page that is not a move (the middle of #match-body is a board square, and a move
        # there would bring the computer's answer, and its cue, into the next page): still no audio.
        page.locator(".match-status").click()
        expect(page.locator(".htmx-request")).to_have_count(0)
        html = page.locator("html")
        assert html.get_attribute("data-test-audio") is None
        assert version(page) == before

        page.goto(self.live_server_url + "/accounts/settings/")
        page.get_by_label("Play sounds in matches").check()
        page.get_by_role("region", name="Sound").get_by_role("button", name="Save").click()
        expect(page.locator(".messages")).to_contain_text("Your sound setting is saved.")

        self.open_live(page, match)
        assert html.get_attribute("data-test-audio") is None  # nothing before the person acts
        before = version(page)
        play_reversi(page)
        expect(page.locator("#match-body")).not_to_have_attribute("data-version", before)
        expect(html).to_have_attribute("data-sound-cue", re.compile(r"^(move|turn|card|end)$"))
        assert html.get_attribute("data-test-audio") == "1"


class BackAlleyDarkBids(TableTestCase):
    def test_a_pointed_at_bid_stays_readable_in_the_dark_theme(self) -> None:
        """axe reads the page at rest; a hovered bid button once showed light ink on a pale background."""
        page = self.signed_up("alice", dark=True)
        match = create_match("alice", "backalley", players=4, bot_seats={1, 2, 3})
        self.open_live(page, match)
        bid = page.locator(".ba-bids button").first
        expect(bid).to_be_visible()
        bid.hover()
        # axe's contrast rule reads the computed colours, which now are the hovered ones.
        checked = Axe().run(page, context=".ba-bids", options={"runOnly": ["color-contrast"]}).response
        assert checked["violations"] == [], [n["any"][0]["message"] for v in checked["violations"] for n in v["nodes"]]
