"""``{% offline_head %}``: the base layout's manifest link, theme colour, home-screen icon and the
page module that registers the service worker and sends the records queue (static/js/offline/page.js)."""

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse

from caro.offline import precache, webapp

register = template.Library()


@register.inclusion_tag("offline/head.html", takes_context=True)
def offline_head(context) -> dict:
    request = context.get("request")
    try:
        upload_url = reverse("local_game_upload")
    except NoReverseMatch:  # the upload API's own default (CONTRACTS.md section 4) in records-queue.js
        upload_url = ""
    return {
        "manifest_url": reverse("web_manifest"),
        "theme_color": webapp.THEME_COLOR,
        "apple_touch_icon": static(webapp.APPLE_TOUCH_ICON[0]),
        "worker_url": reverse("service_worker") if precache.worker_enabled() else "",
        # The visitor's language (cookie, then Accept-Language), also on pages shown in another
        # one (a guide's URL fixes its language): the worker keeps its pages in this one.
        "visitor_language": getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE),
        # Who visits (a user's id, "" for nobody): with the CSRF cookie, what tells the worker
        # that another visitor is here (a log-in, a log-out, a new guest) and its pages are stale.
        "visitor": getattr(getattr(request, "user", None), "pk", None) or "",
        "upload_url": upload_url,
    }
