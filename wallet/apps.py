from django.apps import AppConfig


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = "Conto di gioco"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from piattaforma import hooks
        from wallet.reports import active_players_report, payments_report
        from wallet.selectors import four_eyes_waiting, withdrawals_waiting

        hooks.on_report(payments_report)  # the back office's reports
        hooks.on_report(active_players_report)
        hooks.on_staff_waiting(withdrawals_waiting)  # the back office's index: what waits
        hooks.on_staff_waiting(four_eyes_waiting)
