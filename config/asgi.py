"""ASGI entry point: HTTP through Django, WebSockets through the Channels router."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.embedded")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.serving import ready_to_serve  # noqa: E402
from piattaforma.bodylimit import BodySizeLimit  # noqa: E402
from piattaforma.ratelimit import FrameGuard  # noqa: E402
from piattaforma.socketauth import socket_auth  # noqa: E402  (needs the app registry loaded)
from piattaforma.twofa import StaffSocketGuard  # noqa: E402
from piattaforma.wsframes import quiet_debug_arguments  # noqa: E402

quiet_debug_arguments()  # autobahn's debug-line formatting on every frame sent (piattaforma.wsframes)

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

ready_to_serve()  # the evaluator's tables built, what was loaded frozen, the collector tuned
