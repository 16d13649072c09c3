from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingConfig(AppConfig):
    name = "ranking"
    verbose_name = _("Ranking")

    def ready(self) -> None:
        # Connect the receivers of caro.games.signals (rating a game, reverting an annulled one).
        from ranking import receivers  # noqa: F401
