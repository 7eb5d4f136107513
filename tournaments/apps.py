from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tornei"
    default_auto_field = "django.db.models.BigAutoField"
