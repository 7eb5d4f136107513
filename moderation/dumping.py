"""Writes of the collusion and dumping signals: one settled hand in, the aggregates updated.

``hand_settled_record`` is the handler of ``piattaforma.hooks.hand_settled``: it runs once per hand
inside the settlement's transaction (in a savepoint), so a hand is counted exactly when its money
moves. It is idempotent by hand id (``SignalHand``). Rows are locked players first, then pairs,
each in key order, so two tables settling hands of the same players never deadlock. Six queries
and the savepoint a hand of players seen before, whatever the number of seats (a player's first
hand takes a few more); the dashboard then reads the stored scores.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypeVar

from django.db import IntegrityError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from moderation import collusion
from moderation.errors import ModerationError
from moderation.models import PairSignal, PlayerSignal, SignalHand, SignalSeat
from piattaforma import roles
from piattaforma.actions import audit_record, user_set_status
from piattaforma.models import User

log = logging.getLogger(__name__)
M = TypeVar("M", bound=models.Model)
MAX_SEATS = 10
MAX_CENTS = 10**12
REASON_MIN = 5


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


def _players_check(ids: list[int]) -> None:
    """Refuse a summary naming a player who does not exist.

    Checked before writing: a foreign key is verified only at the settlement's commit, too late to
    refuse. A player with a ``PlayerSignal`` row exists (its key says so), so only the others are read.
    """
    if User.objects.filter(pk__in=ids).count() != len(ids):
        raise _bad("Giocatore non trovato")


class _NewPlayers(Exception):  # not an error: the hand is recorded the longer way
    """Some players of the hand have no aggregates yet."""


def on_hand_settled(summary: dict[str, Any]) -> None:
    """The hook's handler: record the hand, never letting a signals fault undo a settlement."""
    try:
        hand_settled_record(summary=summary)
    except Exception:  # a bug here must not cost a player his winnings; the backfill catches up
        log.exception("collusion signals: hand %r not recorded", summary.get("hand_id"))


def hand_settled_record(*, summary: dict[str, Any]) -> bool:
    """Fold one settled hand into the per-player and per-pair aggregates; return False if already seen.

    Training tables (``realm`` "play") move no money and are left out.
    """
    data = summary_check(summary)
    if data["realm"] != "real":
        _players_check([s["user_id"] for s in data["seats"]])
        return False
    try:
        try:
            with transaction.atomic():
                _record(data, first_hands=False)
        except _NewPlayers:  # rolled back, locks released: created, then locked in key order
            with transaction.atomic():
                _record(data, first_hands=True)
    except IntegrityError:  # the hand was recorded already (a retry, or the backfill)
        if SignalHand.objects.filter(hand_id=data["hand_id"]).exists():
            return False
        raise
    return True


def _record(data: dict[str, Any], *, first_hands: bool) -> None:
    """Insert the hand and update the aggregates (expects to run in its own savepoint).

    Players seen before (``first_hands`` False): their rows are locked at once, and ``_NewPlayers``
    is raised if any is missing. Their rows are then created first (``first_hands``), before any
    lock is held, as a row locked out of key order while waiting on another's insert could deadlock.
    """
    at = data["ended_at"]
    seats = sorted(data["seats"], key=lambda s: s["user_id"])
    ids = [s["user_id"] for s in seats]
    if first_hands:
        _players_check(ids)
        PlayerSignal.objects.bulk_create([PlayerSignal(user_id=u) for u in ids], ignore_conflicts=True)
    players = {p.user_id: p for p in _locked(PlayerSignal, ("user",), ids, PLAYER_FIELDS)}
    if len(players) < len(ids):
        raise _NewPlayers()
    hand_fields = ("hand_id", "table_id", "game", "ended_at")
    hand_pk = _insert(SignalHand, hand_fields, [tuple(data[f] for f in hand_fields)], returning=True)
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
    rows = [(hand_pk, s["user_id"], s["delta"], s["end"], outlier[s["user_id"]]) for s in seats]
    _insert(SignalSeat, ("hand", "user", "delta", "end", "outlier"), rows)
    _save(PlayerSignal, players.values(), PLAYER_FIELDS)
    if len(ids) < 2:
        return
    keys = [(x, y) for i, x in enumerate(ids) for y in ids[i + 1 :]]
    # a pair's row is written only under both its players' locks, held now: no other waits on it
    pairs = _locked_pairs(ids)
    if len(pairs) < len(keys):
        PairSignal.objects.bulk_create(
            [PairSignal(a_id=x, b_id=y) for x, y in keys if (x, y) not in pairs], ignore_conflicts=True
        )
        pairs = _locked_pairs(ids)
    moved = collusion.flows({s["user_id"]: s["delta"] for s in seats})
    by_user = {s["user_id"]: s for s in seats}
    for (x, y), p in pairs.items():
        p.hands += 1
        p.a_to_b += moved.get((x, y), 0)
        p.b_to_a += moved.get((y, x), 0)
        sx, sy = by_user[x], by_user[y]
        if sy["delta"] > 0:  # b won: a's forfeit or unusual loss went his way
            p.forfeits_a += sx["end"] in collusion.FORFEITS
            p.outliers_a += outlier[x]
        if sx["delta"] > 0:
            p.forfeits_b += sy["end"] in collusion.FORFEITS
            p.outliers_b += outlier[y]
        p.last_at = at
        p.score = collusion.pair_score(_pair(p))
    _save(PairSignal, pairs.values(), PAIR_FIELDS)


def _locked_pairs(ids: list[int]) -> dict[tuple[int, int], PairSignal]:
    return {(p.a_id, p.b_id): p for p in _locked(PairSignal, ("a", "b"), ids, PAIR_FIELDS)}


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


# The hot path's statements are written here from the models, as a queryset would build its SQL
# again at every hand: more Python than the database work (the hook runs inside every settlement).


def _locked(model: type[M], keys: tuple[str, ...], ids: list[int], fields: tuple[str, ...]) -> list[M]:
    """The rows whose ``keys`` columns are all among ``ids``, locked in key order (``FOR UPDATE``).

    Only the key, the primary key and the counted ``fields`` are read (``last_at`` is only written).
    """
    meta = model._meta
    quote = connection.ops.quote_name
    wanted = {meta.pk.name, *keys, *fields} - {"last_at"}
    columns = [f for f in meta.concrete_fields if f.name in wanted]  # in the model's order (from_db)
    marks = ", ".join(["%s"] * len(ids))
    key_columns = [quote(meta.get_field(k).column) for k in keys]
    sql = (
        f"SELECT {', '.join(quote(c.column) for c in columns)} FROM {quote(meta.db_table)}"  # noqa: S608
        f" WHERE {' AND '.join(f'{k} IN ({marks})' for k in key_columns)}"
        f" ORDER BY {', '.join(key_columns)}"
        + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, ids * len(keys))
        rows = cursor.fetchall()
    return [model.from_db(connection.alias, [c.attname for c in columns], row) for row in rows]


def _insert(
    model: type[models.Model], fields: tuple[str, ...], rows: list[tuple[Any, ...]], returning: bool = False
) -> Any:
    """Insert ``rows`` (values of ``fields``) in one statement; return the first one's key if asked."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [meta.get_field(f) for f in fields]
    row_marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c.column) for c in columns)})"  # noqa: S608
        f" VALUES {', '.join([row_marks] * len(rows))}"
        + (f" RETURNING {quote(meta.pk.column)}" if returning else "")
    )
    params = [
        c.get_db_prep_save(value, connection) for row in rows for c, value in zip(columns, row, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0] if returning else None


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
    target = User.objects.select_for_update().filter(pk=user_id).first()
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
