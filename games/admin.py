from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Match, Move, Seat

# Only games.services changes a match: a state, version or log edited here would no longer replay
# from the seed, and pages holding the old version would act on a state that never happened. So every
# field is read-only but these (an allow-list, so a field added later starts read-only).
EDITABLE_MATCH_FIELDS = {"is_public"}
# Never shown (so never edited): the seed, and the state, which holds the seed, every hand and the
# deck order; staff who also play must not see them.
SECRET_MATCH_FIELDS = ["seed", "state"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "status", "player_count", "move_count", "version", "created_at", "finished_at"]
    list_filter = ["game", "status"]
    exclude = SECRET_MATCH_FIELDS
    inlines = [SeatInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [
            field.name
            for field in Match._meta.get_fields()
            if field.concrete
            and not field.auto_created
            and field.name not in EDITABLE_MATCH_FIELDS
            and field.name not in SECRET_MATCH_FIELDS
        ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are created through the site, which deals and seats them


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The move log is append-only: staff may read it, never add, change or remove a row."""

    list_display = ["match", "seq", "seat", "created_at"]
    list_select_related = ["match"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
