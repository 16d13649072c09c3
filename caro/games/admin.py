"""Games in the admin: read-only. A game changes only through `caro.games.services` (moderation
actions will call services too), so nobody edits seats, sides or results around its rules."""

from django.contrib import admin

from caro.games.models import Game, Move


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    fields = ("ply", "side", "square", "think_ms", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "host", "guest", "host_side", "ply", "winner", "termination",
                    "created_at")
    list_filter = ("status", "kind", "termination", "rated")
    list_select_related = ("host", "guest")
    search_fields = ("host__username", "guest__username", "host__display_name", "guest__display_name")
    inlines = [MoveInline]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Game._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
