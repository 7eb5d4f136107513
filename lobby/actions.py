"""Writes of the live tables: create, sit, stand, act, clocks, chat (each one transaction).

Every write that touches a table's game locks its ``TableRuntime`` row first (then, through the
wallet's own helper, the ledger accounts in primary-key order), applies the engine, appends the
hand history and moves money when a hand settles. Views go out only after commit
(``lobby.broadcast``), and deadlines are scheduled after commit too.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games import registry
from games.engine import Engine
from games.rng import RecordingRng, SystemRng
from lobby import bots, broadcast, chat, runtime, selectors, settlement, tournament_tables
from lobby.errors import (
    AlreadySeated,
    ChatRefused,
    HandInProgress,
    InvalidSeat,
    NoHandInProgress,
    NotAllowed,
    NotSeated,
    RakeCapNotApplied,
    SeatTaken,
    StaleVersion,
    TableClosed,
    TableElsewhere,
)
from lobby.models import (
    ChatMessage,
    Hand,
    HandPlayer,
    HandStep,
    Seat,
    SeatSocket,
    Table,
    TableRuntime,
    WaitingEntry,
)
from lobby.replay import ENGINE_SPEC_KEYS
from lobby.runtime import ownership
from lobby.runtime.journal import recover
from moderation import actions as moderation
from piattaforma import hooks
from piattaforma.actions import audit_record, preferences_of
from piattaforma.compiledquery import CompiledQuery
from piattaforma.models import User
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors

NEXT_HAND_DELAY_SECONDS = 4  # time to look at a hand's result before the next deal (no cards shown)
# After a showdown (poker, telesina: cards shown) the server holds the result longer, so that every
# player reads the hands, pots and winners before the next deal; neither the rules nor RULINGS name
# a pause, and 8 s is what players needed (issue 20: the client used to keep the summary that long
# over the next hand). Nobody's action brings the next deal forward (``_start_later``).
SHOWDOWN_PAUSE_SECONDS = 8
READY_SECONDS = 30  # giochi a partite: countdown of "Sono pronto per iniziare" and of the end-of-match panel
# Automatic stand-up of sitout players at cash tables: (missed hands, sitout seconds) per game,
# from each game's "Abbandono automatico" rules (poker and telesina: RULINGS P15; bestia: 3 turns;
# chemin de fer, sette e mezzo, mazzetti: 3 banco turns). Games not listed never stand anyone up.
STAND_UP_RULES: dict[str, tuple[int, int | None]] = {
    "poker5": (10, 600),
    "telesina": (10, 600),
    "bestia": (3, None),
    "chemin": (3, None),
    "settemezzo": (3, None),
    "mazzetti": (3, None),
}
TIMER_SLACK_SECONDS = 2  # a deadline task this late is taken as lost (the beat sweeper's grace)
SWEEP_GRACE_SECONDS = 2  # the beat sweeper takes over pending table work this late
CHAT_MAX_LENGTH = 200
CHAT_MAX_PER_MINUTE = 10

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StepResult:
    """What an applied action produced: the new version and the events (full information)."""

    version: int
    events: list[dict[str, Any]]
    hand_over: bool


def new_rng() -> RecordingRng:
    """The randomness of one step: the OS CSPRNG (RULINGS G4), with every draw recorded."""
    return RecordingRng(SystemRng())


def engine_for(table: Table) -> Engine:
    """Return the engine of the table's game."""
    return registry.get(table.game)


def hand_engine(rt: TableRuntime) -> Engine:
    """Return the engine of the hand in progress (or of the last one) at this table."""
    return registry.get(rt.game or rt.table.game)


def next_hand_engine(rt: TableRuntime) -> Engine:
    """Return the engine of the next hand: the table's game, or the variant a hand handed over to.

    Poker 5 carte's giro pazzo (RULINGS P13) ends a hand with ``carry["handoff"]["variant"]`` when
    the dealer picks another variant; that hand is played by the variant's engine, whose carry
    brings the table back.
    """
    handoff = (rt.carry or {}).get("handoff")
    if isinstance(handoff, dict) and handoff.get("variant") in registry.names():
        return registry.get(handoff["variant"])
    return engine_for(rt.table)


def engine_config(table: Table) -> dict[str, Any]:
    """Return the engine config of a table: its game options plus the mapped table settings."""
    engine = engine_for(table)
    platform = {
        "cash": True,
        "rake_bp": table.rake_bp,
        "rake_cap": table.rake_cap or None,
        "tempo_giocata": table.tempo_giocata,
        "time_bank": table.time_bank,
    }
    config = dict(table.config)
    for key, target in engine.table_settings.items():
        config[target] = platform[key]
    return engine.validate_config(config)


@transaction.atomic
def table_create(
    *, name: str, game: str, seats: int, min_buy_in: int, max_buy_in: int, **fields: Any
) -> Table:
    """Create a cash table and its runtime row, checking the game's config."""
    table = Table(name=name, game=game, seats=seats, min_buy_in=min_buy_in, max_buy_in=max_buy_in, **fields)
    _table_checked(table)
    table.save()
    TableRuntime.objects.create(table=table)
    return table


# What shapes the play of a hand: the hand in progress keeps the terms it was dealt on.
TABLE_PLAY_FIELDS = frozenset((
    "game", "config", "realm", "seats", "min_players", "rake_bp", "rake_cap", "posta_partita",
    "posta_unitaria", "perdita_massima", "tempo_giocata", "tempo_partita", "time_bank",
))  # fmt: skip


def _table_checked(table: Table) -> None:
    """A table's settings checked (model, the game's seats and config); its config normalised."""
    table.full_clean()
    engine = engine_for(table)
    if not engine.min_seats <= table.seats <= engine.max_seats:
        raise InvalidSeat(f"{engine.title}: da {engine.min_seats} a {engine.max_seats} posti")
    if table.rake_cap and "rake_cap" not in engine.table_settings:  # a limit nobody would enforce
        raise RakeCapNotApplied(f"{engine.title} non applica un tetto al rake: lascialo a zero")
    table.config = engine.validate_config(table.config)
    engine_config(table)


def _table_changed(rt: TableRuntime, fields: dict[str, Any]) -> list[str]:
    """Apply ``fields`` to the locked table in memory, checked; return the names that change.

    Refused: what shapes play while a hand is running, the game or the realm while anyone is
    seated (their credit and the next hand's carry are of that game and realm), a seat count below
    a seated player's number.
    """
    table = rt.table
    before = {name: getattr(table, name) for name in fields}
    seated = Seat.objects.filter(table_id=rt.pk)
    # first, before the new game's config is checked: no config makes this change possible
    if any(fields[name] != before[name] for name in ("game", "realm") if name in fields) and seated.exists():
        raise NotAllowed("Gioco e tipo di denaro si cambiano solo a tavolo vuoto")
    for name, value in fields.items():
        setattr(table, name, value)
    _table_checked(table)
    changed = [name for name in fields if getattr(table, name) != before[name]]
    if TABLE_PLAY_FIELDS.intersection(changed) and _hand_running(rt):
        raise HandInProgress("Una mano è in corso: le impostazioni di gioco si cambiano a mano finita")
    if seated.filter(number__gt=table.seats).exists():
        raise InvalidSeat("Un giocatore siede oltre il nuovo numero di posti")
    return changed


def table_check(*, table_id: int | None, fields: dict[str, Any]) -> dict[str, Any]:
    """Check new settings as ``table_create`` (``table_id`` None) or ``table_update`` would; write nothing.

    The back office's form calls it inside its transaction: the runtime row stays locked until the
    update is saved. Returns the fields normalised (the game's config with its defaults).
    """
    if table_id is None:
        table = Table(**fields)
        _table_checked(table)
    else:
        rt = _lock(table_id)
        _table_changed(rt, fields)
        table = rt.table
    return {name: getattr(table, name) for name in fields}


@ownership.through_owner
@transaction.atomic
def table_update(*, table_id: int, actor: User, **fields: Any) -> Table:
    """Change a table's settings (the back office); refused, changing nothing, as ``_table_changed`` says."""
    rt = _lock(table_id)
    changed = _table_changed(rt, fields)
    if "game" in changed:
        rt.carry = None  # the old game's carry (button, match score) means nothing to the new one
        rt.save(update_fields=["carry"])
    rt.table.save()
    audit_record(actor=actor, action="table.update", target=rt.table, data={"changed": changed})
    return rt.table


# the first statement of every table write: compiled once (``piattaforma.compiledquery``)
_LOCK = CompiledQuery(
    lambda table_id: TableRuntime.objects.select_for_update().select_related("table").filter(pk=table_id),
    lambda table_id: (int(table_id),),
)


def _lock(table_id: int) -> TableRuntime:
    """Lock a table's runtime row; on the owner runtime, outside its owner, bring it up to date.

    An owner writes its decisions to the row only with a snapshot (its journal has each step): a
    write after its owner stopped or died first applies the journal's later steps (``recover``).
    """
    rows = _LOCK(table_id)
    if not rows:
        raise TableClosed()
    rt = rows[0]
    ownership.check_fence(rt)  # a caller of a park that ran out writes nothing (``ownership``)
    if runtime.enabled() and not ownership.is_inside(table_id) and recover(rt):
        rt.save()
    return rt


def _hand_running(rt: TableRuntime) -> bool:
    return rt.state is not None and not hand_engine(rt).is_over(rt.state)


def _seat_of(rt: TableRuntime, user: User) -> Seat:
    seat = Seat.objects.filter(table_id=rt.pk, user=user).first()
    if seat is None:
        raise NotSeated()
    return seat


# --- sitting down and standing up ------------------------------------------------------------


@ownership.through_owner
@transaction.atomic
def table_sit(*, table_id: int, user: User, seat_no: int, buy_in: int, idempotency_key: str) -> Seat:
    """Sit down at a free seat with a buy-in moved from the conto to a new table-credit account."""
    rt = _lock(table_id)
    table = rt.table
    if not table.is_open:
        raise TableClosed()
    if table.tournament_id is not None:
        raise NotAllowed("Al tavolo di un torneo siedono solo i suoi giocatori")
    if not 1 <= seat_no <= table.seats:
        raise InvalidSeat()
    if Seat.objects.filter(table=table, user=user).exists():
        raise AlreadySeated()
    if Seat.objects.filter(table=table, number=seat_no).exists():
        raise SeatTaken()
    _expire_offers(table)
    offer = WaitingEntry.objects.filter(table=table, offered_seat=seat_no).first()
    if offer is not None and offer.user_id != user.pk:
        raise SeatTaken("Il posto è riservato al primo giocatore in lista d'attesa")
    # A free seat not offered to anyone is free for all: a freed seat is offered first (see _offer_seat).
    session_ref = f"{table.pk}-{seat_no}-{uuid.uuid4().hex[:12]}"
    wallet_actions.table_buy_in(
        user=user,
        table_session_ref=session_ref,
        amount=buy_in,
        min_amount=table.min_buy_in,
        max_amount=table.max_buy_in,
        idempotency_key=idempotency_key,
        realm=table.realm,
    )
    try:
        with transaction.atomic():
            seat = Seat.objects.create(
                table=table, number=seat_no, user=user, session_ref=session_ref, time_bank=table.time_bank
            )
    except IntegrityError:
        raise SeatTaken() from None
    WaitingEntry.objects.filter(table=table, user=user).delete()
    if not _hand_running(rt):
        _start_later(rt, 0)
    _bump(rt)
    return seat


@ownership.through_owner
@transaction.atomic
def table_leave(*, table_id: int, user: User) -> dict[str, Any]:
    """Stand up: now between hands, else at the end of the hand; the credit goes back to the conto."""
    rt = _lock(table_id)
    seat = _seat_of(rt, user)
    if _hand_running(rt) and seat.number in _dealt_seats(rt):
        abandoned = hand_engine(rt).family == "partite"
        _leave_during_hand(rt, seat)
        if abandoned:
            return {"left": True, "abandoned": True}
        return {"left": False, "after_hand": True}
    amount = _stand_up(rt, seat)
    return {"left": True, "amount": amount}


@ownership.through_owner
@transaction.atomic
def table_leave_next(*, table_id: int, user: User, leave: bool) -> dict[str, Any]:
    """Giochi a puntate: "Esci alla prossima mano" (rules 004), or take it back.

    In a hand he is dealt into he plays it to its end and then stands up with his credit
    (``_finish_hand``); with no hand of his running he stands up now, as "Lascia il tavolo".
    Giochi a partite have no such option: their end-of-match panel asks (``_partite_ready``).
    """
    rt = _lock(table_id)
    seat = _seat_of(rt, user)
    if engine_for(rt.table).family != "puntate":
        raise HandInProgress("Ai giochi a partite si lascia il tavolo alla fine della partita")
    if leave and not (_hand_running(rt) and seat.number in _dealt_seats(rt)):
        return {"left": True, "amount": _stand_up(rt, seat)}
    if seat.leave_after_hand != leave:
        seat.leave_after_hand = leave
        seat.save(update_fields=["leave_after_hand"])
        _bump(rt)
    return {"left": False, "after_hand": leave}


def _stand_up(rt: TableRuntime, seat: Seat) -> int:
    """Close a seat's table session: cash out its whole credit (expects the runtime row locked).

    Between hands, money the game holds for this seat across hands (``Engine.release_seat``: a
    chemin de fer banker's posta and garage) first moves from the table pot to his credit.
    """
    if rt.carry and not _hand_running(rt):
        carry, refund = hand_engine(rt).release_seat(rt.carry, seat.number)
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
    _offer_seat(rt.table, number)
    _bump(rt)
    return int(result.get("amount", 0))


def _must_stand_up(table: Table, seat: Seat) -> bool:
    """Tell whether a sitout player has missed too many hands, or been away too long (cash tables)."""
    rule = STAND_UP_RULES.get(table.game)
    if rule is None or seat.status != Seat.Status.SITOUT:
        return False
    hands, seconds = rule
    if seat.missed_hands >= hands:
        return True
    away = (timezone.now() - seat.sitout_since).total_seconds() if seat.sitout_since else 0
    return seconds is not None and away >= seconds


@ownership.through_owner
@transaction.atomic
def table_chores(*, table_id: int) -> int:
    """Expire the table's waiting-list offers and stand up the sitout players away too long.

    Sitout players dealt into the running hand stay until it ends (``_finish_hand`` counts their
    missed hands). Returns how many offers expired and players stood up.
    """
    rt = _lock(table_id)
    expired = _expire_offers(rt.table)
    stood = 0
    dealt = _dealt_seats(rt) if _hand_running(rt) else set()
    sitouts = Seat.objects.filter(table_id=table_id, status=Seat.Status.SITOUT).select_related("table")
    for seat in sitouts.order_by("number"):
        if seat.number not in dealt and _must_stand_up(rt.table, seat):
            _stand_up(rt, seat)  # a new version each
            stood += 1
    if expired and not stood:
        _bump(rt)
    return expired + stood


def tables_sweep_sitouts() -> int:
    """Stand up the sitout players who stayed away too long, between hands (beat)."""
    seats = Seat.objects.filter(status=Seat.Status.SITOUT, table__game__in=list(STAND_UP_RULES))
    tables = ownership.unowned(seats.values_list("table_id", flat=True).distinct())
    # checked again before each: an owner that claimed it since does its chores (``_sweep_each``)
    return sum(table_chores(table_id=t) for t in sorted(tables) if not ownership.owned(t))


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


@ownership.through_owner
@transaction.atomic
def table_remove_player(*, table_id: int, user: User) -> None:
    """``tables_remove_player`` at one table (under its owner on the owner runtime)."""
    rt = _lock(table_id)
    seat = Seat.objects.filter(table_id=table_id, user=user).first()
    if seat is None:
        return
    if not (_hand_running(rt) and seat.number in _dealt_seats(rt)):
        _stand_up(rt, seat)
        return
    _leave_during_hand(rt, seat)


def _leave_during_hand(rt: TableRuntime, seat: Seat) -> None:
    """A player leaves in the middle of a hand (expects the runtime row locked).

    Gioco a partite: "Abbandona" — the match is lost as on a timeout and settles now (rules 004).
    Gioco a puntate: "Esci dal tavolo" — he goes sitout at once and any decision he owes is the
    automatic one (check if he may, else fold: P14); his credit settles with the hand, then he
    stands up with it. Standing up before the settlement would return chips still in the pot.
    """
    engine = hand_engine(rt)
    assert rt.state is not None
    seat.leave_after_hand = True
    seat.status = Seat.Status.SITOUT
    seat.sitout_since = timezone.now()
    seat.save(update_fields=["leave_after_hand", "status", "sitout_since"])
    if engine.family == "partite":
        _apply(rt, seat.number, {"type": "abbandona"}, automatic=False)
    elif seat.number in engine.to_act(rt.state):
        _apply(rt, seat.number, engine.timeout_action(rt.state, seat.number), automatic=True)
    else:
        _bump(rt)


def tables_sessions_in_hand(user: User) -> set[str]:
    """Table sessions of a player that stay open until the running hand settles."""
    return set(Seat.objects.filter(user=user, leave_after_hand=True).values_list("session_ref", flat=True))


# --- the waiting list ---------------------------------------------------------------------------

WAITING_OFFER_SECONDS = 60


@ownership.through_owner
@transaction.atomic
def waiting_join(*, table_id: int, user: User) -> WaitingEntry:
    """Join the waiting list of a full table."""
    rt = _lock(table_id)
    if rt.table.tournament_id is not None:
        raise NotAllowed("Un tavolo di torneo non ha lista d'attesa")
    if Seat.objects.filter(table=rt.table, user=user).exists():
        raise AlreadySeated()
    entry, _ = WaitingEntry.objects.get_or_create(table=rt.table, user=user)
    _bump(rt)
    return entry


@ownership.through_owner
@transaction.atomic
def waiting_leave(*, table_id: int, user: User) -> None:
    """Leave the waiting list (an offered seat goes to the next in line)."""
    rt = _lock(table_id)
    entry = WaitingEntry.objects.filter(table=rt.table, user=user).first()
    if entry is not None:
        seat_no = entry.offered_seat
        entry.delete()
        if seat_no is not None:
            _offer_seat(rt.table, seat_no)
        _bump(rt)


def _offer_seat(table: Table, seat_no: int) -> None:
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


def _expire_offers(table: Table) -> int:
    """Drop offers not taken within the minute; the seat passes to the next in line."""
    expired = list(WaitingEntry.objects.filter(table=table, offer_expires_at__lt=timezone.now()))
    for entry in expired:
        seat_no = entry.offered_seat
        entry.delete()
        if seat_no is not None and not Seat.objects.filter(table=table, number=seat_no).exists():
            _offer_seat(table, seat_no)
    return len(expired)


def waiting_offers_sweep() -> int:
    """Expire waiting-list offers on every table (beat)."""
    expired = WaitingEntry.objects.filter(offer_expires_at__lt=timezone.now())
    tables = ownership.unowned(expired.values_list("table_id", flat=True).distinct())
    # checked again before each: an owner that claimed it since does its chores (``_sweep_each``)
    return sum(bool(table_chores(table_id=t)) for t in sorted(tables) if not ownership.owned(t))


@ownership.through_owner
@transaction.atomic
def seat_connected(*, table_id: int, user: User, process: str) -> int | None:
    """A connection of a seated player opened: back from a disconnection, he is back in play.

    Returns the id of the ``SeatSocket`` row that counts it for his seat, owned by the server
    ``process`` (None: a spectator's connection, not counted). Only a counted connection is
    uncounted when it closes (``seat_disconnected``): the spectator socket of the page a player sat
    down from closes after his seated page connected, and must not sit him out.
    """
    rt = _lock(table_id)  # the runtime row first, as every table write (no lock-order inversion)
    seat = Seat.objects.filter(table_id=table_id, user=user).first()
    if seat is None:
        return None
    socket = SeatSocket.objects.create(seat=seat, process=process)
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
        _bump(rt)
    return socket.pk


@ownership.through_owner
@transaction.atomic
def seat_disconnected(*, table_id: int, socket_id: int) -> None:
    """A counted connection closed (the id ``seat_connected`` returned). A seat since left, or a
    row already swept, is not touched."""
    rt = _lock(table_id)  # the runtime row first, as every table write (no lock-order inversion)
    socket = SeatSocket.objects.filter(pk=socket_id, seat__table_id=table_id).select_related("seat").first()
    if socket is None:
        return
    socket.delete()
    _sockets_gone(rt, [socket.seat])


def _sockets_gone(rt: TableRuntime, seats: list[Seat]) -> None:
    """Recount the sockets of seats that lost some (expects the runtime row locked).

    Rules 004: whoever leaves a table of a gioco a puntate without "Esci dal tavolo" (closing the
    window, a lost connection) is put in sit-out. At a gioco a partite the clock goes on: the
    disconnected player has until his deadline to come back, then the timeout loses the match
    (RULINGS G5).
    """
    puntate = engine_for(rt.table).family == "puntate"
    # issue 20 (6): at a gioco a partite between matches (no match, or the end-of-match panel) a
    # player with no connection left is sat out too: no match starts for him, and the countdown
    # stands him up (_partite_ready), instead of dealing him a match he loses on time.
    between_matches = not puntate and (rt.state is None or hand_engine(rt).is_over(rt.state))
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
        _bump(rt)


def _reconnection_window(rt: TableRuntime, gone: list[Seat]) -> bool:
    """RULINGS G5 (rules 004, "Disconnessione dal server"): a player of a gioco a partite who lost
    his last connection while his decision is due has, from that moment, the smaller of the tempo
    giocata and what is left of his line's tempo partita to come back, not just what was left of
    his move's clock. The tempo partita keeps running meanwhile, so leaving and coming back never
    buys more than the line's own time. Returns whether the deadline moved (runtime row locked)."""
    engine = hand_engine(rt)
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
    _arm_timer(rt, now)
    return True


def presence_ttl() -> float:
    """Seconds after which the sockets of a server process that stopped beating are dropped."""
    return 3 * float(settings.LOBBY_HEARTBEAT_SECONDS)


def presence_beat(*, process: str, socket_ids: list[int]) -> int:
    """A server process is alive: refresh the rows of its open sockets (one statement).

    Only the ids it still holds: a row it lost track of is left to expire. Returns how many.
    """
    return SeatSocket.objects.filter(process=process, pk__in=socket_ids).update(seen_at=timezone.now())


def presence_sweep(*, now: Any = None) -> int:
    """Drop the sockets of server processes that stopped beating (killed, crashed), as closed.

    Each process refreshes only its own rows (``presence_beat``): one dying, or restarting under a
    new name, leaves the sockets of the others counted. Returns how many rows were dropped.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=presence_ttl())
    tables = SeatSocket.objects.filter(seen_at__lt=cutoff).values_list("seat__table_id", flat=True)
    dropped = 0
    for table_id in sorted(set(tables)):
        try:
            dropped += table_sockets_drop(table_id=table_id, cutoff=cutoff)
        except TableElsewhere:  # its owner's process died too: a later sweep, once the table is taken over
            logger.warning("table %s: stale sockets left, its owner did not answer", table_id)
    return dropped


@ownership.through_owner
@transaction.atomic
def table_sockets_drop(*, table_id: int, cutoff: Any) -> int:
    """Drop a table's sockets not refreshed since ``cutoff`` (under its owner on the owner runtime)."""
    rt = _lock(table_id)
    rows = SeatSocket.objects.filter(seen_at__lt=cutoff, seat__table_id=table_id)
    seat_ids = set(rows.values_list("seat_id", flat=True))
    dropped = rows.delete()[0]
    _sockets_gone(rt, list(Seat.objects.filter(pk__in=seat_ids).order_by("number")))
    return int(dropped)


@ownership.through_owner
@transaction.atomic
def table_rebuy(*, table_id: int, user: User, amount: int, idempotency_key: str) -> dict[str, Any]:
    """Add credit from the conto; during a hand it is reserved now and credited after the hand."""
    rt = _lock(table_id)
    seat = _seat_of(rt, user)
    if rt.table.tournament_id is not None:
        raise NotAllowed("Al tavolo di un torneo non si porta denaro")
    in_hand = _hand_running(rt) and seat.number in _dealt_seats(rt)
    result = wallet_actions.table_rebuy(
        user=user,
        table_session_ref=seat.session_ref,
        amount=amount,
        max_amount=rt.table.max_buy_in,
        hand_in_progress=in_hand,
        idempotency_key=idempotency_key,
        realm=rt.table.realm,
    )
    # issue 20 (1): a top-up between hands may be what the table waits for (a seat short of the
    # perdita massima, or of the invito): a stalled table (no deal pending) tries the next one now.
    if not _hand_running(rt) and rt.start_at is None:
        _start_later(rt, 0)
    _bump(rt)
    return result


@ownership.through_owner
@transaction.atomic
def table_sitout(*, table_id: int, user: User, sitout: bool) -> None:
    """Go sitout, or come back ("sono tornato")."""
    rt = _lock(table_id)
    seat = _seat_of(rt, user)
    seat.status = Seat.Status.SITOUT if sitout else Seat.Status.PLAYING
    seat.sitout_since = timezone.now() if sitout else None
    if not sitout:
        seat.missed_hands = 0
    seat.save(update_fields=["status", "sitout_since", "missed_hands"])
    if not sitout and not _hand_running(rt):
        _start_later(rt, 0)
    _bump(rt)


# --- hands -------------------------------------------------------------------------------------


def _dealt_seats(rt: TableRuntime) -> set[int]:
    return selectors.dealt_seats(rt) or set()


def _seat_credits(rt: TableRuntime, seats: list[Seat]) -> dict[str, int]:
    """Each seat's table credit by session, in one read."""
    refs = [s.session_ref for s in seats]
    return wallet_selectors.table_credits_get(table_session_refs=refs, realm=rt.table.realm)


def _seats_dealt_here(table_id: int) -> Any:
    dealt = HandPlayer.objects.filter(
        hand__table_id=OuterRef("table_id"),
        user_id=OuterRef("user_id"),
        hand__started_at__gte=OuterRef("joined_at"),
    )
    seats = Seat.objects.filter(table_id=table_id).select_related("user").annotate(dealt_here=Exists(dealt))
    return seats.order_by("number")


# once a deal; the first parameter is the constant the EXISTS subquery selects
_SEATS_TO_DEAL = CompiledQuery(_seats_dealt_here, lambda table_id: (1, int(table_id)))


def _seats_to_deal(table: Table) -> list[Seat]:
    """Every seat, by number, with its player and ``dealt_here``: whether he was dealt in at this
    table since he sat down (a newcomer has not: banker rules), in one read (compiled once)."""
    return _SEATS_TO_DEAL(table.pk)


def _seat_specs(rt: TableRuntime, seats: list[Seat], credits: dict[str, int]) -> list[dict[str, Any]]:
    """What the engine and the hand's record are told of each seat (``_seats_to_deal``'s seats)."""
    table = rt.table
    prefs = preferences_of(user_ids=[s.user_id for s in seats], game=table.game)
    return [
        {
            "seat": seat.number,
            "chips": credits[seat.session_ref],
            "sitout": seat.status == Seat.Status.SITOUT,
            "prefs": prefs[seat.user_id],
            "user_id": seat.user_id,
            "nickname": seat.user.nickname,
            "session_ref": seat.session_ref,
            "new": not seat.dealt_here,  # type: ignore[attr-defined]  # annotated by _seats_to_deal
        }
        for seat in seats
    ]


@ownership.through_owner
@transaction.atomic
def table_start_hand(*, table_id: int) -> bool:
    """Deal the next hand if enough players are seated and playing; return whether one started."""
    rt = _lock(table_id)
    due = rt.start_at is not None and rt.start_at <= timezone.now()
    if due:
        rt.start_at = None  # the due start is this call (a player's earlier call leaves it pending)
    started = _deal(rt)
    if due and not started:
        rt.save(update_fields=["start_at"])  # a deal saves it with the rest of the row
    return started


def _deal(rt: TableRuntime) -> bool:
    """``table_start_hand`` on the locked row: deal if the table may; save the row if it deals."""
    from lobby.operations import hand_start_refused  # closed table, game switched off, site closed

    if _hand_running(rt) or hand_start_refused(rt):
        return False
    table = rt.table
    if table.tournament_id is not None and rt.hand_no:
        return False  # a tournament table plays one match
    engine = next_hand_engine(rt)
    everyone = _seats_to_deal(table)
    credits = _seat_credits(rt, everyone)
    if engine.family == "partite" and not _partite_ready(rt, everyone, credits):
        return False
    # Every seated player is dealt in, sitout ones flagged: the engine applies its own rules to
    # them (poker asks no invito of them at a cash table; a chemin banker in sitout collects his
    # banco). Players leaving at the end of the hand are not dealt in.
    seats = [s for s in everyone if not s.leave_after_hand]
    if engine.family == "partite":
        # a match starts only for players who can pay the perdita massima (C1)
        floor = 0 if table.tournament_id is not None else max(1, table.perdita_massima)
        specs = [s for s in _seat_specs(rt, seats, credits) if s["chips"] >= floor]
    else:
        # chips at the table, or money the game holds for the seat across hands (a banco)
        specs = [
            s
            for s in _seat_specs(rt, seats, credits)
            if s["chips"] > 0 or engine.release_seat(rt.carry, s["seat"])[1] > 0
        ]
    active = [s for s in specs if not s["sitout"]]
    if len(active) < max(table.min_players, engine.min_seats):
        if rt.state is not None:
            rt.state = rt.dealt = rt.steps = None
            rt.deadline = None
            _bump(rt)
        return False
    rng = new_rng()
    engine_specs = [{k: s[k] for k in ENGINE_SPEC_KEYS} for s in specs]
    config = engine_config(table)
    carry_in = rt.carry
    state = engine.new(config, engine_specs, rng, carry_in)
    rt.hand_no += 1
    rt.state = state
    rt.dealt = [s["seat"] for s in specs]
    rt.steps = 0
    rt.game = engine.name
    rt.clocks = None
    if engine.family == "partite" and table.tempo_partita:
        lines = {engine.line_of(state, s["seat"]) for s in specs}
        rt.clocks = dict.fromkeys(sorted(lines), table.tempo_partita * 1000)
    rt.ready_deadline = rt.start_at = None
    if any(s.ready for s in everyone):
        Seat.objects.filter(table=table).update(ready=False)
    hand = Hand.objects.create(
        table=table,
        number=rt.hand_no,
        game=engine.name,
        config=config,
        carry_in=carry_in,
        seats=[{k: s[k] for k in (*ENGINE_SPEC_KEYS, "user_id", "nickname", "session_ref")} for s in specs],
        start_draws=rng.draws,
        deck_log=state.get("deck_log", []),
    )
    HandPlayer.objects.bulk_create(
        [HandPlayer(hand=hand, user_id=spec["user_id"], seat=spec["seat"]) for spec in specs]
    )
    _after_change(rt, engine)
    rt.hand_pk = hand.pk  # type: ignore[attr-defined]  # as the owner's read of the row has it
    ownership.dealt(rt, hand)
    return True


def _partite_ready(rt: TableRuntime, seats: list[Seat], credits: dict[str, int]) -> bool:
    """Tell whether a match may start now at a table of a gioco a partite (expects the row locked).

    When the table is complete every player gets "Sono pronto per iniziare" and a countdown: the
    match starts when all are ready, or when the countdown ends anyway. After a match the same
    countdown runs on the end-of-match panel, and who has not chosen another match stands up.
    """
    table = rt.table
    now = timezone.now()
    if len(seats) < table.seats:
        if rt.ready_deadline is not None and rt.state is None:
            rt.ready_deadline = None
            _bump(rt)
        return False
    # issue 20 (1, 6): a seat short of the perdita massima, or whose player left (no connection),
    # cannot start a match: he must top up (the table says so) or come back, else the countdown
    # stands him up as it does an undecided player ("se non ha un credito sufficiente...").
    # A tournament table holds no credit and deals at once: an absent player loses on his clock.
    need = max(1, table.perdita_massima)  # C1: a credit short of the perdita massima plays no match
    unable = (
        set()
        if table.tournament_id is not None
        else {s.pk for s in seats if not s.user.is_bot and (s.away or credits[s.session_ref] < need)}
    )
    if all((s.ready or s.user.is_bot) and s.pk not in unable for s in seats):  # bots are always ready
        return True
    if rt.ready_deadline is None:
        rt.ready_deadline = now + timedelta(seconds=READY_SECONDS)
        _start_later(rt, READY_SECONDS)
        _bump(rt)
        return False
    if now < rt.ready_deadline:
        return False
    if rt.state is None and not unable:
        return True  # before the first match: the countdown is over, the match starts anyway
    for seat in seats:  # end-of-match panel: no decision means standing up
        if not (seat.ready or seat.user.is_bot) or seat.pk in unable:
            _stand_up(rt, seat)
    rt.state = rt.dealt = rt.steps = None
    rt.ready_deadline = None
    _bump(rt)
    return False


@ownership.through_owner
@transaction.atomic
def table_ready(*, table_id: int, user: User) -> bool:
    """Giochi a partite: "Sono pronto per iniziare" (or "another match"); start when all are ready."""
    rt = _lock(table_id)
    seat = _seat_of(rt, user)
    if _hand_running(rt):
        raise HandInProgress()
    if not seat.ready:
        seat.ready = True
        seat.save(update_fields=["ready"])
        _bump(rt)
    return table_start_hand(table_id=table_id)


@ownership.through_owner
@transaction.atomic
def table_act(*, table_id: int, user: User, action: dict[str, Any], version: int | None = None) -> StepResult:
    """Apply a player's action; refused actions raise and change nothing."""
    rt = _lock(table_id)
    seat = _seat_of(rt, user)
    if not user.can_play and rt.table.realm == Table.Realm.REAL:
        raise NotAllowed("Il tuo conto non può giocare in questo momento")
    if version is not None and version != rt.version:
        raise StaleVersion(current=rt.version)
    if not _hand_running(rt):
        raise NoHandInProgress()
    return _apply(rt, seat.number, action, automatic=False)


def said_sitout(events: list[dict[str, Any]]) -> bool:
    """Issue 20 (5): a player who answers SITOUT at the invito (P14) is sat out at the table too.

    Every view shows it and the next hands skip him until SONO TORNATO: his seat's row changes with
    the step (``_apply``; the owner runtime lets the row action apply such a decision). A timeout's
    sitout is the clock's, in ``_timeout``.
    """
    return any(e.get("type") == "sitout" and e.get("reason") == "invito" for e in events)


def _apply(rt: TableRuntime, seat_no: int, action: dict[str, Any], *, automatic: bool) -> StepResult:
    """Apply one action to the locked runtime and record it (expects the runtime row locked)."""
    engine = hand_engine(rt)
    assert rt.state is not None
    was_due = seat_no in engine.to_act(rt.state)
    rng = new_rng()
    events = engine.apply(rt.state, seat_no, action, rng)  # raises, changing nothing, if refused
    gone = [seat_no] if said_sitout(events) and not automatic else []
    if gone:
        Seat.objects.filter(table_id=rt.pk, number__in=gone, status=Seat.Status.PLAYING).update(
            status=Seat.Status.SITOUT, sitout_since=timezone.now()
        )
    if rt.bank_seat is not None and rt.bank_seat == seat_no and rt.bank_started is not None:
        used = int((timezone.now() - rt.bank_started).total_seconds())
        banked = Seat.objects.filter(table_id=rt.pk, number=seat_no).first()
        if banked is not None:
            banked.time_bank = 0 if automatic else max(0, banked.time_bank - used)
            banked.save(update_fields=["time_bank"])
        rt.bank_seat = rt.bank_started = None
    if rt.clocks is not None and was_due and rt.turn_started is not None:
        line = engine.line_of(rt.state, seat_no)
        spent = int((timezone.now() - rt.turn_started).total_seconds() * 1000)
        rt.clocks[line] = max(0, int(rt.clocks.get(line, 0)) - spent)
    hand = Hand.objects.select_for_update().get(table_id=rt.pk, number=rt.hand_no)
    done = rt.steps if rt.steps is not None else hand.steps.count()  # None: dealt before the field
    rt.steps = done + 1  # saved with the runtime by _after_change
    HandStep.objects.create(
        hand=hand,
        seq=done + 1,
        seat=seat_no,
        action=action,
        automatic=automatic,
        draws=rng.draws,
        events=events,
        version=rt.version + 1,
        # the lines' tempo partita after this step, as the owner runtime's journal keeps it: each
        # seat's share of his line's time is read from them (``tournament_tables.seats_time_used``)
        clocks=dict(rt.clocks) if rt.clocks is not None else None,
    )
    over = engine.is_over(rt.state)
    if over:
        _finish_hand(rt, engine, hand)
    _after_change(rt, engine, events=events)
    return StepResult(version=rt.version, events=events, hand_over=over)


def _finish_hand(rt: TableRuntime, engine: Engine, hand: Hand) -> None:
    """Settle the ended hand in the ledger, store its history, stand up who asked to leave."""
    assert rt.state is not None
    outcome = engine.outcome(rt.state)
    settlement.settle_hand(table=rt.table, hand=hand, engine=engine, outcome=outcome)
    hand.outcome = outcome
    hand.deck_log = rt.state.get("deck_log", hand.deck_log)
    hand.ended_at = timezone.now()
    hand.save(update_fields=["outcome", "deck_log", "ended_at"])
    rt.carry = engine.carry(rt.state)
    # Seats the game's own rules stand up at a cash table (missed banco turns, P15...).
    stand_up = {int(n) for n in outcome.get("stand_up", [])}
    Seat.objects.filter(table_id=rt.pk, number__in=stand_up).update(leave_after_hand=True)
    seats = list(Seat.objects.filter(table_id=rt.pk))
    wallet_actions.table_rebuys_credit(
        table_session_refs=[s.session_ref for s in seats], realm=rt.table.realm
    )
    for seat in seats:
        if seat.leave_after_hand:
            _stand_up(rt, seat)
        elif seat.status == Seat.Status.SITOUT:
            seat.missed_hands += 1
            seat.save(update_fields=["missed_hands"])
            if _must_stand_up(rt.table, seat):
                _stand_up(rt, seat)
    hooks.match_ended(tournament_tables.match_result(rt, hand, outcome))
    if rt.table.tournament_id is not None:
        return  # one match: the tournament seats its next turn elsewhere
    if engine.family == "partite":
        # The end-of-match panel: another match, a top-up, or leave; undecided players stand up.
        rt.ready_deadline = timezone.now() + timedelta(seconds=READY_SECONDS)
        _start_later(rt, READY_SECONDS)
    else:
        _start_later(rt, next_hand_pause(rt.state))


def next_hand_pause(state: dict[str, Any]) -> int:
    """The seconds between a hand of a gioco a puntate and the next deal: longer after a showdown."""
    return SHOWDOWN_PAUSE_SECONDS if state.get("shown") else NEXT_HAND_DELAY_SECONDS


def _after_change(rt: TableRuntime, engine: Engine, *, events: list[dict[str, Any]] | None = None) -> None:
    """Bump the version, set the next deadline, save, and send views and the deadline after commit."""
    now = timezone.now()
    set_deadline(rt, engine, now)
    _arm_timer(rt, now)
    _bump(rt, events=events)


def set_deadline(rt: TableRuntime, engine: Engine, now: Any) -> None:
    """Set the deadline of the decision now due (none when no one must decide); saves nothing."""
    table = rt.table
    if rt.state is not None and not engine.is_over(rt.state) and engine.to_act(rt.state):
        seconds = float(table.tempo_giocata)
        if rt.clocks is not None:
            # RULINGS G5: the decision (and a disconnected player's return) gets the smaller of the
            # tempo giocata and what is left of his line's tempo partita.
            lines = {engine.line_of(rt.state, s) for s in engine.to_act(rt.state)}
            seconds = min([seconds, *(int(rt.clocks.get(line, 0)) / 1000 for line in lines)])
        rt.deadline = now + timedelta(seconds=seconds)
        rt.turn_started = now
    else:
        rt.deadline = None
        rt.turn_started = None


def _arm_timer(rt: TableRuntime, now: Any) -> None:
    """Make sure a deadline task fires at or before ``rt.deadline`` (expects the row locked, saves nothing).

    One task per table at a time, not one per action: while the pending one fires no later than the
    new deadline it stays, and when it fires early (the table moved on) it re-arms itself for the
    deadline of then (``table_deadline_fired``). A pending task more than ``TIMER_SLACK_SECONDS``
    late counts as lost: another one is sent (a late one that still fires finds nothing to do).
    """
    if rt.deadline is None:
        return  # a pending task finds no deadline and is not re-armed
    if rt.timer_at is not None and now - timedelta(seconds=TIMER_SLACK_SECONDS) <= rt.timer_at <= rt.deadline:
        return
    rt.timer_at = eta = rt.deadline
    table_id = rt.pk
    transaction.on_commit(lambda: _schedule_deadline(table_id, eta))


def _bump(rt: TableRuntime, *, events: list[dict[str, Any]] | None = None) -> None:
    """Save the runtime with a new version; after commit, broadcast it and wake the bots due."""
    rt.version += 1
    rt.save()
    table_id, version = rt.pk, rt.version
    transaction.on_commit(lambda: _committed(table_id, version, events or []))


def _committed(table_id: int, version: int, events: list[dict[str, Any]]) -> None:
    """After commit: every connection gets its view; a bot seat that must decide gets its task.

    Only for the table's latest version (an older one is skipped: the newer commit does this),
    from the rows the broadcast read, so waking the bots costs no query of its own. On the owner
    runtime the table's owner sends the views and keeps the clocks (``lobby.runtime``).
    """
    if runtime.enabled() and ownership.committed(table_id, version, events):
        return
    try:
        sent = broadcast.table_changed(table_id, version, events)
    except Exception:  # the channel layer is down: the action stands, clients resync on the heartbeat
        logger.exception("table %s v%s: broadcast lost", table_id, version)
        return  # a bot due now is moved by the beat sweeper (tables_sweep_bots)
    if sent is None:
        return
    rt, seats = sent
    if rt.deadline is None or rt.state is None or not any(s.user.is_bot for s in seats):
        return
    engine = hand_engine(rt)
    due = set() if engine.is_over(rt.state) else set(engine.to_act(rt.state))
    if any(s.user.is_bot and s.number in due for s in seats):
        _schedule_bot(table_id, version)


# --- clocks -------------------------------------------------------------------------------------


@ownership.through_owner
@transaction.atomic
def table_timeout(*, table_id: int, version: int) -> int:
    """Apply the engine's timeout decisions if the table has not moved since ``version``.

    Returns how many automatic actions were applied (0 when a player acted first: the deadline of
    an old version is stale, so a late timeout and a late action can never both apply).
    """
    rt = _lock(table_id)
    if rt.version != version:
        return 0
    return _timeout(rt)


@ownership.through_owner
@transaction.atomic
def table_deadline_fired(*, table_id: int, eta: Any = None) -> int:
    """The table's deadline task fired (armed for ``eta``): time out the decision, or re-arm.

    The deadline read under the row lock decides: passed, the timeout applies (a player who acted
    first moved it on, so a late timeout and a late action never both apply); still ahead, the
    task is sent again for it. Returns how many automatic actions were applied.
    """
    rt = _lock(table_id)
    if eta is not None and rt.timer_at == eta:
        rt.timer_at = None  # this was the pending task
    now = timezone.now()
    if rt.deadline is not None and rt.deadline > now:
        _arm_timer(rt, now)
        rt.save(update_fields=["timer_at"])  # nothing a player sees changed: same version
        return 0
    rt.save(update_fields=["timer_at"])
    return _timeout(rt)


def _timeout(rt: TableRuntime) -> int:
    """Apply the timeout decisions of a locked runtime whose deadline passed (else nothing)."""
    if rt.deadline is None or rt.deadline > timezone.now() or not _hand_running(rt):
        return 0
    engine = hand_engine(rt)
    assert rt.state is not None
    due = engine.to_act(rt.state)
    if rt.bank_seat is None and len(due) == 1:
        seat = Seat.objects.filter(table_id=rt.pk, number=due[0]).first()
        if seat is not None and seat.time_bank > 0:
            # RULINGS G5: the decision goes on, on the seat's time bank (what is left of it).
            now = timezone.now()
            rt.bank_seat, rt.bank_started = seat.number, now
            rt.deadline = now + timedelta(seconds=seat.time_bank)
            _arm_timer(rt, now)
            _bump(rt)
            return 0
    applied = 0
    for seat_no in list(due):
        if engine.is_over(rt.state) or seat_no not in engine.to_act(rt.state):
            continue
        _apply(rt, seat_no, engine.timeout_action(rt.state, seat_no), automatic=True)
        applied += 1
        if engine.family == "puntate":
            Seat.objects.filter(table_id=rt.pk, number=seat_no).update(
                status=Seat.Status.SITOUT, sitout_since=timezone.now()
            )
    return applied


def tables_sweep_deadlines(*, now: Any = None, grace_seconds: int = SWEEP_GRACE_SECONDS) -> int:
    """Apply every timeout whose deadline passed more than ``grace_seconds`` ago (beat safety net)."""
    now = now or timezone.now()
    due = TableRuntime.objects.filter(deadline__lt=now - timedelta(seconds=grace_seconds)).values_list(
        "table_id", "version"
    )
    return _sweep_each(table_timeout, due)


def tables_sweep_starts(*, now: Any = None) -> int:
    """Deal at the tables whose next-hand (or match countdown) start is overdue: its task was lost."""
    cutoff = (now or timezone.now()) - timedelta(seconds=SWEEP_GRACE_SECONDS)
    due = TableRuntime.objects.filter(start_at__lt=cutoff).values_list("table_id")
    return _sweep_each(table_start_hand, due)


def tables_sweep_bots(*, now: Any = None) -> int:
    """Let the bots move whose decision has waited past the bots' delay: their task was lost.

    Without it a lost bot task ends at the deadline, whose timeout sits the bot out for good.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=bots.BOT_DELAY_SECONDS + SWEEP_GRACE_SECONDS)
    due = (
        TableRuntime.objects.filter(
            deadline__isnull=False, turn_started__lt=cutoff, table__seat_rows__user__is_bot=True
        )
        .values_list("table_id", "version")
        .distinct()
    )
    return _sweep_each(table_bot_move, due)


def _sweep_each(action: Any, due: Any) -> int:
    """Call ``action(table_id=, version=)`` for each due row: one table failing stops no other's clock.

    The tables live owners keep are left out in one query (a live owner keeps its own clocks); each
    other one is checked again just before its action (``ownership.owned``): a sweep over many due
    tables takes a while, and an owner that claimed one meanwhile (its first connection) resumed its
    clocks from the row: parked from here for it, it would wait on the sweep for nothing.
    """
    done = 0
    due = list(due)
    free = set(ownership.unowned({row[0] for row in due}))
    for row in due:
        if row[0] not in free or ownership.owned(row[0]):
            continue
        kwargs = dict(zip(("table_id", "version"), row, strict=False))
        try:
            done += int(action(**kwargs))
        except Exception:
            logger.exception("sweep: %s%s failed", action.__name__, kwargs)
    return done


def tables_sweep(*, now: Any = None) -> int:
    """The beat's safety net: every kind of pending table work whose task was lost, done now.

    Deadlines, next deals, bot moves, waiting-list offers, sit-out stand-ups and the presence of
    server processes that stopped beating; each part is idempotent (row lock, version checks).
    On the owner runtime, a table whose owner lives is its owner's business: the sweeper only
    brings the row of a table whose owner died up to date from the journal and frees its lease.
    """
    return (
        ownership.sweep_orphans()
        + presence_sweep(now=now)
        + tables_sweep_bots(now=now)  # before the deadlines: a bot's timeout would sit it out
        + tables_sweep_deadlines(now=now)
        + tables_sweep_starts(now=now)
        + waiting_offers_sweep()
        + tables_sweep_sitouts()
    )


def _schedule_deadline(table_id: int, eta: Any) -> None:
    if settings.LOBBY_SCHEDULE_TASKS and not ownership.owned(table_id):  # owners keep their own clocks
        from lobby.tasks import table_deadline

        table_deadline.apply_async(kwargs={"table_id": table_id, "eta": eta.isoformat()}, eta=eta)


def _schedule_bot(table_id: int, version: int) -> None:
    if settings.LOBBY_SCHEDULE_TASKS and not ownership.owned(table_id):  # owners keep their own clocks
        from lobby.tasks import table_bot_move

        table_bot_move.apply_async(
            kwargs={"table_id": table_id, "version": version}, countdown=bots.BOT_DELAY_SECONDS
        )


@ownership.through_owner
@transaction.atomic
def table_bot_move(*, table_id: int, version: int) -> int:
    """Let the bots that must decide now make their move (nothing if the table moved on)."""
    rt = _lock(table_id)
    if rt.version != version or not _hand_running(rt):
        return 0
    engine = hand_engine(rt)
    assert rt.state is not None
    moved = 0
    for seat in Seat.objects.filter(table_id=table_id, user__is_bot=True).order_by("number"):
        if _hand_running(rt) and seat.number in engine.to_act(rt.state):
            action = bots.bot_action(engine, rt.state, seat.number, new_rng())
            _apply(rt, seat.number, action, automatic=False)
            moved += 1
    return moved


def _start_later(rt: TableRuntime, delay: int) -> None:
    """Deal the next hand in ``delay`` seconds (expects the row locked; the caller saves it).

    The due time is kept on the row (``start_at``) as well as sent as a task after commit: a task
    lost with a Redis restart or a dead worker is replaced by the beat sweeper.
    """
    now = timezone.now()
    at = now + timedelta(seconds=delay)
    if rt.start_at is not None and rt.start_at > now and rt.ready_deadline is None:
        return  # the pause after a hand holds: a sit-down or a return waits for its deal
    if rt.start_at is None or at < rt.start_at:
        rt.start_at = at
    table_id = rt.pk
    transaction.on_commit(lambda: _schedule_start(table_id, delay))


def _schedule_start(table_id: int, delay: int) -> None:
    if settings.LOBBY_SCHEDULE_TASKS and not ownership.owned(table_id):  # owners keep their own clocks
        from lobby.tasks import table_start

        table_start.apply_async(kwargs={"table_id": table_id}, countdown=delay)


@ownership.through_owner
@transaction.atomic
def table_cancel_hand(*, table_id: int, actor: User, reason: str) -> bool:
    """Cancel the hand in progress for a technical fault: every bet of it is returned (RULINGS G7).

    Chips move in the ledger only when a hand settles, so dropping the hand's state returns every
    bet of this hand exactly; earlier hands stand, and a pot carried in from them stays carried.
    """
    rt = _lock(table_id)
    if not _hand_running(rt):
        raise NoHandInProgress()
    hand = Hand.objects.select_for_update().get(table_id=rt.pk, number=rt.hand_no)
    hand.cancelled = True
    hand.ended_at = timezone.now()
    hand.save(update_fields=["cancelled", "ended_at"])
    rt.carry = hand.carry_in
    rt.state = rt.dealt = rt.steps = None
    rt.deadline = None
    rt.bank_seat = rt.bank_started = None
    _bump(rt)
    audit_record(
        actor=actor, action="table.cancel_hand", target=rt.table, reason=reason, data={"hand": hand.number}
    )
    return True


# --- chat ---------------------------------------------------------------------------------------


def table_chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    """Post a chat line: length and rate limits, then moderation's rules before anyone sees it.

    Not one transaction: moderation commits a held or refused line (for its moderators) before
    raising; the line shown is written and sent after it.
    """
    text = (text or "").strip()
    if not text or len(text) > CHAT_MAX_LENGTH:
        raise ChatRefused(f"Il messaggio deve avere da 1 a {CHAT_MAX_LENGTH} caratteri")
    table = Table.objects.filter(pk=table_id, is_open=True).first()
    if table is None:
        raise TableClosed()
    recent = ChatMessage.objects.filter(
        user=user, created_at__gte=timezone.now() - timedelta(minutes=1)
    ).count()
    if recent >= CHAT_MAX_PER_MINUTE:
        raise ChatRefused("Stai scrivendo troppo velocemente: attendi un momento")
    # "Durante il gioco": the author holds cards in the hand (partite: the match) still running
    rt = TableRuntime.objects.select_related("table").filter(pk=table_id).first()
    seat = Seat.objects.filter(table=table, user=user).first()
    in_hand = bool(rt and seat and _hand_running(rt) and seat.number in _dealt_seats(rt))
    running = bool(rt and _hand_running(rt))
    channel = chat.table_channel(table_id=table_id, spectator=seat is None, hand_running=running)
    shown = moderation.chat_screen(author=user, channel=channel, text=text, in_hand=in_hand)
    with transaction.atomic():
        message = ChatMessage.objects.create(table=table, user=user, text=shown.text)
        # robust: a channel-layer outage loses the line's broadcast, never the posting (it is stored)
        transaction.on_commit(
            lambda: broadcast.chat_posted(
                table_id, user.nickname, shown.text, message.created_at, shown.line_id, channel
            ),
            robust=True,
        )
    return message
