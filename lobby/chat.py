"""Chat transport of the live stack: the lobby, tournament and HELP rooms, and the table's two channels.

The rules (who may read and write a room, the filters, mutes) are moderation's
(``moderation.rooms``, ``moderation.actions.chat_screen``); this module posts a screened line
and delivers it, with the history a socket gets on (re)connect.

Table chat has two channels: ``table:<id>``, everyone at the table, and ``spettatori:<id>``, what
a spectator writes while a hand is being played. Players do not see the latter (nor get it in
their history): "Durante il gioco" forbids discussing a hand in progress and inducing a player to
act, which is what a spectator's comment on the cards in front of him would do. Between hands a
spectator writes to the table channel like everyone.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone
from django.utils.translation import gettext as _

from lobby import broadcast
from lobby.errors import ChatRefused
from lobby.models import Seat, TableRuntime
from lobby.selectors import dealt_seats
from moderation import actions as moderation
from moderation import rooms, selectors
from moderation.errors import ModerationError
from piattaforma import playercalls
from piattaforma.models import User

ROOM_MAX_LENGTH = 200
SPECTATORS = "spettatori"


def notices_group(user_id: int) -> str:
    """The group of every chat and table socket of one player: his notices are pushed there."""
    return f"notices.{user_id}"


def table_channel(*, table_id: int, spectator: bool, hand_running: bool) -> str:
    """The channel of a table line: spectators talk among themselves while a hand is played."""
    return f"{SPECTATORS}:{table_id}" if spectator and hand_running else f"table:{table_id}"


def table_history(*, table_id: int, user_id: int) -> dict[str, Any]:
    """The table's chat history for one socket (a player's leaves out the spectators' channel)."""
    channels = [f"table:{table_id}"]
    if not Seat.objects.filter(table_id=table_id, user_id=user_id).exists():
        channels.append(f"{SPECTATORS}:{table_id}")
    return {"type": "chat.history", "lines": selectors.chat_history(channels=channels)}


def room_history(*, room: rooms.Room) -> dict[str, Any]:
    """A room's last lines, sent on (re)connect."""
    help_player = room.key if room.kind == "help" else None
    lines = selectors.chat_history(channels=[room.name], help_player=help_player)
    out: dict[str, Any] = {"type": "chat.history", "room": room.name, "lines": lines}
    if help_player is not None:  # a closed HELP conversation says so (a new line reopens it)
        out["closed"] = selectors.help_closed_text(player_id=help_player)
    return out


def _in_hand_at_a_table(user_id: int) -> bool:
    """Whether the player has cards in a hand being played at any table ("Durante il gioco")."""
    for seat in Seat.objects.filter(user_id=user_id).only("table_id", "number"):
        rt = TableRuntime.objects.filter(pk=seat.table_id).first()
        dealt = dealt_seats(rt) if rt is not None else None
        if dealt is not None and seat.number in dealt:
            return True
    return False


def room_post(*, user: User, room: rooms.Room, text: str) -> dict[str, Any]:
    """Post a line in a room: length, access, then moderation's rules; deliver it; return its payload.

    Raises ChatRefused or ModerationError (code and Italian message) and delivers nothing when
    the line must not be shown. Not one transaction: moderation commits a held line first.
    """
    text = (text or "").strip()
    if not text or len(text) > ROOM_MAX_LENGTH:
        raise ChatRefused(f"Il messaggio deve avere da 1 a {ROOM_MAX_LENGTH} caratteri")
    refusal = rooms.may_enter(user, room)
    if refusal is not None:
        raise ModerationError("chat_forbidden", "Non puoi scrivere in questa chat.")
    in_hand = room.kind != "help" and (rooms.in_game(user, room) or _in_hand_at_a_table(user.pk))
    shown = moderation.chat_screen(
        author=user,
        channel=room.name,
        text=text,
        in_hand=in_hand,
        skip=room.skip,
        restricted=room.kind != "help",  # a silenced player can still reach the staff
    )
    payload = {
        "type": "chat",
        "room": room.name,
        "nickname": user.nickname,
        "text": shown.text,
        "at": timezone.now().isoformat(),
        "line": shown.line_id,
    }
    if room.kind == "help":
        staff = user.pk != room.key
        payload["staff"] = staff
        moderation.help_thread_touch(player_id=room.key or 0, from_staff=staff, text=shown.text)
    push(room.name, payload)
    return payload


def push(address: str, payload: dict[str, Any]) -> None:
    """Deliver a payload to a chat channel or a player's notices (``piattaforma.hooks.chat_push``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    kind, _, key = address.partition(":")
    if kind == "notices":
        group = notices_group(int(key))
        if payload.get("text"):  # and every other page he has open (a sanction is not told in a chat only)
            playercalls.calls_send([(int(key), notice_call(payload))])
    elif kind in ("table", SPECTATORS):
        group = broadcast.public_group(int(key))
        payload = {**payload, "table": int(key)}
        if kind == SPECTATORS:
            payload["audience"] = "spectators"
    else:
        room = rooms.parse(address)
        if room is None:
            return
        group = room.group
    async_to_sync(layer.group_send)(group, {"type": "table.message", "payload": payload})


def notice_call(payload: dict[str, Any]) -> dict[str, Any]:
    """A player's notice (moderation's: a warning, a ban) as a call on his pages (``playercalls``)."""
    return {
        "kind": "notice",
        "key": f"avviso-{payload.get('id', '')}",
        "title": _("Avviso"),
        "text": str(payload.get("text", "")),
        "code": str(payload.get("code", "")),
    }


def is_seated(seats: list[dict[str, Any]], nickname: str) -> bool:
    """Whether a table payload's seats include this player (a seated socket skips spectators' lines)."""
    return any(s.get("nickname") == nickname for s in seats)
