from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tornei"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from piattaforma import hooks
        from tournaments.running import match_record

        hooks.on_match_ended(match_record)  # a tournament learns its matches' results only here
