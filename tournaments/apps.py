from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments import signals  # noqa: F401  (connects the receivers)
