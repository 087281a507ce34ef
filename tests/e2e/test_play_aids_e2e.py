"""What a player sees and does in the browser: a new-match form that fits each game, DOS showing which
Center Row cards the ticked cards can match, the keyboard on the Reversi board and in a replay, and no
console errors on a turn of each game."""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import patch

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.e2e.helpers import BrowserTestCase, console_errors, htmx_settled, new_match, sign_up
from tests.e2e.test_dos_e2e import SOLO, events, hand_card, row_card
from tests.games.tacocat.test_web_pages import OPTIONS as TACO


def make(username: str, game: str, **kwargs: Any) -> Match:
    owner = get_user_model().objects.get(username=username)
    with patch("games.live.realtime.announce"):
        return services.create_match(user=owner, game=game, **kwargs)


class TheNewMatchFormFitsTheGame(BrowserTestCase):
    def test_each_game_shows_its_own_seats_levels_and_options(self) -> None:
        page = self.new_page()
        errors = console_errors(page)
        sign_up(page, self.live_server_url, "ann")
        page.get_by_role("link", name="New match", exact=True).click()
        seats = page.locator(".seat-choice")

        page.get_by_label("Game").select_option("backalley")
        expect(seats).to_have_count(3)
        expect(page.locator("#match-setup")).to_contain_text("Back Alley is for 4 players.")
        expect(page.get_by_label("Number of players")).to_have_count(0)
        for n in (2, 3, 4):
            group = page.get_by_role("group", name=f"Seat {n}")
            expect(group.get_by_label("Computer player")).to_be_checked()
            expect(group.get_by_label("Level")).to_have_value("medium")
        expect(page.get_by_role("link", name="How to play Back Alley")).to_be_visible()

        htmx_settled(page)
        page.get_by_label("Game").select_option("dos")
        expect(seats).to_have_count(1)
        expect(page.locator("#match-setup a[href='/rules/dos/']")).to_be_visible()
        htmx_settled(page)
        page.get_by_label("Number of players").select_option("3")
        expect(seats).to_have_count(2)
        expect(page.get_by_label("Points to win")).to_have_value("200")

        htmx_settled(page)
        page.get_by_label("Game").select_option("tacocat")
        expect(seats).to_have_count(1)
        expect(page.get_by_label("Points to win")).to_have_count(0)
        expect(page.get_by_label("A tied showdown")).to_be_visible()

        htmx_settled(page)
        page.get_by_label("Game").select_option("reversi")
        expect(page.get_by_role("group", name="Seat 2 (White)")).to_be_visible()
        htmx_settled(page)
        page.get_by_role("group", name="Seat 2 (White)").get_by_label("Level").select_option("hard")
        page.get_by_role("button", name="Create match").click()
        expect(page.locator(".seats")).to_contain_text("Computer 2 (hard)")
        assert errors == []

    def test_the_helper_creates_a_three_player_dos_table(self) -> None:
        page = self.new_page()
        sign_up(page, self.live_server_url, "bea")
        new_match(page, "dos", 3, {2: "bot", 3: "bot"})
        expect(page.locator(".seats li")).to_have_count(3)


class DosShowsWhatTheTickedCardsCanMatch(BrowserTestCase):
    def test_ticking_cards_marks_the_center_row_targets_and_the_sum(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        errors = console_errors(page)
        sign_up(page, base, "solo")
        match = make("solo", "dos", players=2, bot_seats={1}, options=SOLO)
        page.goto(base + match.get_absolute_url())
        expect(page.locator("#match-body")).to_contain_text("Your turn.")
        row = page.locator(".dos-row-cards > li")
        blue9 = row.filter(has_text=re.compile(r"blue 9(?!\d)"))

        hand_card(page, "blue 4").click()
        expect(page.locator("#dos-sum")).to_have_text(re.compile(r"^Sum so far: 4\."))
        expect(blue9.locator(".dos-target-mark")).to_have_text("can match")  # with blue 5, B4 makes 9
        hand_card(page, "blue 5").click()
        expect(page.locator("#dos-sum")).to_have_text("Sum so far: 9.")
        expect(blue9).to_have_class(re.compile(r"\bdos-target\b"))
        expect(page.locator(".dos-target-mark")).to_have_count(1)
        hand_card(page, "blue 4").click()  # untick: only blue 5 left
        expect(page.locator("#dos-sum")).to_have_text(re.compile(r"^Sum so far: 5\."))

        # The marks are a help, not the rules: the match itself still goes through the server.
        hand_card(page, "blue 4").click()
        row_card(page, "blue 9").click()
        page.get_by_role("button", name="Match", exact=True).click()
        expect(events(page)).to_contain_text("solo matched blue 4 + blue 5 on blue 9")
        assert errors == []


class ReversiByKeyboard(BrowserTestCase):
    def test_arrow_keys_move_over_the_board_and_focus_returns_to_it_after_a_move(self) -> None:
        base = self.live_server_url
        page = self.new_page(1000, 900)
        errors = console_errors(page)
        sign_up(page, base, "kim")
        match = make("kim", "reversi", players=2, bot_seats={1})
        page.goto(base + match.get_absolute_url())
        first = page.locator(".board .sq[tabindex='0']")
        expect(first).to_have_count(1)
        expect(first).to_have_attribute("id", "sq-d3")  # the first legal square, reading order
        first.focus()
        page.keyboard.press("ArrowDown")  # d4: a white disc, not playable but explorable
        expect(page.locator("#sq-d4")).to_be_focused()
        page.keyboard.press("ArrowLeft")  # c4: legal
        expect(page.locator("#sq-c4")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator(".events")).to_contain_text("kim")
        expect(page.locator("#board-announcer")).not_to_be_empty()
        # The computer answers live; focus is on the board, on a square the player can take.
        expect(page.locator("#match-body")).to_contain_text("Your turn.", timeout=20_000)
        focused = page.evaluate("document.activeElement.closest('.board') !== null")
        assert focused, page.evaluate("document.activeElement.outerHTML")
        expect(page.locator(".last-move")).to_contain_text("Last move:")
        assert errors == []

    def test_replay_steps_with_the_arrow_keys(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "lee")
        match = make("lee", "reversi", players=2, bot_seats={1})
        owner = get_user_model().objects.get(username="lee")
        with patch("games.live.realtime.announce"):
            services.act(match_id=match.pk, user=owner, action={"type": "place", "square": "d3"}, version=0)
        # Wait for the computer's answer through the page, then resign so the match can be replayed.
        page.goto(base + match.get_absolute_url())
        expect(page.locator("#match-body")).to_contain_text("Your turn.", timeout=20_000)
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Resign").click()
        expect(page.locator(".ending")).to_contain_text("lee resigned.")
        page.goto(f"{base}/m/{match.pk}/replay/0/")
        status = page.locator(".replay-step")
        expect(status).to_contain_text("Move 0 of")
        page.keyboard.press("ArrowRight")
        expect(status).to_contain_text("Move 1 of")
        page.keyboard.press("ArrowRight")
        expect(status).to_contain_text("Move 2 of")
        page.keyboard.press("ArrowLeft")
        expect(status).to_contain_text("Move 1 of")


class ATurnOfEachCardGameLogsNoErrors(BrowserTestCase):
    def test_a_tacocat_and_a_back_alley_turn(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        errors = console_errors(page)
        sign_up(page, base, "max")
        taco = make("max", "tacocat", players=2, bot_seats={1}, options=TACO)
        page.goto(base + taco.get_absolute_url())
        page.get_by_role("button", name="Keep all my cards").click()
        expect(page.locator("#taco-step-title")).to_have_text("Duel", timeout=20_000)
        expect(page.locator(".last-move")).to_contain_text("Last move:")

        alley = make("max", "backalley", players=4, bot_seats={1, 2, 3}, options={"dealer": 3})
        page.goto(base + alley.get_absolute_url())
        expect(page.locator("#match-body")).to_contain_text("Your bid", timeout=20_000)
        page.get_by_role("button", name="Pass (no tricks)").click()
        expect(page.locator(".ba-at-bottom .ba-bid")).to_have_text(re.compile(r"\S"))
        # Focus stayed on the board: on a bid button or a card, not lost to the page.
        expect(page.locator("#match-body .board-area :focus")).to_have_count(1, timeout=20_000)
        assert errors == []
