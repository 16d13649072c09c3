"""The caro site: settings, URLs, ASGI and Celery apps, and the game domain packages."""

# Importing the Celery app here makes `@shared_task` use it in every process (Celery docs,
# "Using Celery with Django"). The engine and bots never import Django, so this stays light for them.
try:
    from .celery import app as celery_app
except ImportError:  # pragma: no cover - only when Celery is absent (pure engine use)
    celery_app = None

__all__ = ["celery_app"]
