"""One Django process that readies the site before it starts: `python -m devstack.prepare`.

Options:
  --migrate   apply migrations (`migrate --noinput`)
Always: compile translations when GNU gettext's `msgfmt` is installed (skipped with a note
otherwise: compiled .mo files are committed), and `collectstatic --noinput` when settings.DEBUG
is off and STATIC_ROOT is set (the manifest storage needs it). Nothing is compiled: the computer
plays in the browser (issue 26). Exit status non-zero on failure.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

IGNORED_DIRS = [".venv", ".data", ".git", "node_modules", "staticfiles", "test-results"]


def _has_po_files(root: Path) -> bool:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_DIRS]
        if any(name.endswith(".po") for name in filenames):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devstack.prepare")
    parser.add_argument("--migrate", action="store_true", help="apply database migrations")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    root = Path.cwd()
    if args.migrate:
        call_command("migrate", interactive=False, verbosity=1)
    if not shutil.which("msgfmt"):
        print("dev: msgfmt not found (apt-get install gettext); using the committed .mo files", flush=True)
    elif _has_po_files(root):
        call_command("compilemessages", ignore_patterns=IGNORED_DIRS, verbosity=0)
    if not settings.DEBUG and getattr(settings, "STATIC_ROOT", None):
        call_command("collectstatic", interactive=False, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
