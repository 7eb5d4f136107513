"""Fan-out after commit: each seated player gets his own projection, spectators the public one.

Groups: ``table.<id>.public`` (every connection to the table) and ``table.<id>.user.<uid>`` (only
that player's own connections). A hidden card is never sent to a shared group: the public group
receives ``view(state, None)``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from lobby.models import Seat, TableRuntime


def public_group(table_id: int) -> str:
    return f"table.{table_id}.public"


def user_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.user.{user_id}"


def table_changed(
    table_id: int, version: int, events: list[dict[str, Any]]
) -> tuple[TableRuntime, list[Seat]] | None:
    """Send the new version of a table to every connection, each with what it may see.

    Returns the runtime and seats it read (None when a newer version was committed meanwhile).
    """
    from lobby.selectors import dealt_seats, seat_rows

    rt = TableRuntime.objects.select_related("table").filter(pk=table_id).first()
    if rt is None or rt.version != version:
        return None  # a newer version was committed meanwhile; its own broadcast carries the state
    seats = seat_rows(table_id)
    dealt = dealt_seats(rt)  # one query for the whole table, not one per seat
    layer = get_channel_layer()
    if layer is None:
        return rt, seats
    async_to_sync(_send_all)(layer, table_messages(rt, seats, events, dealt))
    return rt, seats


def table_messages(
    rt: TableRuntime, seats: list[Seat], events: list[dict[str, Any]], dealt: set[int] | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """One version of a table as its connections receive it: each seated player's own projection
    on his group, then the public view on the table's group (the one shape of a table's messages).
    ``dealt``: the seats dealt into the hand (``selectors.dealt_seats``)."""
    from lobby.selectors import projection_seat, table_payload, table_shared

    shared = table_shared(rt, seats)
    messages = []
    for seat in seats:
        payload = table_payload(rt, seats, projection_seat(seat.number, dealt), events, shared=shared)
        messages.append((user_group(rt.pk, seat.user_id), {"type": "table.message", "payload": payload}))
    public = table_payload(rt, seats, None, events, shared=shared)
    public["audience"] = "public"
    messages.append((public_group(rt.pk), {"type": "table.message", "payload": public}))
    return messages


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
