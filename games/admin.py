from django.contrib import admin

from games.models import Action, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "status", "players", "version", "created_at", "finished_at"]
    list_filter = ["game", "status"]
    exclude = ["seed"]
    inlines = [SeatInline]


admin.site.register(Action)
