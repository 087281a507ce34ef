"""The site in Assamese and Nepali, in a real browser (issue #15).

For each language, a player chooses it with the switcher on the page, plays a turn of each of the four
games against computer players, and no English word is left on the page (what is read aloud included);
every page type (the 404 page too), on a 375 px phone, has no sideways scrolling, no axe violation, no
console error and no English; a Nepali spectator of an English player's match gets its live updates in
Nepali.

What may stay in Latin letters is short and reviewed (ALLOWED, LATIN_NAMES, CODE): the site's name,
people's names, the switcher's own "English", the download formats (JSON, zip), the Enter key, codes
(card codes R7/W2/B#, Reversi squares d4 and column letters, ranks A/K/Q/J, the Tacocat track's letters,
Back Alley's team letters A/B),
the game names a glossary keeps in Latin letters (docs/glossary-ne.md: DOS, Tacocat Spelled Backwards)
and the goals' names WOW and YAY.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import urlsplit

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from games.models import Match
from tests.e2e.helpers import PASSWORD, BrowserTestCase, console_errors, sign_up, wait_live
from tests.e2e.test_dos_e2e import SOLO
from tests.e2e.test_every_page_e2e import GAMES, PHONE, make, overflow, resign
from tests.games.tacocat.test_web_pages import OPTIONS as TACO

# Reviewed: Latin-letter words that are not English prose.
ALLOWED = {
    "Turnwise",  # the site's name
    "English",  # the switcher names each language in its own script
    "WOW",  # the names of Tacocat's two goals, written on the board
    "YAY",
    "Enter",  # a key, named as printed on it
    "JSON",  # the file formats of the downloads
    "zip",
}
# Game names a glossary keeps in Latin letters (docs/glossary-ne.md); Assamese transliterates them all.
LATIN_NAMES = {"as": set(), "ne": {"DOS", "Tacocat", "Spelled", "Backwards"}}
# Codes: DOS cards (R7, W2, B#, a colour letter alone), Reversi squares and the board's column letters
# (d4, a..h), card ranks (A, K, Q, J), the Tacocat track's letters (T, A, C, O), Back Alley's jokers (LB).
CODE = re.compile(r"^(?:[RGBYW](?:\d{1,2}|#)?|[a-h][1-8]?|[AKQJTCO]|[LB]B|\d+)$")
TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9#']*")

# Everything a person reads or hears: the rendered text (what is visually hidden for screen readers
# included) and the attributes that are read aloud or shown on hover.
PAGE_WORDS = """() => {
  const parts = [document.title, document.body.innerText];
  const attrs = ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription', 'aria-valuetext'];
  for (const el of document.querySelectorAll('body *')) {
    for (const a of attrs) { const v = el.getAttribute(a); if (v) parts.push(v); }
    if (el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type) && el.value) parts.push(el.value);
  }
  return parts.join('\\n');
}"""


def english_words(page: Page, names: set[str]) -> list[str]:
    """The Latin-letter words on the page that are neither names, codes nor on the reviewed list."""
    found: list[str] = []
    for word in TOKEN.findall(page.evaluate(PAGE_WORDS)):
        if word in ALLOWED or word in names or CODE.match(word) or word in found:
            continue
        found.append(word)
    return found


def english_lines(page: Page, names: set[str]) -> list[str]:
    """The lines that hold English words, so that a failure shows each string in context."""
    lines: list[str] = []
    for line in page.evaluate(PAGE_WORDS).splitlines():
        words = [w for w in TOKEN.findall(line) if w not in ALLOWED and w not in names and not CODE.match(w)]
        if words and line.strip() not in lines:
            lines.append(line.strip()[:160])
    return lines


def choose_language(page: Page, code: str) -> None:
    """Choose a language with the switcher every page shows, as a person would."""
    page.locator("#language-choice").select_option(code)
    page.locator(".language-form button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def sign_up_in(page: Page, base: str, username: str) -> None:
    """Sign up on the page as it is (in the language chosen), by the form's fields, not their English labels."""
    page.goto(f"{base}/accounts/signup/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(f".site-header a[href='/accounts/u/{username}/']")).to_be_visible()


class LanguageCase(BrowserTestCase):
    language: ClassVar[str] = ""
    username: ClassVar[str] = ""

    @property
    def names(self) -> set[str]:
        return {self.username} | LATIN_NAMES[self.language]

    def no_english(self, page: Page, where: str, problems: list[str]) -> None:
        lines = english_lines(page, self.names)
        if lines:
            words = english_words(page, self.names)
            problems.append(f"{where}: English {words[:20]} in {lines[:12]}")


class PlayATurnOfEachGame(LanguageCase):
    """One turn of each game in the chosen language; the page holds no English before or after it."""

    def play(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        errors = console_errors(page)
        page.goto(base + "/")
        choose_language(page, self.language)
        sign_up_in(page, base, self.username)
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        problems: list[str] = []
        self.no_english(page, "home", problems)

        # Reversi: a legal square.
        match = make(self.username, "reversi", players=2, bot_seats={1})
        body = self.open(page, match)
        self.no_english(page, "reversi before the turn", problems)
        version = body.get_attribute("data-version")
        page.locator("button.sq.legal").first.click()
        expect(body).not_to_have_attribute("data-version", version)
        self.settle(page, match)
        self.no_english(page, "reversi after the turn", problems)

        # DOS, a stacked deck: B4 + B5 on the Center Row's B9 (the only blue card there).
        match = make(self.username, "dos", players=2, bot_seats={1}, options=SOLO)
        body = self.open(page, match)
        self.no_english(page, "dos before the turn", problems)
        page.locator(".dos-row-cards label:has(.dos-c-B)").click()
        for code in ("B4", "B5"):
            page.locator(f".dos-hand-cards input[value='{code}'] + label").click()
        version = body.get_attribute("data-version")
        page.locator("button[name=type][value=match]").click()
        expect(body).not_to_have_attribute("data-version", version)
        expect(page.locator(".events li")).not_to_have_count(0)
        self.no_english(page, "dos after the turn", problems)

        # Tacocat: keep all the cards (the replace step), then the duel waits for the choice.
        match = make(self.username, "tacocat", players=2, bot_seats={1}, options=TACO)
        body = self.open(page, match)
        self.no_english(page, "tacocat before the turn", problems)
        version = body.get_attribute("data-version")
        page.locator(".taco-form button[name=keep]").click()
        expect(body).not_to_have_attribute("data-version", version)
        expect(page.locator(".taco-form input[name=card]").first).to_be_visible()
        self.no_english(page, "tacocat after the turn", problems)

        # Back Alley: a bid of one trick, once the computers before this seat have bid.
        match = make(self.username, "backalley", players=4, bot_seats={1, 2, 3}, options={"dealer": 3})
        body = self.open(page, match)
        bid = page.locator("#bid-1")
        expect(bid).to_be_enabled(timeout=60_000)
        self.no_english(page, "back alley bidding", problems)
        version = body.get_attribute("data-version")
        bid.click()
        expect(body).not_to_have_attribute("data-version", version)
        expect(page.locator(".ba-at-bottom .ba-bid")).to_be_visible()
        self.no_english(page, "back alley after the bid", problems)
        if errors:
            problems.append(f"console errors: {errors}")
        assert problems == [], "\n".join(problems)

    def open(self, page: Page, match: Match) -> Any:
        page.goto(self.live_server_url + match.get_absolute_url())
        body = page.locator("#match-body")
        expect(body).to_be_visible()
        wait_live(page)  # the socket's first message redraws the board: act after it
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        return body

    def settle(self, page: Page, match: Match) -> None:
        """Wait for the computer's answer (Reversi), so that its event line is on the page too."""
        expect(page.locator("button.sq.legal").first).to_be_visible(timeout=60_000)


class EveryPageTypeOnAPhone(LanguageCase):
    """Every page type at 375 px: no sideways scrolling, no axe violation, no English, no console error."""

    errors: list[str]

    def check(self, page: Page, path: str, problems: list[str]) -> None:
        page.goto(self.live_server_url + path)
        expect(page.locator("main")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        wide = overflow(page)
        if wide > 0:
            problems.append(f"{path}: {wide}px wider than the phone")
        for violation in Axe().run(page).response["violations"]:
            nodes = [n["target"] for n in violation["nodes"]][:3]
            problems.append(f"{path}: axe {violation['id']} ({violation['impact']}) at {nodes}")
        self.no_english(page, path, problems)
        if self.errors:
            problems.append(f"{path}: console errors {self.errors}")
            self.errors.clear()

    def every_page(self) -> None:
        base = self.live_server_url
        page = self.new_page(PHONE, 740)
        self.errors = console_errors(page)
        page.goto(base + "/")
        choose_language(page, self.language)
        problems: list[str] = []
        anonymous = ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/")
        reset = ("/accounts/password/reset/sent/", "/accounts/password/reset/x/y/", "/accounts/password/reset/done/")
        for path in (*anonymous, *reset, *(f"/rules/{g}/" for g in GAMES)):
            self.check(page, path, problems)
        # A page that is not there: the answer is in the reader's language too.
        missing = page.goto(base + "/no-such-page/")
        assert missing is not None and missing.status == 404
        if page.locator("html").get_attribute("lang") != self.language:
            problems.append(f"/no-such-page/: <html lang={page.locator('html').get_attribute('lang')}>")
        self.no_english(page, "/no-such-page/ (404)", problems)
        self.errors.clear()  # the browser logs the 404 itself

        sign_up_in(page, base, self.username)
        # A match waiting for a person, and its invitation page.
        waiting = make(self.username, "dos", players=2)
        page.goto(base + waiting.get_absolute_url())
        invitation = urlsplit(page.locator("#invite-link").input_value()).path
        playing = {
            "reversi": make(self.username, "reversi", players=2, bot_seats={1}),
            "dos": make(self.username, "dos", players=2, bot_seats={1}, options=SOLO),
            "tacocat": make(self.username, "tacocat", players=2, bot_seats={1}, options=TACO),
            "backalley": make(self.username, "backalley", players=4, bot_seats={1, 2, 3}, options={"dealer": 3}),
        }
        finished = {
            game: make(self.username, game, players=2, bot_seats={1}, options=options)
            for game, options in (("reversi", {}), ("dos", SOLO), ("tacocat", TACO))
        }
        finished["backalley"] = make(
            self.username, "backalley", players=4, bot_seats={1, 2, 3}, options={"first_deal": 25}
        )
        for match in finished.values():
            resign(self.username, match)
        # Back Alley's last deal plays out once the computer takes the resigned seat: wait for its end.
        page.goto(base + finished["backalley"].get_absolute_url())
        expect(page.locator(".match-status strong:not(.your-turn)")).to_be_visible(timeout=90_000)

        paths = ["/", "/lobby/", "/history/", f"/accounts/u/{self.username}/", "/accounts/settings/"]
        paths += ["/leaderboard/", "/leaderboard/dos/", "/status/", "/accounts/password/change/"]
        paths += ["/accounts/password/change/done/"]
        paths += [waiting.get_absolute_url(), invitation]
        paths += [f"/new/?game={g}" for g in GAMES]
        paths += [m.get_absolute_url() for m in playing.values()]
        paths += [m.get_absolute_url() for m in finished.values()]
        paths += [f"/m/{m.pk}/replay/" for m in finished.values()]
        for path in paths:
            self.check(page, path, problems)
        # And for a guest: the invitation and the forms that carry it, a watched match, the lobby and
        # the leaderboards (a guest's language comes from the cookie the switcher sets).
        page.context.clear_cookies()
        page.goto(base + "/")
        choose_language(page, self.language)
        guest = [invitation, f"/accounts/signup/?next={invitation}", f"/accounts/login/?next={invitation}"]
        guest += [playing["reversi"].get_absolute_url(), "/lobby/", "/leaderboards/"]
        for path in guest:
            self.check(page, path, problems)
        assert problems == [], "\n".join(problems)


class NepaliSpectator(LanguageCase):
    """A player who reads Nepali watches a public match whose player reads English: the state sent when
    the page connects and every live update after a move are in Nepali."""

    language = "ne"
    username = "ram"

    @property
    def names(self) -> set[str]:
        return super().names | {"ann"}

    def test_a_nepali_spectator_sees_the_live_updates_of_an_english_players_match_in_nepali(self) -> None:
        base = self.live_server_url
        watcher, player = self.new_page(), self.new_page()
        watcher.goto(base + "/")
        choose_language(watcher, "ne")
        sign_up_in(watcher, base, "ram")
        sign_up(player, base, "ann")  # in English
        match = make("ann", "reversi", players=2, bot_seats={1})
        problems: list[str] = []
        watcher.goto(base + match.get_absolute_url())
        wait_live(watcher)
        self.no_english(watcher, "spectator, on connecting", problems)

        player.goto(base + match.get_absolute_url())
        wait_live(player)
        body = watcher.locator("#match-body")
        version = int(body.get_attribute("data-version") or 0)
        player.locator("button.sq.legal").first.click()
        # Ann's move, then the computer's answer, each pushed to the watcher.
        expect(body).to_have_attribute("data-version", str(version + 2), timeout=60_000)
        self.no_english(watcher, "spectator, after two moves", problems)
        assert problems == [], "\n".join(problems)


# One test per class: one live server per test (SQLite rows written after a class's first test are not
# seen by its server; see test_dos_e2e.py).
class InAssamese:
    language = "as"
    username = "rupa"


class InNepali:
    language = "ne"
    username = "sita"


class AssamesePlay(InAssamese, PlayATurnOfEachGame):
    def test_a_turn_of_each_game_in_assamese_leaves_no_english(self) -> None:
        self.play()


class NepaliPlay(InNepali, PlayATurnOfEachGame):
    def test_a_turn_of_each_game_in_nepali_leaves_no_english(self) -> None:
        self.play()


class AssamesePages(InAssamese, EveryPageTypeOnAPhone):
    def test_every_page_type_in_assamese_fits_a_phone_is_axe_clean_and_has_no_english(self) -> None:
        self.every_page()


class NepaliPages(InNepali, EveryPageTypeOnAPhone):
    def test_every_page_type_in_nepali_fits_a_phone_is_axe_clean_and_has_no_english(self) -> None:
        self.every_page()
