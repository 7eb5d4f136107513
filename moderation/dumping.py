"""Writes of the collusion and dumping signals: settled hands in, the aggregates updated.

``on_hand_settled``, the handler of ``piattaforma.hooks.hand_settled``, runs inside every
settlement's transaction and queues the hand there (``SignalInbox``, one INSERT), so a hand is
counted exactly when its money moves and a table's hand end costs one statement, with no lock
shared with the other tables of its players (the aggregates were written there before: six
statements and a savepoint a hand, and row locks on every player). ``signals_fold`` (beat, every
few seconds) folds the queue in by batches of up to ``FOLD_BATCH`` hands, about a dozen
statements a batch; the dashboard reads the stored scores, a few seconds behind the tables.
Ingestion is idempotent by hand id (``SignalHand``); the writers of the aggregates (the fold, the
backfill, the reset) hold one advisory lock, so they never interleave.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from django.db import DatabaseError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from moderation import collusion
from moderation.errors import ModerationError
from moderation.models import PairSignal, PlayerSignal, SignalHand, SignalInbox, SignalSeat
from piattaforma import roles
from piattaforma.actions import audit_record, user_set_status
from piattaforma.models import User

log = logging.getLogger(__name__)
M = TypeVar("M", bound=models.Model)
MAX_SEATS = 10
MAX_CENTS = 10**12
REASON_MIN = 5
# hands a fold takes a transaction: at MAX_SEATS a statement stays under PostgreSQL's 65,535
# parameters (200 hands: 2,000 seat rows of 5, 9,000 pairs of 2)
FOLD_BATCH = 200
FOLD_LOCK = 0x5349_474E  # the advisory lock of the aggregates' writers ("SIGN")


def _bad(message: str) -> ModerationError:
    return ModerationError("bad_hand_summary", message)


def summary_check(summary: Any) -> dict[str, Any]:
    """Validate a hand summary (``piattaforma.hooks.hand_settled``); raise ModerationError if malformed."""
    if not isinstance(summary, dict):
        raise _bad("Riepilogo della mano non valido")
    hand_id, table_id, game = summary.get("hand_id"), summary.get("table_id"), summary.get("game")
    if type(hand_id) is not int or type(table_id) is not int or hand_id <= 0 or table_id <= 0:
        raise _bad("Mano o tavolo non validi")
    if not isinstance(game, str) or not game or len(game) > 32:
        raise _bad("Gioco non valido")
    ended = summary.get("ended_at")
    ended_at = (
        ended if isinstance(ended, datetime) else parse_datetime(ended) if isinstance(ended, str) else None
    )
    if ended_at is None or timezone.is_naive(ended_at):
        raise _bad("Ora di fine non valida")
    seats = summary.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise _bad("Posti non validi")
    clean, users = [], set()
    for seat in seats:
        if not isinstance(seat, dict):
            raise _bad("Posto non valido")
        user_id, delta, end = seat.get("user_id"), seat.get("delta"), seat.get("end", collusion.NORMAL)
        if type(user_id) is not int or user_id <= 0 or user_id in users:
            raise _bad("Giocatore non valido o ripetuto")
        if type(delta) is not int or abs(delta) > MAX_CENTS:
            raise _bad("Importo non valido")
        if end not in collusion.ENDS:
            raise _bad("Esito del posto non valido")
        users.add(user_id)
        clean.append({"user_id": user_id, "delta": delta, "end": end})
    realm = summary.get("realm", "real")
    if realm not in ("real", "play"):
        raise _bad("Tipo di tavolo non valido")
    return {
        "hand_id": hand_id,
        "table_id": table_id,
        "game": game,
        "ended_at": ended_at,
        "realm": realm,
        "seats": clean,
    }


def _unknown_players(ids: list[int]) -> set[int]:
    """The ids among ``ids`` of no player (checked before writing: a foreign key would be verified
    only at the commit, too late to refuse or to leave one hand out)."""
    return set(ids) - set(User.objects.filter(pk__in=ids).values_list("pk", flat=True))


def _players_check(ids: list[int]) -> None:
    """Refuse a summary naming a player who does not exist."""
    if _unknown_players(ids):
        raise _bad("Giocatore non trovato")


def on_hand_settled(summary: dict[str, Any]) -> None:
    """The hook's handler, inside the settlement's transaction: queue the hand (one statement).

    A hand of a training table is left out. A malformed summary is logged, never raised: a fault of
    the signals must not cost a player his winnings. ``signals_fold`` (beat) folds the queue in.
    """
    try:
        data = summary_check(summary)
        if data["realm"] != "real":
            return
        _insert(SignalInbox, ("hand_id", "summary"), [(data["hand_id"], summary)], new_only=True)
    except DatabaseError:
        raise  # the settlement's transaction cannot go on: it fails whole, nothing half-done
    except Exception:  # a bug here must not cost a player his winnings; the backfill catches up
        log.exception(
            "collusion signals: hand %r not queued",
            summary.get("hand_id") if isinstance(summary, dict) else None,
        )


def hand_settled_record(*, summary: dict[str, Any]) -> bool:
    """Fold one settled hand in at once; return False if already seen (the backfill, the tests).

    Training tables (``realm`` "play") move no money and are left out. Raises ``ModerationError`` for
    a malformed summary or a player who does not exist, and then changes nothing.
    """
    data = summary_check(summary)
    if data["realm"] != "real":
        _players_check([s["user_id"] for s in data["seats"]])
        return False
    with transaction.atomic():
        _fold_lock()
        return _fold([data], strict=True) == 1


def signals_fold(*, batch: int = FOLD_BATCH) -> int:
    """Fold the queued hands into the aggregates, oldest first, a batch a transaction; return how many.

    The beat's task (``moderation.signals_fold``, every few seconds). A queued summary found
    malformed, or naming a player who does not exist, is logged and dropped.
    """
    taken = 0
    while SignalInbox.objects.exists():
        with transaction.atomic():
            _fold_lock()
            rows = list(SignalInbox.objects.order_by("pk").values_list("pk", "summary")[:batch])
            datas = []
            for pk, summary in rows:
                try:
                    datas.append(summary_check(summary))
                except ModerationError:
                    log.exception("collusion signals: queued hand %s dropped", pk)
            _fold(datas, strict=False)
            SignalInbox.objects.filter(pk__in=[pk for pk, _ in rows]).delete()
        taken += len(rows)
    return taken


def _fold_lock() -> None:
    """Serialise the writers of the aggregates (the folds, the backfill, the reset) for the transaction.

    PostgreSQL: a transaction-level advisory lock; SQLite's writers are serialised already (its
    transactions are immediate). Rows are then read and written without row locks.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [FOLD_LOCK])


def _fold(datas: list[dict[str, Any]], *, strict: bool) -> int:
    """Record the checked hands not seen yet, in order, under the fold lock; return how many.

    A fixed number of statements whatever the number of hands (about a dozen): the hands seen
    already, the players' and the pairs' rows (created when missing), the hands and their seats
    inserted, the rows written back once.
    """
    seen = set(
        SignalHand.objects.filter(hand_id__in=[d["hand_id"] for d in datas]).values_list("hand_id", flat=True)
    )
    fresh = []
    for data in datas:
        if data["hand_id"] not in seen:
            seen.add(data["hand_id"])
            fresh.append(data)
    ids = sorted({s["user_id"] for d in fresh for s in d["seats"]})
    players = {p.user_id: p for p in _rows(PlayerSignal, ("user",), [(u,) for u in ids], PLAYER_FIELDS)}
    if len(players) < len(ids):  # (a player with a row exists: its key says so)
        new = [u for u in ids if u not in players]
        gone = _unknown_players(new)
        if gone:
            if strict:
                raise _bad("Giocatore non trovato")
            log.error("collusion signals: hands naming unknown players %s dropped", sorted(gone))
            fresh = [d for d in fresh if not any(s["user_id"] in gone for s in d["seats"])]
        created = [PlayerSignal(user_id=u) for u in new if u not in gone]
        PlayerSignal.objects.bulk_create(created)
        players.update((p.user_id, p) for p in created)
    if not fresh:
        return 0
    hands = SignalHand.objects.bulk_create(
        [SignalHand(**{f: d[f] for f in ("hand_id", "table_id", "game", "ended_at")}) for d in fresh]
    )
    lines = [sorted(d["seats"], key=lambda s: s["user_id"]) for d in fresh]
    keys = sorted(
        {(x["user_id"], y["user_id"]) for seats in lines for i, x in enumerate(seats) for y in seats[i + 1 :]}
    )
    pairs = {(p.a_id, p.b_id): p for p in _rows(PairSignal, ("a", "b"), keys, PAIR_FIELDS)}
    if len(pairs) < len(keys):
        created_pairs = [PairSignal(a_id=x, b_id=y) for x, y in keys if (x, y) not in pairs]
        PairSignal.objects.bulk_create(created_pairs)
        pairs.update(((p.a_id, p.b_id), p) for p in created_pairs)
    seat_rows: list[tuple[Any, ...]] = []
    for data, hand, seats in zip(fresh, hands, lines, strict=True):
        seat_rows += _apply(data["ended_at"], hand.pk, seats, players, pairs)
    _insert(SignalSeat, ("hand", "user", "delta", "end", "outlier"), seat_rows)
    _save(PlayerSignal, [players[u] for u in ids if u in players], PLAYER_FIELDS)
    _save(PairSignal, [pairs[k] for k in keys], PAIR_FIELDS)
    return len(fresh)


def _apply(
    at: datetime,
    hand_pk: int,
    seats: list[dict[str, Any]],
    players: dict[int, PlayerSignal],
    pairs: dict[tuple[int, int], PairSignal],
) -> list[tuple[Any, ...]]:
    """Count one hand (``seats`` in user order) in its players' and pairs' rows; return its seat rows."""
    outlier = {}
    for seat in seats:
        p = players[seat["user_id"]]
        delta, end = seat["delta"], seat["end"]
        outlier[p.user_id] = collusion.is_outlier(delta, hands=p.hands, net=p.net, sum_sq=p.sum_sq)
        p.hands += 1
        p.net += delta
        p.sum_sq += float(delta) * float(delta)
        p.abandons += end == collusion.ABANDON
        p.timeouts += end == collusion.TIMEOUT
        p.sitouts += end == collusion.SITOUT
        p.outliers += outlier[p.user_id]
        p.last_at = at
        p.score = collusion.player_score(
            hands=p.hands, abandons=p.abandons, timeouts=p.timeouts, sitouts=p.sitouts, outliers=p.outliers
        )
    moved = collusion.flows({s["user_id"]: s["delta"] for s in seats})
    for i, sx in enumerate(seats):
        for sy in seats[i + 1 :]:
            x, y = sx["user_id"], sy["user_id"]
            pair = pairs[(x, y)]
            pair.hands += 1
            pair.a_to_b += moved.get((x, y), 0)
            pair.b_to_a += moved.get((y, x), 0)
            if sy["delta"] > 0:  # b won: a's forfeit or unusual loss went his way
                pair.forfeits_a += sx["end"] in collusion.FORFEITS
                pair.outliers_a += outlier[x]
            if sx["delta"] > 0:
                pair.forfeits_b += sy["end"] in collusion.FORFEITS
                pair.outliers_b += outlier[y]
            pair.last_at = at
            pair.score = collusion.pair_score(_pair(pair))
    return [(hand_pk, s["user_id"], s["delta"], s["end"], outlier[s["user_id"]]) for s in seats]


PLAYER_FIELDS = ("hands", "abandons", "timeouts", "sitouts", "net", "sum_sq", "outliers", "score", "last_at")
PAIR_FIELDS = (
    "hands",
    "a_to_b",
    "b_to_a",
    "forfeits_a",
    "forfeits_b",
    "outliers_a",
    "outliers_b",
    "score",
    "last_at",
)


# The statements a hand costs are written here from the models, as a queryset would build its SQL
# again each time: more Python than the database work.


def _rows(
    model: type[M], keys: tuple[str, ...], values: Sequence[tuple[int, ...]], fields: tuple[str, ...]
) -> list[M]:
    """The rows whose ``keys`` columns are one of ``values`` (read under the fold lock: no row locks).

    Only the keys, the primary key and the counted ``fields`` are read (``last_at`` is only written).
    """
    if not values:
        return []
    meta = model._meta
    quote = connection.ops.quote_name
    wanted = {meta.pk.name, *keys, *fields} - {"last_at"}
    columns = [f for f in meta.concrete_fields if f.name in wanted]  # in the model's order (from_db)
    key_columns = ", ".join(quote(meta.get_field(k).column) for k in keys)
    row_marks = "(" + ", ".join(["%s"] * len(keys)) + ")"
    sql = (
        f"SELECT {', '.join(quote(c.column) for c in columns)} FROM {quote(meta.db_table)}"  # noqa: S608
        f" WHERE ({key_columns}) IN (VALUES {', '.join([row_marks] * len(values))})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [v for row in values for v in row])
        rows = cursor.fetchall()
    return [model.from_db(connection.alias, [c.attname for c in columns], row) for row in rows]


def _insert(
    model: type[models.Model], fields: tuple[str, ...], rows: list[tuple[Any, ...]], new_only: bool = False
) -> None:
    """Insert ``rows`` (values of ``fields``) in one statement; ``new_only``: skip a row already there."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [meta.get_field(f) for f in fields]
    row_marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c.column) for c in columns)})"  # noqa: S608
        f" VALUES {', '.join([row_marks] * len(rows))}" + (" ON CONFLICT DO NOTHING" if new_only else "")
    )
    params = [
        c.get_db_prep_save(value, connection) for row in rows for c, value in zip(columns, row, strict=True)
    ]
    if rows:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def _save(model: type[models.Model], rows: Iterable[models.Model], fields: tuple[str, ...]) -> None:
    """Write locked rows back with one prepared UPDATE run for each (``executemany``).

    ``bulk_update`` builds a CASE expression per field and row, which costs more Python than the
    database work on this hot path (the hook runs inside every settlement).
    """
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [meta.get_field(f) for f in fields]
    sql = (
        f"UPDATE {quote(meta.db_table)} SET "  # noqa: S608  # names from the model, values as parameters
        + ", ".join(f"{quote(c.column)} = %s" for c in columns)
        + f" WHERE {quote(meta.pk.column)} = %s"
    )
    params = [
        [c.get_db_prep_save(getattr(row, c.attname), connection) for c in columns] + [row.pk] for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _pair(p: PairSignal) -> collusion.Pair:
    return collusion.Pair(
        hands=p.hands,
        a_to_b=p.a_to_b,
        b_to_a=p.b_to_a,
        forfeits_a=p.forfeits_a,
        forfeits_b=p.forfeits_b,
        outliers_a=p.outliers_a,
        outliers_b=p.outliers_b,
    )


def signals_reset() -> None:
    """Forget every aggregate and observed hand (the backfill rebuilds them from the hand history)."""
    with transaction.atomic():
        _fold_lock()
        SignalSeat.objects.all().delete()
        SignalHand.objects.all().delete()
        PairSignal.objects.all().delete()
        PlayerSignal.objects.all().delete()


@transaction.atomic
def account_suspend_pending_review(*, actor: User, user_id: int, reason: str, evidence: str = "") -> User:
    """Suspend a game account suspected of dumping or collusion until staff have reviewed it (audited).

    Goes through the platform's suspension (``user_set_status``): the player leaves his tables.
    """
    if not roles.has_staff_role(actor):
        raise ModerationError("not_staff", "Solo lo staff può sospendere un conto di gioco.")
    reason = (reason or "").strip()
    if len(reason) < REASON_MIN:
        raise ModerationError("reason_required", f"Scrivi la motivazione (almeno {REASON_MIN} caratteri).")
    target = User.objects.select_for_update(no_key=True).filter(pk=user_id).first()
    if target is None:
        raise ModerationError("no_player", "Giocatore non trovato.")
    if target.pk == actor.pk or not roles.may_manage_user(actor, target):
        raise ModerationError("not_allowed", "Non puoi sospendere questo conto.")
    if target.status == User.Status.SUSPENDED:
        raise ModerationError("already_suspended", "Il conto è già sospeso.")
    user_set_status(user=target, status=User.Status.SUSPENDED, actor=actor, reason=reason)
    player = PlayerSignal.objects.filter(user_id=target.pk).values("score", "hands").first() or {}
    top = PairSignal.objects.filter(Q(a_id=target.pk) | Q(b_id=target.pk)).order_by("-score").first()
    audit_record(
        actor=actor,
        action="moderation.suspend_pending_review",
        target=target,
        reason=reason,
        data={
            "player": target.nickname,
            "player_score": player.get("score"),
            "hands": player.get("hands"),
            "top_pair": [top.a_id, top.b_id, top.score] if top else None,
            "evidence": evidence[:200],
        },
    )
    return target
