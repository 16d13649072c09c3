"""Shared steps of the browser tests: contexts at phone or desktop size, signing a user in, opening a
room page, calling the game services from a thread of their own, and a long game's moves."""

from __future__ import annotations

import threading

from django.db import connections
from django.test import Client

from caro.engine.caro import PRESETS, Board

LOCALES = {"vi": "vi-VN", "en": "en-US"}
HEIGHTS = {360: 740, 1280: 800}


def _long_game(n=121, size=15):
    """A long caro game: `n` moves on a `size` board that never make three in a row: colour ((col + 2·row) // 2) % 2."""
    cells = [(c, r) for r in range(size) for c in range(size)]
    xs = [f"{chr(65 + c)}{r + 1}" for c, r in cells if (c + 2 * r) // 2 % 2 == 0]
    os = [f"{chr(65 + c)}{r + 1}" for c, r in cells if (c + 2 * r) // 2 % 2 == 1]
    order = [(xs if i % 2 == 0 else os)[i // 2] for i in range(n)]
    board = Board(PRESETS["caro-vn"].rules)
    assert all(board.play(sq) is None for sq in order)
    return order


def _context(browser, lang, width):
    phone = width < 600
    return browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": HEIGHTS[width]},
                               device_scale_factor=1, has_touch=phone, is_mobile=phone)


def _login(context, live_server_url, user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}])


def _open(context, live_server_url, user, room, one_tap=True):
    """The room page as `user` (None: an anonymous visitor), connected."""
    if user is not None:
        _login(context, live_server_url, user)
    page = context.new_page()
    page.goto(f"{live_server_url}/r/{room.code}/")
    page.wait_for_selector('.room[data-connected="1"]')
    if one_tap:
        toggle = page.locator('[data-role="confirm-toggle"]')
        if toggle.is_visible():
            toggle.set_checked(False)
        else:  # a spectator's switch is hidden: turn it off as they would once seated
            toggle.evaluate("t => { t.checked = false; t.dispatchEvent(new Event('change')); }")
    return page


def _off_loop(fn, *args, **kwargs):
    """Run `fn` in a short-lived thread: Playwright's event loop runs in this one, and the services'
    after-commit broadcasts (async_to_sync) refuse to run beside it. Returns fn's result."""
    out = {}

    def run():
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            out["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]
