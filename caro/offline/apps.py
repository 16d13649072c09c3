from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OfflineConfig(AppConfig):
    """The service worker, the web app manifest and the offline page (no models)."""

    name = "caro.offline"
    label = "offline"
    verbose_name = _("Offline play")
