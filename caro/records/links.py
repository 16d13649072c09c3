"""Record URLs in the reader's language: /van/<id>/ in Vietnamese, /en/game/<id>/ in English."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

#: Page names per language; see caro/records/urls.py.
LANGUAGES = ("vi", "en")


def url_language() -> str:
    """The active language as a record URL language ("vi" unless English is active)."""
    return "en" if (translation.get_language() or "vi").startswith("en") else "vi"


def record_url(game_id: int | None, language: str = "vi", ply: int | None = None, page: str = "game",
               fmt: str | None = None) -> str:
    """The path of a record page: `page` is "game" (with `?ply=` when `ply` is given), "image",
    "export" (with `fmt`), "continue", "import" or "mine"."""
    language = language if language in LANGUAGES else "vi"
    kwargs = {}
    if game_id is not None:
        kwargs["game_id"] = game_id
    if fmt is not None:
        kwargs["fmt"] = fmt
    path = reverse(f"records:{page}_{language}", kwargs=kwargs)
    return f"{path}?ply={ply}" if ply is not None else path
