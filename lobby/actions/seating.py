"""Sitting down and standing up, the table credit, sitout and the chores of seats.

A seat's money: the buy-in moves from the conto to a table-credit account (``table_sit``), a
top-up too (``table_rebuy``: during a hand it waits for the hand's end), and standing up cashes
the whole credit out (``stand_up``). Leaving in the middle of a hand is the hand's business
(``hands.table_leave``).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import options as game_options
from lobby import settlement
from lobby.actions import tablerow, waiting
from lobby.errors import AlreadySeated, HandInProgress, InvalidSeat, NotAllowed, SeatTaken, TableClosed
from lobby.models import Hand, Seat, Table, TableRuntime, WaitingEntry
from piattaforma.actions import preferences_get
from piattaforma.models import User
from wallet import actions as wallet_actions

# Automatic stand-up of sitout players at cash tables: (missed hands, sitout seconds) per game,
# from each game's "Abbandono automatico" rules (poker and telesina: RULINGS P15; bestia: 3 turns;
# chemin de fer, sette e mezzo, mazzetti: 3 banco turns; sette e mezzo and mazzetti also 3 minutes
# of a table with no play, IDLE_TABLE_ONLY). Games not listed never stand anyone up, and no
# tournament table does (RULINGS L2).
STAND_UP_RULES: dict[str, tuple[int, int | None]] = {
    "poker5": (10, 600),
    "telesina": (10, 600),
    "bestia": (3, None),
    "chemin": (3, None),
    "settemezzo": (3, 180),
    "mazzetti": (3, 180),
}
# Sette e mezzo and Mazzetti (rules 004): "Se nessun giocatore di punta decidesse di partecipare al
# banco dopo 3 minuti di inattività di gioco tutti i giocatori in sitout saranno fatti alzare dal
# tavolo". Their sitout seconds count only while the table plays nothing: from the later of the
# seat's sitout and the table's last hand's end, never during a hand.
IDLE_TABLE_ONLY = frozenset({"settemezzo", "mazzetti"})


def stand_up_clock(rt: TableRuntime, seat: Seat) -> datetime | None:
    """When a sitout seat's time away began to count toward its stand-up (None: it does not count
    now). ``rt``: the table's runtime as it is now (a hand running or not)."""
    if seat.sitout_since is None:
        return None
    if rt.table.game not in IDLE_TABLE_ONLY:
        return seat.sitout_since
    if tablerow.hand_running(rt):
        return None
    ended = Hand.objects.filter(table_id=rt.pk, ended_at__isnull=False).order_by("-number")
    last = ended.values_list("ended_at", flat=True).first()
    return max(seat.sitout_since, last) if last is not None else seat.sitout_since


@transaction.atomic
def table_sit(
    *,
    table_id: int,
    user: User,
    seat_no: int,
    buy_in: int,
    idempotency_key: str,
    password: str | None = "",
    ticket: str = "",
) -> Seat:
    """Sit down at a free seat with a buy-in moved from the conto to a new table-credit account.

    ``password``: what the player typed, at a table with a password (PW). ``ticket``: the
    regulator's ticket of the buy-in (``lobby.tickets``), kept on its ledger transaction.
    """
    rt = tablerow.lock(table_id)
    table = rt.table
    if not table.is_open:
        raise TableClosed()
    if table.tournament_id is not None:
        raise NotAllowed("Al tavolo di un torneo siedono solo i suoi giocatori")
    tablerow.check_table_entry(table, user, password=password)
    if not 1 <= seat_no <= table.seats:
        raise InvalidSeat()
    if Seat.objects.filter(table=table, user=user).exists():
        raise AlreadySeated()
    if Seat.objects.filter(table=table, number=seat_no).exists():
        raise SeatTaken()
    waiting.expire_offers(table)
    offer = WaitingEntry.objects.filter(table=table, offered_seat=seat_no).first()
    if offer is not None and offer.user_id != user.pk:
        raise SeatTaken("Il posto è riservato al primo giocatore in lista d'attesa")
    # A free seat not offered to anyone is free for all: a freed seat is offered first
    # (``waiting.offer_seat``).
    session_ref = f"{table.pk}-{seat_no}-{uuid.uuid4().hex[:12]}"
    wallet_actions.table_buy_in(
        user=user,
        table_session_ref=session_ref,
        amount=buy_in,
        min_amount=table.min_buy_in,
        max_amount=table.max_buy_in,
        idempotency_key=idempotency_key,
        realm=table.realm,
        ticket=ticket,
    )
    try:
        with transaction.atomic():
            seat = Seat.objects.create(
                table=table,
                number=seat_no,
                user=user,
                session_ref=session_ref,
                time_bank=table.time_bank,
                prefs=preferences_get(user=user, game=table.game)
                if game_options.kept_for_the_session(table.game)
                else None,
            )
    except IntegrityError:
        raise SeatTaken() from None
    WaitingEntry.objects.filter(table=table, user=user).delete()
    if not tablerow.hand_running(rt):
        tablerow.start_later(rt, 0)
    tablerow.bump(rt)
    return seat


@transaction.atomic
def table_leave_next(*, table_id: int, user: User, leave: bool) -> dict[str, Any]:
    """Giochi a puntate: "Esci alla prossima mano" (rules 004), or take it back.

    In a hand he is dealt into he plays it to its end and then stands up with his credit
    (``hands.finish_hand``); with no hand of his running he stands up now, as "Lascia il tavolo".
    Giochi a partite have no such option: their end-of-match panel asks (``hands._partite_ready``).
    """
    rt = tablerow.lock(table_id)
    seat = tablerow.seat_of(rt, user)
    if tablerow.engine_for(rt.table).family != "puntate":
        raise HandInProgress("Ai giochi a partite si lascia il tavolo alla fine della partita")
    if leave and not (tablerow.hand_running(rt) and seat.number in tablerow.dealt_seats(rt)):
        return {"left": True, "amount": stand_up(rt, seat)}
    if seat.leave_after_hand != leave:
        seat.leave_after_hand = leave
        seat.save(update_fields=["leave_after_hand"])
        tablerow.bump(rt)
    return {"left": False, "after_hand": leave}


def stand_up(rt: TableRuntime, seat: Seat) -> int:
    """Close a seat's table session: cash out its whole credit (expects the runtime row locked).

    Between hands, money the game holds for this seat across hands (``Engine.release_seat``: a
    chemin de fer banker's posta and garage) first moves from the table pot to his credit.
    """
    if rt.carry and not tablerow.hand_running(rt):
        carry, refund = tablerow.hand_engine(rt).release_seat(rt.carry, seat.number)
        if refund:
            settlement.release_to_seat(table=rt.table, session_ref=seat.session_ref, amount=refund)
        rt.carry = carry
    result = {}
    if rt.table.tournament_id is None:  # a tournament table holds no credit
        result = wallet_actions.table_cash_out(
            table_session_ref=seat.session_ref,
            idempotency_key=f"cashout:{seat.session_ref}",
            realm=rt.table.realm,
        )
    number = seat.number
    seat.delete()
    waiting.offer_seat(rt.table, number)
    tablerow.bump(rt)
    return int(result.get("amount", 0))


def must_stand_up(table: Table, seat: Seat, rt: TableRuntime | None = None) -> bool:
    """Tell whether a sitout player has missed too many hands, or been away too long (cash tables;
    the time counted as ``stand_up_clock`` says, from ``rt`` or else the table's runtime row).

    Never at a tournament's table: a tournament player leaves only by elimination (RULINGS L2).
    """
    rule = STAND_UP_RULES.get(table.game)
    if rule is None or seat.status != Seat.Status.SITOUT or table.tournament_id is not None:
        return False
    hands, seconds = rule
    if seat.missed_hands >= hands:
        return True
    if seconds is None:
        return False
    rt = rt or TableRuntime.objects.select_related("table").filter(pk=table.pk).first()
    since = stand_up_clock(rt, seat) if rt is not None else None
    return since is not None and (timezone.now() - since).total_seconds() >= seconds


def tables_with_sitouts_to_stand_up() -> list[int]:
    """The cash tables whose game stands sitout players up after a while, and that have one now."""
    seats = Seat.objects.filter(
        status=Seat.Status.SITOUT, table__game__in=list(STAND_UP_RULES), table__tournament_id__isnull=True
    )
    return list(seats.values_list("table_id", flat=True).distinct())


@transaction.atomic
def table_chores(*, table_id: int) -> int:
    """Expire the table's waiting-list offers and stand up the sitout players away too long.

    Sitout players dealt into the running hand stay until it ends (``hands.finish_hand`` counts their
    missed hands). Returns how many offers expired and players stood up.
    """
    rt = tablerow.lock(table_id)
    expired = waiting.expire_offers(rt.table)
    stood = 0
    dealt = tablerow.dealt_seats(rt) if tablerow.hand_running(rt) else set()
    sitouts = Seat.objects.filter(table_id=table_id, status=Seat.Status.SITOUT).select_related("table")
    for seat in sitouts.order_by("number"):
        if seat.number not in dealt and must_stand_up(rt.table, seat, rt):
            stand_up(rt, seat)  # a new version each
            stood += 1
    if expired and not stood:
        tablerow.bump(rt)
    return expired + stood


@transaction.atomic
def table_rebuy(
    *, table_id: int, user: User, amount: int, idempotency_key: str, ticket: str = ""
) -> dict[str, Any]:
    """Add credit from the conto; during a hand it is reserved now and credited after the hand.

    ``ticket``: the regulator's ticket of the rebuy, on its transaction (or its hold until then)."""
    rt = tablerow.lock(table_id)
    seat = tablerow.seat_of(rt, user)
    if rt.table.tournament_id is not None:
        raise NotAllowed("Al tavolo di un torneo non si porta denaro")
    in_hand = tablerow.hand_running(rt) and seat.number in tablerow.dealt_seats(rt)
    result = wallet_actions.table_rebuy(
        user=user,
        table_session_ref=seat.session_ref,
        amount=amount,
        max_amount=rt.table.max_buy_in,
        hand_in_progress=in_hand,
        idempotency_key=idempotency_key,
        realm=rt.table.realm,
        ticket=ticket,
    )
    # A top-up between hands may be what the table waits for (a seat short of the
    # perdita massima, or of the invito): a stalled table (no deal pending) tries the next one now.
    if not tablerow.hand_running(rt) and rt.start_at is None:
        tablerow.start_later(rt, 0)
    tablerow.bump(rt)
    return result


def training_bots_topped_up(rt: TableRuntime, seats: list[Seat], credits: dict[str, int]) -> dict[str, int]:
    """At a training table's deal (row locked, no hand running): a bot whose table credit is short
    of the table's minimum entry (or of the perdita massima a match needs) is topped up back to it
    with gettoni, so a broke bot never blocks the table. Returns the credits as they are then.

    Play money only: the bot's gettoni are minted (``play_money_top_up``) and carried to the table
    as a rebuy, one idempotency key per seat and hand. Money tables and tournaments are left alone.
    """
    table = rt.table
    if table.realm != Table.Realm.PLAY or table.tournament_id is not None:
        return credits
    need = min(table.max_buy_in, max(table.min_buy_in, table.perdita_massima))
    topped = dict(credits)
    for seat in seats:
        short = need - topped.get(seat.session_ref, 0)
        if not seat.user.is_bot or short <= 0:
            continue
        key = f"bot-topup-{seat.session_ref}-{rt.hand_no}"
        wallet_actions.play_money_top_up(user=seat.user, amount=short, idempotency_key=f"{key}-gettoni")
        wallet_actions.table_rebuy(
            user=seat.user,
            table_session_ref=seat.session_ref,
            amount=short,
            max_amount=table.max_buy_in,
            hand_in_progress=False,
            idempotency_key=key,
            realm=table.realm,
        )
        topped[seat.session_ref] = need
    return topped


@transaction.atomic
def table_sitout(*, table_id: int, user: User, sitout: bool) -> None:
    """Go sitout, or come back ("sono tornato")."""
    rt = tablerow.lock(table_id)
    seat = tablerow.seat_of(rt, user)
    seat.status = Seat.Status.SITOUT if sitout else Seat.Status.PLAYING
    seat.sitout_since = timezone.now() if sitout else None
    if not sitout:
        seat.missed_hands = 0
    seat.save(update_fields=["status", "sitout_since", "missed_hands"])
    if not sitout and not tablerow.hand_running(rt):
        tablerow.start_later(rt, 0)
    tablerow.bump(rt)


def tables_sessions_in_hand(user: User) -> set[str]:
    """Table sessions of a player that stay open until the running hand settles."""
    return set(Seat.objects.filter(user=user, leave_after_hand=True).values_list("session_ref", flat=True))
