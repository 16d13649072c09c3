from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "caro.games"
    label = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Make our Celery app the current one in every Django process (web included), so
        # `shared_task(...).apply_async` publishes to our broker (Celery docs, "First steps with Django").
        from caro import celery  # noqa: F401
