"""The waiting list of a full table: join, leave, and a freed seat offered for a minute."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from lobby.actions import tablerow
from lobby.errors import AlreadySeated, NotAllowed
from lobby.models import Seat, Table, WaitingEntry
from piattaforma.models import User
from wallet import actions as wallet_actions

WAITING_OFFER_SECONDS = 60


@transaction.atomic
def waiting_join(*, table_id: int, user: User) -> WaitingEntry:
    """Join the waiting list of a full table: at a real-money table only a player who may sit there
    (``wallet.actions.check_player_can_play``: not blocked, not staff or a moderator)."""
    rt = tablerow.lock(table_id)
    if rt.table.tournament_id is not None:
        raise NotAllowed("Un tavolo di torneo non ha lista d'attesa")
    if rt.table.realm == Table.Realm.REAL:
        wallet_actions.check_player_can_play(user)
    tablerow.check_table_entry(rt.table, user, password=None)  # a reserved table: its players only
    if Seat.objects.filter(table=rt.table, user=user).exists():
        raise AlreadySeated()
    entry, _ = WaitingEntry.objects.get_or_create(table=rt.table, user=user)
    tablerow.bump(rt)
    return entry


@transaction.atomic
def waiting_leave(*, table_id: int, user: User) -> None:
    """Leave the waiting list (an offered seat goes to the next in line)."""
    rt = tablerow.lock(table_id)
    entry = WaitingEntry.objects.filter(table=rt.table, user=user).first()
    if entry is not None:
        seat_no = entry.offered_seat
        entry.delete()
        if seat_no is not None:
            offer_seat(rt.table, seat_no)
        tablerow.bump(rt)


def offer_seat(table: Table, seat_no: int) -> None:
    """Offer a freed seat to the first in line who has no offer yet, for one minute."""
    entry = (
        WaitingEntry.objects.filter(table=table, offered_seat__isnull=True)
        .order_by("created_at", "id")
        .first()
    )
    if entry is not None:
        entry.offered_seat = seat_no
        entry.offer_expires_at = timezone.now() + timedelta(seconds=WAITING_OFFER_SECONDS)
        entry.save(update_fields=["offered_seat", "offer_expires_at"])


def expire_offers(table: Table) -> int:
    """Drop offers not taken within the minute; the seat passes to the next in line."""
    expired = list(WaitingEntry.objects.filter(table=table, offer_expires_at__lt=timezone.now()))
    for entry in expired:
        seat_no = entry.offered_seat
        entry.delete()
        if seat_no is not None and not Seat.objects.filter(table=table, number=seat_no).exists():
            offer_seat(table, seat_no)
    return len(expired)
