"""Moderation's pages and endpoints (mounted at /moderazione/)."""

from django.urls import path

import piattaforma.converters  # noqa: F401  # registers <id:...>
from moderation import views, views_conduct, views_signals

app_name = "moderation"
urlpatterns = [
    path("", views.queue_page, name="queue"),
    path("api/coda/", views.queue_api, name="queue_api"),
    path("segnalazioni/<id:report_id>/", views.case_page, name="case"),
    path("segnalazioni/<id:report_id>/prendi/", views.case_claim, name="claim"),
    path("segnalazioni/<id:report_id>/decidi/", views.case_decide, name="decide"),
    path("api/segnala/", views.report_api, name="report_api"),
    path("api/avvisi/", views.notices_api, name="notices_api"),
    path("messaggi/<id:line_id>/revisione/", views.line_review, name="line_review"),
    path("help/", views.help_desk, name="help_desk"),
    path("help/api/", views.help_threads_api, name="help_threads_api"),
    path("help/chiudi/", views.help_close, name="help_close_own"),
    path("help/<id:player_id>/chiudi/", views.help_close, name="help_close"),
]
urlpatterns += [
    path("giocatori/<str:nickname>/", views_conduct.player_card, name="player_card"),
    path("api/provvedimenti/", views_conduct.conduct_api, name="conduct_api"),
    path("segnali/", views_signals.dashboard, name="signals"),
    path("segnali/coppie/<id:a>/<id:b>/", views_signals.pair_page, name="signals_pair"),
    path("segnali/giocatori/<id:user_id>/", views_signals.player_page, name="signals_player"),
    path("segnali/giocatori/<id:user_id>/sospendi/", views_signals.player_suspend, name="signals_suspend"),
]
