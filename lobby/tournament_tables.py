"""Tournament tables on the live-table runtime: the lobby actions the tournaments call.

A tournament table is a lobby table marked with its tournament's id (``Table.tournament_id``):
no buy-in, no rake, no waiting list, nobody sits down from the lobby, and no money moves at it
(seats hold no table credit; the match's stakes are zero). It plays exactly one match, the one
the tournament seated it for; when that match ends the lobby tells the tournaments through
``piattaforma.hooks.match_ended`` (``match_result`` builds what it says). Tournaments never read
the lobby's rows: they call the functions here and listen to the hook.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from lobby import actions
from lobby.errors import NotAllowed
from lobby.models import Hand, HandStep, Seat, Table, TableRuntime


def match_result(rt: TableRuntime, hand: Hand, outcome: dict[str, Any]) -> dict[str, Any]:
    """What ``hooks.match_ended`` tells of a hand or match that just ended (runtime row locked)."""
    table = rt.table
    seats: list[dict[str, Any]] = []
    if table.tournament_id is not None:
        acted = set(
            HandStep.objects.filter(hand=hand, automatic=False).values_list("seat", flat=True).distinct()
        )
        connected = dict(Seat.objects.filter(table_id=table.pk).values_list("number", "connections"))
        seats = [
            {
                "seat": int(s["seat"]),
                "user_id": int(s["user_id"]),
                "acted": int(s["seat"]) in acted,
                "connected": connected.get(int(s["seat"]), 0) > 0,
            }
            for s in hand.seats
        ]
    return {
        "table_id": table.pk,
        "tournament_id": table.tournament_id,
        "hand_no": hand.number,
        "game": hand.game,
        "outcome": outcome,
        "seats": seats,
    }


@transaction.atomic
def tournament_tables_open(
    *,
    tournament_id: int,
    game: str,
    config: dict[str, Any],
    tables: Sequence[tuple[str, Sequence[int]]],
    tempo_giocata: int,
    tempo_partita: int,
    realm: str = Table.Realm.REAL,
) -> list[int]:
    """Open a turn's tournament tables, seat each one's players and deal every match.

    ``tables``: (name, user ids by seat 1, 2, ...) per table, all of one size. The settings are
    checked once, as ``table_create`` checks a table (one turn's tables share them); the rows are
    written in bulk; then each match is dealt by ``table_start_hand``. No buy-in, rake or waiting
    list; every seat is ready at once (the match starts now: a player who is not there loses it
    on his clock, rules 004 "assente all'inizio"). Returns the table ids, in order.
    """
    if not tables:
        return []
    sizes = {len(players) for _name, players in tables}
    if len(sizes) != 1:
        raise NotAllowed("I tavoli di un turno hanno lo stesso numero di posti")
    fields: dict[str, Any] = {
        "game": game,
        "seats": sizes.pop(),
        "min_buy_in": 0,
        "max_buy_in": 0,
        "config": config,
        "realm": realm,
        "tempo_giocata": tempo_giocata,
        "tempo_partita": tempo_partita,
        "observers_allowed": True,
        "tournament_id": tournament_id,
    }
    prototype = Table(name=tables[0][0][:60], min_players=fields["seats"], **fields)
    actions._table_checked(prototype)  # the checks of table_create, once
    fields["config"] = prototype.config
    rows = Table.objects.bulk_create(
        [Table(name=name[:60], min_players=len(players), **fields) for name, players in tables]
    )
    TableRuntime.objects.bulk_create([TableRuntime(table=table) for table in rows])
    Seat.objects.bulk_create(
        [
            Seat(
                table=table,
                number=number,
                user_id=user_id,
                session_ref=f"torneo-{table.pk}-{number}-{uuid.uuid4().hex[:8]}",
                ready=True,
            )
            for table, (_name, players) in zip(rows, tables, strict=True)
            for number, user_id in enumerate(players, start=1)
        ]
    )
    for table in rows:
        if not actions.table_start_hand(table_id=table.pk):
            raise NotAllowed("La partita del torneo non è partita")  # a bug: every seat is taken
    return [table.pk for table in rows]


@transaction.atomic
def tournament_tables_close(*, table_ids: Sequence[int]) -> int:
    """Close tournament tables whose match is over: seats freed (no money), the table no longer open.

    A table whose match still runs is left alone. Returns how many were closed.
    """
    closed = 0
    for table_id in sorted(table_ids):  # runtime rows locked in primary-key order
        rt = actions._lock(table_id)
        if rt.table.tournament_id is None or not rt.table.is_open or actions._hand_running(rt):
            continue
        Seat.objects.filter(table_id=table_id).delete()
        Table.objects.filter(pk=table_id).update(is_open=False)
        rt.table.is_open = False
        rt.start_at = rt.deadline = None
        actions._bump(rt)
        closed += 1
    return closed
