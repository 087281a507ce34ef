from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TacocatConfig(AppConfig):
    name = "games.tacocat"
    label = "tacocat"
    verbose_name = _("Tacocat Spelled Backwards")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from games.tacocat import bot, forms, present, rules, text

        registry.register(
            registry.Game(
                slug="tacocat",
                name=str(_("Tacocat Spelled Backwards")),
                engine=rules.engine,
                bot=bot.choose,
                template="tacocat/board.html",
                describe_event=text.describe_event,
                parse_form=forms.parse_form,
                seat_label=present.seat_label,
                present=present.present,
                blurb=str(
                    _(
                        "Two players, a cat and a track of seven spaces: duel, attack with sets and runs, "
                        "keep your lowest card for the showdown and run the cat into your goal."
                    )
                ),
                # Two players: when one runs out of time, the other may claim the win.
                timeout_policy="claim",
                extra={"stylesheet": "css/tacocat.css"},
            )
        )
