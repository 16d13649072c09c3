"""Friend rooms: a shareable link and code; the current game; everyone else watches."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from caro.games.models import FirstMover, Game

#: Room codes avoid characters people confuse when reading them aloud or off a phone:
#: no 0/O, 1/I/L, 5/S, 2/Z, 8/B, U/V.
CODE_ALPHABET = "34679ACDEFGHJKMNPQRTWXY"
CODE_LENGTH = 6
#: The Channels group of the public lobby's sockets (`lobby.consumers`): every change to the list
#: of open rooms (a room listed, its seat taken, its host gone or back, a room closed) is announced
#: there by the rooms app, which owns the list (`Room.lobby_since`).
LOBBY_GROUP = "lobby"


class Room(models.Model):
    """A room: a shareable address whose games follow one another ("play again").

    `code` is 6 characters of `CODE_ALPHABET`, shown as "K7M 4QP". A friend room seats two people;
    a computer room one person against a bot; a local room one person playing both sides.
    """

    class Kind(models.TextChoices):
        FRIEND = "friend", _("Play a friend")
        COMPUTER = "computer", _("Play the computer")
        LOCAL = "local", _("Two players on one device")

    code = models.CharField(_("code"), max_length=CODE_LENGTH, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.FRIEND)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.PROTECT,
        related_name="rooms_created",
    )
    preset = models.CharField(_("rules"), max_length=32, default="caro-vn")
    move_time_ms = models.PositiveIntegerField(_("time per move (ms)"), default=60_000, help_text=_("0: none"))
    bank_ms = models.PositiveIntegerField(_("total time per player (ms)"), default=0,
                                          help_text=_("0: a per-move clock"))
    increment_ms = models.PositiveIntegerField(_("time added per move (ms)"), default=0)
    first_mover = models.CharField(_("first move in game 1"), max_length=6, choices=FirstMover.choices,
                                   default=FirstMover.HOST)
    takeback = models.BooleanField(_("taking back by agreement"), default=False)
    listed = models.BooleanField(
        _("listed in the lobby"), default=False,
        help_text=_("the host waits for anyone in the public lobby to take the free seat"))
    accounts_only = models.BooleanField(
        _("accounts only"), default=False, help_text=_("only players with an account may take the free seat"))
    watchable = models.BooleanField(
        _("shown on the watch page"), default=False,
        help_text=_("the room's games between people are listed for anyone to watch (quick and ranked games "
                    "always; friend rooms when the host chose it)"))
    lobby_since = models.DateTimeField(
        _("in the lobby since"), null=True, blank=True,
        help_text=_("set while a listed room waits for its second player; cleared when the seat is taken or "
                    "the room is closed"))
    current_game = models.ForeignKey(Game, verbose_name=_("current game"), null=True,
                                     on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True,
                                     help_text=_("set when a moderator closes the room; nobody may use it after"))
    closed_reason = models.CharField(_("reason for closing"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        indexes = [
            # The public lobby, newest first: only the rooms waiting in it (a few hundred at most).
            models.Index(fields=["-lobby_since"], name="room_lobby", condition=Q(lobby_since__isnull=False)),
        ]

    def __str__(self) -> str:
        return self.display_code

    @property
    def display_code(self) -> str:
        """The code grouped for reading aloud: "K7M 4QP"."""
        return f"{self.code[:3]} {self.code[3:]}"

    @property
    def group_name(self) -> str:
        """The Channels group of everyone in the room (players and spectators)."""
        return f"room.{self.code}"


class ChatMessage(models.Model):
    """One line of a room's chat (docs/protocol.md, "Chat").

    `channel` is where it was said: the players' channel (the two seated players; everyone may read
    it) or the spectators' (everyone else; players read it only when they open it). The text is
    stored as typed and always shown as text (escaped, links not made clickable). A moderator may
    hide a message: it stays stored for reports and the audit log, and disappears for everyone.
    """

    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="chat")
    game = models.ForeignKey(Game, verbose_name=_("game"), null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="chat_messages", help_text=_("the room's game when it was said"))
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"), on_delete=models.CASCADE,
                               related_name="chat_messages")
    text = models.CharField(_("text"), max_length=200)
    created_at = models.DateTimeField(_("said at"), auto_now_add=True)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("hidden by"), null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [
            models.Index(fields=["room", "created_at"], name="chat_room_created"),
            models.Index(fields=["author", "created_at"], name="chat_author_created"),
            models.Index(fields=["game", "created_at"], name="chat_game_created"),
        ]

    def __str__(self) -> str:
        return f"{self.author_id}: {self.text[:40]}"
