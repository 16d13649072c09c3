"""Real Chromium at phone size (360×740): a rated game's end shows both players' new rating and
change beside their names, live over the socket; the profile's chart and the leaderboard fit a
360 px screen (issue 10)."""

from __future__ import annotations

import uuid

import pytest

from caro.games import services as games
from caro.games.models import Game
from caro.rooms import services as rooms
from ranking.models import Rating
from tests.e2e.helpers import _context, _login, _off_loop, _open
from tests.integration.ranking.builders import account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def _rated_room_now():
    x, o = account("ratedx", display_name="Xuân"), account("ratedo", display_name="Ôn")
    room = rooms.create_room(x)
    rooms.join(room, o)
    room.refresh_from_db()
    Game.objects.filter(pk=room.current_game_id).update(rated=True)
    for ply, (user, square) in enumerate(((x, "H8"), (o, "I9")), start=1):
        games.play_move(room.current_game_id, user, square, ply, uuid.uuid4())
    return room, x, o


def test_both_players_see_their_rating_change_when_a_rated_game_ends(browser, live_server_url):
    room, x, o = _off_loop(_rated_room_now)
    ctx_x, ctx_o = _context(browser, "vi", 360), _context(browser, "vi", 360)
    try:
        page_x = _open(ctx_x, live_server_url, x, room)
        page_o = _open(ctx_o, live_server_url, o, room)
        assert page_x.locator('[data-testid="rating-X"]').is_hidden()
        _off_loop(games.resign, room.current_game_id, o)
        for page in (page_x, page_o):
            page.wait_for_selector('[data-testid="rating-X"]:visible')
            assert page.locator('[data-testid="rating-X"]').inner_text() == "1220 (+20)"
            assert page.locator('[data-testid="rating-O"]').inner_text() == "1180 (\u221220)"
            assert page.evaluate(NO_OVERFLOW) <= 0
        # A page opened after the end reads the changes from the state frame.
        late = _open(_context(browser, "vi", 360), live_server_url, None, room, one_tap=False)
        late.wait_for_selector('[data-testid="rating-O"]:visible')
        assert late.locator('[data-testid="rating-O"]').get_attribute("data-trend") == "down"
        late.context.close()
    finally:
        ctx_x.close()
        ctx_o.close()


def test_the_profile_chart_and_the_leaderboard_fit_a_phone(browser, live_server_url):
    room, x, _o = _off_loop(_rated_room_now)
    _off_loop(games.resign, room.current_game_id, _o)
    _off_loop(lambda: Rating.objects.filter(user=x).update(games=12, listed=True))
    ctx = _context(browser, "vi", 360)
    try:
        _login(ctx, live_server_url, x)
        page = ctx.new_page()
        page.goto(f"{live_server_url}/nguoi-choi/{x.username}/")
        chart = page.locator("svg.rating-chart")
        box = chart.bounding_box()
        assert box is not None and 300 <= box["width"] <= 360 and box["height"] >= 150
        assert page.evaluate(NO_OVERFLOW) <= 0
        assert "Thắng" in page.locator('[data-testid="recent-games"]').inner_text()
        page.locator(".nav-leaderboard").click()
        page.wait_for_selector('[data-testid="my-row"]')
        assert "Xuân" in page.locator('[data-testid="my-row"]').inner_text()
        assert page.evaluate(NO_OVERFLOW) <= 0
    finally:
        ctx.close()
