"""Guide pages. The URL fixes the guide's language, and the whole page (the site's frame too) is
shown in it, so the interface and the guide always agree; the language switch on a guide opens
the same guide in the other language (the guide list when it has no translation)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_safe

from .document import play_url
from .models import Guide, guide_url, index_url
from .rendering import rendered


def _other_languages(language: str) -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != language]


def _render_in(request: HttpRequest, language: str, template: str, context: dict,
               language_urls: dict[str, str]) -> HttpResponse:
    """Render the page entirely in `language`; the language switch goes to `language_urls`."""
    urls = [(code, language_urls.get(code) or index_url(code)) for code, _name in settings.LANGUAGES]
    with translation.override(language):
        response = render(request, template, context | {"language_urls": urls})
    response.headers["Content-Language"] = language
    return response


@require_safe
def index(request: HttpRequest, language: str) -> HttpResponse:
    """The list of guides in ``language``, with a link to the list in the other language."""
    guides = Guide.objects.filter(language=language, published=True).only(
        "key", "language", "slug", "title", "summary", "order")
    others = [(code, index_url(code)) for code in _other_languages(language)]
    return _render_in(request, language, "tutorials/index.html",
                      {"guides": guides, "language": language, "others": others}, dict(others))


@require_safe
def guide(request: HttpRequest, language: str, slug: str) -> HttpResponse:
    """One guide: title, table of contents, body with diagrams, "play now", links to the
    other guides and to the same guide in the other language. 404 for unknown or unpublished
    guides (staff may see unpublished ones)."""
    queryset = Guide.objects.filter(language=language, slug=slug)
    if not (request.user.is_authenticated and request.user.is_staff):
        queryset = queryset.filter(published=True)
    current = queryset.first()
    if current is None:
        raise Http404("no such guide")
    siblings = list(Guide.objects.filter(language=language, published=True).only("key", "language", "slug", "title", "order"))
    urls = {g.key: guide_url(language, g.slug) for g in siblings}
    page = rendered(current, urls)
    translations = [(g.language, g.get_absolute_url()) for g in
                    Guide.objects.filter(key=current.key, published=True).exclude(language=language).only("language", "slug")]
    position = next((k for k, g in enumerate(siblings) if g.pk == current.pk), None)
    previous = siblings[position - 1] if position else None
    following = siblings[position + 1] if position is not None and position + 1 < len(siblings) else None
    context = {
        "guide": current,
        "page": page,
        "toc": page.toc,
        "siblings": siblings,
        "previous": previous,
        "next": following,
        "translations": translations,
        "play_url": play_url(current.preset),
        "index_url": index_url(language),
    }
    return _render_in(request, language, "tutorials/guide.html", context,
                      dict(translations) | {language: request.get_full_path()})
