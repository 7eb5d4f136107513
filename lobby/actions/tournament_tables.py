"""Tournament tables on the live-table runtime: the lobby actions the tournaments call.

A tournament table is a lobby table marked with its tournament's id (``Table.tournament_id``):
no buy-in, no rake, no waiting list, nobody sits down from the lobby, and no money moves at it
(seats hold no table credit; the match's stakes are zero). It plays exactly one match, the one
the tournament seated it for; when that match ends the lobby tells the tournaments through
``piattaforma.hooks.match_ended`` (``match_result`` builds what it says). Tournaments never read
the lobby's rows: they call the functions here, through ``lobby.door``, and listen to the hook.
"""

from __future__ import annotations

import copy
import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import options as game_options
from lobby import broadcast, bulkinsert, collector, owners
from lobby.actions import tablerow
from lobby.actions.tables import table_checked
from lobby.errors import NotAllowed
from lobby.models import Hand, HandPlayer, HandStep, Seat, Table, TableRuntime
from lobby.replay import ENGINE_SPEC_KEYS
from piattaforma import siteops
from piattaforma.actions import preferences_get
from piattaforma.models import GamePreference, User

logger = logging.getLogger(__name__)
HAND_SEAT_KEYS = (*ENGINE_SPEC_KEYS, "user_id", "nickname", "session_ref")  # as table_start_hand stores them


def match_result(
    rt: TableRuntime, hand: Hand, outcome: dict[str, Any], pause: int | None = None
) -> dict[str, Any]:
    """What ``hooks.match_ended`` tells of a hand or match that just ended (runtime row locked)."""
    table = rt.table
    seats: list[dict[str, Any]] = []
    if table.tournament_id is not None:
        acted = set(
            HandStep.objects.filter(hand=hand, automatic=False).values_list("seat", flat=True).distinct()
        )
        connected = dict(Seat.objects.filter(table_id=table.pk).values_list("number", "connections"))
        used = seats_time_used(table, hand) if rt.clocks is not None else {}
        engine = tablerow.engine_for(table)
        seats = [
            {
                "seat": int(s["seat"]),
                "user_id": int(s["user_id"]),
                "chips": int(s["chips"]),  # at the start of the hand (a level tournament's chips)
                "acted": int(s["seat"]) in acted,
                "connected": connected.get(int(s["seat"]), 0) > 0,
                "used_ms": used.get(int(s["seat"]), 0),  # his share of his line's tempo partita
                # chips the game holds for him into the next hand (a chemin de fer banker's banco)
                "held": engine.release_seat(rt.carry, int(s["seat"]))[1],
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
        "dealer": (rt.state or {}).get("dealer"),  # the seat that dealt, where the game has one
        "pause": pause,  # a level table: the seconds to read the result before the next deal
        # giochi a partite: each line's tempo partita (ms) and what was left of it at the end
        "tempo_partita_ms": table.tempo_partita * 1000 if rt.clocks is not None else None,
        "clocks_left": dict(rt.clocks) if rt.clocks is not None else None,
    }


def seats_time_used(table: Table, hand: Hand) -> dict[int, int]:
    """Each seat's time used in this match (ms): what his decisions took from his line's tempo partita.

    Read from the steps' clocks (each line's time left after the step, recorded by both runtimes):
    a step takes its time from the line of the seat that made it. Empty without tempo partita.
    """
    if not table.tempo_partita:
        return {}
    full = table.tempo_partita * 1000
    before: dict[str, int] | None = None
    used: dict[int, int] = {}
    steps = HandStep.objects.filter(hand=hand, clocks__isnull=False).order_by("seq")
    for seat, clocks in steps.values_list("seat", "clocks"):
        if not isinstance(clocks, dict):
            continue
        previous = before if before is not None else dict.fromkeys(clocks, full)
        spent = sum(max(0, int(previous.get(line, full)) - int(left)) for line, left in clocks.items())
        used[seat] = used.get(seat, 0) + spent
        before = clocks
    return used


@collector.paused()
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
    seats: int | None = None,
    chips: int | Mapping[int, int] = 0,
) -> list[int]:
    """Open a turn's tournament tables, seat each one's players and deal every match, in bulk.

    ``tables``: (name, user ids by seat 1, 2, ...) per table, all of one size. The settings are
    checked once, as ``table_create`` checks a table (one turn's tables share them). Each match is
    dealt as ``table_start_hand`` deals a table's first match (the engine's ``new`` with its own
    recorded draws, the hand and its players stored, the deadline set), but in memory: the tables,
    runtimes, seats, hands and hand players are written in one insert each (``bulkinsert``: the
    rows ``bulk_create`` writes, for a fraction of its Python; the collector held off meanwhile,
    ``collector.paused``), and after commit each table gets its one broadcast
    (``tablerow.committed``). No buy-in, rake, credit or waiting list (every seat holds 0 and is
    dealt in; the match starts now: a player who is not there loses it on his clock, rules 004
    "assente all'inizio"). A running tournament goes on while its game is switched off; while the
    site is closed no turn starts (the sweep retries). Returns the table ids, in order.

    A level tournament's tables (``seats``: the seats of each, ``chips``: every player's starting
    chips, or each one's by user id: a shootout's next stage) may seat fewer players than their
    seats, and play hand after hand: each next hand is dealt by ``tournament_table_next`` when
    the tournament says so.
    """
    if not tables:
        return []
    sizes = {len(players) for _name, players in tables}
    if seats is not None:
        if max(sizes) > seats or min(sizes) < 2:
            raise NotAllowed("Un tavolo del torneo ha da 2 giocatori al numero dei suoi posti")
        sizes = {seats}
    if len(sizes) != 1:
        raise NotAllowed("I tavoli di un turno hanno lo stesso numero di posti")
    if siteops.site_closed():
        raise NotAllowed("Il sito è chiuso: il turno partirà alla riapertura")
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
    min_players = 2 if seats is not None else fields["seats"]
    prototype = Table(name=tables[0][0][:60], min_players=min_players, **fields)
    table_checked(prototype)  # the checks of table_create, once
    fields["config"] = prototype.config
    engine = tablerow.engine_for(prototype)
    if fields["seats"] < engine.min_seats:
        raise NotAllowed("La partita del torneo non è partita")
    engine_config = tablerow.engine_config(prototype)
    rows = bulkinsert.insert(
        Table,
        [
            Table(name=name[:60], min_players=min(len(players), min_players), **fields)
            for name, players in tables
        ],
    )
    users = User.objects.in_bulk({uid for _name, players in tables for uid in players})
    prefs = _preferences(users, game)
    now = timezone.now()
    runtimes: list[TableRuntime] = []
    hands: list[Hand] = []
    seats: list[Seat] = []
    for table, (_name, players) in zip(rows, tables, strict=True):
        specs = [
            {
                "seat": number,
                "chips": chips if isinstance(chips, int) else int(chips[uid]),
                "sitout": False,
                "prefs": prefs[uid],
                "new": True,
                "user_id": uid,
                "nickname": users[uid].nickname,
                "session_ref": f"torneo-{table.pk}-{number}-{uuid.uuid4().hex[:8]}",
            }
            for number, uid in enumerate(players, start=1)
        ]
        seats += [
            Seat(
                table=table,
                number=s["seat"],
                user_id=s["user_id"],
                session_ref=s["session_ref"],
                prefs=s["prefs"] if game_options.kept_for_the_session(game) else None,
            )
            for s in specs
        ]
        rng = tablerow.new_rng()
        state = engine.new(engine_config, [{k: s[k] for k in ENGINE_SPEC_KEYS} for s in specs], rng, None)
        rt = TableRuntime(table=table, hand_no=1, state=state, dealt=[s["seat"] for s in specs], steps=0)
        rt.game = engine.name
        if engine.family == "partite" and table.tempo_partita:
            lines = {engine.line_of(state, s["seat"]) for s in specs}
            rt.clocks = dict.fromkeys(sorted(lines), table.tempo_partita * 1000)
        tablerow.set_deadline(rt, engine, now)
        tablerow.arm_timer(rt, now)  # the deadline task, after commit
        rt.version = 1
        runtimes.append(rt)
        hands.append(
            Hand(
                table=table,
                number=1,
                game=engine.name,
                config=engine_config,
                carry_in=None,
                seats=[
                    {k: s[k] for k in (*ENGINE_SPEC_KEYS, "user_id", "nickname", "session_ref")}
                    for s in specs
                ],
                start_draws=rng.draws,
                deck_log=state.get("deck_log", []),
                started_at=now,
            )
        )
    bulkinsert.insert(TableRuntime, runtimes)
    bulkinsert.insert(Seat, seats)
    bulkinsert.insert(Hand, hands)
    bulkinsert.insert(
        HandPlayer,
        [HandPlayer(hand=hand, user_id=s["user_id"], seat=s["seat"]) for hand in hands for s in hand.seats],
    )
    bots_due = [
        (rt.pk, rt.version)
        for rt, (_name, players) in zip(runtimes, tables, strict=True)
        if any(users[players[n - 1]].is_bot for n in engine.to_act(rt.state))
    ]
    transaction.on_commit(lambda: _wake_bots(bots_due))
    return [table.pk for table in rows]


def _preferences(users: dict[int, User], game: str) -> dict[int, dict[str, Any]]:
    """Each player's options for the game (``preferences_get``), in two queries for a whole turn.

    Players who never set an option (most) all get the defaults, read once.
    """
    chosen = set(
        GamePreference.objects.filter(game=game, user_id__in=list(users)).values_list("user_id", flat=True)
    )
    out = {uid: preferences_get(user=users[uid], game=game) for uid in chosen}
    rest = [uid for uid in users if uid not in chosen]
    if rest:
        defaults = preferences_get(user=users[rest[0]], game=game)
        out.update({uid: copy.deepcopy(defaults) for uid in rest})
    return out


def _wake_bots(tables: Sequence[tuple[int, int]]) -> None:
    """After commit: the bot move of each new table where a bot must play first.

    This is all ``tablerow.committed`` would do for a table that did not exist before the commit:
    no socket can have joined its groups yet (a connection to a missing table is refused), and a
    player who opens it gets his view on connecting.
    """
    for table_id, version in tables:
        tablerow.schedule_bot(table_id, version)


@collector.paused()
def _send_closed(closing: Sequence[TableRuntime]) -> None:
    """After commit: each closed table's one broadcast, the public view of an empty table (its
    players no longer seated, its result naming them: their hands read in one query), all sent in
    one hop to the channel layer. A
    table an owner keeps is reloaded by its owner instead (``owners.committed``); the others go
    in the one hop."""
    closing = [rt for rt in closing if not owners.committed(rt.pk, rt.version, [])]
    if not closing:
        return
    try:
        hands = Hand.objects.filter(table_id__in=[rt.pk for rt in closing]).values_list(
            "table_id", "number", "seats"
        )
        last = {(table_id, number): seats for table_id, number, seats in hands}
        for rt in closing:  # the result keeps its players' names (selectors.match_seats), one query for all
            rt.match_hand_seats = last.get((rt.pk, rt.hand_no), [])
        broadcast.tables_send([m for rt in closing for m in broadcast.table_messages(rt, [], [])])
    except Exception:  # the channel layer is down: the tables stay closed, clients resync on the heartbeat
        logger.exception("%s closed tournament tables: broadcast lost", len(closing))


@collector.paused()
@transaction.atomic
def tournament_tables_close(*, table_ids: Sequence[int]) -> int:
    """Close tournament tables whose match is over: seats freed (no money), the table no longer open.

    A table whose match still runs is left alone. The runtime rows are locked in one query (in
    primary-key order), the rows written in bulk, and each closed table gets its one broadcast
    after commit. Returns how many were closed.
    """
    locked = TableRuntime.objects.select_for_update().select_related("table").filter(pk__in=list(table_ids))
    closing = [
        rt
        for rt in locked.order_by("pk")
        if rt.table.tournament_id is not None and rt.table.is_open and not tablerow.hand_running(rt)
    ]
    if not closing:
        return 0
    ids = [rt.pk for rt in closing]
    Seat.objects.filter(table_id__in=ids).delete()
    Table.objects.filter(pk__in=ids).update(is_open=False)
    now = timezone.now()
    TableRuntime.objects.filter(pk__in=ids).update(
        start_at=None, deadline=None, version=F("version") + 1, updated_at=now
    )
    for rt in closing:
        rt.table.is_open = False
        rt.start_at = rt.deadline = None
        rt.version += 1  # the rows are locked: what the update wrote
        rt.updated_at = now
    transaction.on_commit(lambda: _send_closed(closing))
    return len(closing)
