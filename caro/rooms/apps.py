from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "caro.rooms"
    label = "rooms"
    verbose_name = _("Rooms")
