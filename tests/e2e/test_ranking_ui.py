"""Real Chromium at phone size (360×740): a rated game's end shows both players' new rating and
change beside their names, live over the socket; the profile's chart and the leaderboard fit a
360 px screen (issue 10)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from caro.games import services as games
from caro.games.models import Game
from caro.rooms import services as rooms
from ranking.models import Rating
from tests.e2e.helpers import _context, _login, _off_loop, _open
from tests.integration.ranking.builders import account, won_by

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
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
        # in play (issue 30): each rating as it stands, a new player's marked provisional
        page_x.wait_for_selector('[data-testid="rating-X"]:visible')
        assert page_x.locator('[data-testid="rating-X"]').inner_text() == "1200?"
        _off_loop(games.resign, room.current_game_id, o)
        for page in (page_x, page_o):
            page.wait_for_selector('[data-testid="rating-X"]:visible')
            # two new players, still provisional after one rated game: the "?" stays
            assert page.locator('[data-testid="rating-X"]').inner_text() == "1220? (+20)"
            assert page.locator('[data-testid="rating-O"]').inner_text() == "1180? (\u221220)"
            assert page.locator('[data-testid="rating-O"]').get_attribute("data-provisional") == "1"
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
    _off_loop(lambda: Rating.objects.filter(user=x).update(games=12, listed=True, established=True))
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


# The rating chart's labels (and the chart) as drawn: each label's box, the plot's left edge, the chart's box.
CHART_BOXES = """svg => ({
  labels: [...svg.querySelectorAll('text.axis')].map(t => { const b = t.getBoundingClientRect(); return [b.left, b.right, b.height]; }),
  grid: svg.querySelector('line.grid').getBoundingClientRect().left,
  chart: [svg.getBoundingClientRect().width, svg.getBoundingClientRect().height],
})"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_rating_chart_labels_are_a_text_size_at_phone_and_desktop_widths(browser, live_server_url, width):
    """Both categories' cards side by side at 1280 px: the labels are as tall as at 360 px (they were
    scaled with the drawing to about 19 px there), inside the card, left of the plot, none cut off."""
    player, rival = _off_loop(lambda: (account("charted", display_name="Châu"), account("rivalc")))
    for kind in ("caro", "reversi"):
        for winner, loser in ((player, rival), (rival, player), (player, rival)):
            _off_loop(won_by, winner, loser, kind=kind)
    ctx = _context(browser, "vi", width)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server_url}/nguoi-choi/{player.username}/")
        charts = page.locator("svg.rating-chart")
        assert charts.count() == 2
        for chart in charts.all():
            boxes = chart.evaluate(CHART_BOXES)
            heights = [h for _l, _r, h in boxes["labels"]]
            assert heights and all(11 <= h <= 17 for h in heights), (width, heights)
            rating_labels = boxes["labels"][:-2]  # the last two are the game counts under the plot
            assert all(right <= boxes["grid"] + 0.5 for _l, right, _h in rating_labels), boxes
            card = chart.locator("xpath=ancestor::section[1]").bounding_box()
            assert all(left >= card["x"] for left, _r, _h in boxes["labels"]), (boxes, card)
            chart_w, chart_h = boxes["chart"]
            assert chart_w >= 280 and 150 <= chart_h <= 240, boxes
        assert page.evaluate(NO_OVERFLOW) <= 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"profile-chart-vi-{width}.png"), full_page=True)
    finally:
        ctx.close()
