"""Players' reports of their opponent (issue 11): filed from the game page, queued in admin."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from caro.games.models import Game
from moderation.models import Report

#: The longest note a reporter may add, in characters.
MAX_NOTE_CHARS = 500

MESSAGES = {
    "not_your_game": _("You can only report your opponent in a game you played."),
    "no_opponent": _("This game has no opponent to report."),
    "already_reported": _("You already reported this game. A moderator will look at it."),
    "bad_reason": _("Choose a reason from the list."),
    "note_too_long": _("The note can have at most 500 characters."),
    "bad_note": _("The note holds characters that cannot be stored. Write it again as plain text."),
}


class ReportError(Exception):
    """A refused report: `code` is a key of MESSAGES; `message` the translated sentence."""

    def __init__(self, code: str) -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown report error code {code!r}")
        self.code = code
        super().__init__(code)

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code])


def opponent_of(game: Game, user):
    """The user `user` played against in `game`, or None (not a player, the computer, one device)."""
    if user is None or not getattr(user, "is_authenticated", False) or game.is_local or game.bot_seat:
        return None
    if game.host_id == user.pk:
        return game.guest
    if game.guest_id == user.pk:
        return game.host
    return None


def file_report(reporter, game: Game, *, reason: str, note: str = "") -> Report:
    """Store `reporter`'s report of their opponent in `game`. Raises ReportError `not_your_game`
    (the reporter did not play it), `no_opponent`, `bad_reason`, `note_too_long`, `bad_note` (a NUL
    character, which a PostgreSQL text column cannot hold), `already_reported` (one report per
    reporter and game); nothing is stored then."""
    if reason not in Report.Reason.values:
        raise ReportError("bad_reason")
    note = (note or "").strip()
    if len(note) > MAX_NOTE_CHARS:
        raise ReportError("note_too_long")
    if "\x00" in note or "\x00" in reason:
        raise ReportError("bad_note")
    if reporter is None or not getattr(reporter, "is_authenticated", False) or reporter.pk not in (game.host_id, game.guest_id):
        raise ReportError("not_your_game")
    opponent = opponent_of(game, reporter)
    if opponent is None:
        raise ReportError("no_opponent")
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=reporter, reported=opponent, game=game, reason=reason, note=note)
    except IntegrityError:
        raise ReportError("already_reported") from None
