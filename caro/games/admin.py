from django.contrib import admin

from caro.games.models import Game, Move


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ("ply", "side", "square", "think_ms", "client_id", "created_at")

    def has_add_permission(self, request, obj=None):  # moves are added only by the game service
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-mostly: games change only through caro.games.services."""

    list_display = ("id", "kind", "status", "x_player", "o_player", "ply", "winner", "termination", "created_at")
    list_filter = ("status", "kind", "termination")
    search_fields = ("x_player__username", "o_player__username", "x_player__display_name", "o_player__display_name")
    raw_id_fields = ("x_player", "o_player", "rematch_of")
    readonly_fields = ("rules", "ply", "deadline", "winner", "termination", "win_line", "event_version",
                       "channel_group", "created_at", "started_at", "finished_at", "status")
    inlines = [MoveInline]
