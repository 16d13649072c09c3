from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self) -> None:
        # Connect the receivers of caro.rooms.signals and caro.games.signals (the live games list).
        from lobby import receivers  # noqa: F401
