"""Pages and API of the conto di gioco."""

from django.urls import path  # noqa: F401  (used as wallet pages arrive)

app_name = "wallet"
urlpatterns: list[object] = []
