"""Moderation's pages and endpoints (mounted at /moderazione/)."""

from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [
    path("api/segnala/", views.report_api, name="report_api"),
    path("api/avvisi/", views.notices_api, name="notices_api"),
]
