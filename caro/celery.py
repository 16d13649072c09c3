"""The Celery app (worker: `celery -A caro worker`, beat: `celery -A caro beat`).

Broker: REDIS_URL. Tasks live in each app's `tasks` module (move deadlines, sweeps)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")

app = Celery("caro")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
