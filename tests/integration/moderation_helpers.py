"""Builders for the moderation tests: moderators (staff in the "Moderators" group) and the group."""

from importlib import import_module

from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User

GROUP_MIGRATION = import_module("moderation.migrations.0003_moderators_group")


def moderators_group() -> Group:
    """The "Moderators" group as the data migration makes it (re-made when a transactional test
    flushed the database: the migration's own function, run on its historical models)."""
    group = Group.objects.filter(name=GROUP_MIGRATION.GROUP).first()
    if group is None:
        state = MigrationExecutor(connection).loader.project_state(("moderation", "0003_moderators_group"))
        GROUP_MIGRATION.create_group(state.apps, None)
        group = Group.objects.get(name=GROUP_MIGRATION.GROUP)
    return group


def moderator(name: str = "mod", *, in_group: bool = True) -> User:
    """A staff user, in the Moderators group unless `in_group` is False."""
    user = User.objects.create_user(username=name, email=f"{name}@example.com", password="pw-12345678",
                                    is_staff=True)
    if in_group:
        user.groups.add(moderators_group())
    return User.objects.get(pk=user.pk)  # fresh: no cached permissions


def staff_with(name: str, *codenames: str) -> User:
    """A staff user holding only the given moderation permissions."""
    user = User.objects.create_user(username=name, password="pw-12345678", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="moderation", codename__in=codenames))
    return User.objects.get(pk=user.pk)
