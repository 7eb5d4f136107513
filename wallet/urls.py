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
    path("api/saldo/", api.BalanceView.as_view(), name="api_balance"),
    path("api/movimenti/", api.StatementView.as_view(), name="api_statement"),
]
