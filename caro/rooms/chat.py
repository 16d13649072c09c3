"""Room chat: say a line, read the recent lines, hide one (docs/protocol.md, "Chat").

The channel a line goes to is decided here from the sender's seat in the room's current game,
never from the frame: players talk in the players' channel, everyone else in the spectators'.
Every line goes to the room's group; the page shows the spectators' channel to a player only when
they open it. Errors are `ChatError` with a machine code and a translated message.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.restrictions import Restriction, ban_message, ban_of, mute_message, mute_of
from caro.games import outbox
from caro.games.display import printable
from caro.rooms.models import ChatMessage, Room

#: The longest line, in characters (after trimming spaces), as short as a game chat needs.
MAX_CHAT_CHARS = 200
#: Flood rule: at most CHAT_BURST lines per user in any CHAT_WINDOW_S seconds (all rooms, all
#: sockets: counted from the stored lines, so a second tab or server process does not double it).
CHAT_BURST, CHAT_WINDOW_S = 5, 10
#: How many recent lines a socket gets when it connects.
HISTORY_LINES = 50

MESSAGES = {
    "chat_empty": _("Write something before sending."),
    "chat_too_long": _("A chat message can have at most 200 characters."),
    "chat_flood": _("You are sending messages too fast: wait a few seconds."),
    "chat_closed": _("This room is closed."),
    "chat_signin": _("To chat, first press the “Chat as …” button below the chat."),
}


class ChatError(Exception):
    """A refused chat line: `code` (a key of MESSAGES, or "banned"/"muted" with the `restriction`
    in force); `message` is the translated sentence in the active language."""

    def __init__(self, code: str, restriction: Restriction | None = None) -> None:
        if code not in MESSAGES and restriction is None:
            raise ValueError(f"unknown chat error code {code!r}")
        self.code = code
        self.restriction = restriction
        super().__init__(code)

    @property
    def message(self) -> str:
        if self.code == "banned":
            return ban_message(self.restriction)
        if self.code == "muted":
            return mute_message(self.restriction)
        return str(MESSAGES[self.code])


def clean_text(text) -> str:
    """The line to store: `text` trimmed, control characters (but not spaces) removed. Raises
    ChatError `chat_empty` / `chat_too_long`."""
    if not isinstance(text, str):
        raise ChatError("chat_empty")
    cleaned = printable(text)
    if not cleaned:
        raise ChatError("chat_empty")
    if len(cleaned) > MAX_CHAT_CHARS:
        raise ChatError("chat_too_long")
    return cleaned


def as_event(message: ChatMessage, name: str) -> dict:
    """The `chat` event of a stored line (`name`: the author's public name)."""
    return {"type": "chat", "id": message.pk, "channel": message.channel, "name": name,
            "user": message.author_id, "text": message.text,
            "at_ms": int(message.created_at.timestamp() * 1000)}


def say(room_code: str, user, text) -> dict:
    """Store `user`'s line in the room's chat and broadcast it to the room after commit; returns
    the `chat` event. Raises ChatError: `chat_signin` (no session user), `banned` / `muted` (with
    the reason and the end in the message), `chat_closed`, `chat_empty`, `chat_too_long`,
    `chat_flood` (CHAT_BURST lines per CHAT_WINDOW_S seconds). Nothing is stored on an error.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        raise ChatError("chat_signin")
    cleaned = clean_text(text)
    now = timezone.now()
    with transaction.atomic():
        # The user's row lock makes the flood count exact across tabs and server processes, and the
        # restrictions are read fresh (a socket's user object may be older than a mute).
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        ban = ban_of(user, now)
        if ban is not None:
            raise ChatError("banned", ban)
        mute = mute_of(user, now)
        if mute is not None:
            raise ChatError("muted", mute)
        room = Room.objects.select_related("current_game").get(code=room_code)
        if room.closed_at is not None:
            raise ChatError("chat_closed")
        recent = ChatMessage.objects.filter(author=user, created_at__gt=now - timedelta(seconds=CHAT_WINDOW_S))
        if recent.count() >= CHAT_BURST:
            raise ChatError("chat_flood")
        game = room.current_game
        seated = game is not None and user.pk in (game.host_id, game.guest_id)
        channel = ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS
        message = ChatMessage.objects.create(room=room, game=game, channel=channel, author=user, text=cleaned)
        event = as_event(message, user.public_name)
        transaction.on_commit(lambda: outbox.broadcast(room.group_name, event))
    return event


def history(room_code: str) -> list[dict]:
    """The room's last HISTORY_LINES visible lines as `chat` events, oldest first."""
    rows = (ChatMessage.objects.filter(room__code=room_code, hidden=False)
            .select_related("author").order_by("-created_at")[:HISTORY_LINES])
    return [as_event(m, m.author.public_name) for m in reversed(rows)]


def hide(message_id: int, *, by) -> ChatMessage:
    """Hide a line (a moderator's decision; the caller checks the permission and writes the audit
    log) and tell the room at once (`chat_hidden`), so it disappears for everyone. Hiding a hidden
    line again changes nothing. Raises ChatMessage.DoesNotExist."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().select_related("room").get(pk=message_id)
        if not message.hidden:
            message.hidden, message.hidden_at, message.hidden_by = True, timezone.now(), by
            message.save(update_fields=["hidden", "hidden_at", "hidden_by"])
            group = message.room.group_name
            transaction.on_commit(lambda: outbox.broadcast(group, {"type": "chat_hidden", "id": message_id}))
    return message


def closed_text() -> str:
    """What a socket of a closed room is told, in the active language."""
    return gettext("A moderator closed this room. You can start a new game from the home page.")
