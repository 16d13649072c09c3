"""Seeks and pairings (the models of matchmaking; the rules live in `ranking.pairing`).

Imported by `ranking.models`, so Django registers them with the ranking app.

A **seek** is one player waiting for an opponent: one row per user (a second tab shares it), in
PostgreSQL, so every web process and the worker see the same queue. The seek sockets of a user keep
it alive: `sockets` counts the open ones and `seen_at` is the last heartbeat of any of them. A
**pairing** records a game made by the pass: who was paired, when, and until when both must have
opened the game (the no-show grace).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from caro.games.models import Game


class Seek(models.Model):
    """One user waiting for a quick or ranked game. Ordered by (`front` first, then `queued_at`)."""

    class Mode(models.TextChoices):
        QUICK = "quick", _("Quick match")
        RANKED = "ranked", _("Ranked match")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PAIRED = "paired", _("Paired")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
                                related_name="seek")
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices)
    choice = models.CharField(_("choice"), max_length=40,
                              help_text=_("quick: a ranking.choices key; ranked: a rating category slug"))
    rating = models.IntegerField(_("rating"), default=0, help_text=_("ranked: the player's rating when joining"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.WAITING)
    front = models.BooleanField(_("front of the queue"), default=False,
                                help_text=_("back after an opponent did not arrive"))
    queued_at = models.DateTimeField(_("waiting since"))
    joined_at = models.DateTimeField(_("joined"), help_text=_("the last join (any tab), for the pass's next round"))
    seen_at = models.DateTimeField(_("last heartbeat"))
    sockets = models.PositiveIntegerField(_("open sockets"), default=0)
    computer_offered = models.BooleanField(_("offered the computer"), default=False)
    game = models.ForeignKey(Game, verbose_name=_("game"), null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        indexes = [
            # The queue of one choice in queue order, waiting seeks only: the pass's read and a
            # quick arrival's partner (ranking.pairing).
            models.Index(fields=["mode", "choice", "-front", "queued_at", "id"],
                         condition=models.Q(status="waiting"), name="seek_waiting_queue"),
            # A ranked arrival's partner: the waiting seeks of its category within its rating window.
            models.Index(fields=["mode", "choice", "rating"], condition=models.Q(status="waiting"),
                         name="seek_waiting_rating"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode}:{self.choice} ({self.status})"

    @property
    def group_name(self) -> str:
        """The Channels group of this user's seek sockets (every tab, on every web process)."""
        return seek_group(self.user_id)


def seek_group(user_id: int) -> str:
    return f"seek.{user_id}"


class Pairing(models.Model):
    """A game made by the pairing pass, kept for the no-show check and the recent-abort rule."""

    game = models.OneToOneField(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="pairing")
    mode = models.CharField(_("mode"), max_length=8, choices=Seek.Mode.choices)
    choice = models.CharField(_("choice"), max_length=40)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("host"), on_delete=models.CASCADE,
                             related_name="+")
    guest = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("guest"), on_delete=models.CASCADE,
                              related_name="+")
    room_code = models.CharField(_("room code"), max_length=6)
    created_at = models.DateTimeField(_("paired at"))
    arrive_by = models.DateTimeField(_("arrive by"), db_index=True,
                                     help_text=_("both players must have opened the game by then"))
    checked = models.BooleanField(_("arrival checked"), default=False)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        indexes = [models.Index(fields=["host", "guest", "created_at"])]

    def __str__(self) -> str:
        return f"{self.mode}:{self.choice} game {self.game_id}"
