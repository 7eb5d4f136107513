"""A seated player's connections: counted per seat, with their server process's heartbeat.

A player with no connection left is sat out at a gioco a puntate; at a gioco a partite his clock
goes on (RULINGS G5). The heartbeat and the sweep of dead processes' sockets are ``lobby.presence``
and ``sweeps.presence_sweep``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from lobby.actions import tablerow
from lobby.models import ConnectionRecord, Seat, SeatSocket, TableRuntime
from piattaforma.models import User


@transaction.atomic
def seat_connected(*, table_id: int, user: User, process: str) -> int | None:
    """A connection of a seated player opened: back from a disconnection, he is back in play.

    Returns the id of the ``SeatSocket`` row that counts it for his seat, owned by the server
    ``process`` (None: a spectator's connection, not counted). Only a counted connection is
    uncounted when it closes (``seat_disconnected``): the spectator socket of the page a player sat
    down from closes after his seated page connected, and must not sit him out.
    """
    rt = tablerow.lock(table_id)  # the runtime row first, as every table write (no lock-order inversion)
    seat = Seat.objects.filter(table_id=table_id, user=user).first()
    if seat is None:
        return None
    socket = SeatSocket.objects.create(seat=seat, process=process)
    ConnectionRecord.objects.create(
        table_id=table_id,
        user=user,
        seat_number=seat.number,
        socket_id=socket.pk,
        process=process,
        hand_at_open=rt.hand_no,
    )
    seat.connections = seat.sockets.count()
    fields = ["connections"]
    if seat.away:  # "automaticamente nel caso di rientro nel tavolo" (rules 004, sit out)
        seat.away = False
        seat.status = Seat.Status.PLAYING
        seat.sitout_since = None
        seat.missed_hands = 0
        fields += ["away", "status", "sitout_since", "missed_hands"]
    seat.save(update_fields=fields)
    if len(fields) > 1:
        tablerow.bump(rt)
    return socket.pk


def ended_by(code: int | None) -> str:
    """Who ended a connection, from its WebSocket close code (RFC 6455, section 7.4); None: the
    server's application ended with no close at all (it failed, or its process shut down)."""
    if code is None:
        return ConnectionRecord.EndedBy.PLATFORM
    if code in (1000, 1001):  # a normal close, or the page going away: the player's browser
        return ConnectionRecord.EndedBy.PLAYER
    if code >= 4000:  # the server's own codes (session ended, excluded…)
        return ConnectionRecord.EndedBy.SERVER
    return ConnectionRecord.EndedBy.NETWORK  # 1006: cut with no closing handshake, and the rest


def _records_closed(rt: TableRuntime, socket_ids: list[int], by: str, code: int | None = None) -> None:
    ConnectionRecord.objects.filter(socket_id__in=socket_ids, closed_at__isnull=True).update(
        closed_at=timezone.now(), hand_at_close=rt.hand_no, ended_by=by, close_code=code
    )


@transaction.atomic
def seat_disconnected(*, table_id: int, socket_id: int, code: int | None = None) -> None:
    """A counted connection closed (the id ``seat_connected`` returned) with the WebSocket ``code``.
    A seat since left, or a row already swept, is not touched; the connection's record is closed."""
    rt = tablerow.lock(table_id)  # the runtime row first, as every table write (no lock-order inversion)
    _records_closed(rt, [socket_id], ended_by(code), code)
    socket = SeatSocket.objects.filter(pk=socket_id, seat__table_id=table_id).select_related("seat").first()
    if socket is None:
        return
    socket.delete()
    sockets_gone(rt, [socket.seat])


def sockets_gone(rt: TableRuntime, seats: list[Seat]) -> None:
    """Recount the sockets of seats that lost some (expects the runtime row locked).

    Rules 004: whoever leaves a table of a gioco a puntate without "Esci dal tavolo" (closing the
    window, a lost connection) is put in sit-out. At a gioco a partite the clock goes on: the
    disconnected player has until his deadline to come back, then the timeout loses the match
    (RULINGS G5).
    """
    puntate = tablerow.engine_for(rt.table).family == "puntate"
    # At a gioco a partite between matches (no match, or the end-of-match panel) a
    # player with no connection left is sat out too: no match starts for him, and the countdown
    # stands him up (hands._partite_ready), instead of dealing him a match he loses on time.
    between_matches = not puntate and (rt.state is None or tablerow.hand_engine(rt).is_over(rt.state))
    changed = False
    for seat in seats:
        seat.connections = seat.sockets.count()
        fields = ["connections"]
        if seat.connections == 0 and (puntate or between_matches) and seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.SITOUT
            seat.sitout_since = timezone.now()
            seat.away = True
            fields += ["status", "sitout_since", "away"]
            changed = True
        seat.save(update_fields=fields)
    if not puntate and not between_matches and rt.state is not None:
        changed = _reconnection_window(rt, [s for s in seats if s.connections == 0]) or changed
    if changed:
        tablerow.bump(rt)


def _reconnection_window(rt: TableRuntime, gone: list[Seat]) -> bool:
    """RULINGS G5 (rules 004, "Disconnessione dal server"): a player of a gioco a partite who lost
    his last connection while his decision is due has, from that moment, the smaller of the tempo
    giocata and what is left of his line's tempo partita to come back, not just what was left of
    his move's clock. The tempo partita keeps running meanwhile, so leaving and coming back never
    buys more than the line's own time. Returns whether the deadline moved (runtime row locked)."""
    engine = tablerow.hand_engine(rt)
    due = set(engine.to_act(rt.state))
    lines = {engine.line_of(rt.state, s.number) for s in gone if s.number in due and not s.user.is_bot}
    if not lines or rt.deadline is None:
        return False
    now = timezone.now()
    seconds = float(rt.table.tempo_giocata)
    if rt.clocks is not None and rt.turn_started is not None:
        spent = (now - rt.turn_started).total_seconds()
        seconds = min([seconds, *(int(rt.clocks.get(line, 0)) / 1000 - spent for line in lines)])
    window = now + timedelta(seconds=max(0.0, seconds))
    if window <= rt.deadline:
        return False
    rt.deadline = window
    tablerow.arm_timer(rt, now)
    return True


def presence_ttl() -> float:
    """Seconds after which the sockets of a server process that stopped beating are dropped."""
    return 3 * float(settings.LOBBY_HEARTBEAT_SECONDS)


def presence_beat(*, process: str, socket_ids: list[int]) -> int:
    """A server process is alive: refresh the rows of its open sockets (one statement).

    Only the ids it still holds: a row it lost track of is left to expire. Returns how many.
    On PostgreSQL the ids go as one array parameter: a process holding a thousand sockets beats
    without the ORM compiling a thousand-value ``IN`` every time.
    """
    now = timezone.now()
    if connection.vendor != "postgresql":
        return SeatSocket.objects.filter(process=process, pk__in=socket_ids).update(seen_at=now)
    with connection.cursor() as cursor:
        cursor.execute(_BEAT, [now, process, [int(pk) for pk in socket_ids]])
        return int(cursor.rowcount)


_BEAT = f"UPDATE {SeatSocket._meta.db_table} SET seen_at = %s WHERE process = %s AND id = ANY(%s::bigint[])"  # noqa: S608  # the model's table name


@transaction.atomic
def table_sockets_drop(*, table_id: int, cutoff: Any) -> int:
    """Drop a table's sockets not refreshed since ``cutoff`` (under its owner)."""
    rt = tablerow.lock(table_id)
    rows = SeatSocket.objects.filter(seen_at__lt=cutoff, seat__table_id=table_id)
    seat_ids = set(rows.values_list("seat_id", flat=True))
    # their server process stopped beating: lost by the platform, not by the players
    _records_closed(rt, list(rows.values_list("pk", flat=True)), ConnectionRecord.EndedBy.PLATFORM)
    dropped = rows.delete()[0]
    sockets_gone(rt, list(Seat.objects.filter(pk__in=seat_ids).order_by("number")))
    return int(dropped)
