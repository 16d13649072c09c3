"""The web app manifest's content (what a phone shows when the site is installed) and the colours
and icons the base layout's head repeats (caro.offline.templatetags.offline)."""

from __future__ import annotations

from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext, pgettext

#: static/css/site.css ``--accent`` (buttons, links): the installed app's title bar and the
#: browser's address bar (tests/unit/offline check that the two stay equal).
THEME_COLOR = "#0b6e4f"
#: static/css/site.css ``--bg``: the splash screen behind the icon while the installed app starts.
BACKGROUND_COLOR = "#fbfaf7"
#: The manifest's language: the site's first language (LANGUAGE_CODE), whatever the visitor reads.
MANIFEST_LANGUAGE = "vi"
#: (static name, size in px, purpose) of the manifest's icons, drawn from static/favicon.svg by
#: `python -m caro.offline.icons`. A maskable icon keeps its mark inside the central 80 % circle.
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)
#: The home-screen icon iOS takes from <link rel="apple-touch-icon"> (180×180, no transparency).
APPLE_TOUCH_ICON = ("icons/apple-touch-icon.png", 180)
#: App shortcuts (long press on the installed icon): URL name and its label (msgids of the home page).
SHORTCUTS = (("play_computer", "Play the computer"), ("play_local", "Two players on one device"))


def manifest() -> dict:
    """The web app manifest (https://www.w3.org/TR/appmanifest/) as a dict: Vietnamese name and
    short name, standalone display over the whole site, the icons, colours and the on-device
    play pages as shortcuts (those whose URL exists)."""
    home = reverse("home")
    with translation.override(MANIFEST_LANGUAGE):
        data = {
            "id": home,
            "name": gettext("Caro online"),
            "short_name": pgettext("installed app's name under its icon", "Caro"),
            "description": gettext("Play caro and Reversi with friends or strangers, against the computer or two on one "
                                   "device; the computer and one-device games work offline."),
            "lang": MANIFEST_LANGUAGE,
            "dir": "ltr",
            "start_url": home,
            "scope": home,
            "display": "standalone",
            "background_color": BACKGROUND_COLOR,
            "theme_color": THEME_COLOR,
            "categories": ["games"],
            "icons": [{"src": static(name), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
                      for name, size, purpose in ICONS],
            "shortcuts": [],
        }
        for url_name, label in SHORTCUTS:
            try:
                url = reverse(url_name)
            except NoReverseMatch:
                continue
            data["shortcuts"].append({"name": gettext(label), "url": url,
                                      "icons": [{"src": static(ICONS[0][0]), "sizes": "192x192"}]})
    return data
