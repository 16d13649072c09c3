from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TutorialsConfig(AppConfig):
    """Rules guides: Markdown prose with board diagrams, stored per language, seeded from files."""

    name = "caro.tutorials"
    label = "tutorials"
    verbose_name = _("Rules guides")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(_seed_after_migrate, sender=self)


def _seed_after_migrate(sender, using="default", **kwargs) -> None:
    """After every ``migrate`` (and test database flush), bring the guides up to date with the
    versioned source files, without overwriting guides edited in the admin."""
    from .loader import sync_guides

    sync_guides(using=using)
