"""Pages and API of the conto di gioco (mounted at /conto/)."""

from django.urls import path

from wallet import api, views

app_name = "wallet"
urlpatterns = [
    path("", views.balance, name="balance"),
    path("movimenti/", views.statement, name="statement"),
    path("deposito/", views.deposit, name="deposit"),
    path("prelievo/", views.withdrawal, name="withdrawal"),
    path("limiti/", views.limits, name="limits"),
    path("autoesclusione/", views.self_exclusion, name="self_exclusion"),
    path("limiti-di-gioco/", views.play_limits, name="play_limits"),
    path("promemoria/", views.reality_check, name="reality_check"),
    path("promemoria/continua/", views.reality_check_continue, name="reality_check_continue"),
    path("promemoria/esci/", views.reality_check_stop, name="reality_check_stop"),
    path("api/saldo/", api.BalanceView.as_view(), name="api_balance"),
    path("api/movimenti/", api.StatementView.as_view(), name="api_statement"),
]
