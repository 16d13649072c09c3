from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "caro.games"
    label = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # A guest's rename reaches the games they sit in (accounts.signals.renamed).
        from caro.games import receivers  # noqa: F401
