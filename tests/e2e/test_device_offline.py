"""Play on the device with no network (issue 26, acceptance): real Chromium against the production-like
server of the offline tests (tests/e2e/offline_site.py: DEBUG off, so the service worker is the real
one). The home page is visited once; then the network is cut (`context.set_offline(True)`), the home
page reloaded, and whole games are played from it: against the computer at each level, and two
players on one device, each reloaded mid-game (the game comes back from the browser's storage).
Offline, each finished game waits in the records queue; back online, both are sent once and show once
in "My games".

Parametrized so the suite stays short: each level once, and the languages x widths matrix spread over
the same four runs (Hard twice: it is the level whose search could block a page). Nothing waits on
wall-clock speed: every step waits on the page's state, with generous timeouts.
"""

from __future__ import annotations

import time
from urllib.parse import urlparse

import pytest
from django.urls import reverse

from caro.games.models import Game
from tests.e2e.helpers import _context, _off_loop
from tests.e2e.offline_site import offline_site  # noqa: F401 - the fixture
from tests.e2e.test_device_games import STONES, _one_tap, _result, _status
from tests.e2e.test_device_games import _my_turn_or_over as _device_turn_or_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

TIMEOUT = 60_000  # ms: the longest any one step may take on a loaded machine (none takes it)
SIZE = 11  # the smallest board the site offers: the shortest whole game
PLACED = "els => els.map(e => e.dataset.sq + e.dataset.stone).sort()"
QUEUE = "import('/static/js/records-queue.js')"
# The first and last columns, every other row first: the person's stones there never make a line
# of their own and never block the computer, which wins unopposed: a whole game, quickly.
FAR = ([f"{c}{r}" for c in ("A", "K") for r in range(1, SIZE + 1, 2)]
       + [f"{c}{r}" for c in ("A", "K") for r in range(2, SIZE, 2)])
# Two players on one device: X makes five on row 3 (O answers on row 5), in nine plies.
LOCAL_X = ["C3", "D3", "E3", "F3", "G3"]
LOCAL_O = ["C5", "D5", "E5", "F5"]
WORDS = {
    "vi": {"lost": "Bạn thua", "won_x": "X thắng", "computer": "Chơi với máy", "local": "Hai người trên một máy"},
    "en": {"lost": "You lost", "won_x": "X won", "computer": "Play the computer", "local": "Two players on one device"},
}


class Watch:
    """What the page asks of the network: the websockets the on-device pages open (the home page has
    its own: the lobby's live counts), and the records queue's POSTs (the ids they carry)."""

    def __init__(self, page):
        self.sockets: list[str] = []
        self.posts: list[str] = []
        page.on("websocket", lambda ws: self.sockets.append(ws.url)
                if urlparse(page.url).path in ("/choi-may/", "/choi-hai-nguoi/") else None)
        page.on("request", lambda r: self.posts.append(r.post_data_json["id"])
                if r.method == "POST" and "/api/local-games/" in r.url else None)


def _home_once_then_offline(ctx, url):
    """The one visit (the service worker takes control once it keeps the site), then no network and
    a reload: from here on the page and everything it loads come from the worker's caches."""
    page = ctx.new_page()
    watch = Watch(page)
    page.goto(url + "/")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT)
    ctx.set_offline(True)
    page.reload()
    page.locator(".entry-points").wait_for()
    page.locator('[data-offline-line="status"]').wait_for()  # the page knows it is offline
    return page, watch


def _choose_small_board(page):
    page.click(".rules-choice summary")
    page.select_option('[data-role="rules-form"] select[name="preset"]', "caro-vn")
    page.select_option('[data-role="rules-form"] select[name="size"]', str(SIZE))


def _ready(page):
    page.wait_for_selector('.room[data-connected="1"] .sq', timeout=TIMEOUT)
    _one_tap(page)


def _my_turn_or_over(page):
    _device_turn_or_over(page, timeout=TIMEOUT)


def _placed(page):
    return page.eval_on_selector_all('.sq:not([data-stone=""])', PLACED)


def _reload_keeps_the_game(page):
    """Reload (offline) at the person's turn: the same stones, the same move list, the same address
    (the game's id)."""
    before, moves, url = _placed(page), page.locator(".move-list .mv[data-sq]").count(), page.url
    assert "game=" in url
    page.reload()
    _ready(page)
    page.wait_for_function(f"{STONES} === {len(before)}", timeout=TIMEOUT)
    assert _placed(page) == before and page.url == url
    assert page.locator(".move-list .mv[data-sq]").count() == moves


def _reload_while_the_computer_may_think(page):
    """Reload (offline) right after the person's move: every stone comes back, and the computer's
    reply (made before the reload, or asked for again after it) comes."""
    before, url = _placed(page), page.url
    page.reload()
    _ready(page)
    page.wait_for_function(f"{STONES} >= {len(before)}", timeout=TIMEOUT)
    assert set(before) <= set(_placed(page)) and page.url == url
    _my_turn_or_over(page)
    assert len(_placed(page)) == len(before) + (len(before) % 2)  # the computer has answered


def _play_the_computer(page, lang, level):
    """From the home page: a whole game against `level` on the small board, the person as X playing
    the far squares, reloaded after the person's second move. Returns the plies played."""
    _choose_small_board(page)
    form = page.locator('form:has([data-testid="play-computer"])')
    form.locator('select[name="level"]').select_option(level)
    form.locator('select[name="side"]').select_option("X")
    page.click('[data-testid="play-computer"]')
    _ready(page)
    assert page.locator(".sq").count() == SIZE * SIZE
    made = 0
    for square in FAR:
        _my_turn_or_over(page)
        if _result(page):
            break
        if page.get_attribute(f'.sq[data-sq="{square}"]', "data-stone") != "":
            continue
        before = page.evaluate(STONES)
        page.click(f'.sq[data-sq="{square}"]')
        page.wait_for_function(f"{STONES} > {before}", timeout=TIMEOUT)
        made += 1
        if made == 2:
            _my_turn_or_over(page)
            if not _result(page):
                _reload_keeps_the_game(page)
        elif made == 3:
            _reload_while_the_computer_may_think(page)
    _my_turn_or_over(page)
    assert _result(page) == "finished", _status(page)
    assert WORDS[lang]["lost"] in _status(page)
    assert page.locator(".sq.win").count() >= 5  # caro-vn is not exact: Easy sometimes makes six
    plies = page.evaluate(STONES)
    assert plies == 2 * made  # the computer's five was the last move
    assert page.locator(".move-list .mv[data-sq]").count() == plies
    return plies


def _play_on_one_device(page, url, lang):
    """From the home page: a whole game between two players on this device, reloaded mid-game."""
    page.goto(url + "/")  # offline: the worker's copy
    page.click('[data-testid="play-local"]')
    _ready(page)
    for ply, square in enumerate([s for pair in zip(LOCAL_X, LOCAL_O) for s in pair] + LOCAL_X[-1:], start=1):
        page.click(f'.sq[data-sq="{square}"]')
        page.wait_for_selector(f'.sq[data-sq="{square}"]:not([data-stone=""])', timeout=TIMEOUT)
        if ply == 4:
            _reload_keeps_the_game(page)
    page.wait_for_selector('[data-role="status"][data-result="finished"]', timeout=TIMEOUT)
    assert WORDS[lang]["won_x"] in _status(page)
    assert sorted(page.eval_on_selector_all(".sq.win", "els => els.map(e => e.dataset.sq)")) == LOCAL_X


def _pending(page) -> list[dict]:
    return page.evaluate(f"{QUEUE}.then((q) => q.pending())")


def _wait_until(page, script: str, timeout_s: float = TIMEOUT / 1000) -> None:
    """Poll an async browser function until it resolves truthy (wait_for_function does not wait for
    a promise's value)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s} s: {script}")
        page.wait_for_timeout(200)


@pytest.mark.parametrize("level, lang, width", [
    pytest.param("easy", "vi", 360, id="easy-vi-360"),
    pytest.param("medium", "en", 360, id="medium-en-360"),
    pytest.param("hard", "en", 1280, id="hard-en-1280"),  # (Hard in Vietnamese too repeated this path)
])
def test_offline_whole_games_on_the_device_reach_my_games_once_back_online(browser, offline_site, level, lang, width):
    url = offline_site.url
    ctx = _context(browser, lang, width)
    try:
        page, watch = _home_once_then_offline(ctx, url)
        plies = _play_the_computer(page, lang, level)
        _play_on_one_device(page, url, lang)
        assert watch.sockets == [], watch.sockets
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0

        # Offline, both finished games wait in the browser, and nothing was sent.
        waiting = _pending(page)
        assert sorted(r["record"]["mode"] for r in waiting) == ["computer", "local"], waiting
        assert all(r["state"] == "waiting" for r in waiting) and watch.posts == []
        assert _off_loop(Game.objects.count) == 0

        # Back online: each is sent once and stored once.
        ctx.set_offline(False)
        _wait_until(page, f"{QUEUE}.then((q) => q.pending()).then((p) => p.length === 0)")
        page.wait_for_timeout(1000)  # a second send, if any, would have gone by now
        assert sorted(watch.posts) == sorted(r["id"] for r in waiting)
        stored = _off_loop(lambda: sorted(Game.objects.values_list("status", "ply", "bot_level")))
        assert stored == sorted([(Game.Status.FINISHED, plies, level), (Game.Status.FINISHED, 9, "")]), stored

        # "My games" lists both, once each; a reload sends nothing again.
        page.goto(url + reverse(f"records:mine_{lang}"))
        listed = page.locator('[data-testid="my-games"] li')
        assert listed.count() == 2, listed.all_inner_texts()
        page.reload()
        page.wait_for_timeout(1000)
        assert page.locator('[data-testid="my-games"] li').count() == 2
        assert len(watch.posts) == 2 and _off_loop(Game.objects.count) == 2
    finally:
        ctx.close()
