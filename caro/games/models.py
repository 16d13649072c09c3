"""Games and their moves. Only `caro.games.services` changes these rows (design.md)."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """One game between two seats, X (moves first) and O.

    Time fields are in milliseconds; `deadline` is the moment the player to move loses on time.
    `event_version` grows by one with every event broadcast for this game, so clients can spot gaps.
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

    class Winner(models.TextChoices):
        X = "X", "X"
        O = "O", "O"  # noqa: E741

    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.CARO)
    rules = models.JSONField(default=dict, help_text="caro.engine.caro.Rules.to_dict()")
    x_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    o_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING, db_index=True)
    ply = models.PositiveIntegerField(default=0, help_text="moves played so far")
    to_move = models.CharField(
        max_length=1, choices=Winner.choices, default="X",
        help_text="the seat to move (not always by ply parity: Reversi passes)",
    )
    move_time_ms = models.PositiveIntegerField(default=60_000, help_text="per-move clock, ms (0: no clock)")
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    winner = models.CharField(max_length=1, choices=Winner.choices, blank=True)
    termination = models.CharField(max_length=16, choices=Termination.choices, blank=True)
    win_line = models.JSONField(default=list, blank=True, help_text="square names of the winning run")
    event_version = models.PositiveIntegerField(default=0)
    channel_group = models.CharField(
        max_length=80, blank=True, help_text="Channels group that receives this game's events"
    )
    bot_side = models.CharField(
        max_length=1, choices=Winner.choices, blank=True, help_text="the seat the computer plays"
    )
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, blank=True)
    rated = models.BooleanField(default=False)
    rematch_offer = models.CharField(
        max_length=1, choices=Winner.choices, blank=True, help_text="the seat that asked for a rematch"
    )
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.get_status_display()})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def is_local(self) -> bool:
        """Two players on one device: one user holds both seats."""
        return self.x_player_id is not None and self.x_player_id == self.o_player_id

    @property
    def turn(self) -> str:
        """The seat to move ("X" or "O"), kept by the game service after every move."""
        return self.to_move

    def seat_of(self, user) -> str | None:
        """Return "X" or "O" for a seated user, else None (for a local game: the side to move)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        if self.is_local and self.x_player_id == user.pk:
            return self.turn
        if self.x_player_id == user.pk:
            return "X"
        if self.o_player_id == user.pk:
            return "O"
        return None


class Move(models.Model):
    """A stone placed in a game. `client_id` makes a repeated frame idempotent."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(help_text="1 for the first move")
    side = models.CharField(max_length=1, choices=Game.Winner.choices)
    square = models.CharField(max_length=4)
    client_id = models.UUIDField(default=uuid.uuid4)
    think_ms = models.PositiveIntegerField(default=0, help_text="time the mover used, ms")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply"),
            models.UniqueConstraint(fields=["game", "client_id"], name="move_unique_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.side} {self.square}"
