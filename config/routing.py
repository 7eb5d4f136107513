"""WebSocket routes of every app, gathered in one list."""

from django.urls import path, re_path

import piattaforma.converters  # noqa: F401  # registers <id:...>
from lobby.chat_consumers import ChatConsumer
from lobby.consumers import TableConsumer
from piattaforma.consumers import NotFoundConsumer, NoticeConsumer, PingConsumer
from tournaments.consumers import SlotConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/table/<id:table_id>/", TableConsumer.as_asgi()),
    path("ws/chat/lobby/", ChatConsumer.as_asgi(), {"room": "lobby"}),
    path("ws/chat/torneo/<id:key>/", ChatConsumer.as_asgi(), {"room": "torneo"}),
    path("ws/chat/help/", ChatConsumer.as_asgi(), {"room": "help"}),
    path("ws/chat/help/<id:key>/", ChatConsumer.as_asgi(), {"room": "help"}),
    path("ws/avvisi/", NoticeConsumer.as_asgi()),
    path("ws/torneo/<id:tournament_id>/slot/", SlotConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),  # last: any other path (a 30-digit table id...)
]
