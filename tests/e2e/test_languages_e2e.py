"""The site in Assamese and Nepali, in a real browser (issues #15 and #29).

For each language, a player chooses it with the switcher on the page, plays a turn of each of the four
games against computer players, and every page type (the 404 page too), on a 375 px phone, has no
sideways scrolling, no axe violation and no console error; a Nepali spectator of an English player's
match gets its live updates in Nepali; a Nepali reader types the vacation's days in Devanagari digits.

On every page, what a reader sees or hears (the text, the title, aria labels, titles and the like,
the numbers filled into inputs, and the numbers of ordered lists) is in the language: no run of two or
more Latin letters, no ASCII digit, no letter of the other language's script (tests/i18n/checks.py:
reader_problems), apart from the short reviewed list in ALLOWED.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, ClassVar
from urllib.parse import urlsplit

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.models import Match
from tests.e2e.helpers import PASSWORD, BrowserTestCase, console_errors, sign_up, wait_live
from tests.e2e.test_dos_e2e import SOLO
from tests.e2e.test_every_page_e2e import GAMES, PHONE, make, overflow, resign
from tests.games.tacocat.test_web_pages import OPTIONS as TACO
from tests.i18n.checks import reader_problems

# Reviewed: what stays as it is in every language, each with its reason (patterns, see foreign_text).
ALLOWED = {
    r"\bTurnwise\b": "the product's name",
    r"\bEnglish\b": "the language switcher names each language in its own script",
    "অসমীয়া": "the same: Assamese in its own script, on a Nepali page too",
    "नेपाली": "the same: Nepali in its own script, on an Assamese page too",
    r"(?<![A-Za-z0-9])[a-h][1-8](?![A-Za-z0-9])": "Reversi squares (d4): the notation is Latin everywhere",
    r"\bSHA-256\b": "the fair-play panel's hash function, named as the standard names it",
    r"\bdocs/fair-play\.md\b": "the fair-play panel points to a file of the source, by its name",
}
# The Reversi board's edge labels (marked translate="no"): a column letter or a row number, half a
# square's name. Anything else in a translate="no" element is checked like the rest of the page.
EDGE_LABEL = r"[a-h]|[1-8]"
# The text of a <code> element is computer text, copied as written: the fair-play panel's hashes, seed
# and salt, and the command that checks them. Any other code is checked like the rest of the page.
CODE = r"[0-9a-f]{16,}|[0-9]+|python manage\.py verify_match --file turnwise-…-[0-9]+\.json"

# Everything a person reads or hears, as (kind, where, value): the page's title; its rendered text
# (what is visually hidden for screen readers included) without the board's edge labels, which come
# apart as "notation"; the attributes read aloud or shown on hover; the numbers filled into inputs; the
# marker style of each item of an ordered list.
PAGE_PIECES = """() => {
  const pieces = [['text', 'the title', document.title]];
  // What a closed <details> holds is read too (the fair-play panel, the last trick, the account menu).
  const closed = [...document.querySelectorAll('details:not([open])')];
  for (const el of closed) el.open = true;
  const notation = [...document.querySelectorAll('body [translate=no], body code')];
  for (const el of notation) {
    pieces.push(['notation', 'translate=no <' + el.tagName.toLowerCase() + '>', el.innerText]);
    el.style.setProperty('display', 'none', 'important');
  }
  pieces.push(['text', 'the page', document.body.innerText]);
  for (const el of notation) el.style.removeProperty('display');
  const attrs = ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription', 'aria-valuetext'];
  for (const el of document.querySelectorAll('body *')) {
    const tag = '<' + el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '>';
    for (const a of attrs) { const v = el.getAttribute(a); if (v) pieces.push(['text', a + ' of ' + tag, v]); }
    if (el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type) && el.value) {
      pieces.push(['text', 'value of ' + tag, el.value]);
    }
    // A number filled in for the person to read and change (vacation days, a tournament's rounds).
    if (el.tagName === 'INPUT' && (el.type === 'number' || el.inputMode === 'numeric') && el.value) {
      pieces.push(['text', 'value of ' + tag, el.value]);
    }
  }
  for (const li of document.querySelectorAll('ol > li')) {
    if (!li.getClientRects().length) continue;  // not shown
    pieces.push(['marker', 'an <ol> item: ' + li.innerText.slice(0, 40), getComputedStyle(li).listStyleType]);
  }
  for (const el of closed) el.open = false;
  return pieces;
}"""


def page_problems(page: Page, language: str, names: set[str]) -> list[str]:
    """What a reader of ``language`` should not meet on the page; ``names`` (people's) stay as written."""
    allowed = [*ALLOWED, *(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])" for name in names)]
    return reader_problems(page.evaluate(PAGE_PIECES), language, allowed, f"{EDGE_LABEL}|{CODE}")


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
        return {self.username}

    def no_english(self, page: Page, where: str, problems: list[str]) -> None:
        problems.extend(f"{where}: {problem}" for problem in page_problems(page, self.language, self.names))


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
        wait_live(page)  # the socket has delivered the current state: act after it
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        return body

    def settle(self, page: Page, match: Match) -> None:
        """Wait for the computer's answer (Reversi), so that its event line is on the page too."""
        expect(page.locator("button.sq.legal").first).to_be_visible(timeout=60_000)


class EveryPageTypeOnAPhone(LanguageCase):
    """Every page type at 375 px: no sideways scrolling, no axe violation, no English, no console error."""

    errors: list[str]

    @property
    def names(self) -> set[str]:
        return super().names | {"ben"}

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
        # Another player's profile (it offers a challenge) and the challenge page, for every game.
        get_user_model().objects.create_user(username="ben", password="a long enough secret 42")
        paths += ["/accounts/u/ben/", *(f"/challenge/ben/?game={g}" for g in GAMES)]
        paths += [f"/new/?game={g}" for g in GAMES]
        paths += [m.get_absolute_url() for m in playing.values()]
        paths += [m.get_absolute_url() for m in finished.values()]
        paths += [f"/m/{m.pk}/replay/" for m in finished.values()]
        # The newer pages: the whole match move by move, a finished match's analysis, tournaments, Play
        # now, people, Reversi practice (the fair-play panel is on the DOS, Tacocat and Back Alley pages).
        paths += [f"/m/{m.pk}/log/" for m in (*playing.values(), *finished.values())]
        paths += [f"/m/{finished['reversi'].pk}/analysis/", f"/m/{finished['dos'].pk}/analysis/"]
        paths += ["/tournaments/", "/tournaments/new/", "/play/", "/people/", "/practice/reversi/"]
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


class NepaliVacationDays(LanguageCase):
    """The vacation's days on the settings page: shown in Devanagari digits, typed in them by keyboard;
    a word where the number belongs is refused in Nepali and starts nothing."""

    language = "ne"
    username = "hari"

    def test_a_nepali_reader_types_the_days_in_devanagari_digits(self) -> None:
        base = self.live_server_url
        page = self.new_page(PHONE, 740)
        page.goto(base + "/")
        choose_language(page, self.language)
        sign_up_in(page, base, self.username)
        page.goto(base + "/accounts/settings/")
        days = page.locator("#id_days")
        expect(days).to_have_value("७")
        expect(days).to_have_attribute("inputmode", "numeric")
        # Its range is what a screen reader announces with it.
        expect(days).to_have_accessible_description("१ देखि २१ सम्मको पूर्णाङ्क।")

        days.fill("")
        days.press_sequentially("दस")  # "ten", in words
        days.press("Enter")
        expect(page.locator("#id_days_error")).to_have_text("१ देखि २१ सम्मको पूर्णाङ्क लेख्नुहोस्।")
        expect(days).to_have_value("दस")
        assert not get_user_model().objects.get(username=self.username).vacation_until

        days.fill("")
        days.press_sequentially("१०")
        days.press("Enter")
        expect(page.locator(".messages")).to_contain_text("तपाईंका घडीहरू रोकिएका छन्।")
        user = get_user_model().objects.get(username=self.username)
        assert user.vacations.get().ends_at - user.vacations.get().starts_at == timedelta(days=10)
        problems: list[str] = []
        self.no_english(page, "settings, on vacation", problems)
        assert problems == [], "\n".join(problems)


class NepaliDrawnCard(LanguageCase):
    """The "drawn" label (तानिएको, longer and taller than the English word) sits clear of the drawn
    card's corner, which carries its colour letter and symbol."""

    language = "ne"
    username = "sita"

    def test_the_drawn_label_leaves_the_drawn_cards_corner_in_sight(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        page.goto(base + "/")
        choose_language(page, self.language)
        sign_up_in(page, base, self.username)
        match = make(self.username, "dos", players=2, bot_seats={1}, options=SOLO)
        page.goto(base + match.get_absolute_url())
        wait_live(page)
        page.locator("button[name=type][value=draw]").click()
        flag = page.locator(".dos-hand-cards .dos-flag")
        expect(flag).to_have_text("तानिएको")
        label, corner = flag.bounding_box(), page.locator("label.dos-drawn .dos-corner").bounding_box()
        assert label is not None and corner is not None
        apart = (
            label["y"] + label["height"] <= corner["y"]
            or corner["y"] + corner["height"] <= label["y"]
            or label["x"] + label["width"] <= corner["x"]
            or corner["x"] + corner["width"] <= label["x"]
        )
        assert apart, f"the label {label} covers the corner {corner}"


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
