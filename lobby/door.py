"""The one entry into a table: views, consumers, Celery tasks, the back office, the tournaments
app and the platform's hooks reach the live tables through these names, and through no other.

- A write of one table (its ``table_id=`` keyword) runs under the table's owner
  (``lobby.runtime.ownership.through_owner``): this process's owner is parked for it, an owner in
  another process likewise over the channel layer, and a table with no live owner is written
  directly (its row brought up to date from the journal first).
- A write that reaches several tables (a player removed from all of his, a game switched off,
  the site closing) enters each of them here in turn; a level tournament's round dealt in bulk
  (``tournament_tables_next``) is one transaction over all of its tables, their owners parked
  together (``lobby.runtime.ownership.through_owners``).
- Everything else (a new table, checks, previews, reads, the tournaments' bulk opening and
  closing, which tell any owner themselves) is the table actions' own (``lobby.actions``), handed
  on as it is.

Below the door: the runtime (``lobby.runtime``), then the table actions, plain functions that
import neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from lobby import faults, tickets
from lobby.actions import (
    connections,
    hands,
    level_tables,
    operations,
    seating,
    tables,
    tournament_tables,
    waiting,
)
from lobby.errors import TableClosed
from lobby.models import Seat, Table, WaitingEntry
from lobby.runtime.ownership import through_owner, through_owners
from piattaforma.models import User

T = TypeVar("T")

# --- a write of one table, under its owner -------------------------------------------------------

seat_connected = through_owner(connections.seat_connected)
seat_disconnected = through_owner(connections.seat_disconnected)
table_sockets_drop = through_owner(connections.table_sockets_drop)

table_start_hand = through_owner(hands.table_start_hand)
table_ready = through_owner(hands.table_ready)
table_act = through_owner(hands.table_act)
table_timeout = through_owner(hands.table_timeout)
table_deadline_fired = through_owner(hands.table_deadline_fired)
table_bot_move = through_owner(hands.table_bot_move)
table_leave = through_owner(hands.table_leave)
table_remove_player = through_owner(hands.table_remove_player)
table_cancel_hand = through_owner(hands.table_cancel_hand)

table_sit = through_owner(seating.table_sit)
table_leave_next = through_owner(seating.table_leave_next)
table_chores = through_owner(seating.table_chores)
table_rebuy = through_owner(seating.table_rebuy)
table_sitout = through_owner(seating.table_sitout)

table_update = through_owner(tables.table_update)

tournament_table_next = through_owner(hands.tournament_table_next)

waiting_join = through_owner(waiting.waiting_join)
waiting_leave = through_owner(waiting.waiting_leave)

table_close = through_owner(operations.table_close)
table_site_closing = through_owner(operations.table_site_closing)
table_session_cancel = through_owner(operations.table_session_cancel)

# --- no table's owner involved: handed on as they are --------------------------------------------

presence_beat = connections.presence_beat
presence_ttl = connections.presence_ttl
tables_sessions_in_hand = seating.tables_sessions_in_hand
tables_with_sitouts_to_stand_up = seating.tables_with_sitouts_to_stand_up
table_create = tables.table_create
table_check = tables.table_check
table_chat_post = tables.table_chat_post
table_session_cancel_preview = operations.table_session_cancel_preview
match_fault_refund_preview = faults.match_fault_refund_preview
match_fault_refund = faults.match_fault_refund  # an ended match: money only, the table untouched
MATCH_FAULT_REFUND_PERMISSION = faults.PERMISSION
tables_switch_preview = operations.tables_switch_preview
template_check = operations.template_check
table_open_from_template = operations.table_open_from_template
tournament_tables_open = tournament_tables.tournament_tables_open
tournament_tables_close = tournament_tables.tournament_tables_close


# --- money paid onto a table, with the regulator's ticket -----------------------------------------


def _open_table(table_id: int) -> Table:
    """The table a player pays onto, refused before the regulator is asked if it is not open."""
    table = Table.objects.filter(pk=table_id, is_open=True).first()
    if table is None:
        raise TableClosed()
    return table


def _paid(
    *, table_id: int, user: User, amount: int, kind: str, idempotency_key: str, move: Callable[[str], T]
) -> tuple[T, str]:
    """The regulator's ticket of ``amount`` first (``lobby.tickets``), outside the table's owner,
    then ``move(ticket)`` under it; a payment the table refuses withdraws the ticket again."""
    table = _open_table(table_id)
    ticket = tickets.payment_authorise(
        table=table, user=user, amount=amount, kind=kind, request_id=idempotency_key
    )
    try:
        return move(ticket), ticket
    except Exception:
        tickets.payment_void(ticket=ticket, request_id=idempotency_key)
        raise


def table_sit_paid(
    *, table_id: int, user: User, seat_no: int, buy_in: int, idempotency_key: str, password: str | None = ""
) -> tuple[Seat, str]:
    """A player's buy-in with the regulator's ticket (``_paid``); the seat and the ticket ("" at a
    training table)."""
    return _paid(
        table_id=table_id,
        user=user,
        amount=buy_in,
        kind=tickets.BUY_IN,
        idempotency_key=idempotency_key,
        move=lambda ticket: table_sit(
            table_id=table_id,
            user=user,
            seat_no=seat_no,
            buy_in=buy_in,
            idempotency_key=idempotency_key,
            password=password,
            ticket=ticket,
        ),
    )


def table_rebuy_paid(*, table_id: int, user: User, amount: int, idempotency_key: str) -> dict[str, Any]:
    """A player's rebuy with the regulator's ticket (``_paid``); the result's ``ticket`` names it."""
    result, _ticket = _paid(
        table_id=table_id,
        user=user,
        amount=amount,
        kind=tickets.REBUY,
        idempotency_key=idempotency_key,
        move=lambda ticket: table_rebuy(
            table_id=table_id, user=user, amount=amount, idempotency_key=idempotency_key, ticket=ticket
        ),
    )
    return result


# --- a write of several tables in one transaction, every owner parked for it ---------------------

TableNext = level_tables.TableNext
tournament_tables_next = through_owners(level_tables.tournament_tables_next)

# --- a write of several tables, each entered here ------------------------------------------------


def tables_remove_player(user: User) -> None:
    """A player who may no longer play (suspended, self-excluded) leaves every table.

    Between hands he stands up at once with his credit; in a hand he goes sitout and leaves at
    its end (a decision he owes now is taken for him); a match of a gioco a partite is abandoned.
    Registered in ``piattaforma.hooks`` by the lobby's AppConfig.
    """
    WaitingEntry.objects.filter(user=user).delete()
    # tables in primary-key order, as every lock of several rows (no deadlock between two of these)
    for table_id in Seat.objects.filter(user=user).order_by("table_id").values_list("table_id", flat=True):
        table_remove_player(table_id=table_id, user=user)


def tables_game_deactivated(*, game: str, realms: set[str], until: Any, actor: User | None) -> None:
    """Hook: a game switched off closes its open tables of those realms after their hand or match."""
    open_tables = Table.objects.filter(game=game, realm__in=sorted(realms), is_open=True).order_by("pk")
    for table_id in open_tables.values_list("pk", flat=True):
        table_close(table_id=table_id, actor=actor, reason="Gioco disattivato")


def tables_site_closing() -> int:
    """Hook: while the site is closed, idle tables stand their players up (the others at hand end)."""
    busy = Seat.objects.values_list("table_id", flat=True).distinct().order_by("table_id")
    return sum(table_site_closing(table_id=table_id) for table_id in list(busy))
