"""Moderator actions (issue 11): each checks the moderator's permission, acts through the app that
owns the row (games, rooms, accounts' restriction fields), writes one audit entry in the same
transaction and, after commit, tells the affected sockets.

Every function takes the acting moderator as `by` and raises `ModerationError` (a machine code and
a translated message) when it refuses; then nothing has changed.
"""

from __future__ import annotations

from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.restrictions import user_group
from caro.games.errors import GameError
from caro.games.models import Game
from caro.games import state as game_state
from caro.games.services import moderation as game_moderation
from caro.rooms import chat
from caro.rooms import services as rooms
from caro.rooms.models import ChatMessage, Room
from moderation.audit import audit
from moderation.models import AuditEntry, Report

#: The longest reason a moderator may give, in characters (the restriction fields' size).
MAX_REASON_CHARS = 300
#: The longest note on a report's decision, in characters (`Report.decision_note`).
MAX_NOTE_CHARS = 500

#: The permission each action needs (`app_label.codename`, granted to the "Moderators" group).
PERMISSIONS = {
    "ban": "moderation.ban_user",
    "unban": "moderation.ban_user",
    "mute": "moderation.mute_user",
    "unmute": "moderation.mute_user",
    "annul": "moderation.annul_game",
    "abort": "moderation.abort_game",
    "close": "moderation.close_room",
    "hide": "moderation.hide_chat",
    "decide": "moderation.decide_report",
}

MESSAGES = {
    "forbidden": _("You do not have the permission for this moderation action."),
    "reason_required": _("Give a reason (at most 300 characters)."),
    "until_required": _("Choose an end in the future, or a permanent ban."),
    "not_banned": _("This player is not banned."),
    "not_muted": _("This player is not muted."),
    "self": _("You cannot do this to your own account."),
    "outranked": _("Only a superuser can ban or mute a superuser or another member of the staff."),
    "not_annullable": _("Only a finished rated game that is not annulled yet can be annulled."),
    "not_live": _("This game is already over."),
    "room_closed": _("This room is already closed."),
    "already_hidden": _("This message is already hidden."),
    "bad_decision": _("A report can only be resolved or dismissed, once."),
}


class ModerationError(Exception):
    """A refused moderator action: `code` is a key of MESSAGES; `message` the translated sentence."""

    def __init__(self, code: str) -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown moderation error code {code!r}")
        self.code = code
        super().__init__(code)

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code])


def _allow(by, action: str) -> None:
    if by is None or not getattr(by, "is_active", False) or not by.is_staff or not by.has_perm(PERMISSIONS[action]):
        raise ModerationError("forbidden")


def _may_restrict(by, user) -> None:
    """A ban or a mute: never of oneself, and of a superuser or another staff member only by a
    superuser (a moderator must not lock the site's owners or their peers out). Raises
    ModerationError `self`, `outranked`."""
    if user.pk == by.pk:
        raise ModerationError("self")
    if (user.is_superuser or user.is_staff) and not by.is_superuser:
        raise ModerationError("outranked")


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason or len(reason) > MAX_REASON_CHARS:
        raise ModerationError("reason_required")
    return reason


def _tell_user(user_id: int) -> None:
    """Ask every socket of the user (their group, on every web process) to re-read their restrictions."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": "user.restricted"})


def ban(by, user, *, reason: str, until: datetime | None = None, forever: bool = False):
    """Ban `user` until `until` (aware, in the future) or permanently (`forever`), for `reason`.

    A banned user cannot play, take a seat, create a room, chat or seek; their open sockets are
    closed at once with the reason and the end. Raises ModerationError `forbidden`, `self`,
    `outranked` (a superuser or a staff member, banned by someone who is not a superuser),
    `reason_required`, `until_required`."""
    _allow(by, "ban")
    _may_restrict(by, user)
    reason = _reason(reason)
    if not forever and (until is None or until <= timezone.now()):
        raise ModerationError("until_required")
    with transaction.atomic():
        user.banned_forever = bool(forever)
        user.banned_until = None if forever else until
        user.ban_reason = reason
        user.save(update_fields=["banned_forever", "banned_until", "ban_reason"])
        audit(by, AuditEntry.Action.BAN, user=user, reason=reason,
              details={"until": None if forever else until.isoformat(), "forever": bool(forever)})
        transaction.on_commit(lambda: _tell_user(user.pk))
    return user


def _banned(user, now: datetime) -> bool:
    return bool(user.banned_forever or (user.banned_until and user.banned_until > now))


def _muted(user, now: datetime) -> bool:
    return bool(user.muted_until and user.muted_until > now)


#: `action -> (refusal code, predicate(target, now) -> True when the action has nothing to do)`:
#: the refusals that come from the target's own state, which `nothing_to_do` tells before a form.
NOTHING_TO_DO = {
    "unban": ("not_banned", lambda user, now: not _banned(user, now)),
    "unmute": ("not_muted", lambda user, now: not _muted(user, now)),
    "annul": ("not_annullable", lambda game, now: not game_state.annullable(game)),
    "abort": ("not_live", lambda game, now: game.is_over),
    "close": ("room_closed", lambda room, now: room.closed_at is not None),
    "decide": ("bad_decision", lambda report, now: report.status != Report.Status.OPEN),
}


def nothing_to_do(action: str, target, now: datetime | None = None) -> ModerationError | None:
    """The refusal `action` (a key of PERMISSIONS) would meet because of `target`'s own state at
    `now` (a player not banned or not muted, a game not annullable or already over, a room closed,
    a report decided), or None when the action has something to do. The admin offers only actions
    with something to do; the action itself checks again under its lock."""
    code, idle = NOTHING_TO_DO.get(action, (None, None))
    if idle is not None and idle(target, now or timezone.now()):
        return ModerationError(code)
    return None


def unban(by, user, *, reason: str):
    """Lift the ban on `user`. Raises ModerationError `forbidden`, `reason_required`, `not_banned`."""
    _allow(by, "unban")
    reason = _reason(reason)
    if not _banned(user, timezone.now()):
        raise ModerationError("not_banned")
    with transaction.atomic():
        user.banned_forever, user.banned_until, user.ban_reason = False, None, ""
        user.save(update_fields=["banned_forever", "banned_until", "ban_reason"])
        audit(by, AuditEntry.Action.UNBAN, user=user, reason=reason)
    return user


def mute(by, user, *, until: datetime, reason: str):
    """Mute `user`'s chat until `until` (aware, in the future). Raises ModerationError `forbidden`,
    `self`, `outranked` (as `ban`), `reason_required`, `until_required`."""
    _allow(by, "mute")
    _may_restrict(by, user)
    reason = _reason(reason)
    if until is None or until <= timezone.now():
        raise ModerationError("until_required")
    with transaction.atomic():
        user.muted_until, user.mute_reason = until, reason
        user.save(update_fields=["muted_until", "mute_reason"])
        audit(by, AuditEntry.Action.MUTE, user=user, reason=reason, details={"until": until.isoformat()})
    return user


def unmute(by, user, *, reason: str):
    """Lift a chat mute. Raises ModerationError `forbidden`, `reason_required`, `not_muted`."""
    _allow(by, "unmute")
    reason = _reason(reason)
    if not _muted(user, timezone.now()):
        raise ModerationError("not_muted")
    with transaction.atomic():
        user.muted_until, user.mute_reason = None, ""
        user.save(update_fields=["muted_until", "mute_reason"])
        audit(by, AuditEntry.Action.UNMUTE, user=user, reason=reason)
    return user


def annul(by, game: Game, *, reason: str) -> Game:
    """Annul a finished rated game: it stays stored, marked annulled, and its own rating changes are
    reverted (through `caro.games.signals.game_annulled`). Raises ModerationError `forbidden`,
    `reason_required`, `not_annullable`."""
    _allow(by, "annul")
    reason = _reason(reason)
    with transaction.atomic():
        try:
            game = game_moderation.annul(game.pk, by=by, reason=reason)
        except GameError:
            raise ModerationError("not_annullable") from None
        audit(by, AuditEntry.Action.ANNUL, game=game, reason=reason)
    return game


def abort(by, game: Game, *, reason: str) -> dict:
    """Stop a live game (`termination: moderator`, nobody wins); both players' pages see it end.
    Returns the `game_over` event. Raises ModerationError `forbidden`, `reason_required`, `not_live`."""
    _allow(by, "abort")
    reason = _reason(reason)
    with transaction.atomic():
        try:
            event = game_moderation.stop(game.pk)
        except GameError:
            raise ModerationError("not_live") from None
        audit(by, AuditEntry.Action.ABORT, game=game, reason=reason)
    return event


def close_room(by, room: Room, *, reason: str) -> Room:
    """Close a room: its live game stops, everyone in it is told and disconnected. Raises
    ModerationError `forbidden`, `reason_required`, `room_closed`."""
    _allow(by, "close")
    reason = _reason(reason)
    if room.closed_at is not None:
        raise ModerationError("room_closed")
    with transaction.atomic():
        room = rooms.close(room.code, reason)
        audit(by, AuditEntry.Action.CLOSE, game=room.current_game, room_code=room.code, reason=reason)
    return room


def hide_message(by, message: ChatMessage, *, reason: str = "") -> ChatMessage:
    """Hide a chat line for everyone at once. Raises ModerationError `forbidden`, `already_hidden`."""
    _allow(by, "hide")
    if message.hidden:
        raise ModerationError("already_hidden")
    with transaction.atomic():
        message = chat.hide(message.pk, by=by)
        audit(by, AuditEntry.Action.HIDE, user=message.author, game=message.game, room_code=message.room.code,
              chat_message=message, reason=(reason or "")[:MAX_REASON_CHARS], details={"text": message.text})
    return message


def decide_report(by, report: Report, *, status: str, note: str = "") -> Report:
    """Resolve or dismiss an open report, with an optional note. Raises ModerationError
    `forbidden`, `bad_decision` (not open any more, or a status other than resolved/dismissed)."""
    _allow(by, "decide")
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise ModerationError("bad_decision")
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != Report.Status.OPEN:
            raise ModerationError("bad_decision")
        report.status, report.decided_by, report.decided_at = status, by, timezone.now()
        report.decision_note = (note or "").strip()[:MAX_NOTE_CHARS]
        report.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        action = AuditEntry.Action.REPORT_RESOLVED if status == Report.Status.RESOLVED else AuditEntry.Action.REPORT_DISMISSED
        audit(by, action, user=report.reported, game=report.game, reason=report.decision_note,
              details={"report": report.pk})
    return report
