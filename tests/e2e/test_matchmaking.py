"""Real Chromium: quick match between guests over Daphne, Redis and PostgreSQL."""

import re

import pytest

from caro.games.models import Game
from tests.e2e.helpers import _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def _seek_from_home(page, live_server_url, wait=True):
    page.goto(live_server_url + "/")
    assert "Tìm ván nhanh" in page.inner_text('[data-testid="quick-match"]')
    assert "Đổi" in page.inner_text('[data-testid="quick-change"]')
    page.click('[data-testid="quick-match"]')
    if wait:  # (the second player is paired at once and may already be on the way to the game)
        page.wait_for_selector('[data-testid="seeking"]:not([hidden])')


def test_two_guests_with_the_same_rules_meet_and_a_third_with_other_rules_does_not(browser, live_server_url):
    contexts = [browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740}) for _ in range(3)]
    try:
        a, b, c = (ctx.new_page() for ctx in contexts)
        # c picks other rules (exact five) on the matchmaking page and waits.
        c.goto(live_server_url + "/match/")
        c.click('[data-testid="quick-change"]')
        c.check('input[name="exact"]')
        c.click('[data-testid="choice-apply"]')
        assert "đúng năm" in c.inner_text('[data-testid="quick-rules"]').lower()
        c.click('[data-testid="quick-match"]')
        c.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        # a and b take the default rules from the home page.
        _seek_from_home(a, live_server_url)
        _seek_from_home(b, live_server_url, wait=False)
        a.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=15_000)
        b.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=15_000)
        assert a.url == b.url
        a.wait_for_selector('.room[data-connected="1"]')
        b.wait_for_selector('.room[data-connected="1"]')
        # c is still waiting, on its own page, with no game.
        assert "/match/" in c.url
        assert c.is_visible('[data-testid="seeking"]')
        c.click('[data-testid="cancel-seek"]')
        c.wait_for_selector('[data-testid="seeking"]', state="hidden")
        games = _off_loop(lambda: list(Game.objects.values_list("host_id", "guest_id", "rules")))
        assert len(games) == 1 and games[0][2]["exact"] is False
    finally:
        for ctx in contexts:
            ctx.close()
