"""Lobby and table pages (mounted at /lobby/)."""

from django.urls import path

import piattaforma.converters  # noqa: F401  # registers <id:...>
from lobby import views

app_name = "lobby"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tavoli.json", views.lobby_tables_json, name="tables_json"),
    path("allenamento/", views.training, name="training"),
    path("allenamento/ricarica/", views.training_refill, name="training_refill"),
    path("tavolo/<id:table_id>/", views.table_page, name="table"),
    path("tavolo/<id:table_id>/siediti/", views.table_sit, name="sit"),
    path("tavolo/<id:table_id>/lascia/", views.table_leave, name="leave"),
    path("tavolo/<id:table_id>/ricarica/", views.table_rebuy, name="rebuy"),
    path("tavolo/<id:table_id>/esci-alla-prossima/", views.table_leave_next, name="leave_next"),
    path("tavolo/<id:table_id>/attesa/", views.table_waiting, name="waiting"),
    path("tavolo/<id:table_id>/disposizioni/", views.table_layouts, name="layouts"),
    path("le-mie-mani/", views.my_hands, name="my_hands"),
    path("le-mie-mani.json", views.my_hands_json, name="my_hands_json"),
    path("le-mie-mani/<id:hand_id>/", views.my_hand, name="my_hand"),
    path("le-mie-mani/<id:hand_id>/replay.json", views.my_hand_replay, name="my_hand_replay"),
    path("le-mie-mani/<id:hand_id>/storico.txt", views.my_hand_text, name="my_hand_text"),
    path("le-mie-mani/giorno.txt", views.my_day_text, name="my_day_text"),
]
