"""Shared steps of the browser tests: contexts at phone or desktop size, signing a user in, opening a
room page, and calling the game services from a thread of their own."""

from __future__ import annotations

import threading

from django.db import connections
from django.test import Client

LOCALES = {"vi": "vi-VN", "en": "en-US"}
HEIGHTS = {360: 740, 1280: 800}


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
