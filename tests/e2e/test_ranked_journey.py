"""The ranked journey in real Chromium, end to end over Daphne, Redis, the Celery worker and
PostgreSQL (issue 10's acceptance point): two people sign up on the real (allauth) sign-up page,
both pick ranked caro on /match/, are paired, play to a five through the board, both see their
rating change on the game-over screen (the numbers of the stored `RatingChange` rows); then the
first player, on a phone (360 px), opens the leaderboard from the header (both players listed after
one rated game, provisional, marked "?": issue 30) and their profile from the user menu, and sees
their rating and the chart with a point for the game. Vietnamese throughout."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from accounts.models import User
from caro.games.models import Game
from ranking import elo
from ranking.models import Rating, RatingChange
from tests.e2e.helpers import _context, _off_loop
from tests.integration.ranking.builders import account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
PASSWORD = "mot-mat-khau-dai-42"
ROOM_URL = re.compile(r"/r/[A-Z0-9]{6}/$")
#: Generous: the pairing pass runs on the join and in the worker's beat; the machine may be busy.
PAIRING_TIMEOUT_MS = 30_000
#: X's five along row 8 and O's replies on row 9 (no foul under the ranked caro rules).
X_MOVES = ["H8", "I8", "J8", "K8", "L8"]
O_MOVES = ["H9", "I9", "J9", "K9"]


def _sign_up(page, live_server_url, prefix):
    """Sign up through the header's link and allauth's form; returns the new username."""
    name = f"{prefix}_{random.randrange(10**6)}"
    page.goto(live_server_url + "/")
    page.click(".nav-signup")
    page.fill("main form input[name=username]", name)
    page.fill("main form input[name=email]", f"{name.lower()}@example.com")
    page.fill("main form input[name=password1]", PASSWORD)
    page.fill("main form input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.locator('[data-testid="user-menu"] summary', has_text=name).wait_for()
    return name


def _seek_ranked_caro(page, live_server_url, from_home=False):
    """Open /match/ (from the home page's ranked link, or by its address) and seek ranked caro."""
    if from_home:
        page.goto(live_server_url + "/")
        page.get_by_role("link", name="Ván xếp hạng", exact=True).click()  # signed in: no "(cần tài khoản)"
        page.wait_for_url(re.compile(r"/match/\?mode=ranked$"))
    else:
        page.goto(live_server_url + "/match/")
    assert page.locator('[data-testid="ranked-refusal"]').count() == 0
    page.click('[data-testid="ranked-caro"]')


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def _shown(change: RatingChange, provisional: bool = True) -> str:
    """What the room shows beside a player's name: "1220? (+20)" while the player is provisional
    (fewer than ten rated games, as both new players here are), "1180 (−20)" once established."""
    delta = change.delta
    sign = f"+{delta}" if delta > 0 else f"\u2212{-delta}" if delta < 0 else "\u00b10"
    return f"{change.after}{'?' if provisional else ''} ({sign})"


def _a_listed_player():
    """Someone already on the caro leaderboard (10+ rated games, active), so the table is there."""
    user = account(display_name="Bảng_Vàng")
    Rating.objects.create(user=user, category="caro", value=1500, games=12, wins=8, draws=1, losses=3,
                          peak=1510, listed=True, established=True)
    return user


def test_sign_up_play_a_ranked_game_and_see_the_change_the_leaderboard_and_the_chart(browser, live_server_url):
    listed = _off_loop(_a_listed_player)
    phone, desktop = _context(browser, "vi", 360), _context(browser, "vi", 1280)
    try:
        page_a, page_b = phone.new_page(), desktop.new_page()
        name_a = _sign_up(page_a, live_server_url, "An")
        name_b = _sign_up(page_b, live_server_url, "Binh")
        a, b = _off_loop(lambda: [User.objects.get(username=n, is_guest=False) for n in (name_a, name_b)])

        # Both pick ranked caro and are sent to the same new game.
        _seek_ranked_caro(page_a, live_server_url, from_home=True)
        page_a.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        _seek_ranked_caro(page_b, live_server_url)
        for page in (page_a, page_b):
            page.wait_for_url(ROOM_URL, timeout=PAIRING_TIMEOUT_MS)
            page.wait_for_selector('.room[data-connected="1"]')
            page.locator('[data-role="confirm-toggle"]').set_checked(False)
        assert page_a.url == page_b.url
        game = _off_loop(lambda: Game.objects.get())
        assert game.rated and {game.host_id, game.guest_id} == {a.pk, b.pk}

        # Play to a five through the board; X wins, whoever X is.
        x_page, o_page = (page_a, page_b) if game.x_player.pk == a.pk else (page_b, page_a)
        for i, square in enumerate(X_MOVES):
            x_page.click(f'.sq[data-sq="{square}"]')
            o_page.wait_for_selector(f'.sq[data-sq="{square}"][data-stone="X"]')
            if i < len(O_MOVES):
                o_page.click(f'.sq[data-sq="{O_MOVES[i]}"]')
                x_page.wait_for_selector(f'.sq[data-sq="{O_MOVES[i]}"][data-stone="O"]')
        for page in (page_a, page_b):
            page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert "Bạn thắng" in x_page.inner_text('[data-role="status"]')
        assert "Bạn thua" in o_page.inner_text('[data-role="status"]')

        # Both see both changes, exactly as stored: one row per player, +/- the same amount.
        game = _off_loop(lambda: Game.objects.get())
        assert game.status == Game.Status.FINISHED and game.winner == "X"
        changes = _off_loop(lambda: {c.user_id: c for c in RatingChange.objects.filter(game=game)})
        assert set(changes) == {a.pk, b.pk}
        x_change, o_change = changes[game.x_player.pk], changes[game.o_player.pk]
        assert x_change.delta > 0 and o_change.delta == -x_change.delta
        for page in (page_a, page_b):
            page.wait_for_selector('[data-testid="rating-X"]:visible')
            assert page.locator('[data-testid="rating-X"]').inner_text() == _shown(x_change)
            assert page.locator('[data-testid="rating-O"]').inner_text() == _shown(o_change)
        assert page_a.evaluate(NO_OVERFLOW) <= 0
        _shot(page_a, "ranked-game-over-vi-360.png")
        _shot(page_b, "ranked-game-over-vi-1280.png")

        # The leaderboard, from the header, on the phone. A has one rated game, so is provisional:
        # listed after the established players, marked "?", with one line saying why, and A's own
        # row highlighted with their place (docs/architecture.md, "Leaderboard"). B is listed too.
        mine = _off_loop(lambda: Rating.objects.get(user=a, category="caro"))
        assert mine.games == 1 and mine.provisional and mine.value == changes[a.pk].after
        page_a.click(".nav-leaderboard")
        page_a.wait_for_selector('[data-testid="leaderboard"]')
        table = page_a.inner_text('[data-testid="leaderboard"]')
        assert table.index(listed.public_name) < table.index(name_a) and name_b in table
        row_of = lambda name: page_a.locator('[data-testid="leaderboard"] tr', has_text=name).inner_text()  # noqa: E731
        assert f"{changes[a.pk].after}?" in row_of(name_a) and f"{changes[b.pk].after}?" in row_of(name_b)
        my_row = page_a.locator('[data-testid="my-row"]')
        assert my_row.count() == 1 and name_a in my_row.inner_text() and mine.display in my_row.inner_text()
        assert "tạm tính" in page_a.inner_text('[data-testid="provisional-why"]')
        standing = page_a.inner_text('[data-testid="my-standing"]')
        assert f"{mine.value} " in standing and mine.display not in standing and "tạm tính" in standing
        assert str(elo.PROVISIONAL_GAMES) in standing
        assert page_a.evaluate(NO_OVERFLOW) <= 0
        _shot(page_a, "ranked-leaderboard-provisional-vi-360.png")

        # The profile, from the header's user menu: the rating, the counts and the chart.
        page_a.click('[data-testid="user-menu"] summary')
        link = page_a.locator('[data-testid="my-profile"]')
        assert link.inner_text().strip() == "Hồ sơ của tôi"
        link.click()
        page_a.wait_for_selector('[data-testid="profile-name"]')
        assert page_a.inner_text('[data-testid="profile-name"]') == name_a
        card = page_a.locator('[data-testid="rating-caro"]')
        assert card.locator(".value").inner_text() == mine.display
        won = changes[a.pk].delta > 0
        assert ("1 thắng" if won else "1 thua") in page_a.inner_text('[data-testid="wdl-caro"]')
        chart = card.locator("svg.rating-chart")
        box = chart.bounding_box()
        assert box is not None and 300 <= box["width"] <= 360
        # The line runs from the rating before the game to the one after it: two points, the last marked.
        points = chart.locator("polyline.line").get_attribute("points").split()
        assert len(points) == 2
        assert chart.locator("circle.last").count() == 1
        desc = chart.locator("desc").text_content()
        assert f"{changes[a.pk].before}" in desc and f"{changes[a.pk].after}" in desc
        recent = page_a.inner_text('[data-testid="recent-games"]')
        assert b.public_name in recent and changes[a.pk].signed_delta in recent
        assert page_a.evaluate(NO_OVERFLOW) <= 0
        _shot(page_a, "ranked-profile-vi-360.png")
    finally:
        phone.close()
        desktop.close()
