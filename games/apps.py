from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    label = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry, signals  # noqa: F401  (signals connects the receivers)
        from games.record import fairplay

        # The record's verifier replays a game it finds by name, through the registry above it.
        fairplay.use_engines(lambda game: registry.get(game).engine)
