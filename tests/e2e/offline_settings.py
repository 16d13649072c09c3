"""Settings of the offline tests' server (tests/e2e/offline_site.py): the site's own with DEBUG off
(whitenoise's manifest storage, hashed names: what the service worker is built from, as in
production), the static files collected into a folder of the test run's own, and one more static
folder that a test changes to play a deploy."""

import os
from pathlib import Path

from caro.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["CARO_TEST_STATIC_ROOT"])
STATICFILES_DIRS = [*STATICFILES_DIRS, os.environ["CARO_TEST_STATIC_EXTRA"]]  # noqa: F405
