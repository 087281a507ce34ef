"""People in real browsers: two friends play live, and one plays the computer to the end."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.helpers import BrowserTestCase, invite_path, new_match, sign_up, wait_live


def square(page: Page, name: str) -> Any:
    return page.locator(f"#sq-{name}")


class ReversiInTheBrowser(BrowserTestCase):
    def test_two_friends_see_each_others_moves_without_reloading(self) -> None:
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")

        new_match(alice, "reversi", 2, {2: "human"}, public=False)
        expect(alice.get_by_role("status")).to_contain_text("Waiting for players")
        bob.goto(base + invite_path(alice))
        bob.get_by_role("button", name="Take a seat").click()
        expect(bob.locator("#match-body")).to_contain_text("Waiting for alice")
        # Alice's page learns that the match started, without a reload.
        expect(alice.locator("#match-body")).to_contain_text("Your turn.")

        moves = [("alice", "d3"), ("bob", "c3"), ("alice", "c4"), ("bob", "e3"), ("alice", "f2")]
        pages = {"alice": alice, "bob": bob}
        for who, move in moves:
            mover = pages[who]
            other = bob if who == "alice" else alice
            expect(mover.locator("#match-body")).to_contain_text("Your turn.")
            button = square(mover, move)
            expect(button).to_have_attribute("aria-label", re.compile(rf"^{move}, empty, legal move"))
            button.focus()
            mover.keyboard.press("Enter")  # by keyboard, as anyone may
            expect(square(other, move)).to_have_attribute(
                "aria-label", re.compile(rf"^{move}, (black|white), last move")
            )
            expect(other.locator("#match-body")).to_contain_text("Your turn.")
        expect(bob.locator(".count-b")).to_contain_text(re.compile(r"\d+"))
        # The turn badge follows too.
        expect(bob.locator("#turn-badge")).to_have_attribute("data-count", "1")
        expect(bob).to_have_title(re.compile(r"^\(1\) "))

    def test_a_full_game_against_the_computer_ends_in_history_and_replay(self) -> None:
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "solo")
        new_match(page, "reversi", 2, {2: "bot"})
        body = page.locator("#match-body")
        for _ in range(64):
            expect(body).to_contain_text(re.compile(r"Your turn\.|You won!|You lost|draw"))
            if page.locator(".match-status strong").filter(has_text=re.compile("You won|You lost|draw")).count():
                break
            version = body.get_attribute("data-version")
            page.locator("button.sq.legal").first.click()
            # The computer may answer within milliseconds, so wait for the version, not for a message.
            expect(body).not_to_have_attribute("data-version", version)
        expect(body).to_contain_text(re.compile(r"You won!|You lost|draw"))
        match_url = page.url

        page.get_by_role("link", name="History", exact=True).click()
        expect(page.get_by_role("heading", name="Finished matches")).to_be_visible()
        page.get_by_role("link", name=re.compile(r"^Replay")).first.click()
        expect(page.get_by_role("status")).to_contain_text(re.compile(r"Move (\d+) of \1"))
        page.get_by_role("link", name="Start").click()
        expect(page.get_by_role("status")).to_contain_text(re.compile(r"Move 0 of \d+"))
        expect(square(page, "d4")).to_have_attribute("aria-label", "d4, white")
        page.get_by_role("link", name="Forward").click()
        expect(page.get_by_role("status")).to_contain_text(re.compile(r"Move 1 of \d+"))
        assert re.search(r"/replay/1/$", page.url)
        page.go_back()
        expect(page.get_by_role("status")).to_contain_text(re.compile(r"Move 0 of \d+"))
        from games.models import Match
        from games.read.replay import replays_to_stored_state

        match = Match.objects.get(pk=int(match_url.rstrip("/").split("/")[-1]))
        assert match.status == Match.Status.FINISHED
        assert replays_to_stored_state(match)

    def test_a_pushed_or_returned_fragment_older_than_the_page_is_never_swapped_in(self) -> None:
        """The page reads the version of incoming HTML by parsing it, whatever the attribute order."""
        base = self.live_server_url
        page = self.new_page()
        sign_up(page, base, "keeper")
        new_match(page, "reversi", 2, {2: "human"}, public=False)
        expect(page.get_by_role("status")).to_contain_text("Waiting for players")
        # The listeners are set by deferred scripts, which have run once the DOM is loaded.
        page.wait_for_load_state("domcontentloaded")
        refused = page.evaluate(
            """() => {
              const shown = parseInt(document.getElementById("match-body").getAttribute("data-version"), 10);
              const fire = (html) => {
                const event = new CustomEvent("htmx:wsBeforeMessage", {cancelable: true, detail: {message: html}});
                document.dispatchEvent(event);
                return event.defaultPrevented;
              };
              return [
                fire(`<section class="match" data-version="${shown - 1}" id="match-body"></section>`),
                fire(`<section id='match-body' data-version='${shown - 1}'></section>`),
                fire(`<section id="match-body" data-version="${shown}"></section>`),
                fire(`<section data-version="${shown + 1}" id="match-body"></section>`),
                fire(`<a id="turn-badge" data-count="0"></a>`),
              ];
            }"""
        )
        assert refused == [True, True, False, False, False]

    def test_the_sockets_first_state_is_not_drawn_again_when_the_page_shows_it(self) -> None:
        """Redrawing the whole match area for the state it already shows was a long task and a layout
        shift on every page load (Lighthouse, docs/design.md); a newer state is still drawn."""
        base = self.live_server_url
        alice, bob = self.new_page(), self.new_page()
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        new_match(alice, "reversi", 2, {2: "human"}, public=False)
        bob.goto(base + invite_path(alice))
        bob.get_by_role("button", name="Take a seat").click()
        expect(bob.locator("#match-body")).to_contain_text("Waiting for alice")
        # The element the page was drawn with, kept before any script (htmx's socket included) runs.
        keep = 'window.drawn = document.getElementById("match-body");'
        bob.add_init_script(f'document.addEventListener("DOMContentLoaded", () => {{ {keep} }});')
        bob.reload()
        wait_live(bob)
        assert bob.evaluate('document.getElementById("match-body") === window.drawn')
        square(alice, "d3").click()
        expect(bob.locator("#match-body")).to_contain_text("Your turn.")
        assert bob.evaluate('document.getElementById("match-body") !== window.drawn')
