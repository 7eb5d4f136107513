"""The channel layer's side of a table: its chat, and the public view of a table without an owner.

Every connection to a table joins its group ``table.<id>.public``. A table's owner sends each
seat its own projection on that seat's sockets (``lobby.runtime.fanout``); what goes through the
group is the chat, and the new version of a table that no owner keeps (a Celery clock, the back
office, a tournament turn closing it), for the connections of another process that were joined
to its owner there. A hidden card is never sent to the group: it receives ``view(state, None)``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from lobby.models import Seat, TableRuntime


def public_group(table_id: int) -> str:
    return f"table.{table_id}.public"


def table_changed(
    table_id: int, version: int, events: list[dict[str, Any]]
) -> tuple[TableRuntime, list[Seat]] | None:
    """Send the new version of a table without an owner to its group: the public view.

    Returns the runtime and seats it read (None when a newer version was committed meanwhile).
    """
    from lobby.selectors import seat_rows

    rt = TableRuntime.objects.select_related("table").filter(pk=table_id).first()
    if rt is None or rt.version != version:
        return None  # a newer version was committed meanwhile; its own broadcast carries the state
    seats = seat_rows(table_id)
    layer = get_channel_layer()
    if layer is None:
        return rt, seats
    async_to_sync(_send_all)(layer, table_messages(rt, seats, events))
    return rt, seats


def table_messages(
    rt: TableRuntime, seats: list[Seat], events: list[dict[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    """One version of a table as its group receives it: the public view."""
    from lobby.selectors import table_payload

    public = table_payload(rt, seats, None, events)
    public["audience"] = "public"
    return [(public_group(rt.pk), {"type": "table.message", "payload": public})]


def tables_send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send the messages of several tables in one hop to the channel layer (none configured: nothing)."""
    layer = get_channel_layer()
    if layer is not None and messages:
        async_to_sync(_send_all)(layer, messages)


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send the messages in order, in one hop to the event loop (not one hop per group)."""
    for group, message in messages:
        await layer.group_send(group, message)


def chat_posted(
    table_id: int, nickname: str, text: str, at: datetime, line: int | None = None, channel: str = ""
) -> None:
    """Send a chat line to everyone at the table (``line``: moderation's id, for "Segnala").

    A line of the spectators' channel (``lobby.chat``) is marked for spectators: seated sockets skip it.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "chat",
        "table": table_id,
        "nickname": nickname,
        "text": text,
        "at": at.isoformat(),
        "line": line,
    }
    if channel.startswith("spettatori:"):
        message["audience"] = "spectators"
    async_to_sync(layer.group_send)(public_group(table_id), {"type": "table.message", "payload": message})
