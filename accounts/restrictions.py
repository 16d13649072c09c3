"""The restrictions in force on a user, as pure predicates on the stored row (issue 11).

`moderation` writes the fields (bans, mutes, fair-play seek bars); every lower app asks these
predicates before letting a user play, create a room, chat or seek, so the answer is the same
everywhere. `now` is an aware datetime (pass `django.utils.timezone.now()`); a restriction whose
end has passed is simply not in force (nothing has to clear it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext


@dataclass(frozen=True)
class Restriction:
    """A restriction in force: `reason` as the moderator (or the fair-play rule) wrote it, `until` the
    aware datetime it ends, or None for a permanent ban."""

    reason: str
    until: datetime | None


def ban_of(user, now: datetime) -> Restriction | None:
    """The ban in force on `user` at `now` (permanent, or until a later moment), or None.

    An anonymous user or None is never banned."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if getattr(user, "banned_forever", False):
        return Restriction(user.ban_reason, None)
    until = getattr(user, "banned_until", None)
    if until is not None and until > now:
        return Restriction(user.ban_reason, until)
    return None


def mute_of(user, now: datetime) -> Restriction | None:
    """The chat mute in force on `user` at `now`, or None. A ban mutes too (its own reason)."""
    ban = ban_of(user, now)
    if ban is not None:
        return ban
    until = getattr(user, "muted_until", None) if user is not None else None
    if until is not None and until > now:
        return Restriction(user.mute_reason, until)
    return None


#: The user fields `queue_ban_of` reads (to load them alone, fresh, e.g. `.only(*QUEUE_FIELDS)`).
QUEUE_FIELDS = ("banned_until", "banned_forever", "ban_reason", "queue_banned_until", "queue_ban_reason")


def queue_ban_of(user, now: datetime) -> Restriction | None:
    """Why `user` may not seek a game at `now`, or None: a ban, else a fair-play seek bar in force
    (`reason` is then a `moderation.fairplay` reason code such as "abort")."""
    ban = ban_of(user, now)
    if ban is not None:
        return ban
    until = getattr(user, "queue_banned_until", None) if user is not None else None
    if until is not None and until > now:
        return Restriction(user.queue_ban_reason, until)
    return None


def user_group(user_id: int) -> str:
    """The Channels group every socket of user `user_id` joins, so a ban can close them all at once
    (docs/protocol.md, "Per-user group")."""
    return f"user.{user_id}"


def _when(until: datetime) -> str:
    """`until` in the site's time zone, formatted for the active language to read inside a sentence
    ("...until Dec. 9, 2026, 10 a.m." / "...đến 10:00 ngày 9/12/2026"): a format of our own, as
    Django's Vietnamese DATETIME_FORMAT starts its "Ngày" with a capital mid-sentence. The format
    string is translated (Django's date format characters; letters meant as text are escaped)."""
    return formats.date_format(timezone.localtime(until),
                               pgettext("date format of a restriction's end, inside a sentence", "N j, Y, P"))


def _with_reason(text: str, restriction: Restriction) -> str:
    """`text`, one sentence, then the restriction's reason if it has one. A sentence that ends with
    a date whose format ends with a period (English "8:39 p.m.") and then the sentence's own period
    keeps one period, not two ("...8:39 p.m.. Reason")."""
    if text.endswith(".."):
        text = text[:-1]
    if restriction.reason:
        text += " " + gettext("Reason: %(reason)s") % {"reason": restriction.reason}
    return text


def ban_message(ban: Restriction) -> str:
    """The sentence shown to a banned user, in the active language: why, and until when."""
    if ban.until is None:
        return _with_reason(gettext("Your account is banned permanently."), ban)
    return _with_reason(gettext("Your account is banned until %(until)s.") % {"until": _when(ban.until)}, ban)


def mute_message(mute: Restriction) -> str:
    """The sentence shown to a muted user who tries to chat, in the active language. A mute always
    has an end; a restriction without one is a permanent ban (`mute_of` returns the ban)."""
    if mute.until is None:
        return _with_reason(gettext("Your account is banned permanently."), mute)
    return _with_reason(gettext("You cannot chat until %(until)s.") % {"until": _when(mute.until)}, mute)


def _seek_bar_reasons() -> dict[str, str]:
    """What each fair-play reason code (`moderation.fairplay.REASONS`) says, in the active language."""
    return {
        "abort": gettext("you aborted several games in a row"),
        "leave": gettext("you left the table in several games"),
        "absence": gettext("you did not come back to several games"),
        "no_start": gettext("you let the clock run out without moving in several games"),
    }


def queue_ban_message(bar: Restriction, now: datetime) -> str:
    """The sentence shown to a user who may not seek a game (`queue_ban_of`), in the active
    language: the reason and the time left (minutes, rounded up). A ban reads as `ban_message`."""
    reasons = _seek_bar_reasons()
    if bar.reason not in reasons:
        return ban_message(bar)
    minutes = max(1, -(-int((bar.until - now).total_seconds()) // 60))
    return ngettext(
        "You cannot look for a game for %(minutes)s more minute: %(reason)s.",
        "You cannot look for a game for %(minutes)s more minutes: %(reason)s.",
        minutes,
    ) % {"minutes": minutes, "reason": reasons[bar.reason]}
