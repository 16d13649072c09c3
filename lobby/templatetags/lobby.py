"""The home page's live parts (`{% load lobby %}`): `{% home_live %}` (who is here, with links to
the lobby and the watch page) and `{% featured_game %}` (the featured game's board, drawn by
static/js/featured.js over the live socket). The home page's view knows nothing of them."""

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from lobby import counts
from lobby.views import counts_context

register = template.Library()

#: Under this many seconds a room reads "just opened" instead of a number of minutes.
JUST_OPENED_S = 60


@register.filter
def waited(since: datetime) -> str:
    """How long an open room has waited, in words of the active language: "just opened" under a
    minute, then whole minutes, then whole hours (Django's `timesince` has no Vietnamese minutes)."""
    seconds = max(0, int((timezone.now() - since).total_seconds()))
    if seconds < JUST_OPENED_S:
        return gettext("just opened")
    minutes = seconds // 60
    if minutes < 60:
        return ngettext("waiting for %(count)d minute", "waiting for %(count)d minutes", minutes) % {"count": minutes}
    hours = minutes // 60
    return ngettext("waiting for %(count)d hour", "waiting for %(count)d hours", hours) % {"count": hours}


@register.inclusion_tag("lobby/home_live.html")
def home_live() -> dict:
    """Who is here now (no query while the counts are fresh: `lobby.counts.current`)."""
    return counts_context(counts.current())


@register.inclusion_tag("lobby/featured.html")
def featured_game() -> dict:
    """The featured game's frame; its board comes over the live socket."""
    return {}
