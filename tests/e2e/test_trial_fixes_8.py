"""Real Chromium: fixes from the new-user trial of 2026-12-06 (trial-8). A finished game's record
links fit one row of 44 px buttons on a 360 px phone, the report one with the site's normal look;
a muted player's chat box is disabled with the reason, from the start and when the mute comes live.
Every wait is for a page state, never for a fixed time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from moderation import services as moderation
from tests.e2e.helpers import _context, _off_loop, _open
from tests.e2e.test_room_polish import X_FIVE, _friend_room, _play_now
from tests.integration.moderation_helpers import moderator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

PHONE = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 360, id="en-360")]
LINKS = ("record-replay", "record-export", "record-report")


@pytest.mark.parametrize("lang, width", PHONE)
def test_the_record_links_fit_one_row_of_44px_buttons_on_a_phone_and_report_looks_enabled(browser, live_server_url,
                                                                                             lang, width):
    room, x, o = _friend_room(X_FIVE[:-1])
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, x, room)
        _off_loop(_play_now, room.current_game_id, X_FIVE[-1:], x, o)
        page.locator('[data-testid="record-report"]').wait_for(state="visible")
        boxes = {name: page.locator(f'[data-testid="{name}"]').bounding_box() for name in LINKS}
        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-testid=\"record-export\"]')).lineHeight)"
                             " || 1.2 * parseFloat(getComputedStyle(document.querySelector('[data-testid=\"record-export\"]')).fontSize)")
        for name, box in boxes.items():
            assert box["height"] >= 44 and box["width"] >= 44, (name, box)
            assert box["height"] < 44 + line, (name, box, "the label wraps")  # one line of text each
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        assert len({round(b["y"]) for b in boxes.values()}) == 1, boxes  # one row
        look = "el => { const s = getComputedStyle(el); return [s.color, s.borderColor, s.backgroundColor, s.opacity]; }"
        assert page.eval_on_selector('[data-testid="record-report"]', look) == \
            page.eval_on_selector('[data-testid="record-export"]', look)
        page.locator('[data-testid="record-links"]').screenshot(path=f"/tmp/trial-fixes-8-record-links-{lang}-{width}.png")
    finally:
        ctx.close()


def _mute(user_id):
    moderation.mute(moderator(f"mod{user_id}"), User.objects.get(pk=user_id), until=timezone.now() + timedelta(hours=2),
                    reason="spam")


@pytest.mark.parametrize("lang, width", PHONE[:1] + [pytest.param("en", 1280, id="en-1280")])
def test_a_muted_player_s_chat_box_is_disabled_with_the_reason_before_they_write(browser, live_server_url, lang, width):
    says = {"vi": "Bạn không thể chat đến", "en": "You cannot chat until"}[lang]
    room, x, o = _friend_room()
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, x, room)
        box, note = page.locator('[data-testid="chat-input"]'), page.locator('[data-testid="chat-note"]')
        assert box.is_enabled()
        _off_loop(_mute, x.pk)  # live: the open page learns it through the socket
        page.wait_for_function("() => document.querySelector('[data-testid=\"chat-input\"]').disabled", timeout=15_000)
        assert says in note.inner_text() and "spam" in note.inner_text()
        assert page.locator('[data-testid="chat-send"]').is_disabled()
        page.reload()  # and from the start
        page.locator('[data-testid="chat-note"]').wait_for(state="visible")
        assert box.is_disabled() and says in note.inner_text()
    finally:
        ctx.close()
