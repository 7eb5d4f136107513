"""WebSocket routes of every app, gathered in one list."""

from django.urls import path

from lobby.consumers import TableConsumer
from piattaforma.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
