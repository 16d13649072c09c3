"""Errors shared by the embedded servers."""

from __future__ import annotations

from pathlib import Path


class ServiceError(RuntimeError):
    """An embedded server could not be started or stopped."""


class PortInUse(ServiceError):
    """The server could not bind its port because something else holds it (EADDRINUSE).

    `devstack.ports.start_on_free_port` answers this by retrying on another free port."""


def log_tail(path: Path, lines: int = 30, start: int = 0) -> str:
    """The last `lines` lines of `path` from byte offset `start` on ('(no log)' if unreadable)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            text = handle.read().decode(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def log_size(path: Path) -> int:
    """The current size of `path` in bytes (0 if it does not exist)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0
