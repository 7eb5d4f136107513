from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tornei"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from piattaforma import hooks
        from tournaments import operations

        hooks.on_game_deactivated(
            operations.tournaments_game_deactivated
        )  # rules 004, "Disattivazione giochi"
        hooks.on_game_reactivated(operations.tournaments_game_reactivated)
        hooks.on_switch_preview(operations.tournaments_switch_preview)
