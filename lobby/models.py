"""The live games between people, kept for the watch page and the home page's featured game.

One `LiveGame` row per game between two people in play: written in the transaction that starts
the game (`caro.rooms.signals.games_started`), deleted in the one that ends it
(`caro.games.signals.game_ended`), so the watch page reads the highest-rated live games from one
index, never sorting the `Game` table by its players' ratings (10,000 live games: bench/pages.py).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from caro.games.models import Game


class LiveGame(models.Model):
    """A game between two people in play. `rating` orders the watch page (the mean of the two
    players' ratings when it started, in its rating category, or in the main one of its kind);
    `host_rating` / `guest_rating` and the `*_provisional` flags are shown beside the names.
    `watchable`: listed on the watch page (quick and ranked games; friend rooms when the host
    chose it, `Room.watchable`)."""

    game = models.OneToOneField(Game, verbose_name=_("game"), primary_key=True, on_delete=models.CASCADE,
                                related_name="+")
    room_code = models.CharField(_("room code"), max_length=6)
    kind = models.CharField(_("game"), max_length=16, choices=Game.Kind.choices)
    rated = models.BooleanField(_("rated"), default=False)
    watchable = models.BooleanField(_("shown on the watch page"), default=True)
    rating = models.IntegerField(_("rating"))
    host_rating = models.IntegerField(_("host's rating"))
    guest_rating = models.IntegerField(_("guest's rating"))
    host_provisional = models.BooleanField(_("host's rating is provisional"), default=True)
    guest_provisional = models.BooleanField(_("guest's rating is provisional"), default=True)
    started_at = models.DateTimeField(_("started"))

    class Meta:
        verbose_name = _("live game")
        verbose_name_plural = _("live games")
        indexes = [
            models.Index(fields=["-rating", "game"], name="live_watch", condition=Q(watchable=True)),
            models.Index(fields=["kind", "-rating", "game"], name="live_watch_kind", condition=Q(watchable=True)),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} ({self.rating})"
