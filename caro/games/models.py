"""Games and their moves. Only `caro.games.services` changes these rows (docs/architecture.md).

Two words that are easy to mix up, kept apart here:

- a **side** is what the rules know: "X" moves first (Black in Reversi and Renju), "O" second.
  Moves, the side to move and the winner are sides.
- a **seat** is a person's place at the table: the *host* (who opened the game: the room's
  creator, or the first player of a pairing) and the *guest*. Players, the computer, offers and
  clocks belong to seats. Which side each seat plays is decided before the game starts (by the
  room or the pairing) and stored in `host_side`; an opening with a swap may change it later.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


class Side(models.TextChoices):
    """The rules' two sides: X moves first (Black in Reversi and Renju), O second."""

    X = "X", "X"
    O = "O", "O"  # noqa: E741

    @staticmethod
    def other(side: str) -> str:
        return "O" if side == "X" else "X"


class Seat(models.TextChoices):
    """A person's place at the table, apart from the side they play in a given game."""

    HOST = "host", _("Host")
    GUEST = "guest", _("Guest")

    @staticmethod
    def other(seat: str) -> str:
        return "guest" if seat == "host" else "host"


class FirstMover(models.TextChoices):
    """Who moves first when a game starts: a seat, the site's rock-paper-scissors throw, or chance."""

    HOST = "host", _("Host")
    GUEST = "guest", _("Guest")
    RPS = "rps", _("Rock-paper-scissors")
    RANDOM = "random", _("Random")


class AbsenceRule(models.TextChoices):
    """What happens when an absent player's grace period runs out (the game's context)."""

    FORFEIT = "forfeit", _("The absent player loses")
    OPPONENT_CHOOSES = "choose", _("The opponent chooses: wait, claim the win or call a draw")


class Takeback(models.TextChoices):
    """Whether two people may take back moves by agreement (the computer's own rule is apart)."""

    NONE = "none", _("No taking back")
    AGREEMENT = "agreement", _("By agreement")


class GameQuerySet(models.QuerySet):
    """Games in the domain's words."""

    def imported(self):
        """Records uploaded or pasted by visitors (never rated, nobody seated)."""
        return self.exclude(imported={})

    def active(self):
        return self.filter(status=Game.Status.ACTIVE)

    def live(self):
        """Games that are not over: waiting for a player or in progress."""
        return self.filter(status__in=(Game.Status.WAITING, Game.Status.ACTIVE))

    def expired(self, now=None):
        """Active games whose move deadline has passed, earliest `wake_at` first: found and ordered
        through `wake_at` (indexed, never after the deadline; `deadline` itself has no index), which
        for a due game is its deadline unless moves pushed the deadline on since the timer last
        looked at it."""
        now = now or timezone.now()
        return self.active().filter(wake_at__lte=now, deadline__lte=now).order_by("wake_at")

    def to_wake(self, now=None):
        """Active games whose `wake_at` has passed but whose move deadline has not (or that have
        none): the deadline timer moves their `wake_at` up to the deadline."""
        now = now or timezone.now()
        return self.active().filter(wake_at__lte=now).filter(Q(deadline__gt=now) | Q(deadline__isnull=True))

    def against_the_computer(self):
        return self.exclude(bot_seat="")

    def absence_expired(self, now=None):
        """Active games whose absent player's grace period has passed (not yet acted on)."""
        return self.active().filter(absence_deadline__lte=now or timezone.now()).order_by("absence_deadline")

    def of_player(self, user):
        """Games in which `user` holds a seat."""
        return self.filter(Q(host=user) | Q(guest=user))


class Game(models.Model):
    """One game between two seats, host and guest, each playing one side (X moves first).

    Time fields are in milliseconds; `deadline` is the moment the player to move loses on time.
    `wake_at` is when the deadline timer looks at the game next: never after `deadline` (a trigger
    of the table sees to it), so `deadline`, which every move changes, needs no index of its own
    and a move's UPDATE of the row changes no indexed column (a HOT update).
    `event_version` grows by one with every event broadcast for this game, so clients can spot gaps.
    Events go to the Channels group `group_name`, derived from the game itself.
    """

    class Kind(models.TextChoices):
        CARO = "caro", _("Caro")
        REVERSI = "reversi", _("Reversi")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for an opponent")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Termination(models.TextChoices):
        FIVE = "five", _("Five in a row")
        FULL_BOARD = "full_board", _("Full board")
        TIMEOUT = "timeout", _("Time ran out")
        RESIGN = "resign", _("Resignation")
        ABORT = "abort", _("Aborted")
        NO_LEGAL_MOVE = "no_legal_move", _("No legal move (Renju)")
        DISCS = "discs", _("Disc count")
        LEFT = "left", _("Left the table")
        ABSENCE = "absence", _("Did not come back")
        AGREEMENT = "agreement", _("Draw by agreement")
        ABANDONED = "abandoned", _("Abandoned (nobody played for a long time)")
        MODERATOR = "moderator", _("Stopped by a moderator")

    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")

    kind = models.CharField(_("game"), max_length=16, choices=Kind.choices, default=Kind.CARO)
    rules = models.JSONField(_("rules"), default=dict, help_text=_("caro.engine.caro.Rules.to_dict()"))
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("host"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="games_as_host",
    )
    guest = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("guest"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="games_as_guest",
    )
    host_side = models.CharField(
        _("host plays"), max_length=1, choices=Side.choices, default=Side.X,
        help_text=_("the side the host plays in this game; the guest plays the other"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    ply = models.PositiveIntegerField(_("moves played"), default=0)
    position = models.TextField(
        _("stored position"), blank=True, default="",
        help_text=_('"<ply>|<the board after that many moves>" (caro.games.snapshot.board_now): a move '
                    'plays on it instead of replaying every stored move; empty or of another ply: rebuilt'),
    )
    to_move = models.CharField(
        _("side to move"), max_length=1, choices=Side.choices, default=Side.X,
        help_text=_("not always by ply parity: Reversi passes"),
    )
    move_time_ms = models.PositiveIntegerField(_("time per move (ms)"), default=60_000, help_text=_("0: no clock"))
    bank_ms = models.PositiveIntegerField(
        _("total time per player (ms)"), default=0, help_text=_("0: a per-move clock (or none)")
    )
    increment_ms = models.PositiveIntegerField(_("time added per move (ms)"), default=0)
    host_bank_ms = models.PositiveIntegerField(_("host's time left (ms)"), default=0,
                                               help_text=_("at the start of the current turn"))
    guest_bank_ms = models.PositiveIntegerField(_("guest's time left (ms)"), default=0,
                                                help_text=_("at the start of the current turn"))
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    wake_at = models.DateTimeField(
        _("deadline timer's next look"), null=True, blank=True, editable=False,
        help_text=_("never after the deadline (a database trigger lowers it when the deadline comes "
                    "earlier); the deadline timer moves it up to the deadline when it passes "
                    "(caro.games.timer), so a move need not touch an index"),
    )
    first_mover = models.CharField(
        _("first move"), max_length=6, choices=FirstMover.choices, default=FirstMover.HOST,
        help_text=_("decides host_side when the game starts"),
    )
    throws = models.JSONField(
        _("rock-paper-scissors"), default=list, blank=True,
        help_text=_("[[host's throw, guest's throw], ...] until one wins"),
    )
    host_mark = models.CharField(
        _("host's mark"), max_length=1, choices=Side.choices, default=Side.X,
        help_text=_("caro: the mark the host draws, kept for every game of a room"),
    )
    absence_rule = models.CharField(
        _("when a player does not come back"), max_length=8, choices=AbsenceRule.choices,
        default=AbsenceRule.OPPONENT_CHOOSES,
    )
    takeback = models.CharField(_("taking back"), max_length=10, choices=Takeback.choices, default=Takeback.NONE)
    absent_seat = models.CharField(_("absent seat"), max_length=5, choices=Seat.choices, blank=True)
    absence_deadline = models.DateTimeField(_("absence deadline"), null=True, blank=True, db_index=True)
    absence_expired = models.BooleanField(_("absence ran out"), default=False,
                                          help_text=_("the opponent may now choose"))
    absence_waited = models.BooleanField(_("waited once more"), default=False)
    lapsed_seat = models.CharField(
        _("came back too late"), max_length=5, choices=Seat.choices, blank=True,
        help_text=_("came back only after the grace ran out, and has not moved since"),
    )
    draw_offer = models.CharField(_("draw offered by"), max_length=5, choices=Seat.choices, blank=True)
    host_draw_ply = models.IntegerField(_("host's last draw offer (ply)"), null=True, blank=True)
    guest_draw_ply = models.IntegerField(_("guest's last draw offer (ply)"), null=True, blank=True)
    undo_request = models.CharField(_("take-back asked by"), max_length=5, choices=Seat.choices, blank=True)
    host_undo_refused_ply = models.IntegerField(_("host's refused take-back (ply)"), null=True, blank=True)
    guest_undo_refused_ply = models.IntegerField(_("guest's refused take-back (ply)"), null=True, blank=True)
    left_seat = models.CharField(_("left by"), max_length=5, choices=Seat.choices, blank=True)
    winner = models.CharField(_("winner"), max_length=1, choices=Side.choices, blank=True)
    termination = models.CharField(_("ending"), max_length=16, choices=Termination.choices, blank=True)
    win_line = models.JSONField(_("winning line"), default=list, blank=True)
    event_version = models.PositiveIntegerField(_("event version"), default=0)
    bot_seat = models.CharField(
        _("computer's seat"), max_length=5, choices=Seat.choices, blank=True,
        help_text=_("the seat the computer holds"),
    )
    bot_level = models.CharField(_("computer level"), max_length=8, choices=BotLevel.choices, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    rematch_offer = models.CharField(
        _("rematch asked by"), max_length=5, choices=Seat.choices, blank=True,
        help_text=_("the seat that asked for a rematch"),
    )
    rematch_of = models.ForeignKey(
        "self", verbose_name=_("rematch of"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="rematches",
    )
    opening = models.JSONField(
        _("opening"), default=dict, blank=True,
        help_text=_('{} for a free opening; RIF or Swap2: {"kind": "rif"|"swap2", "first": the seat that '
                    'began as tentative Black, "log": [each step: the engine action plus "seat", "step" and '
                    '"plies" (the stones it placed)], "plies": the ply count when the opening ended (absent '
                    'while it runs)} (caro.games.services.opening)'),
    )
    imported = models.JSONField(
        _("imported record"), default=dict, blank=True,
        help_text=_('{} for a game played here; for an imported record {"format": "psq"|"ggf"|"moves"|'
                    '"squares", "names": {"X": str, "O": str}} (never rated, nobody seated)'),
    )
    upload_id = models.UUIDField(
        _("record id from the device"), null=True, blank=True, unique=True,
        help_text=_("set for a game played on the player's own device (against the computer in the page, or two "
                    "players on one device) and sent as a record: the id the page gave it, stored once "
                    "(caro.games.uploads); empty for a game played through the server"),
    )
    start_moves = models.PositiveIntegerField(
        _("moves from a position"), default=0,
        help_text=_("a game played on the device that continued a position: how many of its first moves "
                    "came from that position"),
    )
    annulled = models.BooleanField(
        _("annulled"), default=False, help_text=_("set by a moderator: kept, but its rating changes are reverted"),
    )
    annulled_at = models.DateTimeField(_("annulled at"), null=True, blank=True)
    annulled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("annulled by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    annul_reason = models.CharField(_("reason for the annulment"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            # The deadline timer's look-up: the earliest wake_at of an active game (a move changes
            # `deadline` but not `wake_at`, so its UPDATE of the row is HOT: docs/scaling.md).
            models.Index(fields=["wake_at"], condition=Q(status="active"), name="game_wake_active"),
            # ...and the earliest absence deadline (few games have one: a small index a move never
            # changes, so the timer reads one entry instead of every active game's row).
            models.Index(fields=["absence_deadline"], condition=Q(status="active", absence_deadline__isnull=False),
                         name="game_absence_active"),
            # The admin's game list (newest first, filtered by status or rated) and a player's games.
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(fields=["rated", "-created_at"], name="game_rated_created"),
        ]

    def __str__(self) -> str:
        return _("Game %(id)s (%(status)s)") % {"id": self.pk, "status": self.get_status_display()}

    def get_absolute_url(self) -> str:
        """The game's record page (caro.records) in the active language: /van/<id>/ or /en/game/<id>/."""
        language = "en" if (get_language() or "vi").startswith("en") else "vi"
        return reverse(f"records:game_{language}", kwargs={"game_id": self.pk})

    @property
    def group_name(self) -> str:
        """The Channels group that receives this game's events (whatever room, if any, shows it)."""
        return f"game.{self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def is_imported(self) -> bool:
        """A record read from a file or pasted text, not a game played on the site."""
        return bool(self.imported)

    @property
    def played_on_device(self) -> bool:
        """A game played in the player's browser (the computer in the page, or two players on one
        device) and sent to the site as a record when it ended."""
        return self.upload_id is not None

    @property
    def is_local(self) -> bool:
        """Two players on one device: one user holds both seats."""
        return self.host_id is not None and self.host_id == self.guest_id

    @property
    def turn(self) -> str:
        """The side to move ("X" or "O"), kept by the game service after every move."""
        return self.to_move

    # seats and sides

    def side_of(self, seat: str) -> str:
        """The side ("X"/"O") that `seat` plays in this game."""
        return self.host_side if seat == Seat.HOST else Side.other(self.host_side)

    def seat_playing(self, side: str) -> str:
        """The seat that plays `side` in this game."""
        return Seat.HOST if side == self.host_side else Seat.GUEST

    def player_in(self, seat: str):
        """The user in `seat`, or None (an open seat, or the computer's)."""
        return self.host if seat == Seat.HOST else self.guest

    def player_id_in(self, seat: str) -> int | None:
        return self.host_id if seat == Seat.HOST else self.guest_id

    @property
    def x_player(self):
        """The user playing X (moves first) in this game, or None."""
        return self.player_in(self.seat_playing(Side.X))

    @property
    def o_player(self):
        """The user playing O in this game, or None."""
        return self.player_in(self.seat_playing(Side.O))

    @property
    def bot_side(self) -> str:
        """The side the computer plays ("X"/"O"), or "" when no computer is seated."""
        return self.side_of(self.bot_seat) if self.bot_seat else ""

    def seat_of(self, user) -> str | None:
        """The seat `user` holds, or None (for a local game: the seat to move)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        if self.is_local and self.host_id == user.pk:
            return self.seat_playing(self.turn)
        if self.host_id == user.pk:
            return Seat.HOST
        if self.guest_id == user.pk:
            return Seat.GUEST
        return None

    def seat_field(self, name: str, seat: str):
        """The per-seat field `host_<name>` / `guest_<name>` of `seat`."""
        return getattr(self, f"{seat}_{name}")

    def set_seat_field(self, name: str, seat: str, value) -> None:
        setattr(self, f"{seat}_{name}", value)

    def mark_of(self, side: str) -> str:
        """The mark ("X"/"O") drawn for `side`'s stones: each person keeps their mark in a room.
        Games with an opening procedure (RIF, Swap2) draw the colours themselves: Black is X."""
        if self.opening:
            return side
        mark = self.host_mark if self.seat_playing(side) == Seat.HOST else Side.other(self.host_mark)
        return mark

    def marks(self) -> dict[str, str]:
        """`{"X": mark, "O": mark}`: the mark drawn for each side's stones."""
        return {side: self.mark_of(side) for side in (Side.X, Side.O)}

    def side_of_user(self, user) -> str | None:
        """The side `user` plays ("X"/"O"), or None for a spectator (local game: the side to move)."""
        seat = self.seat_of(user)
        return self.side_of(seat) if seat else None


class Move(models.Model):
    """A stone placed in a game. `client_id` makes a repeated frame idempotent."""

    # No index of its own on `game`: `move_unique_ply` (game, ply) serves every look-up by game,
    # and one index fewer is one index entry fewer to write per move (issue 27).
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="moves",
                             db_index=False)
    ply = models.PositiveIntegerField(_("move number"), help_text=_("1 for the first move"))
    side = models.CharField(_("side"), max_length=1, choices=Side.choices)
    square = models.CharField(_("square"), max_length=4)
    client_id = models.UUIDField(_("client id"), default=uuid.uuid4)
    think_ms = models.PositiveIntegerField(_("thinking time (ms)"), default=0)
    created_at = models.DateTimeField(_("played at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply"),
            models.UniqueConstraint(fields=["game", "client_id"], name="move_unique_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.side} {self.square}"


class Connection(models.Model):
    """An open websocket watching a game: a player's (with its seat) or a spectator's.

    Presence lives here, in PostgreSQL, so every web process sees every socket: a seat is present
    while at least one of its connections exists and was seen recently (heartbeats refresh
    `seen_at`). Rows of a process that died are removed by the presence sweep.
    """

    channel = models.CharField(_("channel"), max_length=120, unique=True)
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="connections")
    seat = models.CharField(_("seat"), max_length=5, choices=Seat.choices, blank=True,
                            help_text=_("empty for a spectator"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="game_connections",
    )
    seen_at = models.DateTimeField(_("last seen"), db_index=True)

    class Meta:
        verbose_name = _("connection")
        verbose_name_plural = _("connections")
        indexes = [models.Index(fields=["game", "seat"])]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.seat or 'spectator'}"
