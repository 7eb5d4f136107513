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

from django.db import IntegrityError, transaction
from django.db.models import BigIntegerField, Case, F, Q, Value, When
from django.utils import timezone

from wallet.errors import (
    AccountClosed,
    ConcurrentUpdate,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
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
    one ``SELECT ... FOR UPDATE ORDER BY id`` so that two transactions always take their locks in the
    same order and cannot deadlock. (SQLite has no row locks: its IMMEDIATE transactions serialise
    writers, which is stronger.) Returns the rows keyed by the AccountKey asked for.
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


def _lock_rows(wanted: Mapping[AccountKey, AccountKey]) -> dict[AccountKey, Locked]:
    qs = Account.objects.select_for_update().filter(_key_q(wanted)).order_by("pk").values_list(*_LOCK_FIELDS)
    rows = {}
    for values in qs:
        row = Locked(*values)
        rows[AccountKey(row.kind, row.realm, row.ref)] = row
    return rows


def accounts_lock_by_pk(pks: Iterable[int]) -> dict[int, Locked]:
    """Lock accounts given by primary key, in primary-key order (same helper contract)."""
    qs = (
        Account.objects.select_for_update()
        .filter(pk__in=sorted(set(pks)))
        .order_by("pk")
        .values_list(*_LOCK_FIELDS)
    )
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
    touched = set(merged) | set(held_release) | set(transferred_in) | closing
    guard = Q()
    for pk in touched:
        guard |= Q(pk=pk, balance=rows[pk].balance, held=rows[pk].held, closed_at__isnull=True)
    changes: dict[str, Any] = {
        "balance": F("balance") + _case(merged),
    }
    if held_release:
        changes["held"] = F("held") - _case(held_release)
    if transferred_in:
        changes["transferred_in"] = F("transferred_in") + _case(transferred_in)
    if closing:
        changes["closed_at"] = Case(When(pk__in=closing, then=Value(now)), default=F("closed_at"))
    if Account.objects.filter(guard).update(**changes) != len(touched):
        raise ConcurrentUpdate()
    tx_id = uuid.uuid4()
    postings = []
    for pk, amount in sorted(merged.items()):
        row = rows[pk]
        row.balance += amount
        row.held -= held_release.get(pk, 0)
        row.transferred_in += transferred_in.get(pk, 0)
        if pk in closing:
            row.closed_at = now
        postings.append(
            Posting(transaction_id=tx_id, account_id=pk, amount=amount, balance_after=row.balance)
        )
    Posting.objects.bulk_create(postings)
    return Transaction.objects.create(
        id=tx_id,
        kind=kind,
        realm=realm,
        created_at=now,
        memo=memo[:200],
        data=data or {},
        actor_id=actor_id,
        reverses_id=reverses_id,
    )


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
    if not key or len(key) > 128:
        raise InvalidAmount("Chiave di idempotenza mancante o troppo lunga.")
    digest = request_hash(action, inputs)
    found = _stored(key)
    if found is not None:
        return _replay(found, action, digest)
    try:
        with transaction.atomic():
            result = work()
            IdempotencyKey.objects.create(key=key, action=action, request_hash=digest, result=result)
    except IntegrityError:
        found = _stored(key)
        if found is None:
            raise
        return _replay(found, action, digest)
    return result


def _stored(key: str) -> tuple[str, str, dict[str, Any]] | None:
    return IdempotencyKey.objects.filter(key=key).values_list("action", "request_hash", "result").first()


def _replay(found: tuple[str, str, dict[str, Any]], action: str, digest: str) -> dict[str, Any]:
    stored_action, stored_hash, result = found
    if stored_action != action or stored_hash != digest:
        raise IdempotencyConflict()
    return {**result, "replayed": True}
