"""Moderation records: the audit log of every moderator action and automatic ban, and players'
reports. The restrictions themselves (bans, mutes, seek bars) live on `accounts.User`, where every
lower app can read them (`accounts.restrictions`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from caro.games.models import Game
from caro.rooms.models import ChatMessage, Room


class AuditEntry(models.Model):
    """One moderator action or automatic ban: who (`actor`; None for the fair-play rule), when,
    what (`action` and its targets) and why (`reason`). Written only by `moderation.services` and
    `moderation.fairplay`, never edited (read-only in admin)."""

    class Action(models.TextChoices):
        BAN = "ban", _("Ban")
        UNBAN = "unban", _("Unban")
        MUTE = "mute", _("Mute chat")
        UNMUTE = "unmute", _("Unmute chat")
        ANNUL = "annul", _("Annul a game")
        ABORT = "abort", _("Stop a game")
        CLOSE = "close", _("Close a room")
        HIDE = "hide", _("Hide a chat message")
        RATING = "rating", _("Rating change")
        REPORT_RESOLVED = "report_resolved", _("Report resolved")
        REPORT_DISMISSED = "report_dismissed", _("Report dismissed")
        FAIRPLAY_BAN = "fairplay_ban", _("Automatic seek bar (fair play)")

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("moderator"), null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="moderation_done",
                              help_text=_("empty for an automatic action"))
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="moderation_history")
    game = models.ForeignKey(Game, verbose_name=_("game"), null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    room_code = models.CharField(_("room code"), max_length=6, blank=True,
                                 help_text=_("kept as text: rooms may be purged later"))
    chat_message = models.ForeignKey(ChatMessage, verbose_name=_("chat message"), null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True,
                               help_text=_('e.g. {"until": ISO time} for a ban or a mute'))

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at"]
        indexes = [models.Index(fields=["user", "-at"], name="audit_user_at")]
        permissions = [
            ("ban_user", _("Can ban and unban players")),
            ("mute_user", _("Can mute players' chat")),
            ("annul_game", _("Can annul a finished rated game")),
            ("abort_game", _("Can stop a live game")),
            ("close_room", _("Can close a room")),
            ("hide_chat", _("Can hide chat messages")),
            ("decide_report", _("Can resolve or dismiss reports")),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"


class Report(models.Model):
    """A player's report of their opponent in a game they played (one per reporter and game)."""

    class Reason(models.TextChoices):
        INSULTS = "insults", _("Insults or harassment in chat")
        CHEATING = "cheating", _("Getting help from a program or a person")
        STALLING = "stalling", _("Stalling: letting the clock run instead of playing")
        LEAVING = "leaving", _("Leaving or aborting games on purpose")
        NAME = "name", _("Offensive name")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reported by"),
                                 on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reported player"),
                                 on_delete=models.CASCADE, related_name="reports_against")
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="reports")
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=500, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    decision_note = models.CharField(_("decision note"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["reporter", "game"], name="report_once_per_game")]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="report_status_created"),
            models.Index(fields=["reported", "-created_at"], name="report_reported_created"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_reason_display()}"

