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
