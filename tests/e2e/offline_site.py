"""A real Daphne for the offline tests, as production runs it (DEBUG off: collected static files
with a manifest, so /sw.js serves the real worker), on one port for the whole module (a service
worker belongs to its origin), that a test can redeploy: change a static file, collectstatic,
restart on the same port."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, _child_env, _stop, _wait_healthy, free_port

#: A static file of the tests' own folder (offline-probe/probe.js), kept by the worker like any
#: other; its content says which deploy served it.
PROBE = "offline-probe/probe.js"


class OfflineSite:
    def __init__(self, env: dict, folder: Path):
        self.env = env
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.deploys = 0

    def write_probe(self, deploy: int) -> None:
        path = Path(self.env["CARO_TEST_STATIC_EXTRA"]) / PROBE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"export const DEPLOY = {deploy};\n")

    def collect(self) -> None:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=self.env,
                       check=True, timeout=600)

    def start(self) -> None:
        log = self.folder / f"daphne-{self.deploys}.log"
        with open(log, "wb") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "caro.webserver", "-b", "127.0.0.1", "-p", str(self.port),
                                          "caro.asgi:application"], cwd=ROOT, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT)
        if not _wait_healthy(self.proc, self.url):
            _stop(self.proc)
            pytest.fail("daphne did not start:\n" + log.read_text(errors="replace")[-3000:])

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc)
            self.proc = None

    def deploy(self) -> int:
        """A new deploy: the probe's content changes, collectstatic, the server restarts (same port)."""
        self.deploys += 1
        self.write_probe(self.deploys)
        self.collect()
        self.stop()
        self.start()
        return self.deploys


@pytest.fixture(scope="module")
def offline_site(django_db_setup, django_db_blocker, tmp_path_factory):
    folder = tmp_path_factory.mktemp("offline-site")
    with django_db_blocker.unblock():
        env = _child_env()
    env.update(DEBUG="0", DJANGO_SETTINGS_MODULE="tests.e2e.offline_settings",
               CARO_TEST_STATIC_ROOT=str(folder / "static-root"), CARO_TEST_STATIC_EXTRA=str(folder / "static-extra"))
    site = OfflineSite(env, folder)
    site.write_probe(0)
    site.collect()
    site.start()
    yield site
    site.stop()
