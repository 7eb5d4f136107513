from django.apps import AppConfig


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = "Conto di gioco"
    default_auto_field = "django.db.models.BigAutoField"
