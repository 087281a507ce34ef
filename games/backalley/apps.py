from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BackAlleyConfig(AppConfig):
    name = "games.backalley"
    label = "backalley"
    verbose_name = _("Back Alley")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from games.backalley import bot, forms, present, rules, text

        registry.register(
            registry.Game(
                slug="backalley",
                name=str(_("Back Alley")),
                engine=rules.engine,
                bot=bot.choose,
                template="backalley/board.html",
                describe_event=text.describe_event,
                parse_form=forms.parse_form,
                seat_label=present.seat_label,
                present=present.present,
                card_label=text.card_label,
                blurb=str(
                    _(
                        "Four players in two partnerships: bid your tricks, then take them; "
                        "25 hands from 13 cards down to 1 and back."
                    )
                ),
                # A player who runs out of time is replaced by a computer player; the others play on.
                timeout_policy="substitute",
                # The game's own stylesheet, for a page template that links game stylesheets in <head>.
                extra={"stylesheet": "css/backalley.css"},
            )
        )
