from django.contrib import admin

from caro.rooms.models import Room


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("code", "created_by", "preset", "move_time_ms", "current_game", "created_at")
    search_fields = ("code", "created_by__username", "created_by__display_name")
    raw_id_fields = ("created_by", "current_game")
    readonly_fields = ("created_at",)
