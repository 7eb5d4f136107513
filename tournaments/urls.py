"""Tournament pages (mounted at /tornei/)."""

from django.urls import path

import piattaforma.converters  # noqa: F401  # registers <id:...>
from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("classifiche/", views.leaderboards, name="leaderboards"),
    path("<id:tournament_id>/", views.tournament_lobby, name="lobby"),
    path("<id:tournament_id>/iscriviti/", views.register, name="register"),
    path("<id:tournament_id>/cancella/", views.cancel, name="cancel"),
    path("<id:tournament_id>/conferma/", views.confirm, name="confirm"),
    path("<id:tournament_id>/stato.json", views.my_state, name="my_state"),
    path("<id:tournament_id>/slot/", views.slot_page, name="slot"),
    path("<id:tournament_id>/livello.json", views.level_info, name="level_info"),
    path("<id:tournament_id>/in-corso/", views.level_live, name="level_live"),
]
