from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReversiConfig(AppConfig):
    name = "games.reversi"
    label = "reversi"
    verbose_name = _("Reversi")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from games.reversi import board, bot, present, rules, text

        registry.register(
            registry.Game(
                slug="reversi",
                name=str(_("Reversi")),
                engine=rules.engine,
                bot=bot.choose,
                template="reversi/board.html",
                describe_event=text.describe_event,
                seat_label=present.seat_label,
                present=present.present,
                transcript=board.transcript,
                blurb=str(_("Two players, 8 by 8: outflank and flip your opponent's discs.")),
            )
        )
