from django.apps import AppConfig


class PiattaformaConfig(AppConfig):
    name = "piattaforma"
    verbose_name = "Piattaforma"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from piattaforma import checks, signals  # noqa: F401  (registers checks and the roles sync)
