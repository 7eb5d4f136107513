from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby e tavoli"
    default_auto_field = "django.db.models.BigAutoField"
