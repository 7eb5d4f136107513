"""ASGI entry point: HTTP through Django, WebSockets through the Channels router."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.embedded")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from games import evaluator  # noqa: E402
from piattaforma.bodylimit import BodySizeLimit  # noqa: E402
from piattaforma.ratelimit import FrameGuard  # noqa: E402
from piattaforma.socketauth import socket_auth  # noqa: E402  (needs the app registry loaded)
from piattaforma.twofa import StaffSocketGuard  # noqa: E402
from piattaforma.wsframes import quiet_debug_arguments  # noqa: E402

quiet_debug_arguments()  # autobahn's debug-line formatting on every frame sent (piattaforma.wsframes)
# The hand evaluator's lookup tables of the five decks (about a second and 18 MB), built now, not at
# a table's first showdown in each deck: there the build holds the event loop, and with it every
# table of the process, up to half a second (the 40-card deck of six players).
evaluator.build_all()

application = ProtocolTypeRouter(
    {
        # a body over REQUEST_BODY_MAX_BYTES is refused from its Content-Length, before Django reads it
        "http": BodySizeLimit(django_asgi_app),
        # FrameGuard first: a flood is counted and dropped before anything else looks at it; staff
        # and moderators without a verified second factor are anonymous (piattaforma.twofa)
        "websocket": FrameGuard(
            AllowedHostsOriginValidator(socket_auth(StaffSocketGuard(URLRouter(websocket_urlpatterns))))
        ),
    }
)

# What the process loaded to start (Django, the apps, the engines: some 120,000 objects) lives as
# long as it does: out of the collector's full passes from now on. A full pass walks every tracked
# object and holds the event loop, so every table of the process: frozen objects are not walked,
# and what remains is what the tables and sockets hold (``python -m bench.loadbench --probe``
# reports the collector's pauses).
gc.freeze()
# A young collection every 10,000 new container objects instead of 700: the views, events and
# frames of an action die young, before the collector looks; fewer survivors are promoted, so the
# middle and full passes (those that stall every table of the process) come far less often, and
# the event loop spends less time collecting in all.
gc.set_threshold(10_000, 10, 10)
