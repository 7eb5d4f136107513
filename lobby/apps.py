from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby e tavoli"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Giro pazzo of Poker 5 carte offers Telesina (RULINGS P13); the poker engine never imports
        # the Telesina package itself, so the platform plugs it in once at start-up.
        from games.telesina import giro_pazzo

        giro_pazzo.register()
