from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "caro.rooms"
    label = "rooms"
    verbose_name = _("Rooms")

    def ready(self) -> None:
        # The lobby follows its hosts' presence (caro.games.signals.waiting_presence).
        from caro.rooms import receivers  # noqa: F401
