"""The record pages' context for the shared layout."""

from __future__ import annotations

from django.http import HttpRequest


def language_urls(request: HttpRequest) -> dict:
    """`language_urls` for the header's language switch on a record page ([(code, path)], set by
    `caro.records.views.in_page_language`, computed when a page is rendered): English goes to /en/game/<id>/, Vietnamese to
    /van/<id>/. Other pages: nothing (a view's own `language_urls` wins over this)."""
    urls = getattr(request, "record_language_urls", None)  # a callable: images and downloads never pay
    return {"language_urls": urls()} if urls else {}
