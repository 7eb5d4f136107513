"""The players' information pages (mounted at /regole/)."""

from django.urls import path

from rules import views

app_name = "rules"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.page, name="page"),
]
