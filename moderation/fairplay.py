"""Automatic fair-play seek bars, in the spirit of Lichess's playban (issue 11).

A player who keeps aborting, leaving the table or letting the absence clock run out in a matched
game is barred from seeking a game for a while. The rule, its numbers beside it:

- A **bad ending** is one the player caused in a matched game (absence rule "forfeit": quick and
  ranked games; friend rooms, the computer and one-device games never count): they left the table
  (`termination: left`), they were the absent seat when the game ended on absence (a forfeit, or an
  abort because they went away before both had moved), or their clock ran out before they had made
  a single move (no start).
- Every bad ending is a strike. At STRIKES_FOR_BAR strikes the player is barred from seeking for
  FIRST_BAR, doubled for each bar they got recently (`queue_bans`), at most MAX_BAR; the strikes
  start again from zero.
- Good games forgive: every GOOD_GAMES_TO_FORGIVE matched games that end without a bad ending by
  the player remove one strike, or, with no strike left, one recent bar (so the next bar is
  shorter again).

`judge` is the pure rule; `on_game_ended` applies it to both players inside the transaction that
ends the game, and writes an audit entry for every bar.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.dispatch import receiver

from caro.games.models import AbsenceRule, Game, Seat
from caro.games.signals import game_ended
from moderation.audit import audit

#: Strikes that bring a seek bar.
STRIKES_FOR_BAR = 3
#: The first bar; each recent bar doubles the next one, up to MAX_BAR.
FIRST_BAR = timedelta(minutes=10)
MAX_BAR = timedelta(days=1)
#: Good matched games that forgive one strike (or, with none left, one recent bar).
GOOD_GAMES_TO_FORGIVE = 5

#: Reason codes of a bar (stored in `User.queue_ban_reason`), by what the last strike was.
REASONS = ("abort", "leave", "absence", "no_start")


@dataclass(frozen=True)
class Record:
    """A player's fair-play counters (the `accounts.User` fields of the same names)."""

    fairplay_strikes: int = 0
    fairplay_good_games: int = 0
    queue_bans: int = 0


def bar_length(recent_bars: int) -> timedelta:
    """How long a new bar lasts after `recent_bars` recent ones: FIRST_BAR × 2^recent_bars, at most MAX_BAR."""
    return min(MAX_BAR, FIRST_BAR * (2 ** min(recent_bars, 16)))


def judge(record: Record, bad: str | None, now: datetime) -> tuple[Record, datetime | None]:
    """The counters after one matched game, and the end of a new bar (or None).

    `bad` is a reason code of REASONS when the player caused a bad ending, None for a good game.
    """
    if bad is None:
        good = record.fairplay_good_games + 1
        if good < GOOD_GAMES_TO_FORGIVE:
            return replace(record, fairplay_good_games=good), None
        if record.fairplay_strikes:
            return replace(record, fairplay_good_games=0, fairplay_strikes=record.fairplay_strikes - 1), None
        return replace(record, fairplay_good_games=0, queue_bans=max(0, record.queue_bans - 1)), None
    strikes = record.fairplay_strikes + 1
    if strikes < STRIKES_FOR_BAR:
        return replace(record, fairplay_strikes=strikes, fairplay_good_games=0), None
    until = now + bar_length(record.queue_bans)
    return Record(fairplay_strikes=0, fairplay_good_games=0, queue_bans=record.queue_bans + 1), until


def bad_ending_of(game: Game, seat: str) -> str | None:
    """The reason code of the bad ending `seat` caused in the ended `game`, or None (see the rule)."""
    if game.termination == Game.Termination.LEFT and game.left_seat == seat:
        return "leave"
    if game.absent_seat == seat and game.termination in (Game.Termination.ABSENCE, Game.Termination.ABORT):
        return "absence" if game.termination == Game.Termination.ABSENCE else "abort"
    if (game.termination == Game.Termination.TIMEOUT and game.winner
            and game.seat_playing(game.winner) != seat and game.ply < 2):
        return "no_start"
    return None


def counts(game: Game) -> bool:
    """Whether the fair-play rule looks at `game`: a matched game between two different people."""
    return (game.absence_rule == AbsenceRule.FORFEIT and not game.bot_seat and not game.is_imported
            and game.host_id is not None and game.guest_id is not None and game.host_id != game.guest_id
            and game.termination != Game.Termination.MODERATOR)


@receiver(game_ended, dispatch_uid="moderation.fairplay")
def on_game_ended(sender, game: Game, **kwargs) -> None:
    """Apply the rule to both players of a matched game, inside the ending transaction."""
    if not counts(game):
        return
    users = get_user_model().objects.select_for_update().filter(pk__in=(game.host_id, game.guest_id)).order_by("pk")
    for user in users:
        seat = Seat.HOST if user.pk == game.host_id else Seat.GUEST
        bad = bad_ending_of(game, seat)
        before = Record(user.fairplay_strikes, user.fairplay_good_games, user.queue_bans)
        after, until = judge(before, bad, game.finished_at)
        fields = ["fairplay_strikes", "fairplay_good_games", "queue_bans"]
        user.fairplay_strikes, user.fairplay_good_games, user.queue_bans = (
            after.fairplay_strikes, after.fairplay_good_games, after.queue_bans)
        if until is not None:
            user.queue_banned_until, user.queue_ban_reason = until, bad
            fields += ["queue_banned_until", "queue_ban_reason"]
        user.save(update_fields=fields)
        if until is not None:
            audit(None, "fairplay_ban", user=user, game=game, reason=bad,
                  details={"until": until.isoformat(), "bars": after.queue_bans})
