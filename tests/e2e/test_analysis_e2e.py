"""The analysis in the browser: a player asks for the analysis of a finished Reversi match, waits for
it, and steps through the mistakes on the replay with the best move framed on the board."""

from __future__ import annotations

import re
from unittest import mock

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from accounts.models import User
from games import registry, services
from games.background import analysis
from games.models import Analysis
from games.reversi import analysis as reversi_analysis
from tests.e2e.helpers import BrowserTestCase, console_errors, sign_up
from tests.e2e.test_every_page_e2e import BAD, PHONE, overflow, too_small_targets


def phone_problems(page: Page, url: str) -> list[str]:
    """What the analysis pages must not have on a 375 px phone: sideways scrolling, small targets,
    serious accessibility violations, console errors."""
    errors = console_errors(page)
    page.goto(url)
    expect(page.locator("main")).to_be_visible()
    problems = [f"{overflow(page)}px too wide"] if overflow(page) > 0 else []
    problems += [f"small target {t}" for t in too_small_targets(page)]
    for violation in Axe().run(page).response["violations"]:
        if violation["impact"] in BAD:
            problems.append(f"axe {violation['id']} at {[n['target'] for n in violation['nodes']][:3]}")
    return problems + errors


class AnalysisInTheBrowser(BrowserTestCase):
    def test_a_finished_reversi_match_is_analysed_and_its_mistakes_stepped_through(self) -> None:
        page = self.new_page(1200, 900)
        sign_up(page, self.live_server_url, "ada")
        ada = User.objects.get(username="ada")
        rival = User.objects.create_user(username="rival", password="x" * 20)
        match = services.create_match(user=ada, game="reversi", players=2)
        services.join_match(match_id=match.pk, user=rival)
        engine = registry.get("reversi").engine
        players = {0: ada, 1: rival}
        for _ in range(12):  # the last legal move each time: far from best, so some are graded
            match.refresh_from_db()
            state = engine.load(match.state)
            seat = engine.to_act(state)[0]
            action = engine.legal_actions(state, seat)[-1]
            services.act(match_id=match.pk, user=players[seat], action=action, version=match.version)
        services.resign(match_id=match.pk, user=rival)

        page.goto(f"{self.live_server_url}/m/{match.pk}/")
        page.get_by_role("link", name="Analysis", exact=True).click()
        # A shallower search: the test is about the pages, not the search's strength.
        with mock.patch.object(reversi_analysis, "DEPTH", 4):
            page.get_by_role("button", name="Analyse this match").click()
            expect(page.locator("#analysis-progress")).to_be_visible()
            # The test server's own analysis thread may have claimed it; if not, the worker's part is
            # done here.
            analysis.run_due()
            # The progress line polls and reloads the page once the analysis is done. The first
            # analysis of a process compiles the search (about 30 s of CPU on a busy machine).
            expect(page.get_by_role("heading", name="Summary")).to_be_visible(timeout=180_000)
        records = Analysis.objects.get(match=match).records
        graded = [r for r in records if r["grade"]]
        assert graded
        chart = page.get_by_role("img", name=re.compile("The position's value for ada before each move"))
        expect(chart).to_be_visible()
        mistakes = page.locator("ol.analysis-mistakes li")
        expect(mistakes).to_have_count(len(graded))

        mistakes.first.get_by_role("link").click()
        for i, record in enumerate(graded):
            expect(page.locator(".replay-step")).to_contain_text(f"Move {record['step']} of 12")
            expect(page.locator(".analysis-verdict")).to_contain_text(f"Best move: {record['best']}")
            expect(page.locator(".analysis-verdict")).to_contain_text(f"Played: {record['played']}")
            expect(page.locator(f"#sq-{record['best']}")).to_have_class(re.compile(r"\bbest\b"))
            next_link = page.get_by_role("link", name="Next mistake")
            if i + 1 < len(graded):
                next_link.click()
            else:
                expect(next_link).to_have_count(0)
        if len(graded) > 1:
            page.get_by_role("link", name="Previous mistake").click()
            expect(page.locator(".replay-step")).to_contain_text(f"Move {graded[-2]['step']} of 12")

        phone = self.new_page(PHONE, 740)
        phone.context.add_cookies(page.context.cookies())
        base = f"{self.live_server_url}/m/{match.pk}"
        practice = f"{self.live_server_url}/practice/reversi/"
        for url in (f"{base}/analysis/", f"{base}/replay/{graded[0]['step']}/", practice):
            assert phone_problems(phone, url) == [], url
        # A practice answer: a legal square (marked with a dot) gives a verdict and the next position.
        phone.locator("button.sq.legal").first.click()
        expect(phone.locator(".practice-verdict")).to_be_visible()
        expect(phone.get_by_text(re.compile(r"^Position 2 of \d+"))).to_be_visible()
        phone.goto(f"{base}/replay/{graded[0]['step']}/")
        phone.get_by_role("link", name="Full analysis").click()
        phone.get_by_text("Every move as a table").click()
        assert overflow(phone) == 0
