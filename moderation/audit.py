"""Writing the audit log (`AuditEntry`): one call per moderator action or automatic ban."""

from __future__ import annotations

from moderation.models import AuditEntry


def audit(actor, action: str, *, user=None, game=None, room_code: str = "", chat_message=None,
          reason: str = "", details: dict | None = None) -> AuditEntry:
    """Store who (`actor`, a User; None for an automatic action), what (`action`, an
    `AuditEntry.Action` value, and its targets) and why (`reason`). Call it inside the action's
    transaction, so the entry commits or rolls back with the action. The ratings admin calls it with
    action "rating" for a direct rating edit (details: {"category", "from", "to"})."""
    return AuditEntry.objects.create(
        actor=actor, action=action, user=user, game=game, room_code=room_code, chat_message=chat_message,
        reason=reason, details=details or {},
    )
