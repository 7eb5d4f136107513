from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PiattaformaConfig(AppConfig):
    name = "piattaforma"
    verbose_name = _("Piattaforma")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from piattaforma import checks, logcontext, signals  # noqa: F401  (registers checks and the roles sync)

        logcontext.install()  # every log record carries the request, table and tournament ids
