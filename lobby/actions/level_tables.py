"""A level tournament's round dealt in bulk: every table between hands, in one transaction.

Hand for hand (rules 004, "Modalità mano per mano") every table of the tournament deals its next
hand together. ``tournament_table_next`` (``hands``) writes one table in one transaction; a
round of a hundred tables would deal over seconds. ``tournament_tables_next`` writes the whole
round as ``tournament_tables.tournament_tables_open`` opens a turn: the runtime rows locked in one
query (primary-key order), who leaves and who arrives in one statement each, every table's hand
dealt in memory as ``hands._deal`` deals it (the same seats dealt in, the engine's ``new`` with
its own recorded draws, the row's fields written by the same ``tablerow.hand_dealt``), then the
hands and hand players written in one insert each, the runtime rows by one ``UPDATE`` executed
once a row, and after commit each table's one view sent in one hop to the channel layer. Every
hand so starts in the same transaction and is journaled and recovered as any other: its ``Hand``
row holds its seats and draws, its steps go to the journal as they are played.

The door parks every one of these tables' owners for it (``lobby.runtime.ownership.through_owners``):
a table an owner keeps reads its row back after the commit and sends its views itself.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games import options as game_options
from lobby import broadcast, bulkinsert, collector, owners
from lobby.actions import hands, tablerow
from lobby.errors import NotAllowed, TableClosed
from lobby.models import Hand, HandPlayer, Seat, Table, TableRuntime
from lobby.replay import ENGINE_SPEC_KEYS, recover_many
from piattaforma import siteops
from piattaforma.actions import preferences_of

HAND_KEYS = (
    *ENGINE_SPEC_KEYS,
    "user_id",
    "nickname",
    "session_ref",
)  # a Hand's seats, as ``_deal`` stores them

# the fields of a runtime row that a deal writes (``tablerow.hand_dealt``, and the version)
DEAL_FIELDS = (
    "hand_no",
    "state",
    "dealt",
    "steps",
    "game",
    "clocks",
    "ready_deadline",
    "start_at",
    "deadline",
    "turn_started",
    "timer_at",
    "version",
    "updated_at",
)


@dataclass(frozen=True)
class TableNext:
    """One table between two hands: who leaves it, who arrives at which seat, and the next hand's
    chips (user id -> chips; None: no hand dealt), as ``hands.tournament_table_next`` takes them."""

    leave: Sequence[int] = ()
    arrive: Sequence[tuple[int, int]] = ()
    chips: Mapping[int, int] | None = None


def _seats(table_ids: list[int]) -> dict[int, list[Seat]]:
    """Every seat of these tables by number, with its player and ``dealt_here`` (as
    ``hands._seats_to_deal`` reads one table's), in one query."""
    dealt = HandPlayer.objects.filter(
        hand__table_id=OuterRef("table_id"),
        user_id=OuterRef("user_id"),
        hand__started_at__gte=OuterRef("joined_at"),
    )
    rows = (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("user")
        .annotate(dealt_here=Exists(dealt))
        .order_by("table_id", "number")
    )
    by_table: dict[int, list[Seat]] = {table_id: [] for table_id in table_ids}
    for seat in rows:
        by_table[seat.table_id].append(seat)
    return by_table


@collector.paused()
@transaction.atomic
def tournament_tables_next(
    *, tables: Mapping[int, TableNext], config: dict[str, Any] | None = None
) -> set[int]:
    """Write every table of ``tables`` between two hands and deal each one's next hand, in bulk.

    Per table, what ``hands.tournament_table_next`` does, with the same refusals (not a tournament
    table, a hand running: nothing written): the players leaving stood up, the players arriving
    seated, ``config`` (the level's options) applied, and the hand dealt with its ``chips``. A
    table that may not deal as the bulk deals (closed, its game off, the site closed, fewer than
    two players with chips) goes through ``hands._deal`` on its own, as it would alone. Returns the
    ids of the tables that dealt.
    """
    ids = sorted(int(table_id) for table_id in tables)
    if not ids:
        return set()
    rows = list(
        TableRuntime.objects.select_for_update().select_related("table").filter(pk__in=ids).order_by("pk")
    )
    if len(rows) != len(ids):
        raise TableClosed()
    for rt in rows:
        owners.check_fence(rt)  # a caller of a park that ran out writes nothing
    settled_now: set[int] = set()
    for rt in recover_many([rt for rt in rows if not owners.is_inside(rt.pk)]):
        # a row behind its journal (its owner gone): brought up to date first; a hand its journal
        # ended and nobody settled is settled now (as ``tablerow.lock`` does) and the table is not
        # dealt in this round: the tournament folds that hand first, and deals it at its next advance
        if rt.state is not None and tablerow.hand_engine(rt).is_over(rt.state):
            tablerow.settle_journaled_end(rt)  # (saves the row)
            settled_now.add(rt.pk)
        else:
            rt.save()
    for rt in rows:
        if rt.table.tournament_id is None:
            raise NotAllowed("Non è un tavolo di torneo")
        if tablerow.hand_running(rt):
            raise NotAllowed("Una mano è in corso: il torneo attende la sua fine")
    game = rows[0].table.game
    leaving = Q()
    for table_id in ids:
        if tables[table_id].leave:
            leaving |= Q(table_id=table_id, user_id__in=list(tables[table_id].leave))
    if leaving:
        Seat.objects.filter(leaving).delete()
    arriving = [(table_id, uid, number) for table_id in ids for uid, number in tables[table_id].arrive]
    if arriving:
        kept = game_options.kept_for_the_session(game)
        prefs = preferences_of(user_ids=[uid for _t, uid, _n in arriving], game=game) if kept else {}
        Seat.objects.bulk_create(
            [
                Seat(
                    table_id=table_id,
                    number=number,
                    user_id=uid,
                    session_ref=f"torneo-{table_id}-{number}-{uuid.uuid4().hex[:8]}",
                    prefs=prefs[uid] if kept else None,
                )
                for table_id, uid, number in arriving
            ]
        )
    changed = {table_id for table_id in ids if tables[table_id].leave or tables[table_id].arrive}
    configured = [
        rt.table for rt in rows if config and any(rt.table.config.get(k) != v for k, v in config.items())
    ]
    for table in configured:
        table.config = {**table.config, **(config or {})}
        changed.add(table.pk)
    if configured:
        Table.objects.bulk_update(configured, ["config"])
    wanted = [rt for rt in rows if tables[rt.pk].chips is not None and rt.pk not in settled_now]
    open_game = siteops.game_enabled(game, rows[0].table.realm) and not siteops.site_closed()
    seats = _seats([rt.pk for rt in wanted])
    prefs = preferences_of(user_ids=[s.user_id for table in seats.values() for s in table], game=game)
    dealt: list[tuple[TableRuntime, Hand, list[dict[str, Any]]]] = []
    alone: list[TableRuntime] = []
    ready: list[int] = []
    now = timezone.now()
    for rt in wanted:
        chips = tables[rt.pk].chips or {}
        everyone = seats[rt.pk]
        by_ref = {s.session_ref: int(chips.get(s.user_id, 0)) for s in everyone}
        engine = tablerow.next_hand_engine(rt)
        specs = [
            {
                "seat": s.number,
                "chips": by_ref[s.session_ref],
                "sitout": s.status == Seat.Status.SITOUT,
                "prefs": prefs[s.user_id] if s.prefs is None else s.prefs,
                "user_id": s.user_id,
                "nickname": s.user.nickname,
                "session_ref": s.session_ref,
                "new": not s.dealt_here,  # type: ignore[attr-defined]  # annotated by _seats
            }
            for s in everyone
            if not s.leave_after_hand
        ]
        specs = [s for s in specs if s["chips"] > 0 or engine.release_seat(rt.carry, s["seat"])[1] > 0]
        if (
            not open_game
            or not rt.table.is_open
            or engine.family == "partite"
            or len(specs) < max(rt.table.min_players, engine.min_seats)
        ):
            alone.append(rt)  # dealt (or not) as it would be alone, by the one deal's own rules
            continue
        rng = tablerow.new_rng()
        engine_config = tablerow.engine_config(rt.table)
        carry_in = rt.carry
        state = engine.new(engine_config, [{k: s[k] for k in ENGINE_SPEC_KEYS} for s in specs], rng, carry_in)
        tablerow.hand_dealt(rt, engine, state, [s["seat"] for s in specs], now)
        if any(s.ready for s in everyone):
            ready.append(rt.pk)
        rt.version += 1
        rt.updated_at = now
        hand = Hand(
            table_id=rt.pk,
            number=rt.hand_no,
            game=engine.name,
            config=engine_config,
            carry_in=carry_in,
            seats=[{k: s[k] for k in HAND_KEYS} for s in specs],
            start_draws=rng.draws,
            deck_log=state.get("deck_log", []),
            started_at=now,
        )
        dealt.append((rt, hand, specs))
    if ready:
        Seat.objects.filter(table_id__in=ready).update(ready=False)
    if dealt:
        _write_dealt([rt for rt, _h, _s in dealt])
        bulkinsert.insert(Hand, [hand for _rt, hand, _s in dealt])
        bulkinsert.insert(
            HandPlayer,
            [
                HandPlayer(hand=hand, user_id=s["user_id"], seat=s["seat"])
                for _rt, hand, specs in dealt
                for s in specs
            ],
        )
        for rt, hand, _specs in dealt:
            rt.hand_pk = hand.pk  # type: ignore[attr-defined]  # as the owner's read of the row has it
            owners.dealt(rt, hand)
        runtimes = [rt for rt, _h, _s in dealt]
        transaction.on_commit(lambda: _send_dealt(runtimes))
    done = {rt.pk for rt, _h, _s in dealt}
    for rt in alone:
        chips = tables[rt.pk].chips or {}
        refs = dict(Seat.objects.filter(table_id=rt.pk).values_list("user_id", "session_ref"))
        by_ref = dict.fromkeys(refs.values(), 0)
        by_ref.update({refs[uid]: int(amount) for uid, amount in chips.items() if uid in refs})
        if hands._deal(rt, by_ref):
            done.add(rt.pk)
        elif rt.pk in changed:
            tablerow.bump(rt)
    for rt in rows:
        if rt.pk in changed and rt.pk not in done and rt not in alone:
            tablerow.bump(rt)
    return done


def _write_dealt(rows: Sequence[TableRuntime]) -> None:
    """Write the dealt runtime rows' ``DEAL_FIELDS``: one ``UPDATE`` statement executed once a row
    (``executemany``; ``bulk_update``'s one statement of ``CASE`` expressions costs several times
    the Python). Each value is prepared by its own field, as a save prepares it."""
    meta = TableRuntime._meta
    fields = [meta.get_field(name) for name in DEAL_FIELDS]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    # the names are the model's own columns, never input
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608
    params = [
        [f.get_db_prep_save(getattr(rt, f.attname), connection) for f in fields] + [rt.pk] for rt in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


@collector.paused()
def _send_dealt(runtimes: Sequence[TableRuntime]) -> None:
    """After commit: each dealt table's one view, the public one (every seat's own view is built by
    its own connection), all sent in one hop; the bots due told, as ``tablerow.committed`` does. A
    table an owner keeps is sent by its owner instead (``owners.committed``)."""
    loose = set(owners.committed_many([(rt.pk, rt.version) for rt in runtimes]))
    runtimes = [rt for rt in runtimes if rt.pk in loose]
    if not runtimes:
        return
    seats: dict[int, list[Seat]] = {rt.pk: [] for rt in runtimes}
    for seat in (
        Seat.objects.filter(table_id__in=list(seats)).select_related("user").order_by("table_id", "number")
    ):
        seats[seat.table_id].append(seat)
    try:
        broadcast.tables_send([m for rt in runtimes for m in broadcast.table_messages(rt, seats[rt.pk], [])])
    except Exception:  # the channel layer is down: the hands stand, clients resync on the heartbeat
        tablerow.logger.exception("%s tournament tables dealt: broadcast lost", len(runtimes))
    for rt in runtimes:
        engine = tablerow.hand_engine(rt)
        due = set() if engine.is_over(rt.state) else set(engine.to_act(rt.state))
        if any(s.user.is_bot and s.number in due for s in seats[rt.pk]):
            tablerow.schedule_bot(rt.pk, rt.version)
