"""The whole page or one part of it: the choice every page with htmx links or tabs makes.

A page whose links, tabs or polling ask htmx to swap in one part answers such a request with that
part only; a visit without JavaScript, and htmx restoring the page from its history (it then asks
for the whole page, `HX-History-Restore-Request`), get the whole page. The lobby's pages, the
leaderboard and "My games" use it (docs/architecture.md, "Which package may import which": a leaf
below the apps, like the engine; it imports no site package).

    wants_part(request) -> bool
    render_page_or_part(request, page, part, context, parts_by_target=None) -> HttpResponse
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def wants_part(request: HttpRequest) -> bool:
    """Whether htmx asks for a part of the page (django-htmx's `request.htmx`): an htmx request
    that is not a history restore."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def render_page_or_part(request: HttpRequest, page: str, part: str, context: dict,
                        parts_by_target: Mapping[str, str] | None = None) -> HttpResponse:
    """Render template `page` (the whole page) or, when htmx asks for a part (`wants_part`),
    template `part`, or the one `parts_by_target` names for the request's `HX-Target` (the id of
    the element htmx swaps). `context` gets `partial` (True for a part). The answer varies on
    `HX-Request` (and on `HX-Target` when `parts_by_target` is given), so no cache hands a part to
    a visit or the whole page to htmx."""
    partial = wants_part(request)
    context["partial"] = partial
    template = page
    if partial:
        template = (parts_by_target or {}).get(request.htmx.target, part)
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"] if parts_by_target else ["HX-Request"])
    return response
