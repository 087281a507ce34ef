from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    label = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import signals  # noqa: F401  (connects the receivers)
