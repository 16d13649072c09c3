"""The caro site: settings, URLs, ASGI and Celery apps, and the game domain packages.

Deliberately empty of imports: `caro.engine` is pure Python and must import without Django or
Celery. The Celery app is loaded by `caro.apps` (the project's app config) in every Django
process, and by the Celery command line through `-A caro` (which finds `caro.celery`).
"""
