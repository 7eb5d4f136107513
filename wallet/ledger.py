"""The ledger core every wallet action builds on: account keys, THE lock helper, posting, idempotency.

Only wallet.actions should import this module; other apps call wallet.actions and wallet.selectors.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import BigIntegerField, Case, F, Q, Value, When
from django.utils import timezone

from piattaforma import metrics
from piattaforma.compiledquery import one_query_string
from wallet.errors import (
    AccountClosed,
    ConcurrentUpdate,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidState,
    WalletError,
)
from wallet.models import NEGATIVE_KINDS, Account, AccountKind, IdempotencyKey, Posting, Realm, Transaction

HOUSE_REF = "house"


@dataclass(frozen=True, slots=True)
class AccountKey:
    """The identity of a ledger account (kind, realm, ref); ``owner_id`` is used only to create it."""

    kind: str
    realm: str
    ref: str
    owner_id: int | None = field(default=None, compare=False, hash=False)

    def as_list(self) -> list[str]:
        return [self.kind, self.realm, self.ref]


def cash_key(user_id: int, realm: str = Realm.REAL) -> AccountKey:
    """The player's conto di gioco (or play-money account in the training realm)."""
    return AccountKey(AccountKind.PLAYER_CASH, realm, f"user:{user_id}", user_id)


def bonus_key(user_id: int) -> AccountKey:
    """The player's non-withdrawable bonus account (real realm only)."""
    return AccountKey(AccountKind.PLAYER_BONUS, Realm.REAL, f"user:{user_id}", user_id)


def table_key(table_session_ref: str, realm: str = Realm.REAL, owner_id: int | None = None) -> AccountKey:
    """The credito al tavolo of one table session (one player at one table, sit-down to stand-up)."""
    return AccountKey(AccountKind.TABLE_CREDIT, realm, f"table:{table_session_ref}", owner_id)


def table_pot_key(pot_ref: str, realm: str = Realm.REAL) -> AccountKey:
    """Chips a table carries from one hand to the next (piatto di parol, bestia), per table."""
    return AccountKey(AccountKind.TABLE_POT, realm, f"table_pot:{pot_ref}")


def pool_key(tournament_ref: str, realm: str = Realm.REAL) -> AccountKey:
    """The montepremi of one tournament."""
    return AccountKey(AccountKind.TOURNAMENT_POOL, realm, f"tournament:{tournament_ref}")


def house_key(kind: str, realm: str = Realm.REAL) -> AccountKey:
    """One of the house's accounts (rake, promotions, adjustments, payments clearing, play bank)."""
    return AccountKey(kind, realm, HOUSE_REF)


@dataclass(slots=True)
class Locked:
    """A locked account row as read under the lock; ``post`` keeps it current."""

    pk: int
    kind: str
    realm: str
    ref: str
    owner_id: int | None
    balance: int
    held: int
    transferred_in: int
    closed_at: datetime | None

    @property
    def available(self) -> int:
        return self.balance - self.held

    @property
    def may_go_negative(self) -> bool:
        return self.kind in NEGATIVE_KINDS


_LOCK_FIELDS = ("pk", "kind", "realm", "ref", "owner_id", "balance", "held", "transferred_in", "closed_at")


def _key_q(keys: Iterable[AccountKey]) -> Q:
    q = Q()
    for k in keys:
        q |= Q(kind=k.kind, realm=k.realm, ref=k.ref)
    return q


def accounts_lock(keys: Iterable[AccountKey], *, create: bool = True) -> dict[AccountKey, Locked]:
    """Lock the accounts (creating missing ones) in primary-key order: THE lock helper of the wallet.

    Every action that reads a balance it will change goes through here, inside its transaction:
    one ``SELECT ... ORDER BY id FOR NO KEY UPDATE`` so that two transactions always take their locks in
    the same order and cannot deadlock (NO KEY: inserting a posting or hold that references a locked
    account, which takes KEY SHARE, is not blocked). SQLite has no row locks: its IMMEDIATE
    transactions serialise writers, which is stronger. Returns the rows keyed by the AccountKey asked for.
    """
    wanted = {AccountKey(k.kind, k.realm, k.ref): k for k in keys}
    if not wanted:
        return {}
    rows = _lock_rows(wanted)
    missing = [k for ident, k in wanted.items() if ident not in rows]
    if missing:
        if not create:
            raise AccountClosed("Conto inesistente.", accounts=[k.ref for k in missing])
        for k in missing:
            Account.objects.get_or_create(
                kind=k.kind, realm=k.realm, ref=k.ref, defaults={"owner_id": k.owner_id}
            )
        rows = _lock_rows(wanted)  # lock again, all of them, still in primary-key order
    return {k: rows[ident] for ident, k in wanted.items()}


_PG_LOCK = (
    "SELECT id, kind, realm, ref, owner_id, balance, held, transferred_in, closed_at FROM wallet_account "
    "WHERE {where} ORDER BY id FOR NO KEY UPDATE"
)


def _lock_rows(wanted: Mapping[AccountKey, AccountKey]) -> dict[AccountKey, Locked]:
    if connection.vendor == "postgresql":
        keys = list(wanted)
        where = "(kind, realm, ref) IN (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))"
        params = [[k.kind for k in keys], [k.realm for k in keys], [k.ref for k in keys]]
        found = _pg_lock(where, params)
    else:
        qs = Account.objects.select_for_update().filter(_key_q(wanted)).order_by("pk")
        found = [Locked(*values) for values in qs.values_list(*_LOCK_FIELDS)]
    return {AccountKey(row.kind, row.realm, row.ref): row for row in found}


def _pg_lock(where: str, params: list[Any]) -> list[Locked]:
    with connection.cursor() as cur:
        cur.execute(_PG_LOCK.format(where=where), params)
        return [Locked(*values) for values in cur.fetchall()]


def accounts_lock_by_pk(pks: Iterable[int]) -> dict[int, Locked]:
    """Lock accounts given by primary key, in primary-key order (same helper contract)."""
    ordered = sorted(set(pks))
    if connection.vendor == "postgresql":
        return {row.pk: row for row in _pg_lock("id = ANY(%s)", [ordered])}
    qs = Account.objects.select_for_update().filter(pk__in=ordered).order_by("pk").values_list(*_LOCK_FIELDS)
    return {values[0]: Locked(*values) for values in qs}


def post(
    *,
    kind: str,
    realm: str,
    legs: Iterable[tuple[Locked, int]],
    memo: str = "",
    data: dict[str, Any] | None = None,
    actor_id: int | None = None,
    reverses_id: uuid.UUID | None = None,
    held_release: Mapping[int, int] | None = None,
    transferred_in: Mapping[int, int] | None = None,
    closing: Iterable[int] = (),
) -> Transaction:
    """Write one balanced transaction on accounts locked by ``accounts_lock``.

    Expects the rows in ``legs`` to be locked in this database transaction. Checks in Python what
    the database also enforces (balance, realm, non-negative, open accounts) so that a refusal is a
    clean WalletError; then one guarded UPDATE of all balances (compare-and-set on the values read
    under the lock, row count checked), the postings, and last the transaction row (the write order
    the database triggers expect: see wallet.models). ``held_release`` lowers ``held`` in the same
    statement (a hold being posted); ``closing`` marks emptied accounts closed.
    """
    merged: dict[int, int] = {}
    rows: dict[int, Locked] = {}
    for row, amount in legs:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidAmount("Gli importi sono centesimi interi.")
        merged[row.pk] = merged.get(row.pk, 0) + amount
        rows[row.pk] = row
    merged = {pk: amount for pk, amount in merged.items() if amount != 0}
    if len(merged) < 2 or sum(merged.values()) != 0:
        raise InvalidAmount("Movimento non bilanciato.", legs=merged)
    held_release = dict(held_release or {})
    transferred_in = dict(transferred_in or {})
    closing = set(closing)
    now = timezone.now()
    for pk, amount in merged.items():
        row = rows[pk]
        if row.realm != realm:
            raise InvalidAmount("Denaro reale e di allenamento non si mescolano.")
        if row.closed_at is not None:
            raise AccountClosed()
        new_held = row.held - held_release.get(pk, 0)
        if not row.may_go_negative and (new_held < 0 or row.balance + amount < new_held):
            raise InsufficientFunds(account=row.ref, available=row.available, needed=-amount)
    touched = sorted(set(merged) | set(held_release) | set(transferred_in) | closing)
    tx_id = uuid.uuid4()
    old = {pk: (rows[pk].balance, rows[pk].held) for pk in touched}
    for pk in touched:
        row = rows[pk]
        row.balance += merged.get(pk, 0)
        row.held -= held_release.get(pk, 0)
        row.transferred_in += transferred_in.get(pk, 0)
        if pk in closing:
            row.closed_at = now
    tx = Transaction(
        id=tx_id,
        kind=kind,
        realm=realm,
        created_at=now,
        memo=memo[:200],
        data=data or {},
        actor_id=actor_id,
        reverses_id=reverses_id,
    )
    plan = _Plan(
        tx=tx,
        touched=touched,
        old=old,
        merged=merged,
        held_release=held_release,
        transferred_in=transferred_in,
        closing=closing,
        postings=[(pk, amount, rows[pk].balance) for pk, amount in sorted(merged.items())],
    )
    (_write_postgresql if connection.vendor == "postgresql" else _write_orm)(plan)
    postings = len(plan.postings)
    transaction.on_commit(lambda: metrics.ledger_posted(str(kind), postings))
    return tx


@dataclass(slots=True)
class _Plan:
    """What ``post`` decided to write: the new transaction, the balance changes, the postings."""

    tx: Transaction
    touched: list[int]
    old: dict[int, tuple[int, int]]  # pk -> (balance, held) read under the lock
    merged: dict[int, int]
    held_release: dict[int, int]
    transferred_in: dict[int, int]
    closing: set[int]
    postings: list[tuple[int, int, int]]  # account, amount, balance after


def _write_orm(plan: _Plan) -> None:
    """The portable writer (SQLite): guarded UPDATE, postings, then the transaction row."""
    tx, touched, old, merged = plan.tx, plan.touched, plan.old, plan.merged
    held_release, transferred_in, closing = plan.held_release, plan.transferred_in, plan.closing
    guard = Q()
    for pk in touched:
        guard |= Q(pk=pk, balance=old[pk][0], held=old[pk][1], closed_at__isnull=True)
    changes: dict[str, Any] = {"balance": F("balance") + _case(merged)}
    if held_release:
        changes["held"] = F("held") - _case(held_release)
    if transferred_in:
        changes["transferred_in"] = F("transferred_in") + _case(transferred_in)
    if closing:
        changes["closed_at"] = Case(When(pk__in=closing, then=Value(tx.created_at)), default=F("closed_at"))
    if Account.objects.filter(guard).update(**changes) != len(touched):
        raise ConcurrentUpdate()
    Posting.objects.bulk_create(
        [
            Posting(transaction_id=tx.pk, account_id=pk, amount=a, balance_after=b)
            for pk, a, b in plan.postings
        ]
    )
    tx.save(force_insert=True)


_PG_UPDATE = """
UPDATE wallet_account AS a
   SET balance = a.balance + d.delta,
       held = a.held - d.rel,
       transferred_in = a.transferred_in + d.tin,
       closed_at = CASE WHEN d.close THEN %s ELSE a.closed_at END
  FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[], %s::bool[], %s::bigint[], %s::bigint[])
       AS d(id, delta, rel, tin, close, old_balance, old_held)
 WHERE a.id = ANY(%s) AND a.id = d.id
   AND a.balance = d.old_balance AND a.held = d.old_held AND a.closed_at IS NULL
"""
# Postings and then the transaction row in one statement: the outer INSERT reads the count of the
# postings CTE, so every posting is written (and its "transaction not written yet" trigger has
# run) before the transaction row; the deferred balance checks run at COMMIT.
_PG_INSERT = """
WITH p AS (
    INSERT INTO wallet_posting (transaction_id, account_id, amount, balance_after)
    SELECT %s::uuid, unnest(%s::bigint[]), unnest(%s::bigint[]), unnest(%s::bigint[])
    RETURNING 1
)
INSERT INTO wallet_transaction (id, kind, realm, created_at, memo, data, reverses_id, actor_id)
SELECT %s::uuid, %s, %s, %s, %s, %s::jsonb, %s::uuid, %s FROM (SELECT count(*) FROM p) AS written
"""


def _write_postgresql(plan: _Plan) -> None:
    """The PostgreSQL writer: the same guarded UPDATE and inserts, in plain SQL, in one round trip.

    The hot path of every money movement; the ORM version costs several times the client CPU. The
    UPDATE and the inserts go in one query string (client-side binding: several statements, run in
    order) and the UPDATE's row count is checked on its result: when the guard did not match, the
    inserts ran in this transaction and the ``ConcurrentUpdate`` raised rolls them back with it. Out
    of a transaction (no caller's atomic block to roll back) they go in two round trips, the count
    checked in between.
    """
    tx, touched, old, merged = plan.tx, plan.touched, plan.old, plan.merged
    held_release, transferred_in, closing, postings = (
        plan.held_release,
        plan.transferred_in,
        plan.closing,
        plan.postings,
    )
    update: list[Any] = [
        tx.created_at,
        touched,
        [merged.get(pk, 0) for pk in touched],
        [held_release.get(pk, 0) for pk in touched],
        [transferred_in.get(pk, 0) for pk in touched],
        [pk in closing for pk in touched],
        [old[pk][0] for pk in touched],
        [old[pk][1] for pk in touched],
        touched,  # a.id = ANY(...): lets the planner use the primary key
    ]
    insert: list[Any] = [
        tx.pk,
        [p[0] for p in postings],
        [p[1] for p in postings],
        [p[2] for p in postings],
        tx.pk,
        tx.kind,
        tx.realm,
        tx.created_at,
        tx.memo,
        json.dumps(tx.data, cls=DjangoJSONEncoder),
        tx.reverses_id,
        tx.actor_id,
    ]
    with connection.cursor() as cur:
        if connection.in_atomic_block and one_query_string(connection):
            cur.execute(f"{_PG_UPDATE};\n{_PG_INSERT}", [*update, *insert])
            if cur.rowcount != len(touched):  # (the first result: the UPDATE's)
                raise ConcurrentUpdate()
        else:
            cur.execute(_PG_UPDATE, update)
            if cur.rowcount != len(touched):
                raise ConcurrentUpdate()
            cur.execute(_PG_INSERT, insert)
    tx._state.adding = False
    tx._state.db = connection.alias


def adjust_locked(row: Locked, *, held: int = 0) -> None:
    """Change ``held`` on a locked row with a guarded UPDATE (placing or releasing a hold)."""
    new_held = row.held + held
    if not row.may_go_negative and (new_held < 0 or row.balance < new_held):
        raise InsufficientFunds(account=row.ref, available=row.available, needed=held)
    updated = Account.objects.filter(pk=row.pk, held=row.held, balance=row.balance).update(
        held=F("held") + held
    )
    if updated != 1:
        raise ConcurrentUpdate()
    row.held = new_held


def _case(values: Mapping[int, int]) -> Case:
    return Case(
        *[When(pk=pk, then=Value(v)) for pk, v in values.items()],
        default=Value(0),
        output_field=BigIntegerField(),
    )


def request_hash(action: str, inputs: Mapping[str, Any]) -> str:
    """Hash an action's inputs canonically: the same key must come with the same inputs."""
    blob = json.dumps(
        {"action": action, "inputs": inputs}, sort_keys=True, default=str, separators=(",", ":")
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def run_idempotent(
    *, key: str, action: str, inputs: Mapping[str, Any], work: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """Run ``work`` once per key in one transaction; a retry returns the first result.

    The same key with other inputs (or for another action) raises IdempotencyConflict. Two
    concurrent calls with one key: the second blocks on the unique index until the first commits,
    its own work is rolled back, and it returns the first result.
    """
    _check_key(key)
    digest = request_hash(action, inputs)
    found = _stored(key)
    if found is not None:
        return _replay(found, action, digest)
    try:
        with transaction.atomic():
            result = work()
            _store(key, action, digest, result)
    except IntegrityError:
        found = _stored(key)
        if found is None:
            raise
        return _replay(found, action, digest)
    return result


def _check_key(key: str) -> None:
    if not key or len(key) > 128:
        raise InvalidAmount("Chiave di idempotenza mancante o troppo lunga.")


def idempotency_used(key: str) -> bool:
    """Tell whether an operation already ran under ``key``."""
    return IdempotencyKey.objects.filter(key=key).exists()


def _stored(key: str) -> tuple[str, str, dict[str, Any]] | None:
    if connection.vendor == "postgresql":  # hot path: plain SQL (Django loads jsonb as text)
        with connection.cursor() as cur:
            cur.execute(
                "SELECT action, request_hash, result FROM wallet_idempotencykey WHERE key = %s", [key]
            )
            row = cur.fetchone()
            if row is None:
                return None
            result = json.loads(row[2]) if isinstance(row[2], str) else row[2]
            return (row[0], row[1], result)
    return IdempotencyKey.objects.filter(key=key).values_list("action", "request_hash", "result").first()


def _store(key: str, action: str, digest: str, result: dict[str, Any]) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(
                "INSERT INTO wallet_idempotencykey (key, action, request_hash, result, created_at) "
                "VALUES (%s, %s, %s, %s::jsonb, now())",
                [key, action, digest, json.dumps(result, cls=DjangoJSONEncoder)],
            )
        return
    IdempotencyKey.objects.create(key=key, action=action, request_hash=digest, result=result)


def _replay(found: tuple[str, str, dict[str, Any]], action: str, digest: str) -> dict[str, Any]:
    stored_action, stored_hash, result = found
    if stored_action != action or stored_hash != digest:
        raise IdempotencyConflict()
    return {**result, "replayed": True}


# --- PostgreSQL: one transfer in one round trip ------------------------------------------------

# A prepared statement (server-side binding, typed parameters): the server neither parses nor plans
# the call again, and the client sends the values instead of composing the SQL text each time. The
# kinds that may go negative are a constant of the statement (NEGATIVE_KINDS: checked by a test).
_PG_TRANSFER = (
    "SELECT outcome, result FROM wallet_transfer(%s::text, %s::text, %s::text, %s::text,"
    " %s::bigint, %s::bigint, %s::bigint, %s::text,"
    " '{house_promotions,house_adjustments,payments_clearing,play_bank}'::text[])"
)


def _refusal(outcome: str, details: dict[str, Any]) -> WalletError:
    """The WalletError the Python path raises for a refusal the stored function reports."""
    if outcome == "conflict":
        return IdempotencyConflict()
    if outcome == "missing":
        return InvalidState("Conto inesistente.")
    if outcome == "closed":
        return AccountClosed()
    if outcome == "insufficient":
        return InsufficientFunds(**details)
    if outcome == "mixed_realm":
        return InvalidAmount("Denaro reale e di allenamento non si mescolano.")
    return InvalidAmount()


def transfer_postgresql(
    *,
    key: str,
    action: str,
    inputs: Mapping[str, Any],
    kind: str,
    source_id: int,
    destination_id: int,
    amount: int,
    memo: str = "",
) -> dict[str, Any]:
    """``run_idempotent`` + ``accounts_lock_by_pk`` + ``post`` for one two-leg transfer, in ONE round trip.

    PostgreSQL only: calls ``wallet_transfer`` (migration 0005), which takes the same locks in the
    same order, makes the same checks, writes the same rows in the same order and leaves every
    trigger and constraint to the database (the deferred balance checks run at the COMMIT of this
    statement in autocommit, or of the caller's transaction). Same results and the same refusals
    (WalletError subclasses) as the Python path. Inside a caller's transaction it runs in a
    savepoint, like ``run_idempotent``, so that a database error leaves that transaction usable.
    """
    _check_key(key)
    digest = request_hash(action, inputs)
    params = [key, action, digest, str(kind), source_id, destination_id, amount, memo[:200]]
    try:
        if connection.in_atomic_block:
            with transaction.atomic():
                outcome, raw = _call_transfer(params)
        else:  # autocommit: the one statement is the whole database transaction
            outcome, raw = _call_transfer(params)
    except IntegrityError:
        found = _stored(key)  # the same key committed concurrently: replay it
        if found is None:
            raise
        return _replay(found, action, digest)
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == "WL409":
            raise ConcurrentUpdate() from exc
        raise
    result: dict[str, Any] = {} if raw is None else json.loads(raw) if isinstance(raw, str) else raw
    if outcome == "ok":
        transaction.on_commit(lambda: metrics.ledger_posted(str(kind), 2))
        return result
    if outcome == "replayed":
        return {**result, "replayed": True}
    raise _refusal(outcome, result)


def _call_transfer(params: list[Any]) -> tuple[str, Any]:
    """One call of ``wallet_transfer`` as a prepared statement on Django's own connection.

    Django's cursors bind parameters on the client and never prepare; this one psycopg cursor binds
    on the server and prepares the call once per connection. Errors are wrapped as Django's (the
    callers catch ``IntegrityError`` / ``DatabaseError``); Django's query log does not see the call.
    """
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # Django's default: never prepare; only explicit prepare=True now
        raw.prepare_threshold = 1_000_000
    with connection.wrap_database_errors, psycopg.Cursor(raw) as cur:
        cur.execute(_PG_TRANSFER, params, prepare=True)
        row = cur.fetchone()
    assert row is not None  # a function with OUT parameters always returns one row
    return row[0], row[1]
