#!/usr/bin/env python3
"""One command for a fresh machine (Debian + Python 3.11, nothing else installed).

    python3 dev.py run                 start the whole site (see README)
    python3 dev.py test [PYTEST ARGS]  run the whole test suite
    python3 dev.py manage CMD [ARGS]   a manage.py command against the same services as `run`
    python3 dev.py setup               only create/update the virtual environment

This file uses the standard library only. It creates `.venv` next to it when missing, and runs
`pip install -e '.[embedded,test]'` there whenever pyproject.toml (or the Python version) changed
since the last successful install (a hash in `.venv/.caro-install-stamp`). Then it re-executes
itself with `.venv/bin/python` and hands over to `devstack.cli`.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".caro-install-stamp"
EXTRAS = "embedded,test"


def log(message: str) -> None:
    print(f"dev: {message}", file=sys.stderr, flush=True)


def venv_python_version() -> str:
    """The Python version recorded in .venv/pyvenv.cfg ('' if there is no usable venv)."""
    try:
        for line in (VENV / "pyvenv.cfg").read_text().splitlines():
            key, _, value = line.partition("=")
            if key.strip() in ("version", "version_info"):
                return value.strip()
    except OSError:
        pass
    return ""


def wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {EXTRAS} {venv_python_version()}\n"


def stamp_is_current() -> bool:
    try:
        return VENV_PYTHON.exists() and STAMP.read_text() == wanted_stamp()
    except OSError:
        return False


def ensure_venv() -> None:
    """Create .venv and install the project into it unless the stamp says it is up to date.

    Exits with pip's (or venv's) status if either fails. A lock file serialises concurrent runs."""
    if stamp_is_current():
        return
    (ROOT / ".data").mkdir(exist_ok=True)
    with open(ROOT / ".data" / "bootstrap.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp_is_current():  # another dev.py finished it while we waited
            return
        this_version = ".".join(map(str, sys.version_info[:3]))
        if not VENV_PYTHON.exists() or (sys.prefix != str(VENV) and venv_python_version() != this_version):
            log(f"creating {VENV} with Python {this_version}")
            result = subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)])
            if result.returncode != 0:
                log("could not create the virtual environment (on Debian: apt-get install python3-venv)")
                sys.exit(result.returncode)
        log("installing the project and its dependencies into .venv (a minute or two the first time)")
        result = subprocess.run(
            [str(VENV_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", f".[{EXTRAS}]"],
            cwd=ROOT,
        )
        if result.returncode != 0:
            log("pip install failed")
            sys.exit(result.returncode)
        STAMP.write_text(wanted_stamp())


def main() -> None:
    if sys.version_info < (3, 11):
        sys.exit("dev: Python 3.11 or newer is needed")
    ensure_venv()
    if Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])
    sys.path.insert(0, str(ROOT))
    from devstack.cli import main as cli_main

    sys.exit(cli_main(sys.argv[1:], root=ROOT))


if __name__ == "__main__":
    main()
