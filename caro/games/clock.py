"""Pure clock rules: the per-move clock (docs/architecture.md, "Where time and endings live").

Deadlines are aware datetimes stored with the game; the server's clock is the only one trusted.
Durations are in milliseconds.
"""

from __future__ import annotations

from datetime import datetime, timedelta


def deadline_after(start: datetime, move_time_ms: int) -> datetime | None:
    """When a move started at `start` runs out of time, or None without a clock (`move_time_ms` 0)."""
    return start + timedelta(milliseconds=move_time_ms) if move_time_ms else None


def remaining_ms(deadline: datetime | None, now: datetime) -> int | None:
    """Milliseconds left before `deadline` (never negative), or None without a running clock."""
    if deadline is None:
        return None
    return max(0, int((deadline - now).total_seconds() * 1000))


def unix_ms(moment: datetime | None) -> int | None:
    """`moment` as Unix time in ms (clients correct it by their measured clock offset), or None."""
    return None if moment is None else int(moment.timestamp() * 1000)


def elapsed_ms(since: datetime, now: datetime) -> int:
    """Milliseconds from `since` to `now`, never negative (the time a mover used)."""
    return max(0, int((now - since).total_seconds() * 1000))
