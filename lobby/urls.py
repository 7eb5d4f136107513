"""Lobby and table pages (mounted at /lobby/)."""

from django.urls import path

from lobby import views

app_name = "lobby"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tavoli.json", views.lobby_tables_json, name="tables_json"),
    path("tavolo/<int:table_id>/", views.table_page, name="table"),
    path("tavolo/<int:table_id>/siediti/", views.table_sit, name="sit"),
    path("tavolo/<int:table_id>/lascia/", views.table_leave, name="leave"),
    path("tavolo/<int:table_id>/ricarica/", views.table_rebuy, name="rebuy"),
    path("tavolo/<int:table_id>/attesa/", views.table_waiting, name="waiting"),
    path("tavolo/<int:table_id>/disposizioni/", views.table_layouts, name="layouts"),
    path("le-mie-mani/", views.my_hands, name="my_hands"),
    path("le-mie-mani.json", views.my_hands_json, name="my_hands_json"),
    path("le-mie-mani/<int:hand_id>/", views.my_hand, name="my_hand"),
]
