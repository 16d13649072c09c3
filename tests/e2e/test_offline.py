"""Real Chromium against a production-like server (DEBUG off, collected static files with a manifest;
tests/e2e/offline_site.py): the service worker keeps the site after one visit, answers offline
from its caches or with the offline page in the visitor's language, a deploy replaces what it
kept, and the site passes Chromium's installability checks. Vietnamese and English, 360 and 1280 px.
Screenshots go to test-results/offline/."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from django.urls import NoReverseMatch, reverse
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import CHROMIUM_ARGS, chromium_path
from tests.e2e.helpers import _context, _off_loop
from tests.e2e.offline_site import PROBE, offline_site  # noqa: F401 - the fixture

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "offline"
TIMEOUT = 60_000
OFFLINE = {
    "vi": "Trang này cần kết nối mạng",
    "en": "This page needs an internet connection",
}
#: Everything the worker keeps, as {cache name: [request URLs]}.
CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}"""


@pytest.fixture
def seeded():
    from caro.tutorials.loader import sync_guides

    sync_guides()


def _guides() -> dict[str, list[str]]:
    from caro.tutorials.models import Guide

    out = {"vi": [], "en": []}
    for guide in Guide.objects.filter(published=True).order_by("order"):
        out[guide.language].append(guide.get_absolute_url())
    return out


def _play_computer_url() -> str | None:
    try:
        return reverse("play_computer")
    except NoReverseMatch:
        return None


def _controlled(page, url: str) -> None:
    """Open `url` and wait until the worker controls the page (it has kept everything by then:
    it takes control once installed and activated)."""
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT)


def _cached(page) -> dict[str, list[str]]:
    return page.evaluate(CACHED)


def _wait_true(page, script: str, timeout_s: float = TIMEOUT / 1000) -> None:
    """Poll an async browser function until it resolves truthy (wait_for_function does not wait
    for a promise's value), through reloads of the page."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if page.evaluate(script):
                return
        except PlaywrightError as exc:  # the page reloaded meanwhile ("My games" does once records are sent)
            if "context was destroyed" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s} s: {script}")
        time.sleep(0.2)


def _offline_sentence(page) -> str:
    return page.inner_text('[data-testid="offline-sentence"]')


def _room_code() -> str:
    from accounts.guests import create_guest
    from caro.rooms import services as rooms

    return _off_loop(lambda: rooms.create_room(create_guest()).code)


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_after_one_visit_the_site_works_offline(browser, offline_site, seeded, lang, width):
    url = offline_site.url
    code = _room_code()
    guides = _guides()
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        _controlled(page, url + "/")
        cached = _cached(page)
        names = sorted(cached)
        version = re.fullmatch(r"caro-static-([0-9a-f]{16})", names[-1] if names[-1].startswith("caro-static") else
                               next(n for n in names if n.startswith("caro-static"))).group(1)
        assert f"caro-pages-{lang}-{version}" in cached
        static = cached[f"caro-static-{version}"]
        kept_pages = cached[f"caro-pages-{lang}-{version}"]
        assert {"/", "/jsi18n/", "/ngoai-tuyen/"} <= set(kept_pages)
        play = _play_computer_url()
        if play:
            assert play in kept_pages
        assert any(re.fullmatch(r"/static/js/records-queue\.[0-9a-f]{12}\.js", p) for p in static)
        assert any(re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", p) for p in static)
        for folder in ("engine", "computer"):
            mine = sorted((Path(__file__).resolve().parents[2] / "static" / "js" / folder).rglob("*.js"))
            assert len([p for p in static if p.startswith(f"/static/js/{folder}/")]) == len(mine)
        fixed = set(cached[f"caro-pages-{version}"])
        assert set(guides["vi"] + guides["en"] + ["/huong-dan/", "/guides/"]) <= fixed

        # The room online: it needs the server, so nothing of it is kept.
        page.goto(f"{url}/r/{code}/")
        page.wait_for_selector(".room")

        ctx.set_offline(True)
        page.goto(url + "/")
        assert page.locator(".entry-points").count() == 1
        assert page.get_attribute("html", "lang") == lang
        page.goto(url + guides[lang][0])
        assert page.locator('[data-testid="guide"]').count() == 1
        other = "en" if lang == "vi" else "vi"
        page.goto(url + guides[other][1])
        assert page.get_attribute("html", "lang") == other
        if play:
            # The play page and every module it loads (the engine, the computer's worker) come
            # from the cache: nothing fails, no script error.
            failed, errors = [], []
            page.on("requestfailed", lambda r: failed.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}{play}?preset=caro-vn&level=easy&side=X")
            page.locator('[data-testid="device-game"]').wait_for()
            page.wait_for_load_state("networkidle")
            assert failed == [] and errors == []
            assert page.locator('[data-testid="offline-sentence"]').count() == 0

        for path in (f"/r/{code}/", "/match/", "/bang-xep-hang/", "/nguoi-choi/nobody/", "/van/1/", "/admin/"):
            page.goto(url + path)
            assert _offline_sentence(page).startswith(OFFLINE[lang]), path
            assert page.get_attribute("html", "lang") == lang
            links = page.locator('[data-testid="offline-sentence"] a')
            assert links.count() == 3
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"offline-page-{lang}-{width}.png"))
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    finally:
        ctx.close()


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_offline_the_server_forms_say_they_need_a_connection(browser, offline_site, seeded, lang, width):
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        _controlled(page, offline_site.url + "/")
        ctx.set_offline(True)
        page.reload()
        status = page.locator('[data-offline-line="status"]')
        status.wait_for()
        assert status.get_attribute("role") == "status"
        assert status.inner_text().startswith({"vi": "Bạn đang ngoại tuyến", "en": "You are offline"}[lang])
        page.click('[data-testid="create-room"]')
        refused = page.locator('[data-offline-line="refused"]')
        refused.wait_for()
        assert refused.get_attribute("role") == "alert"
        assert refused.inner_text().startswith({"vi": "Việc này cần kết nối mạng", "en": "This needs an internet connection"}[lang])
        assert page.url == offline_site.url + "/"  # not sent into the void: still the home page
        box = refused.bounding_box()  # in view, beside the button that was pressed
        assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"home-offline-{lang}-{width}.png"))
        # Back online, the lines go away and the form works again.
        ctx.set_offline(False)
        page.wait_for_function("document.querySelector('[data-offline-line=status]').hidden")
        assert page.locator('[data-offline-line="refused"]').is_hidden()
    finally:
        ctx.close()


@pytest.mark.parametrize("start, switch, width", [("vi", "en", 360), ("en", "vi", 1280)])
def test_the_kept_pages_follow_the_visitors_language(browser, offline_site, seeded, start, switch, width):
    """A language switch (on the home page, or on a guide, which opens the guide in the other
    language) makes the worker fetch the visitor-language pages again in the new language."""
    url = offline_site.url
    ctx = _context(browser, start, width)
    try:
        page = ctx.new_page()
        _controlled(page, url + "/")
        if width < 600:
            page.click(f'[data-testid="lang-{switch}"]')
        else:  # from a guide in the first language: the switch opens the same guide in the other
            page.goto(url + _guides()[start][0])
            page.click(f'[data-testid="lang-{switch}"]')
        page.wait_for_function(f"document.documentElement.lang === '{switch}'")
        # the pages come again in the new language (their Content-Language) and its cache has them all
        _wait_true(page, f"""async () => {{
          const names = (await caches.keys()).filter((n) => n.startsWith('caro-pages-{switch}-'));
          if (!names.length) return false;
          const cache = await caches.open(names[0]);
          const kept = await Promise.all(['/', '/jsi18n/', '/ngoai-tuyen/'].map((p) => cache.match(p)));
          return kept.every((r) => r && r.headers.get('Content-Language') === '{switch}');
        }}""")
        ctx.set_offline(True)
        page.goto(url + "/")
        assert page.get_attribute("html", "lang") == switch
        page.goto(url + "/match/")
        assert _offline_sentence(page).startswith(OFFLINE[switch])
        catalogue = page.evaluate("fetch('/jsi18n/').then((r) => r.text())")
        # the Vietnamese catalogue holds the translations; the English one has none to hold
        assert ('"Waiting to be sent"' in catalogue) == (switch == "vi")
    finally:
        ctx.close()


def test_after_a_log_in_the_kept_pages_are_the_accounts(browser, offline_site, seeded):
    """A log-in rotates the CSRF cookie (Django's rotate_token): the pages tell the worker, which
    fetches the visitor-language pages again, so offline they show the account and carry form
    tokens that the server still accepts once back online."""
    import secrets

    from accounts.models import User
    from tests.e2e.helpers import _login

    url = offline_site.url
    user = _off_loop(lambda: User.objects.create_user("offline_lan", email="lan@example.com", password="x-Very-long-9"))
    ctx = _context(browser, "vi", 360)
    try:
        page = ctx.new_page()
        _controlled(page, url + "/")
        assert "offline_lan" not in page.inner_text(".site-header")
        _login(ctx, url, user)  # the session of a log-in, and the cookie it rotates
        ctx.add_cookies([{"name": "csrftoken", "value": secrets.token_urlsafe(24)[:32], "url": url}])
        page.goto(url + _guides()["vi"][0])
        assert "offline_lan" in page.inner_text(".site-header")
        _wait_true(page, """async () => {
          const names = (await caches.keys()).filter((n) => n.startsWith('caro-pages-vi-'));
          const home = names.length && await (await caches.open(names[0])).match('/');
          return Boolean(home) && (await home.text()).includes('offline_lan');
        }""")
        ctx.set_offline(True)
        page.goto(url + "/")
        assert "offline_lan" in page.inner_text(".site-header")
        token = page.get_attribute('form[action="/rooms/new"] input[name=csrfmiddlewaretoken]', "value")
        ctx.set_offline(False)
        # the kept form's token goes with the cookie the browser holds now: the server takes it
        response = page.request.post(url + "/rooms/new", form={"csrfmiddlewaretoken": token},
                                     headers={"Referer": url + "/"}, max_redirects=0)
        assert response.status != 403
    finally:
        ctx.close()


def test_the_site_is_installable(browser, offline_site, seeded, tmp_path):
    # A profile on disk: Chromium installs nothing from an incognito context (Playwright's default).
    ctx = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=chromium_path(), args=CHROMIUM_ARGS, locale="vi-VN",
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        _controlled(page, offline_site.url + "/")
        cdp = ctx.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == offline_site.url + "/manifest.webmanifest"
        assert manifest["errors"] == []
        data = json.loads(manifest["data"])
        assert data["name"] == "Caro trực tuyến" and data["lang"] == "vi" and data["display"] == "standalone"
        for icon in data["icons"]:
            response = page.request.get(offline_site.url + icon["src"])
            assert response.status == 200 and response.headers["content-type"] == "image/png"
        touch = page.get_attribute('link[rel="apple-touch-icon"]', "href")
        assert page.request.get(offline_site.url + touch).status == 200
        assert page.get_attribute('meta[name="theme-color"]', "content") == data["theme_color"]
    finally:
        ctx.close()


PROBE_TEXT = f"fetch('/static/{PROBE}').then((r) => r.text())"


def _versions(page) -> set[str]:
    return {name.rsplit("-", 1)[1] for name in _cached(page) if name.startswith("caro-static-")}


def test_a_deploy_replaces_the_kept_files_and_the_old_caches_go(browser, offline_site, seeded):
    url = offline_site.url
    ctx = _context(browser, "vi", 1280)
    try:
        page = ctx.new_page()
        _controlled(page, url + "/")
        deploy = offline_site.deploys
        assert page.evaluate(PROBE_TEXT) == f"export const DEPLOY = {deploy};\n"
        [old] = _versions(page)
        old_probe = next(p for p in _cached(page)[f"caro-static-{old}"] if p.startswith("/static/offline-probe/"))

        assert offline_site.deploy() == deploy + 1
        page.reload()
        page.reload()
        _wait_true(page, f"""async () => {{
          const names = await caches.keys();
          return !names.some((n) => n.endsWith('-{old}')) && names.some((n) => n.startsWith('caro-static-'));
        }}""")
        [new] = _versions(page)
        assert new != old
        assert not any(name.endswith(old) for name in _cached(page))
        page.reload()
        assert page.evaluate(PROBE_TEXT) == f"export const DEPLOY = {deploy + 1};\n"

        # Offline, the new file comes from the new cache; a page of before the deploy that asks for
        # the old hashed name, not in the browser's HTTP cache any more, gets the new file.
        ctx.set_offline(True)
        page.reload()
        assert page.evaluate(PROBE_TEXT) == f"export const DEPLOY = {deploy + 1};\n"
        old_text = page.evaluate(f"fetch('{old_probe}', {{cache: 'no-store'}}).then((r) => r.text())")
        assert old_text == f"export const DEPLOY = {deploy + 1};\n"
    finally:
        ctx.close()


# --- The records queue (static/js/records-queue.js) on "My games" -------------------------------

WIN_ROW = ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"]
QUEUE = "import('/static/js/records-queue.js')"


def _record(**changes) -> dict:
    """A finished one-device caro game as the play pages hand it to the queue (CONTRACTS.md §4)."""
    import uuid

    from caro.engine.caro import PRESETS

    now = int(time.time() * 1000)
    record = {"id": str(uuid.uuid4()), "mode": "local", "game": "caro", "preset": "caro-vn",
              "rules": PRESETS["caro-vn"].rules.to_dict(), "opening": None, "moves": WIN_ROW, "start_moves": 0,
              "result": {"winner": "X", "termination": "five"}, "started_at": now - 60_000, "finished_at": now}
    return record | changes


def _my_games(lang: str) -> str:
    return reverse(f"records:mine_{lang}")


def _upload_exists() -> bool:
    try:
        reverse("local_game_upload")
        return True
    except NoReverseMatch:
        return False


def _pending(page) -> list[dict]:
    return page.evaluate(f"{QUEUE}.then((q) => q.pending())")


def _enqueue(page, record: dict) -> bool:
    """Hand `record` to the page's records queue, as a play page does when a game ends."""
    return page.evaluate(f"(r) => {QUEUE}.then((q) => q.enqueue(r))", record)


def _my_games_page(ctx, url: str, lang: str, install: bool = True):
    """A new tab on "My games" (after the home page, once the worker controls it, when `install`)."""
    page = ctx.new_page()
    if install:
        _controlled(page, url + "/")
    page.goto(url + _my_games(lang))
    return page


def _count_uploads(page, posts: list) -> None:
    page.on("request", lambda r: posts.append(r) if r.method == "POST" and "/api/local-games/" in r.url else None)


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_a_record_the_server_does_not_take_now_waits_and_my_games_says_so(browser, offline_site, seeded, lang, width):
    """Finished offline, a game waits in IndexedDB and "My games" lists it as waiting. Back online,
    an answer that is not the server's yes or its refusal of the record (here 403: the page lost
    its CSRF cookie) leaves it waiting; it is never dropped."""
    url = offline_site.url
    ctx = _context(browser, lang, width)
    try:
        page = _my_games_page(ctx, url, lang)
        ctx.set_offline(True)
        record = _record()
        assert _enqueue(page, record) is True
        row = page.locator(f'[data-testid="records-pending"] li[data-record-id="{record["id"]}"]')
        row.wait_for()
        assert row.get_attribute("data-state") == "waiting"
        words = {"vi": ("Hai người trên một máy", "Đang chờ gửi", "X thắng"),
                 "en": ("Two players on one device", "Waiting to be sent", "X won")}[lang]
        text = row.inner_text()
        assert all(word in text for word in words), text
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"my-games-waiting-{lang}-{width}.png"), full_page=True)

        ctx.clear_cookies()  # no CSRF cookie: the server answers 403
        posts = []
        _count_uploads(page, posts)
        ctx.set_offline(False)
        _wait_true(page, f"{QUEUE}.then((q) => q.pending()).then((p) => p.length === 1 && p[0].lastStatus >= 400)")
        [entry] = _pending(page)
        assert entry["state"] == "waiting" and entry["id"] == record["id"] and entry["attempts"] == 1
        assert len(posts) == 1
        assert posts[0].headers["content-type"] == "application/json"
        assert json.loads(posts[0].post_data)["id"] == record["id"]
        assert row.get_attribute("data-state") == "waiting"
    finally:
        ctx.close()


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_a_record_finished_offline_is_sent_once_and_shows_once_in_my_games(browser, offline_site, seeded, lang, width):
    """Two tabs of "My games" are open when the network comes back: the record is POSTed once, the
    server stores it once, and it shows once in the list. A forged record is refused with the
    server's translated reason, kept aside, and removed only by the player."""
    if not _upload_exists():
        pytest.skip("POST /api/local-games/ (the records-server branch) is not merged into this branch yet")
    from caro.games.models import Game

    url = offline_site.url
    ctx = _context(browser, lang, width)
    try:
        first = _my_games_page(ctx, url, lang)
        second = _my_games_page(ctx, url, lang, install=False)
        posts = []
        for page in (first, second):
            _count_uploads(page, posts)
        ctx.set_offline(True)
        good, forged = _record(), _record(moves=["H8", "H8"])
        _enqueue(first, good)
        _enqueue(first, forged)
        second.locator(f'li[data-record-id="{good["id"]}"]').wait_for()  # the other tab heard of it

        ctx.set_offline(False)
        _wait_true(first, f"{QUEUE}.then((q) => q.pending()).then((p) => p.length === 1 && p[0].state === 'refused')")
        time.sleep(1)  # any second send would have been made by now
        # each record once, from either tab
        assert sorted(json.loads(p.post_data)["id"] for p in posts) == sorted([good["id"], forged["id"]])
        assert Game.objects.count() == 1
        for page in (first, second):
            page.goto(url + _my_games(lang))
            listed = page.locator('[data-testid="my-games"] li')
            assert listed.count() == 1
            refused = page.locator(f'li[data-record-id="{forged["id"]}"]')
            refused.wait_for()
            assert refused.get_attribute("data-state") == "refused"
            assert {"vi": "Máy chủ từ chối", "en": "Refused by the server"}[lang] in refused.inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        first.screenshot(path=str(SHOTS / f"my-games-sent-{lang}-{width}.png"), full_page=True)
        first.locator(f'li[data-record-id="{forged["id"]}"] button').click()
        _wait_true(first, f"{QUEUE}.then((q) => q.pending()).then((p) => p.length === 0)")
        assert first.locator('[data-testid="records-pending"]').is_hidden()
    finally:
        ctx.close()


# ------------------------------------------------------------------ the home page's live parts offline

#: Counts every live socket the page makes (the featured game's, the lobby's), before its scripts run.
COUNT_LIVE_SOCKETS = """
window.__liveSockets = 0;
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  constructor(url, protocols) { super(url, protocols); if (String(url).includes('/ws/live/')) window.__liveSockets += 1; }
};
"""
NOT_LIVE = {"vi": "Không cập nhật trực tiếp: đang mất kết nối", "en": "Not live: no connection."}


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_offline_the_home_page_says_its_counts_are_not_live_and_its_live_socket_waits_for_the_network(
        browser, offline_site, seeded, lang, width):
    """The counts of who is here and the featured game, once the device is offline: the counts are
    marked as not live with a line saying so (at once, and on the worker's copy of the page), the
    featured game's socket is dropped and not tried again while offline (a minute of the page's
    clock: no socket, no poll of the counts), and both come back live with the network."""
    url = offline_site.url
    ctx = _context(browser, lang, width)
    ctx.add_init_script(COUNT_LIVE_SOCKETS)
    try:
        page = ctx.new_page()
        _controlled(page, url + "/")
        page.wait_for_selector('[data-featured][data-connected="1"]', timeout=TIMEOUT)
        hint = page.locator('[data-testid="counts-stale"]')
        assert hint.is_hidden() and page.get_attribute("#live-counts", "data-stale") is None
        ctx.set_offline(True)
        page.wait_for_selector('#live-counts[data-stale="1"]')
        assert hint.is_visible() and hint.inner_text().startswith(NOT_LIVE[lang])
        page.wait_for_selector('[data-featured]:not([data-connected="1"])')

        page.reload()  # the worker's copy of the home page: its counts are from the last visit
        page.wait_for_selector('#live-counts[data-stale="1"]')
        assert hint.is_visible()
        polls = []
        page.on("request", lambda r: polls.append(r.url) if "/song/" in r.url else None)
        page.clock.install()
        page.clock.run_for(60_000)  # a minute offline
        assert page.evaluate("window.__liveSockets") == 0, "a live socket was tried while offline"
        assert polls == [], "the counts were polled while offline"
        assert page.locator('[data-offline-line="refused"]').count() == 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"home-offline-counts-{lang}-{width}.png"))
        page.clock.resume()

        ctx.set_offline(False)  # the network is back: live again at once, without a reload
        page.wait_for_selector('[data-featured][data-connected="1"]', timeout=TIMEOUT)
        page.wait_for_selector('#live-counts:not([data-stale])', timeout=TIMEOUT)
        page.wait_for_selector('[data-testid="counts-stale"]', state="hidden", timeout=TIMEOUT)
        assert page.evaluate("window.__liveSockets") == 1 and polls
    finally:
        ctx.close()
