"""Real Chromium at phone (360×740, Vietnamese) and desktop (1280×800, English) size: issue 30's
room items (part 2): a finished game's room links to its record, Renju foul points that do not look
like stones and say their kind, a 15×15 board with squares a thumb can hit at 360 px, a banned
player's room, and a ranked room's ratings and stakes before the first move and after the end.

Positions are made through the game services (what the socket calls), then the pages are watched;
every wait is for a page state, never for a fixed time.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest

from accounts.guests import create_guest
from caro.games import services as games
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
BOTH = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
MOVE_MS = 600_000  # a slow machine never runs a clock out during a test
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
#: X's five along row 8, O's replies on row 9.
X_FIVE = ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"]


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _play_now(game_id, squares, x_user, o_user):
    game = Game.objects.get(pk=game_id)
    for square in squares:
        game.refresh_from_db()
        games.play_move(game.pk, x_user if game.turn == "X" else o_user, square, game.ply + 1, uuid.uuid4())


def _friend_room(squares=(), preset="caro-vn"):
    """A friend room of two seated guests (the host plays X), `squares` played in order."""
    def make():
        x, o = create_guest(), create_guest()
        room = rooms.create_room(x, preset, move_time_ms=MOVE_MS)
        rooms.join(room, o)
        _play_now(room.current_game_id, squares, x, o)
        return room, x, o

    return _off_loop(make)


# ------------------------------------------------------------------ rough edge 1: the record

@pytest.mark.parametrize("lang, width", BOTH)
def test_a_finished_game_s_room_links_to_its_record_replay_download_and_report(browser, live_server_url, lang, width):
    room, x, o = _friend_room(X_FIVE[:-1])
    game_id = room.current_game_id
    record = f"/van/{game_id}/" if lang == "vi" else f"/en/game/{game_id}/"
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, x, room)
        links = page.locator('[data-testid="record-links"]')
        assert links.is_hidden(), "no record links while the game is played"
        _off_loop(_play_now, game_id, X_FIVE[-1:], x, o)  # the five, seen through the socket
        links.wait_for(state="visible")
        assert page.get_attribute('[data-testid="record-replay"]', "href") == record
        assert page.get_attribute('[data-testid="record-export"]', "href") == f"{record}#downloads"
        assert page.get_attribute('[data-testid="record-report"]', "href") == f"{record}#report"
        assert page.locator('[data-testid="record-report"]').is_visible()
        assert page.evaluate(NO_OVERFLOW) <= 0
        page.reload()  # the page's first state has the links too
        page.wait_for_selector('.room[data-connected="1"]')
        links.wait_for(state="visible")
        page.click('[data-testid="record-export"]')
        page.wait_for_url(re.compile(re.escape(record) + "#downloads$"))
        assert page.locator("#downloads a[download]").count() >= 1
        page.go_back()
        page.wait_for_selector('[data-testid="record-links"]:not([hidden])')
        page.click('[data-testid="record-replay"]')
        page.wait_for_url(re.compile(re.escape(record) + "$"))
        assert page.locator('[data-testid="result"]').is_visible()
        assert page.locator('#report [data-testid="report"]').count() == 1
    finally:
        ctx.close()


@pytest.mark.parametrize("lang, width", BOTH)
def test_a_spectator_of_a_finished_game_gets_the_record_links_without_the_report(browser, live_server_url, lang, width):
    room, x, o = _friend_room(X_FIVE)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, None, room)
        page.wait_for_selector('[data-testid="record-links"]:not([hidden])')
        game_id = room.current_game_id
        record = f"/van/{game_id}/" if lang == "vi" else f"/en/game/{game_id}/"
        assert page.get_attribute('[data-testid="record-replay"]', "href") == record
        assert page.locator('[data-testid="record-report"]').is_hidden()
    finally:
        ctx.close()
