"""What the service worker keeps, and the version its caches are named by.

Nothing here is a hand-made list of files. The static part comes from the collected static files'
manifest (whitenoise's ``CompressedManifestStaticFilesStorage``, ``staticfiles.json``: original
name -> hashed name) and holds

- every file of our own (found by the static finders in ``STATICFILES_DIRS`` or in a site app's
  ``static/`` folder, not in an installed library), so a new module under ``static/js/`` is
  kept without anyone editing a list, and
- every static file the base layout loads (``templates/base.html`` rendered once: htmx, the site
  style sheet, the icons), which may come from a library (django-htmx).

The pages are the ones that work without the server (the home page, the on-device play pages of
CONTRACTS.md section 3, the JavaScript catalogue, the offline page, the manifest) and every
published rules guide in both languages.

The version is a hash of the manifest's own hash (Django's ``manifest_hash``: it changes whenever
any collected file's content does) and of the page list, so a deploy that changes a file, or adds
a guide, gives the worker new bytes and new cache names.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse

#: Templates whose static files make the site's shell (rendered once per manifest to find them).
SHELL_TEMPLATE = "base.html"
#: Length of the version string (hex digits of a SHA-256).
VERSION_LENGTH = 16
#: Site URL names of pages rendered in the visitor's language (cookie, then Accept-Language), and
#: whether one cached copy serves every query string (the on-device play pages: CONTRACTS.md §3).
VISITOR_PAGES = (
    ("home", False),
    ("play_computer", True),
    ("play_local", True),
    ("javascript-catalog", False),
    ("offline", False),
)
#: Pages whose URL fixes their language (or that have none).
FIXED_PAGES = ("web_manifest", "tutorials:index_vi", "tutorials:index_en")
#: Collectstatic's default ignore patterns (files the finders list but collectstatic skips).
IGNORE_PATTERNS = ["CVS", ".*", "*~"]


@dataclass(frozen=True)
class Page:
    """A page the worker keeps: ``url`` (a path), ``visitor_language`` (True when the server renders
    it in the visitor's language, so the worker keeps one copy per language), ``any_query`` (True
    when one copy serves the page for every query string)."""

    url: str
    visitor_language: bool
    any_query: bool = False


def manifest_storage() -> ManifestFilesMixin | None:
    """The static files storage when it keeps a manifest of hashed names (DEBUG off), else None."""
    # staticfiles_storage is a LazyObject: isinstance sees the configured storage's class.
    return staticfiles_storage if isinstance(staticfiles_storage, ManifestFilesMixin) else None


def is_library_path(path: Path) -> bool:
    """True for a file of an installed library (anything under a ``site-packages`` or
    ``dist-packages`` folder, or outside the project's folder)."""
    path = path.resolve()
    if any(part in ("site-packages", "dist-packages") for part in path.parts):
        return True
    return not path.is_relative_to(Path(settings.BASE_DIR).resolve())


def own_static_names() -> set[str]:
    """Names (as collected, e.g. ``js/room.js``) of the static files of our own: every file of
    ``STATICFILES_DIRS``, and those the other finders (the apps' ``static/`` folders) find in a
    folder of the project rather than of an installed library."""
    names = set()
    for finder in finders.get_finders():
        ours = isinstance(finder, finders.FileSystemFinder)
        for name, storage in finder.list(IGNORE_PATTERNS):
            if ours or not is_library_path(Path(storage.path(name))):
                prefix = getattr(storage, "prefix", None)
                names.add(f"{prefix}/{name}" if prefix else name)
    return names


def layout_static_paths() -> set[str]:
    """The static URLs (paths under STATIC_URL, as the page asks for them: hashed names) that the
    base layout loads, found by rendering it for an anonymous visitor."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = "/"
    request.META.update({"SERVER_NAME": "localhost", "SERVER_PORT": "80"})
    request.user = AnonymousUser()
    html = render_to_string(SHELL_TEMPLATE, {}, request=request)
    return static_paths_in(html, settings.STATIC_URL)


def static_paths_in(html: str, static_url: str) -> set[str]:
    """The static file names (without ``static_url``) in the ``src``/``href`` attributes of
    ``html``; the query string, if any, dropped."""
    pattern = re.compile(r'(?:src|href)="' + re.escape(static_url) + r'([^"?#]+)')
    return set(pattern.findall(html))


def select_static(hashed_files: dict[str, str], own: set[str], layout: set[str]) -> dict[str, str]:
    """The files to keep, {original name: hashed name}: the manifest's entries for our own files
    and for the layout's (given by original or by hashed name). Files missing from the manifest
    (not collected) are left out: the server could not serve them either."""
    by_hashed = {hashed: original for original, hashed in hashed_files.items()}
    wanted = set(own) | {by_hashed.get(name, name) for name in layout}
    return {name: hashed_files[name] for name in sorted(wanted) if name in hashed_files}


@functools.lru_cache(maxsize=4)
def static_files(manifest_hash: str) -> dict[str, str]:
    """`select_static` for the loaded manifest (cached per manifest: one per deploy and process)."""
    storage = manifest_storage()
    return select_static(dict(storage.hashed_files), own_static_names(), layout_static_paths())


def _reverse(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def pages() -> list[Page]:
    """The pages to keep, in this order: the visitor-language pages (URL names that do not exist
    are left out), then the fixed ones and every published guide in every language."""
    from caro.tutorials.models import Guide

    found = [Page(url, True, any_query) for name, any_query in VISITOR_PAGES if (url := _reverse(name))]
    found += [Page(url, False) for name in FIXED_PAGES if (url := _reverse(name))]
    guides = Guide.objects.filter(published=True).order_by("language", "order", "slug").only("language", "slug")
    found += [Page(guide.get_absolute_url(), False) for guide in guides]
    return found


def version_of(manifest_hash: str, page_list: list[Page], code: str = "") -> str:
    """The caches' version: a hash of the static manifest's hash, the page list and ``code`` (the
    worker's own script text, which is also in the manifest, and any other input of its bytes)."""
    payload = json.dumps({"static": manifest_hash, "pages": [asdict(p) for p in page_list], "code": code},
                         sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:VERSION_LENGTH]


def worker_enabled() -> bool:
    """Whether /sw.js serves the real worker: CARO_SERVICE_WORKER on, a static manifest to take
    the version and the hashed names from (DEBUG has none: there the site works without it), and
    static files on the site's own origin (a STATIC_URL path: a worker keeps only its origin's)."""
    same_origin = settings.STATIC_URL.startswith("/") and not settings.STATIC_URL.startswith("//")
    return bool(settings.CARO_SERVICE_WORKER) and same_origin and manifest_storage() is not None
