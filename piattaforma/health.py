"""Health of the three parts the platform needs: database, channel layer, Celery broker."""

from __future__ import annotations

import asyncio
import ipaddress
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

from config.celery import app as celery_app

TIMEOUT = 2.0


def check_database() -> bool:
    """Run a trivial query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


async def _layer_round_trip() -> bool:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz", "token": token})
    message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
    return bool(message.get("token") == token)


def check_channel_layer() -> bool:
    """Send a message to a fresh channel and read it back."""
    return bool(async_to_sync(_layer_round_trip)())


def check_broker() -> bool:
    """Open a connection to the Celery broker."""
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT)
        return bool(conn.connected)


def check_worker() -> bool:
    """Run a task through the broker and a worker, and wait for its result."""
    from piattaforma.tasks import ping

    # disable_sync_subtasks: in the embedded default the worker shares this process, which makes
    # Celery believe any caller is a task; this is a health probe, not a task waiting on a task.
    return bool(ping.delay("ok").get(timeout=TIMEOUT, disable_sync_subtasks=False) == "ok")


CHECKS = {"database": check_database, "channel_layer": check_channel_layer, "broker": check_broker}
DEEP_CHECKS = {"worker": check_worker}


def deep_allowed(request: Any) -> bool:
    """Tell whether a request may run the deep check (it pushes a task through the workers).

    Staff may, and local probes: a request from a loopback address that did not come through the
    proxy (the proxy always sets X-Forwarded-For; Daphne's --proxy-headers takes the client's
    address from it, so a forwarded request is never taken for a local one).
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_active and user.is_staff:
        return True
    if "HTTP_X_FORWARDED_FOR" in request.META:
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "").is_loopback
    except ValueError:
        return False


def report(*, deep: bool = False) -> dict[str, str]:
    """Return ``{"database": "ok" | "failing", ...}``; ``deep`` adds a task round trip to a worker."""
    out = {}
    checks = {**CHECKS, **DEEP_CHECKS} if deep else CHECKS
    for name, check in checks.items():
        try:
            ok = check()
        except Exception:  # any failure of a dependency is reported, never raised
            ok = False
        out[name] = "ok" if ok else "failing"
    return out
