"""Ratings in the admin: read-only. A rating changes only through `ranking.services` (a rated game,
or an annulment by moderation), so the history and the current value never disagree."""

from django.contrib import admin

from ranking.models import Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "category", "value", "games", "wins", "draws", "losses", "peak", "listed",
                    "last_played_at")
    list_filter = ("category", "listed")
    list_select_related = ("user",)
    search_fields = ("user__username", "user__display_name")
    ordering = ("category", "-value")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("game", "user", "category", "before", "delta", "after", "k", "created_at", "reverted_at")
    list_filter = ("category",)
    list_select_related = ("user", "game")
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("game", "user", "opponent")
