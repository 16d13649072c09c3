"""axe-core (WCAG 2.0/2.1 A and AA, and best practices) over the main pages in real Chromium, at
phone (360 px, Vietnamese) and desktop (1280 px, English) size: no violation (issue 30, item 11).

axe-core comes with axe-playwright-python (pinned in pyproject.toml; its wheel bundles
`axe.min.js`, axe-core 4.12.1), injected into each page after it has loaded and its scripts have
run. The room page is checked whole, with what its scripts draw (board, clocks, players, move
list, controls): as a player sees a game in play, and as a spectator sees a finished game (with
its record links); the on-device pages (the computer, two players on one device) likewise.
"""

from __future__ import annotations

import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe

from accounts.guests import create_guest
from caro.games import services as games
from caro.rooms import services as rooms
from lobby import counts
from tests.e2e.helpers import _context, _login, _off_loop
from tests.integration.ranking.builders import account, won_by

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

BOTH = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
         "resultTypes": ["violations"]}


def _world():
    """A finished rated game between two accounts (profile, record), a live game and a lobby room."""
    winner, loser = account(display_name="Thắng"), account(display_name="Thua")
    finished = won_by(winner, loser)
    x, o = create_guest(), create_guest()
    live = rooms.create_room(x, watchable=True)
    rooms.join(live, o)
    games.play_move(live.current_game_id, x, "H8", 1, uuid.uuid4())
    rooms.create_room(create_guest(), listed=True)
    # A game the signed-in visitor plays (clocks running, their controls), and one that is over.
    mine = rooms.create_room(winner)
    rooms.join(mine, create_guest())
    games.play_move(mine.current_game_id, winner, "H8", 1, uuid.uuid4())
    over = rooms.create_room(x)
    rooms.join(over, o)
    games.play_move(over.current_game_id, x, "H8", 1, uuid.uuid4())
    games.play_move(over.current_game_id, o, "I9", 2, uuid.uuid4())
    games.resign(over.current_game_id, o)
    counts.recount()
    return {"winner": winner, "finished": finished, "live": live, "mine": mine, "over": over}


def _violations(page, context=None):
    results = Axe().run(page, context=context, options=RULES)
    return [(v["id"], v["impact"], [(n["target"], n.get("failureSummary", "")[:200]) for n in v["nodes"]][:3])
            for v in results.response["violations"]]


@pytest.mark.parametrize("lang, width", BOTH)
def test_axe_finds_no_violation_on_the_main_pages(browser, live_server_url, lang, width):
    world = _off_loop(_world)
    context = _context(browser, lang, width)
    try:
        _login(context, live_server_url, world["winner"])
        page = context.new_page()
        game_id = world["finished"].pk
        record = f"/van/{game_id}/" if lang == "vi" else f"/en/game/{game_id}/"
        pages = ["/", "/sanh/", "/xem/", "/match/", "/bang-xep-hang/", f"/nguoi-choi/{world['winner'].username}/",
                 record, "/van/cua-toi/" if lang == "vi" else "/en/game/mine/",
                 "/van/nhap/" if lang == "vi" else "/en/game/import/",
                 "/huong-dan/" if lang == "vi" else "/guides/",
                 "/huong-dan/cac-bo-luat/" if lang == "vi" else "/guides/rule-sets/"]
        found = {}
        for path in pages:
            page.goto(live_server_url + path)
            page.wait_for_load_state("networkidle")
            problems = _violations(page)
            if problems:
                found[path] = problems
        assert found == {}, "\n".join(f"{path}: {problems}" for path, problems in found.items())
    finally:
        context.close()


@pytest.mark.parametrize("lang, width", BOTH)
def test_axe_finds_no_violation_on_the_room_and_device_pages(browser, live_server_url, lang, width):
    """The game pages whole, with what their scripts draw (a test of their own: each axe run on a
    page this size takes seconds on a busy machine)."""
    world = _off_loop(_world)
    context = _context(browser, lang, width)
    try:
        _login(context, live_server_url, world["winner"])
        page = context.new_page()
        found = {}
        # Room pages whole: a spectator of a live game, a player of one, a spectator of a finished one.
        for name, room, ready in (("room (watching)", world["live"], '.room[data-connected="1"]'),
                                  ("room (playing)", world["mine"], '.sq[data-sq="H8"][data-stone]'),
                                  ("room (over)", world["over"], '[data-testid="record-links"]:not([hidden])')):
            page.goto(f"{live_server_url}/r/{room.code}/")
            page.wait_for_selector('.room[data-connected="1"]')
            page.wait_for_selector(ready)
            problems = _violations(page)
            if problems:
                found[name] = problems
        # The on-device pages, drawn by their script from the address.
        for path in ("/choi-may/?preset=caro-vn&level=easy&side=X", "/choi-hai-nguoi/?preset=caro-vn&size=19"):
            page.goto(live_server_url + path)
            page.wait_for_selector('.board .sq')
            page.wait_for_load_state("networkidle")
            problems = _violations(page)
            if problems:
                found[path] = problems
        assert found == {}, "\n".join(f"{path}: {problems}" for path, problems in found.items())
    finally:
        context.close()
