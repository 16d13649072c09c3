"""`manage.py warm_bots`: build (first run) or load the computer players' compiled search
functions (`caro.bots.warm_up`; numba, cached on disk), so that on a fresh checkout the compiling
(a minute or more on a busy machine) happens once, before any Celery worker starts."""

import time

from django.core.management.base import BaseCommand

from caro.bots import warm_up


class Command(BaseCommand):
    help = "Compile or load the computer players' search functions (cached on disk)."

    def handle(self, *args, **options) -> None:
        started = time.monotonic()
        warm_up()
        spent = time.monotonic() - started
        if spent > 10 or options["verbosity"] > 1:
            self.stdout.write(f"dev: the computer players' search is ready in {spent:.0f} s (compiled once, then cached)")
