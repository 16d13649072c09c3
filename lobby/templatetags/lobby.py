"""The home page's live parts (`{% load lobby %}`): `{% home_live %}` (who is here, with links to
the lobby and the watch page) and `{% featured_game %}` (the featured game's board, drawn by
static/js/featured.js over the live socket). The home page's view knows nothing of them."""

from django import template

from lobby import counts
from lobby.views import counts_context

register = template.Library()


@register.inclusion_tag("lobby/home_live.html")
def home_live() -> dict:
    """Who is here now (no query while the counts are fresh: `lobby.counts.current`)."""
    return counts_context(counts.current())


@register.inclusion_tag("lobby/featured.html")
def featured_game() -> dict:
    """The featured game's frame; its board comes over the live socket."""
    return {}
