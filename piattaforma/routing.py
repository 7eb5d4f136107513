"""WebSocket routes of every app, gathered in one list."""

from django.urls import path

from piattaforma.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
