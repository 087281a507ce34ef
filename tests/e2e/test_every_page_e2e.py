"""Every page type, on a 375 px phone: no sideways scrolling, no console errors, and axe-core finds no
serious or critical accessibility violation."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games import registry, services
from games.models import Match
from tests.e2e.helpers import BrowserTestCase, console_errors, sign_up
from tests.e2e.test_dos_e2e import SOLO
from tests.games.tacocat.test_web_pages import OPTIONS as TACO

PHONE = 375
BAD = {"serious", "critical"}


def overflow(page: Page) -> int:
    """How far the page is wider than the viewport, in px (0: no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def too_small_targets(page: Page) -> list[str]:
    """Visible buttons, links in the nav, board squares and cards smaller than 44 by 44 px."""
    return page.evaluate(
        """() => {
        const sel = 'main button:not([disabled]), main .sq, .dos-hand-cards label, .dos-row-cards label,'
          + ' main .ba-card-button, main label.taco-choice, .site-header a, .site-header button';
        const small = [];
        for (const el of document.querySelectorAll(sel)) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (r.width < 43.5 || r.height < 43.5) small.push(el.outerHTML.slice(0, 80) + ' ' + r.width + 'x' + r.height);
        }
        return small;
    }"""
    )


def make(username: str, game: str, **kwargs: Any) -> Match:
    owner = get_user_model().objects.get(username=username)
    with patch("games.live.realtime.announce"):
        return services.create_match(user=owner, game=game, **kwargs)


def tournament() -> Any:
    """A Swiss of four in its second round, with a result in: standings, crosstable and both rounds."""
    from django.utils import timezone

    from tournaments import services as tournament_services
    from tournaments.models import Entry, Pairing, Tournament

    users = [get_user_model().objects.create_user(username=f"entrant{i}", password="x" * 12) for i in range(4)]
    with patch("games.live.realtime.announce"):
        t = tournament_services.create_tournament(
            organiser=users[0],
            name="Phone Swiss",
            game="reversi",
            format=Tournament.Format.SWISS,
            rounds=3,
            pace_seconds=24 * 3600,
            round_seconds=3 * 24 * 3600,
            rated=False,
            starts_at=timezone.now(),
            min_entries=2,
            max_entries=8,
            is_public=True,
        )
        for user in users:
            tournament_services.register(tournament_id=t.pk, user=user)
        tournament_services.start(tournament_id=t.pk, now=timezone.now(), by=users[0])
        for pairing in Pairing.objects.filter(tournament=t):
            services.resign(match_id=pairing.match_id, user=Entry.objects.get(pk=pairing.sides[1]).user)
    return t


def resign(username: str, match: Match) -> None:
    with patch("games.live.realtime.announce"):
        services.resign(match_id=match.pk, user=get_user_model().objects.get(username=username))


class EveryPageOnAPhone(BrowserTestCase):
    def check(self, page: Page, path: str, errors: list[str], problems: list[str]) -> None:
        page.goto(self.live_server_url + path)
        expect(page.locator("main")).to_be_visible()
        wide = overflow(page)
        if wide > 0:
            problems.append(f"{path}: {wide}px wider than the phone")
        results = Axe().run(page)
        for violation in results.response["violations"]:
            if violation["impact"] in BAD:
                nodes = [n["target"] for n in violation["nodes"]][:3]
                problems.append(f"{path}: axe {violation['id']} ({violation['impact']}) at {nodes}")
        small = too_small_targets(page)
        if small:
            problems.append(f"{path}: targets under 44px: {small[:4]}")
        if errors:
            problems.append(f"{path}: console errors {errors}")
            errors.clear()

    def test_every_page_type_fits_a_phone_is_axe_clean_and_logs_no_errors(self) -> None:
        page = self.new_page(PHONE, 740)
        errors = console_errors(page)
        problems: list[str] = []
        for path in ("/", "/accounts/login/", "/accounts/signup/", *(f"/rules/{g}/" for g in GAMES)):
            self.check(page, path, errors, problems)
        # What a guest sees: an invitation (and sign-up and log-in carrying it), the lobby, the
        # leaderboards, and a public match being watched.
        get_user_model().objects.create_user(username="bea", password="a long enough secret 42")
        invitation = f"/invite/{make('bea', 'tacocat', players=2).invite_token}/"
        watched = make("bea", "reversi", players=2, bot_seats={1})
        for path in (
            invitation,
            f"/accounts/signup/?next={invitation}",
            f"/accounts/login/?next={invitation}",
            "/lobby/",
            "/leaderboards/",
            watched.get_absolute_url(),
        ):
            self.check(page, path, errors, problems)

        sign_up(page, self.live_server_url, "ann")
        # Each registered game, against the computer: one match in play and one finished.
        games = registry.all_games()
        playing = {g.slug: make("ann", g.slug, **table(g), options=START.get(g.slug, {})) for g in games}
        finished = {
            g.slug: make("ann", g.slug, **table(g), options=TO_FINISH.get(g.slug, START.get(g.slug, {}))) for g in games
        }
        for match in finished.values():
            resign("ann", match)
        for game in games:
            if game.min_players > 2:
                # ann is the only person at the table, so her resigning ends it (once the computers
                # have played their turns).
                page.goto(self.live_server_url + finished[game.slug].get_absolute_url())
                expect(page.locator(".match-status")).to_contain_text("ann resigned.", timeout=60_000)

        paths = ["/", "/lobby/", "/history/", "/leaderboards/", "/accounts/u/ann/", "/accounts/settings/"]
        paths += [f"/new/?game={g}" for g in GAMES]
        # Another player's profile (it offers a challenge) and the challenge page, for every game.
        get_user_model().objects.create_user(username="ben", password="a long enough secret 42")
        paths += ["/accounts/u/ben/", *(f"/challenge/ben/?game={g}" for g in GAMES)]
        paths += [m.get_absolute_url() for m in playing.values()]
        paths += [m.get_absolute_url() for m in finished.values()]
        paths += [f"/m/{m.pk}/replay/" for m in finished.values()]
        paths += ["/tournaments/", "/tournaments/new/", tournament().get_absolute_url()]
        for path in paths:
            self.check(page, path, errors, problems)
        assert problems == [], "\n".join(problems)


# Every game the site has: the registry's, so a new game is checked here without a line.
GAMES = tuple(game.slug for game in registry.all_games())
# What a game needs to start in a known, quick state (a game not named starts with no options).
START: dict[str, dict[str, Any]] = {"dos": SOLO, "tacocat": TACO, "backalley": {"dealer": 3}}
# What a game needs to be finished quickly by a resignation (Back Alley: from its last deal).
TO_FINISH: dict[str, dict[str, Any]] = {"backalley": {"first_deal": 25}}


def table(game: registry.Game) -> dict[str, Any]:
    """ann at the smallest table of the game, the other seats computer players."""
    return {"players": game.min_players, "bot_seats": set(range(1, game.min_players))}
