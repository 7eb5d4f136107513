"""The hand's path: the deal, a decision applied, the hand's end settled, the clocks' timeouts.

Read top to bottom, a hand goes: ``table_start_hand`` deals (``_deal``: who is dealt in, the
engine's new state, the ``Hand`` row); each decision (``table_act``, a bot's ``table_bot_move``, a
timeout's ``_timeout``) goes through ``_apply``: the engine applies it, the step is recorded as a
``HandStep`` and, when it ends the hand, ``finish_hand`` settles it in the ledger, stands up who
asked to leave and sets the next deal. Each is one transaction on the locked row (``tablerow``).
A table's owner applies decisions itself (``lobby.runtime.owner``) and calls
``finish_hand`` at the hand's end; the rest runs here, under the owner.

Leaving a table in the middle of a hand is here too (``table_leave``, a player removed): it ends a
match of a gioco a partite, or sits the player out for the rest of the hand.
"""

from __future__ import annotations

import copy
import logging
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games import options as game_options
from games.engine import Engine
from lobby import bots, bulkinsert, owners, settlement
from lobby.actions import seating, tablerow, tournament_tables
from lobby.errors import HandInProgress, NoHandInProgress, NotAllowed, StaleVersion
from lobby.models import Hand, HandPlayer, HandStep, Seat, Table, TableRuntime, WaitingEntry
from lobby.replay import ENGINE_SPEC_KEYS
from piattaforma import hooks, siteops
from piattaforma.actions import audit_record, preferences_of, preferences_read
from piattaforma.compiledquery import CompiledQuery, Read
from piattaforma.models import User
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors

logger = logging.getLogger(__name__)

NEXT_HAND_DELAY_SECONDS = 4  # time to look at a hand's result before the next deal (no cards shown)

# After a showdown (poker, telesina: cards shown) the server holds the result longer, so that every
# player reads the hands, pots and winners before the next deal; neither the rules nor RULINGS name
# a pause, and 8 s is the time players need to read a showdown's summary. Nobody's action brings
# the next deal forward (``tablerow.start_later``).
SHOWDOWN_PAUSE_SECONDS = 8

READY_SECONDS = 30  # giochi a partite: countdown of "Sono pronto per iniziare" and of the end-of-match panel


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


def deal_reads(rt: TableRuntime, seats: Sequence[Seat]) -> list[Read]:
    """The reads of a deal at this table, as whoever holds its row and seats (its owner) knows them
    before the deal: sent with the row's lock (``tablerow.lock_with``), the five statements in one round trip.

    Each is taken only by the deal's own call with the same arguments (the same seats in the same
    order): a seat that changed meanwhile makes the deal read it again, never read it stale.
    """
    table = rt.table
    reads = [siteops.game_enabled_read(table.game), Read(_SEATS_TO_DEAL, (table.pk,))]
    if seats:
        refs = [s.session_ref for s in seats]
        reads.append(wallet_selectors.table_credits_read(table_session_refs=refs, realm=table.realm))
        dealt = [s.user_id for s in seats if not s.leave_after_hand]
        if dealt:
            reads.append(preferences_read(user_ids=dealt, game=table.game))
    return reads


def _seat_specs(rt: TableRuntime, seats: list[Seat], credits: dict[str, int]) -> list[dict[str, Any]]:
    """What the engine and the hand's record are told of each seat (``_seats_to_deal``'s seats)."""
    table = rt.table
    prefs = preferences_of(user_ids=[s.user_id for s in seats], game=table.game)
    return [
        {
            "seat": seat.number,
            "chips": credits[seat.session_ref],
            "sitout": seat.status == Seat.Status.SITOUT,
            "prefs": prefs[seat.user_id] if seat.prefs is None else seat.prefs,  # Seat.prefs
            "user_id": seat.user_id,
            "nickname": seat.user.nickname,
            "session_ref": seat.session_ref,
            "new": not seat.dealt_here,  # type: ignore[attr-defined]  # annotated by _seats_to_deal
        }
        for seat in seats
    ]


@transaction.atomic
def table_start_hand(*, table_id: int) -> bool:
    """Deal the next hand if enough players are seated and playing; return whether one started."""
    rt = tablerow.lock(table_id)
    if getattr(rt, "journaled_end", False):
        return False  # the lock settled a hand the journal ended: its result is shown before a deal
    due = rt.start_at is not None and rt.start_at <= timezone.now()
    if due:
        rt.start_at = None  # the due start is this call (a player's earlier call leaves it pending)
    if rt.state is not None and rt.hand_no and not rt.steps:
        # a hand over as it was dealt (no step: a level table's L1) is settled here; one a step
        # ended was settled with the row that holds it (its owner, or ``tablerow.lock``'s recovery)
        engine = tablerow.hand_engine(rt)
        if engine.is_over(rt.state):
            unsettled = Hand.objects.filter(table_id=rt.pk, number=rt.hand_no, ended_at__isnull=True).first()
            if unsettled is not None:
                finish_hand(rt, engine, unsettled)
                tablerow.after_change(rt, engine)
                return False
    started = _deal(rt)
    if due and not started:
        rt.save(update_fields=["start_at"])  # a deal saves it with the rest of the row
    return started


def hand_start_refused(rt: TableRuntime) -> bool:
    """At hand start (row locked, no hand running): tell whether no hand may be dealt, standing players up.

    A table closed by staff or by a game switch, or any table while the site is closed, deals
    nothing; whoever still sits there leaves with his credit.
    """
    table = rt.table
    if table.is_open and siteops.game_enabled(table.game, table.realm) and not siteops.site_closed():
        return False
    if Seat.objects.filter(table_id=rt.pk).exists() or WaitingEntry.objects.filter(table_id=rt.pk).exists():
        rt.save(update_fields=["start_at"])  # (the start this is) each leave below locks the row again
        stand_everyone(rt)
    return True


def stand_everyone(rt: TableRuntime) -> dict[str, int]:
    """Stand every seated player up with his credit (no hand running; the row locked); return the amounts."""
    WaitingEntry.objects.filter(table_id=rt.pk).delete()
    paid: dict[str, int] = {}
    for seat in Seat.objects.filter(table_id=rt.pk).select_related("user").order_by("number"):
        out = table_leave(table_id=rt.pk, user=seat.user)
        paid[seat.user.nickname] = int(out.get("amount", 0))
    return paid


def _deal(rt: TableRuntime, chips: dict[str, int] | None = None) -> bool:
    """``table_start_hand`` on the locked row: deal if the table may; save the row if it deals.

    ``chips``: a level tournament's chips by session (``tournament_tables.tournament_table_next``),
    instead of the table credits; such a table deals only when its tournament says so.
    """
    if tablerow.hand_running(rt) or hand_start_refused(rt):  # closed table, game off, site closed
        return False
    table = rt.table
    if table.tournament_id is not None and rt.hand_no and chips is None:
        return False  # a turn's table plays one match; a level table waits for its tournament
    engine = tablerow.next_hand_engine(rt)
    everyone = _seats_to_deal(table)
    credits = chips if chips is not None else _seat_credits(rt, everyone)
    if chips is None:  # a training bot gone broke is topped up, never left blocking the table
        credits = seating.training_bots_topped_up(rt, everyone, credits)
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
    # A level tournament's table deals while two seats have chips, sitout ones included: the engine
    # takes their invito and, with at most one seat left playing, gives it the pot (RULINGS L1),
    # so an absent player is blinded off and the tournament goes on to its end.
    playing = specs if chips is not None else [s for s in specs if not s["sitout"]]
    if len(playing) < max(table.min_players, engine.min_seats):
        if rt.state is not None:
            rt.state = rt.dealt = rt.steps = None
            rt.deadline = None
            tablerow.bump(rt)
        return False
    rng = tablerow.new_rng()
    engine_specs = [{k: s[k] for k in ENGINE_SPEC_KEYS} for s in specs]
    config = tablerow.engine_config(table)
    carry_in = rt.carry
    state = engine.new(config, engine_specs, rng, carry_in)
    clocks = None
    if engine.family == "partite" and table.tempo_partita:
        lines = {engine.line_of(state, s["seat"]) for s in specs}
        clocks = dict.fromkeys(sorted(lines), table.tempo_partita * 1000)
    tablerow.hand_dealt(rt, engine, state, [s["seat"] for s in specs], timezone.now(), clocks=clocks)
    if any(s.ready for s in everyone):
        Seat.objects.filter(table=table).update(ready=False)
    hand = Hand(
        table=table,
        number=rt.hand_no,
        game=engine.name,
        config=config,
        carry_in=carry_in,
        seats=[{k: s[k] for k in (*ENGINE_SPEC_KEYS, "user_id", "nickname", "session_ref")} for s in specs],
        start_draws=rng.draws,
        deck_log=state.get("deck_log", []),
    )
    # ``create`` and ``bulk_create`` with less Python (a deal at every hand): no signals either way
    bulkinsert.insert(Hand, [hand])
    bulkinsert.insert(
        HandPlayer, [HandPlayer(hand=hand, user_id=spec["user_id"], seat=spec["seat"]) for spec in specs]
    )
    # (a hand over as dealt is settled by the table's next start: the caller, the tournament
    # between hands, holds the rows the hand's end writes)
    tablerow.bump(rt)
    rt.hand_pk = hand.pk  # type: ignore[attr-defined]  # as the owner's read of the row has it
    owners.dealt(rt, hand)
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
            tablerow.bump(rt)
        return False
    # A seat short of the perdita massima, or whose player left (no connection),
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
        tablerow.start_later(rt, READY_SECONDS)
        tablerow.bump(rt)
        return False
    if now < rt.ready_deadline:
        return False
    if rt.state is None and not unable:
        return True  # before the first match: the countdown is over, the match starts anyway
    for seat in seats:  # end-of-match panel: no decision means standing up
        if not (seat.ready or seat.user.is_bot) or seat.pk in unable:
            seating.stand_up(rt, seat)
    rt.state = rt.dealt = rt.steps = None
    rt.ready_deadline = None
    tablerow.bump(rt)
    return False


@transaction.atomic
def table_ready(*, table_id: int, user: User) -> bool:
    """Giochi a partite: "Sono pronto per iniziare" (or "another match"); start when all are ready."""
    rt = tablerow.lock(table_id)
    seat = tablerow.seat_of(rt, user)
    if tablerow.hand_running(rt):
        raise HandInProgress()
    if not seat.ready:
        seat.ready = True
        seat.save(update_fields=["ready"])
        tablerow.bump(rt)
    return table_start_hand(table_id=table_id)


@transaction.atomic
def table_act(
    *, table_id: int, user: User, action: dict[str, Any], version: int | None = None
) -> tablerow.StepResult:
    """Apply a player's action; refused actions raise and change nothing."""
    rt = tablerow.lock(table_id)
    seat = tablerow.seat_of(rt, user)
    if not user.can_play and rt.table.realm == Table.Realm.REAL:
        raise NotAllowed("Il tuo conto non può giocare in questo momento")
    if version is not None and version != rt.version:
        raise StaleVersion(current=rt.version)
    if not tablerow.hand_running(rt):
        raise NoHandInProgress()
    return _apply(rt, seat.number, action, automatic=False)


def said_sitout(events: list[dict[str, Any]]) -> bool:
    """Issue 20 (5): a player who answers SITOUT at the invito (P14) is sat out at the table too.

    Every view shows it and the next hands skip him until SONO TORNATO: his seat's row changes with
    the step (``_apply``; the owner runtime lets the row action apply such a decision). A timeout's
    sitout is the clock's, in ``_timeout``.
    """
    return any(e.get("type") == "sitout" and e.get("reason") == "invito" for e in events)


def _apply(rt: TableRuntime, seat_no: int, action: dict[str, Any], *, automatic: bool) -> tablerow.StepResult:
    """Apply one action to the locked runtime and record it (expects the runtime row locked)."""
    engine = tablerow.hand_engine(rt)
    assert rt.state is not None
    was_due = seat_no in engine.to_act(rt.state)
    rng = tablerow.new_rng()
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
    rt.steps = done + 1  # saved with the runtime by tablerow.after_change
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
        finish_hand(rt, engine, hand)
    tablerow.after_change(rt, engine, events=events)
    return tablerow.StepResult(version=rt.version, events=events, hand_over=over)


def finish_hand(
    rt: TableRuntime,
    engine: Engine,
    hand: Hand,
    *,
    rebuys: bool | None = None,
    seats: Sequence[Seat] | None = None,
) -> None:
    """Settle the ended hand in the ledger, store its history, stand up who asked to leave.

    Once per hand: the hand row is written only while it has no end (one conditional update, in
    the settlement's transaction, is its idempotency), so a second settlement of the same hand
    (a recovery racing its owner) moves nothing. ``rebuys``: False when the caller knows no rebuy
    was made during the hand (the owner that dealt it saw every write since), else they are looked up.
    ``seats``: the table's seats as the caller holds them (the owner: as they are now), else read.
    """
    assert rt.state is not None
    outcome = engine.outcome(rt.state)
    hand.outcome = outcome
    hand.deck_log = rt.state.get("deck_log", hand.deck_log)
    hand.ended_at = timezone.now()
    ended = Hand.objects.filter(pk=hand.pk, ended_at__isnull=True).update(
        outcome=hand.outcome, deck_log=hand.deck_log, ended_at=hand.ended_at
    )
    rt.carry = engine.carry(rt.state)
    if not ended:
        logger.warning("table %s: hand %s already settled, not settled again", rt.pk, hand.pk)
        return
    settlement.settle_hand(table=rt.table, hand=hand, engine=engine, outcome=outcome)
    # Seats the game's own rules stand up at a cash table (missed banco turns, P15...); never at a
    # tournament's table, where a player leaves only by elimination (RULINGS L2).
    cash_table = rt.table.tournament_id is None
    stand_up = {int(n) for n in outcome.get("stand_up", [])} if cash_table else set()
    if stand_up:
        Seat.objects.filter(table_id=rt.pk, number__in=stand_up).update(leave_after_hand=True)
    if seats is None:
        seats = list(Seat.objects.filter(table_id=rt.pk))
    else:  # (copies: the caller's stay as they were if this transaction rolls back)
        seats = [copy.copy(s) for s in seats]
        for seat in seats:
            seat.leave_after_hand = seat.leave_after_hand or seat.number in stand_up
    if rebuys is not False:
        wallet_actions.table_rebuys_credit(
            table_session_refs=[s.session_ref for s in seats], realm=rt.table.realm
        )
    for seat in seats:
        if seat.leave_after_hand:
            seating.stand_up(rt, seat)
        elif seat.status == Seat.Status.SITOUT:
            seat.missed_hands += 1
            seat.save(update_fields=["missed_hands"])
            if cash_table and seating.must_stand_up(rt.table, seat):
                seating.stand_up(rt, seat)
    # a level table: the pause a cash table of the game takes to read the result before its next deal
    pause = next_hand_pause(rt.state) if engine.family == "puntate" else None
    hooks.match_ended(tournament_tables.match_result(rt, hand, outcome, pause))
    if rt.table.tournament_id is not None:
        return  # one match, or one hand: the tournament seats its next turn or deals the next hand
    if engine.family == "partite":
        # The end-of-match panel: another match, a top-up, or leave; undecided players stand up.
        rt.ready_deadline = timezone.now() + timedelta(seconds=READY_SECONDS)
        tablerow.start_later(rt, READY_SECONDS)
    else:
        tablerow.start_later(rt, next_hand_pause(rt.state))


@tablerow.on_journaled_end
def settle_journaled_end(rt: TableRuntime) -> None:
    """A hand the journal ends and nobody settled (``tablerow.settle_journaled_end``): settled
    now on the locked row, and the row saved with a new version."""
    engine = tablerow.hand_engine(rt)
    hand = Hand.objects.filter(table_id=rt.pk, number=rt.hand_no, ended_at__isnull=True).first()
    if hand is not None:
        finish_hand(rt, engine, hand)
    tablerow.after_change(rt, engine)
    rt.journaled_end = True  # type: ignore[attr-defined]  # (``table_start_hand`` deals after the pause)


def next_hand_pause(state: dict[str, Any]) -> int:
    """The seconds between a hand of a gioco a puntate and the next deal: longer after a showdown."""
    return SHOWDOWN_PAUSE_SECONDS if state.get("shown") else NEXT_HAND_DELAY_SECONDS


@transaction.atomic
def table_timeout(*, table_id: int, version: int) -> int:
    """Apply the engine's timeout decisions if the table has not moved since ``version``.

    Returns how many automatic actions were applied (0 when a player acted first: the deadline of
    an old version is stale, so a late timeout and a late action can never both apply).
    """
    rt = tablerow.lock(table_id)
    if rt.version != version:
        return 0
    return _timeout(rt)


@transaction.atomic
def table_deadline_fired(*, table_id: int, eta: Any = None) -> int:
    """The table's deadline task fired (armed for ``eta``): time out the decision, or re-arm.

    The deadline read under the row lock decides: passed, the timeout applies (a player who acted
    first moved it on, so a late timeout and a late action never both apply); still ahead, the
    task is sent again for it. Returns how many automatic actions were applied.
    """
    rt = tablerow.lock(table_id)
    if eta is not None and rt.timer_at == eta:
        rt.timer_at = None  # this was the pending task
    now = timezone.now()
    if rt.deadline is not None and rt.deadline > now:
        tablerow.arm_timer(rt, now)
        rt.save(update_fields=["timer_at"])  # nothing a player sees changed: same version
        return 0
    rt.save(update_fields=["timer_at"])
    return _timeout(rt)


def _timeout(rt: TableRuntime) -> int:
    """Apply the timeout decisions of a locked runtime whose deadline passed (else nothing)."""
    if rt.deadline is None or rt.deadline > timezone.now() or not tablerow.hand_running(rt):
        return 0
    engine = tablerow.hand_engine(rt)
    assert rt.state is not None
    due = engine.to_act(rt.state)
    if rt.bank_seat is None and len(due) == 1:
        seat = Seat.objects.filter(table_id=rt.pk, number=due[0]).first()
        if seat is not None and seat.time_bank > 0:
            # RULINGS G5: the decision goes on, on the seat's time bank (what is left of it).
            now = timezone.now()
            rt.bank_seat, rt.bank_started = seat.number, now
            rt.deadline = now + timedelta(seconds=seat.time_bank)
            tablerow.arm_timer(rt, now)
            tablerow.bump(rt)
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


@transaction.atomic
def table_bot_move(*, table_id: int, version: int) -> int:
    """Let the bots that must decide now make their move (nothing if the table moved on)."""
    rt = tablerow.lock(table_id)
    if rt.version != version or not tablerow.hand_running(rt):
        return 0
    engine = tablerow.hand_engine(rt)
    assert rt.state is not None
    moved = 0
    for seat in Seat.objects.filter(table_id=table_id, user__is_bot=True).order_by("number"):
        if tablerow.hand_running(rt) and seat.number in engine.to_act(rt.state):
            action = bots.bot_action(engine, rt.state, seat.number, tablerow.new_rng())
            _apply(rt, seat.number, action, automatic=False)
            moved += 1
    return moved


@transaction.atomic
def table_leave(*, table_id: int, user: User) -> dict[str, Any]:
    """Stand up: now between hands, else at the end of the hand; the credit goes back to the conto."""
    rt = tablerow.lock(table_id)
    seat = tablerow.seat_of(rt, user)
    if level_table(rt):
        sit_out_in_tournament(rt, seat)
        return {"left": False, "sitout": True}
    if tablerow.hand_running(rt) and seat.number in tablerow.dealt_seats(rt):
        abandoned = tablerow.hand_engine(rt).family == "partite"
        leave_during_hand(rt, seat)
        if abandoned:
            return {"left": True, "abandoned": True}
        return {"left": False, "after_hand": True}
    amount = seating.stand_up(rt, seat)
    return {"left": True, "amount": amount}


@transaction.atomic
def table_remove_player(*, table_id: int, user: User) -> None:
    """``tables_remove_player`` at one table (under its owner)."""
    rt = tablerow.lock(table_id)
    seat = Seat.objects.filter(table_id=table_id, user=user).first()
    if seat is None:
        return
    if level_table(rt):
        sit_out_in_tournament(rt, seat)
        return
    if not (tablerow.hand_running(rt) and seat.number in tablerow.dealt_seats(rt)):
        seating.stand_up(rt, seat)
        return
    leave_during_hand(rt, seat)


def level_table(rt: TableRuntime) -> bool:
    """A level tournament's table (a gioco a puntate at a tournament): its seats hold chips."""
    return rt.table.tournament_id is not None and tablerow.engine_for(rt.table).family == "puntate"


def sit_out_in_tournament(rt: TableRuntime, seat: Seat) -> None:
    """A player who leaves a level tournament's table stays in the tournament, in sitout: only an
    elimination takes him out (RULINGS L2), and the invito is still taken from him (L1). A
    decision he owes now is the automatic one (P14). Expects the runtime row locked."""
    seat.status = Seat.Status.SITOUT
    seat.sitout_since = timezone.now()
    seat.save(update_fields=["status", "sitout_since"])
    engine = tablerow.hand_engine(rt)
    if tablerow.hand_running(rt) and seat.number in engine.to_act(rt.state or {}):
        _apply(rt, seat.number, engine.timeout_action(rt.state or {}, seat.number), automatic=True)
    else:
        tablerow.bump(rt)


def leave_during_hand(rt: TableRuntime, seat: Seat) -> None:
    """A player leaves in the middle of a hand (expects the runtime row locked).

    Gioco a partite: "Abbandona" — the match is lost as on a timeout and settles now (rules 004).
    Gioco a puntate: "Esci dal tavolo" — he goes sitout at once and any decision he owes is the
    automatic one (check if he may, else fold: P14); his credit settles with the hand, then he
    stands up with it. Standing up before the settlement would return chips still in the pot.
    """
    engine = tablerow.hand_engine(rt)
    assert rt.state is not None
    seat.leave_after_hand = True
    seat.status = Seat.Status.SITOUT
    seat.sitout_since = timezone.now()
    seat.save(update_fields=["leave_after_hand", "status", "sitout_since"])
    if engine.family == "partite":
        _apply(rt, seat.number, {"type": "abbandona"}, automatic=False)
    elif seat.number in engine.to_act(rt.state):
        _apply(
            rt,
            seat.number,
            engine.timeout_action(rt.state, seat.number),
            automatic=True,
        )
    else:
        tablerow.bump(rt)


@transaction.atomic
def table_cancel_hand(*, table_id: int, actor: User, reason: str) -> bool:
    """Cancel the hand in progress for a technical fault: every bet of it is returned (RULINGS G7).

    Chips move in the ledger only when a hand settles, so dropping the hand's state returns every
    bet of this hand exactly; earlier hands stand, and a pot carried in from them stays carried.
    """
    rt = tablerow.lock(table_id)
    if not tablerow.hand_running(rt):
        raise NoHandInProgress()
    hand = Hand.objects.select_for_update().get(table_id=rt.pk, number=rt.hand_no)
    hand.cancelled = True
    hand.ended_at = timezone.now()
    hand.save(update_fields=["cancelled", "ended_at"])
    rt.carry = hand.carry_in
    rt.state = rt.dealt = rt.steps = None
    rt.deadline = None
    rt.bank_seat = rt.bank_started = None
    tablerow.bump(rt)
    audit_record(
        actor=actor,
        action="table.cancel_hand",
        target=rt.table,
        reason=reason,
        data={"hand": hand.number},
    )
    return True


@transaction.atomic
def tournament_table_next(
    *,
    table_id: int,
    leave: Sequence[int] = (),
    arrive: Sequence[tuple[int, int]] = (),
    chips: dict[int, int] | None = None,
    config: dict[str, Any] | None = None,
) -> bool:
    """A level tournament's table between two hands (under its owner): who leaves it (eliminated
    or moved away), who arrives at which seat (moved here, his chips with him), the game options
    of the next hand (the level's invito), and the next hand dealt with ``chips`` (user id ->
    tournament chips) unless it is None. Refused while a hand runs: nobody moves in the middle of
    a hand. No money moves: the seats hold no table credit. Returns whether a hand was dealt.
    """
    rt = tablerow.lock(table_id)
    table = rt.table
    if table.tournament_id is None:
        raise NotAllowed("Non è un tavolo di torneo")
    if tablerow.hand_running(rt):
        raise NotAllowed("Una mano è in corso: il torneo attende la sua fine")
    changed = False
    if leave:
        Seat.objects.filter(table_id=table_id, user_id__in=list(leave)).delete()
        changed = True
    for user_id, number in arrive:
        Seat.objects.create(
            table=table,
            number=number,
            user_id=user_id,
            session_ref=f"torneo-{table_id}-{number}-{uuid.uuid4().hex[:8]}",
            prefs=preferences_of(user_ids=[user_id], game=table.game)[user_id]
            if game_options.kept_for_the_session(table.game)
            else None,
        )
        changed = True
    if config and any(table.config.get(key) != value for key, value in config.items()):
        table.config = {**table.config, **config}
        table.save(update_fields=["config"])
        changed = True
    if chips is not None:
        refs = dict(Seat.objects.filter(table_id=table_id).values_list("user_id", "session_ref"))
        by_ref = dict.fromkeys(refs.values(), 0)
        by_ref.update({refs[uid]: int(amount) for uid, amount in chips.items() if uid in refs})
        if _deal(rt, by_ref):
            return True
    if changed:
        tablerow.bump(rt)
    return False
