"""Calls to one player on every page he has open: "your tournament has started, your match is at
table X".

Every page of a logged-in player opens ``/ws/avvisi/`` (``piattaforma.consumers.NoticeConsumer``,
``static/js/notices.js``); that socket joins the player's own group, ``player_group(user_id)``.
An app that seats a player somewhere sends him a call after its commit (``calls_send``); a page
that was loading or reconnecting meanwhile asks, on connecting, what is waiting for him
(``hooks.player_calls``), so a call is never lost with a message.

A call is plain JSON: ``{"kind": "match", "key", "title", "text", "url", "table_id",
"tournament_id", "turn", "sanction_at"}``; ``key`` names it (the page shows each once) and
``sanction_at`` is the ISO time by which a player who does not show up loses the match.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def player_group(user_id: int) -> str:
    """The channel group of every notice socket of one player."""
    return f"player.{int(user_id)}"


def calls_send(calls: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """Send each (user id, call) to that player's pages, all in one hop to the channel layer.

    Called after commit; a lost message costs nothing but time: the page asks on its next load.
    """
    layer = get_channel_layer()
    if layer is None or not calls:
        return
    try:
        async_to_sync(_send_all)(layer, calls)
    except Exception:  # the channel layer is down: the pages find the call on their next connection
        logger.exception("%s player calls not pushed", len(calls))


async def _send_all(layer: Any, calls: Sequence[tuple[int, dict[str, Any]]]) -> None:
    for user_id, call in calls:
        await layer.group_send(player_group(user_id), {"type": "player.call", "payload": call})
