from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DosConfig(AppConfig):
    name = "games.dos"
    label = "dos"
    verbose_name = _("DOS")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from games.dos import bot, forms, present, rules, text

        registry.register(
            registry.Game(
                slug="dos",
                name=str(_("DOS")),
                engine=rules.engine,
                bot=bot.choose,
                template="dos/board.html",
                describe_event=text.describe_event,
                parse_form=forms.parse_form,
                present=present.present,
                card_label=text.card_label,
                blurb=str(
                    _(
                        "Two to four players: match numbers in the Center Row with one card or two that add up, "
                        "colour matches earn bonuses; first to 200 points wins."
                    )
                ),
                # A player who runs out of time is replaced by a computer player; the others play on.
                timeout_policy="substitute",
                extra={"stylesheet": "css/dos.css"},
            )
        )
