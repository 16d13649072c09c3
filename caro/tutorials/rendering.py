"""Django side of guide rendering: translation, links between guides and the HTML cache."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext

from . import document, svg
from .markup import DiagramError
from .models import Guide, guide_url

log = logging.getLogger(__name__)

RENDERER_VERSION = "7"
"""Bump when the renderer's output changes, so every cached guide is drawn again."""

# Every fixed text the renderer can emit; their translations are part of the cache key.
_RENDERER_MSGIDS = (
    "%(side)s to move", "Black", "White", "Rules: %(rules)s", "Diagram: %(size)s by %(size)s board",
    "Part of a %(size)s by %(size)s board, columns %(c0)s to %(c1)s, rows %(r0)s to %(r1)s.",
    "A %(size)s by %(size)s board.", "Rules: %(rules)s.", "%(side)s: %(squares)s.", "%(side)s: none.",
    "Marker %(label)s on %(square)s.", "Highlighted: %(squares)s.", "Line drawn from %(a)s to %(b)s.",
    "Legal moves: %(squares)s.", "Table (scroll it sideways to see every column)", *document.RULES_NAMES.values(),
)


def url_map(language: str) -> dict[str, str]:
    """``{guide key: URL}`` of the published guides in ``language``."""
    rows = Guide.objects.filter(language=language, published=True).values_list("key", "slug")
    return {key: guide_url(language, slug) for key, slug in rows}


def render_key(language: str, body: str, urls: dict[str, str]) -> str:
    """SHA-256 over everything the HTML depends on: renderer version, language and its
    translations of the renderer texts, the body, and the URLs of the other guides."""
    with translation.override(language):
        texts = "\x1f".join(gettext(m) for m in _RENDERER_MSGIDS)
    links = "\x1f".join(f"{k}={v}" for k, v in sorted(urls.items()))
    data = "\x1e".join((RENDERER_VERSION, language, texts, links, body))
    return hashlib.sha256(data.encode()).hexdigest()


def render_body(body: str, language: str, urls: dict[str, str], check: bool) -> document.RenderedGuide:
    """Render a guide body in ``language`` (fixed texts translated). Raises DiagramError."""
    with translation.override(language):
        return document.render_guide(body, tr=gettext, guide_url=urls.get, check=check)


@dataclass
class Page:
    """What a guide page shows: ``html`` (safe), ``toc`` (list of ``[id, text]``) and
    ``error`` (a DiagramError when the stored body no longer renders; html is then empty)."""

    html: str
    toc: list
    error: DiagramError | None = None


def rendered(guide: Guide, urls: dict[str, str] | None = None) -> Page:
    """The guide's HTML and table of contents, from the cache when its key still matches,
    else rendered now (claims are not re-checked here: they are checked on save and by the
    tests) and stored. Never raises for bad markup: the error is returned instead."""
    urls = url_map(guide.language) if urls is None else urls
    key = render_key(guide.language, guide.body, urls)
    if guide.render_key == key and guide.html:
        return Page(guide.html, guide.toc)
    try:
        result = render_body(guide.body, guide.language, urls, check=False)
    except DiagramError as exc:
        log.warning("guide %s/%s does not render: %s", guide.language, guide.key, exc)
        return Page("", [], exc)
    toc = [list(item) for item in result.toc]
    Guide.objects.filter(pk=guide.pk).update(html=result.html, toc=toc, render_key=key)
    guide.html, guide.toc, guide.render_key = result.html, toc, key
    return Page(result.html, toc)


__all__ = ["RENDERER_VERSION", "url_map", "render_key", "render_body", "rendered", "Page", "svg"]
