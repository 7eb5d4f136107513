"""Tournament pages (mounted at /tornei/)."""

from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("classifiche/", views.leaderboards, name="leaderboards"),
    path("<int:tournament_id>/", views.tournament_lobby, name="lobby"),
    path("<int:tournament_id>/iscriviti/", views.register, name="register"),
    path("<int:tournament_id>/cancella/", views.cancel, name="cancel"),
    path("<int:tournament_id>/conferma/", views.confirm, name="confirm"),
    path("<int:tournament_id>/stato.json", views.my_state, name="my_state"),
]
