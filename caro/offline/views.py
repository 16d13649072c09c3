"""The service worker's script, the web app manifest and the offline page."""

from __future__ import annotations

import functools
import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_safe

from caro.offline import precache, webapp

#: The worker's parts, in the order /sw.js serves them (static names).
WORKER_PARTS = ("js/offline/sw-logic.js", "js/offline/sw.js")
#: What /sw.js serves while offline play is off: a worker that removes itself and its caches.
RETIRE_PART = "js/offline/sw-retire.js"
#: A kept page is answered from its copy when the network has not answered within this (ms): a
#: player on a dead connection that still looks up waits this long at most.
PAGE_TIMEOUT_MS = 6_000
#: The worker's script is checked on every use (ETag, 304 when unchanged): a deploy is seen at the
#: next navigation. Browsers check at least once a day whatever this says.
WORKER_CACHE_CONTROL = "no-cache"
#: The manifest changes only with a deploy; its icons have hashed names.
MANIFEST_MAX_AGE_S = 3600
#: The one sentence of the offline page (plain text, for the worker's last resort when not even
#: that page is kept). The page itself says it with links: templates/offline/offline.html.
OFFLINE_SENTENCE = gettext_noop("This page needs an internet connection; without one you can still play the "
                                "computer, play two players on one device or read the rules guides.")


def read_static(name: str) -> str:
    """The text of static file `name`: the collected copy when there is a static manifest (what
    the server serves), else the source the finders find."""
    storage = precache.manifest_storage()
    if storage is not None:
        with storage.open(name) as f:
            return f.read().decode("utf-8")
    path = finders.find(name)
    with open(path, encoding="utf-8") as f:
        return f.read()


@functools.lru_cache(maxsize=4)
def _worker_code(manifest_hash: str) -> str:
    return "\n".join(read_static(name) for name in WORKER_PARTS)


def worker_config(page_list: list[precache.Page]) -> dict:
    """`self.CARO_OFFLINE` of the worker: version, static files ({original: hashed}) under
    STATIC_URL, pages, the offline page's URL, the site languages (default first), the page
    deadline and the last-resort offline sentence per language."""
    storage = precache.manifest_storage()
    languages = [settings.LANGUAGE_CODE] + [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
    fallback = {}
    for code in languages:
        with translation.override(code):
            fallback[code] = gettext(OFFLINE_SENTENCE)
    config = {
        "static": {"url": settings.STATIC_URL, "files": precache.static_files(storage.manifest_hash)},
        "pages": [{"url": p.url, "visitor": p.visitor_language, "anyQuery": p.any_query} for p in page_list],
        "offline": reverse("offline"),
        "languages": languages,
        "defaultLanguage": settings.LANGUAGE_CODE,
        "pageTimeoutMs": PAGE_TIMEOUT_MS,
        "fallback": fallback,
    }
    rest = {k: v for k, v in config.items() if k not in ("static", "pages")}
    config["version"] = precache.version_of(storage.manifest_hash, page_list, json.dumps(rest, sort_keys=True))
    return config


def worker_script() -> str:
    """The text of /sw.js: the configuration, then the worker's parts; the retiring worker when
    offline play is off (CARO_SERVICE_WORKER=0, or static files without a manifest (DEBUG) or on
    another origin: precache.worker_enabled)."""
    if not precache.worker_enabled():
        return read_static(RETIRE_PART)
    storage = precache.manifest_storage()
    config = worker_config(precache.pages())
    return f"self.CARO_OFFLINE = {json.dumps(config, ensure_ascii=False)};\n" + _worker_code(storage.manifest_hash)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: the service worker (root scope), revalidated on every use (ETag)."""
    body = worker_script().encode("utf-8")
    etag = quote_etag(hashlib.sha256(body).hexdigest()[:32])
    response = get_conditional_response(request, etag=etag) or HttpResponse(
        body, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = WORKER_CACHE_CONTROL
    return response


@require_safe
def web_manifest(request: HttpRequest) -> HttpResponse:
    """/manifest.webmanifest: the web app manifest (caro.offline.webapp.manifest)."""
    response = JsonResponse(webapp.manifest(), content_type="application/manifest+json",
                            json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = f"max-age={MANIFEST_MAX_AGE_S}"
    return response


def _reverse(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """The page the worker answers with, offline, for a page that needs the server: one sentence
    in the visitor's language, with links to what works offline. Kept by the worker in each
    language the visitor reads; harmless online (it says the same)."""
    home = reverse("home")
    english = (translation.get_language() or "").startswith("en")
    context = {
        "computer_url": _reverse("play_computer") or home,
        "local_url": _reverse("play_local") or home,
        "guides_url": reverse("tutorials:index_en" if english else "tutorials:index_vi"),
    }
    response = render(request, "offline/offline.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response
