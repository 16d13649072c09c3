"""Ratings per player and category, and every change with the game that caused it.

`Rating` is a player's current standing in one category (`ranking.categories`); `RatingChange`
is one player's change from one game, written in the transaction that ends the game
(`ranking.services.rate_game`) and kept forever: the history chart reads it, and an annulment
(`ranking.services.revert_game`) undoes exactly those rows and marks them `reverted_at`.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ranking import categories, elo


class Rating(models.Model):
    """A player's rating in one category. `value` in points, `games` rated games counted,
    `peak` the highest value reached (K drops to 10 for good once it reached 2400); an annulment
    recomputes it without the annulled game (`ranking.services.revert_game`)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
                             related_name="ratings")
    category = models.CharField(_("category"), max_length=16, choices=categories.CHOICES)
    value = models.IntegerField(_("rating"), default=elo.START_RATING)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    peak = models.IntegerField(_("highest rating"), default=elo.START_RATING)
    last_played_at = models.DateTimeField(_("last rated game"), null=True, blank=True)
    listed = models.BooleanField(
        _("on the leaderboard"), default=False,
        help_text=_("a rated game in the last ranking.pages.ACTIVE_DAYS days; set by every rated game, "
                    "cleared by the hourly ranking.tasks.unlist_inactive"),
    )
    established = models.BooleanField(
        _("established"), default=False,
        help_text=_("not provisional (ranking.elo.PROVISIONAL_GAMES rated games or more): listed before the "
                    "provisional players; set by every rated game and every revert"),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "category"], name="rating_one_per_category")]
        indexes = [
            # The leaderboard order (established players first, then best first, ties by user id)
            # over listed players only, so a page of it and the viewer's rank (COUNTs of ranges)
            # are index(-only) scans.
            models.Index(fields=["category", "-established", "-value", "user"], name="rating_leaderboard_tiers",
                         condition=Q(listed=True)),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.category} {self.display}"

    @property
    def display(self) -> str:
        """The rating as shown: "1500", or "1200?" while provisional."""
        return elo.display(self.value, self.games)

    @property
    def provisional(self) -> bool:
        return elo.is_provisional(self.games)

    @property
    def reached_top(self) -> bool:
        """The rating has reached `elo.TOP_RATING` at some point (K stays 10 after that)."""
        return self.peak >= elo.TOP_RATING

    def standing(self) -> elo.Standing:
        return elo.Standing(rating=self.value, games=self.games, reached_top=self.reached_top)


class RatingChange(models.Model):
    """One player's rating change from one rated game: `before` + `delta` = `after` (points),
    `k` the K used, `score` 1/0.5/0 for a win/draw/loss, the opponent and their rating before.
    `reverted_at` is set when the game was annulled and the change undone."""

    game = models.ForeignKey("games.Game", verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
                             related_name="rating_changes")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("opponent"), null=True,
                                 on_delete=models.SET_NULL, related_name="+")
    category = models.CharField(_("category"), max_length=16, choices=categories.CHOICES)
    score = models.FloatField(_("score"), help_text=_("1 win, 0.5 draw, 0 loss"))
    before = models.IntegerField(_("rating before"))
    after = models.IntegerField(_("rating after"))
    delta = models.IntegerField(_("change"))
    k = models.PositiveSmallIntegerField(_("K factor"))
    opponent_before = models.IntegerField(_("opponent's rating before"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    reverted_at = models.DateTimeField(_("reverted"), null=True, blank=True,
                                       help_text=_("the game was annulled and this change undone"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game")]
        indexes = [models.Index(fields=["user", "category", "created_at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.category} {elo.signed(self.delta)} (game {self.game_id})"

    @property
    def signed_delta(self) -> str:
        return elo.signed(self.delta)

    def shown_after(self) -> str:
        """The rating after this game as the room and the leaderboard show it: "1220?" while the
        player had fewer than `elo.PROVISIONAL_GAMES` rated games of this category, this one
        included (changes refunded by an annulment not counted), else "1220". One query."""
        games = RatingChange.objects.filter(user_id=self.user_id, category=self.category, pk__lte=self.pk,
                                            reverted_at__isnull=True).count()
        return elo.display(self.after, games)


# Matchmaking's models live in their own module; importing them here registers them with the app.
from ranking.seeks import Pairing, Seek  # noqa: E402,F401
