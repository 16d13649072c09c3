"""Players: registered accounts and guests share one user model.

A guest is a real `User` row with `is_guest=True`, no usable password and a generated display name;
it is logged in through the session, so HTTP views and websocket consumers identify guests and
accounts the same way (never from a player id sent by the client).
"""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player. `display_name` is what other players see; guests get a generated one."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    is_guest = models.BooleanField(_("guest"), default=False, db_index=True)

    # Restrictions in force now (written only by `moderation`, read by every app through
    # `accounts.restrictions`): a ban keeps the user from playing, creating rooms and chatting; a
    # mute from chatting; a queue ban (fair play, automatic) from seeking a game.
    banned_until = models.DateTimeField(_("banned until"), null=True, blank=True)
    banned_forever = models.BooleanField(_("banned permanently"), default=False)
    ban_reason = models.CharField(_("reason for the ban"), max_length=300, blank=True)
    muted_until = models.DateTimeField(_("chat muted until"), null=True, blank=True)
    mute_reason = models.CharField(_("reason for the mute"), max_length=300, blank=True)
    queue_banned_until = models.DateTimeField(_("barred from seeking until"), null=True, blank=True)
    queue_ban_reason = models.CharField(_("reason for the seek bar"), max_length=40, blank=True,
                                        help_text=_("a moderation.fairplay reason code"))
    fairplay_strikes = models.PositiveSmallIntegerField(
        _("fair-play strikes"), default=0, help_text=_("bad endings (aborts, leaving, absence) not yet forgiven"))
    fairplay_good_games = models.PositiveSmallIntegerField(
        _("good games since the last strike"), default=0)
    queue_bans = models.PositiveSmallIntegerField(
        _("recent seek bars"), default=0, help_text=_("the next bar lasts 10 minutes times 2 to this power"))

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            # "Lan" and "lan" are one name (accounts.names); the forms check first, this is the guarantee.
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        """The name shown on boards and in rooms."""
        return self.display_name or self.username
