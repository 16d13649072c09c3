"""Pure clock rules (docs/architecture.md, "Where time and endings live").

Two kinds of clock, chosen per game (from the room's options):

- **per move** (`move_time_ms` > 0, `bank_ms` 0): each move has the same time; the mover loses when
  it runs out (shared/reference/caro-rules-cocaro.txt, "Thua vì hết giờ").
- **total time** (`bank_ms` > 0): each player has a bank that runs down only on their own turn, plus
  `increment_ms` added after each of their moves; an empty bank loses (caro-rules-5phut.txt §6).

The server's clock is the only one trusted: a turn starts at `turn_started_at` (server time) and
the deadline of the player to move is stored with the game. Durations are in milliseconds.
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


def has_bank(game) -> bool:
    """The game is played on total time per player (rather than per move)."""
    return game.bank_ms > 0


def start(game, now: datetime) -> None:
    """Set the clocks of a game that starts at `now`: full banks, the first mover's turn begins."""
    game.host_bank_ms = game.guest_bank_ms = game.bank_ms
    start_turn(game, now)


def start_turn(game, now: datetime) -> None:
    """The turn of the side to move begins at `now`: its deadline is set from its clock."""
    game.turn_started_at = now
    if has_bank(game):
        seat = game.seat_playing(game.turn)
        game.deadline = now + timedelta(milliseconds=game.seat_field("bank_ms", seat))
    else:
        game.deadline = deadline_after(now, game.move_time_ms)


def charge(game, seat: str, now: datetime) -> int:
    """`seat` has just moved at `now`: take the time it used from its bank and add the increment.

    Returns the time used (ms). Per-move clocks keep no bank: only the time used is returned.
    """
    used = elapsed_ms(game.turn_started_at or now, now)
    if has_bank(game):
        left = max(0, game.seat_field("bank_ms", seat) - used)
        game.set_seat_field("bank_ms", seat, left + game.increment_ms)
    return used


def banks_now(game, now: datetime) -> dict[str, int] | None:
    """Each side's time left at `now` (the player to move's bank running down), or None without banks."""
    if not has_bank(game):
        return None
    banks = {}
    for seat in ("host", "guest"):
        side = game.side_of(seat)
        left = game.seat_field("bank_ms", seat)
        if side == game.turn and game.deadline is not None:
            left = remaining_ms(game.deadline, now)
        banks[side] = left
    return banks
