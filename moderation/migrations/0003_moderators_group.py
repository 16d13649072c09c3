"""The "Moderators" group with exactly the moderation powers (issue 11).

Members must also be staff (admin is staff-only). They may view players, games, rooms, chat,
reports and the audit log, and carry out the actions of `moderation.services`; they edit no row
directly (ratings included: only superusers edit ratings).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
#: `(app_label, codename)` of every permission the group holds, nothing else.
PERMISSIONS = [
    ("moderation", "ban_user"),
    ("moderation", "mute_user"),
    ("moderation", "annul_game"),
    ("moderation", "abort_game"),
    ("moderation", "close_room"),
    ("moderation", "hide_chat"),
    ("moderation", "decide_report"),
    ("moderation", "view_report"),
    ("moderation", "view_auditentry"),
    ("accounts", "view_user"),
    ("games", "view_game"),
    ("rooms", "view_room"),
    ("rooms", "view_chatmessage"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations ran; create them now to grant them.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    perms = [Permission.objects.get(content_type__app_label=app, codename=code) for app, code in PERMISSIONS]
    group.permissions.set(perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("moderation", "0002_relations"),
        ("accounts", "0003_restrictions"),
        ("games", "0012_annulled"),
        ("rooms", "0004_chat_and_closing"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
