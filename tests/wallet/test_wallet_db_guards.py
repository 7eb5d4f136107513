"""Raw ORM writes that would break the ledger are rejected by the database itself (SQLite and PostgreSQL)."""

from __future__ import annotations

import re
import threading
import time
import uuid

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

from wallet import actions
from wallet.models import Account, AccountKind, Posting, Realm, Transaction

pytestmark = pytest.mark.django_db


def deferred_checks_now() -> None:
    """Run the checks the database would run at COMMIT (deferred triggers and foreign keys)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
    else:
        connection.check_constraints()


def raw_transaction(legs: list[tuple[Account, int]], *, realm: str = Realm.REAL) -> uuid.UUID:
    """Write postings then the transaction row with the ORM, bypassing wallet.ledger."""
    tx_id = uuid.uuid4()
    Posting.objects.bulk_create(
        [Posting(transaction_id=tx_id, account=a, amount=amt, balance_after=0) for a, amt in legs]
    )
    Transaction.objects.create(id=tx_id, kind="transfer", realm=realm)
    deferred_checks_now()
    return tx_id


# Each guard by the words of its refusal on SQLite | on PostgreSQL (wallet migrations 0001, 0002, 0006;
# a CHECK constraint is named alike on both; the foreign key is Django's, checked at COMMIT).
UNBALANCED = "wallet: unbalanced transaction"
WRITTEN_TX = "wallet: postings must be written before their transaction row"
ONE_REALM = "wallet: real and play money cannot mix in"
ORPHAN = r"foreign key.*transaction_id"
NON_ZERO = "posting_amount_non_zero"
NON_NEGATIVE = "account_non_negative"
CLOSED_EMPTY = "account_closed_is_empty"
POSTING_APPEND_ONLY = r"wallet: postings are append-only|wallet: UPDATE of wallet_posting refused"
TX_IMMUTABLE = r"wallet: transactions are immutable|wallet: UPDATE of wallet_transaction refused"


def rejected(write, guard: str) -> None:
    """``write`` is refused by the database, and by the guard ``guard`` names (a pattern of its error)."""
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        write()
    assert re.search(guard, str(refused.value), re.IGNORECASE | re.DOTALL), str(refused.value)


@pytest.fixture
def accounts(funded, other_player):
    actions.deposit_create(user=other_player, amount=1_000, idempotency_key="o")
    cash = Account.objects.get(owner=funded, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL)
    other = Account.objects.get(owner=other_player, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL)
    actions.play_money_top_up(user=funded, amount=1_000, idempotency_key="p")
    play = Account.objects.get(owner=funded, kind=AccountKind.PLAYER_CASH, realm=Realm.PLAY)
    return cash, other, play


def test_balanced_raw_write_is_accepted(accounts):
    """Sanity: the guards refuse what is wrong, not everything."""
    cash, other, _ = accounts
    tx_id = raw_transaction([(cash, -100), (other, 100)])
    assert sorted(Posting.objects.filter(transaction_id=tx_id).values_list("account", "amount")) == sorted(
        [(cash.pk, -100), (other.pk, 100)]
    )


def test_unbalanced_transaction_is_rejected(accounts):
    cash, other, _ = accounts
    before = Posting.objects.count()
    rejected(lambda: raw_transaction([(cash, -100), (other, 99)]), UNBALANCED)
    rejected(lambda: raw_transaction([(cash, -100)]), UNBALANCED)
    assert Posting.objects.count() == before


def test_transaction_without_postings_is_rejected(accounts):
    rejected(lambda: (Transaction.objects.create(kind="transfer"), deferred_checks_now()), UNBALANCED)


def test_postings_without_their_transaction_are_rejected_at_commit(accounts):
    cash, other, _ = accounts

    def orphan() -> None:
        tx_id = uuid.uuid4()
        Posting.objects.create(transaction_id=tx_id, account=cash, amount=-5, balance_after=0)
        Posting.objects.create(transaction_id=tx_id, account=other, amount=5, balance_after=0)
        deferred_checks_now()

    rejected(orphan, ORPHAN)


def test_postings_cannot_be_added_to_a_written_transaction(accounts):
    cash, other, _ = accounts
    tx = Transaction.objects.filter(kind="deposit").first()
    rejected(
        lambda: Posting.objects.create(transaction=tx, account=cash, amount=7, balance_after=0), WRITTEN_TX
    )
    rejected(
        lambda: Posting.objects.bulk_create(
            [
                Posting(transaction=tx, account=cash, amount=7, balance_after=0),
                Posting(transaction=tx, account=other, amount=-7, balance_after=0),
            ]
        ),
        WRITTEN_TX,
    )


def test_real_and_play_money_cannot_mix(accounts):
    cash, _, play = accounts
    rejected(lambda: raw_transaction([(cash, -100), (play, 100)]), ONE_REALM)


def test_zero_posting_is_rejected(accounts):
    cash, other, _ = accounts
    rejected(lambda: raw_transaction([(cash, 0), (other, 0)]), NON_ZERO)


def test_overdraw_is_rejected(accounts):
    cash, _, _ = accounts
    rejected(lambda: Account.objects.filter(pk=cash.pk).update(balance=-1), NON_NEGATIVE)
    rejected(lambda: Account.objects.filter(pk=cash.pk).update(held=cash.balance + 1), NON_NEGATIVE)
    rejected(lambda: Account.objects.filter(pk=cash.pk).update(held=-1), NON_NEGATIVE)
    # and through postings: the stored balance would have to go negative
    cash.refresh_from_db()
    assert cash.balance == 50_000 and cash.held == 0


def test_house_clearing_may_go_negative(accounts):
    clearing = Account.objects.get(kind=AccountKind.PAYMENTS_CLEARING)
    assert clearing.balance < 0


def test_closed_account_must_be_empty(accounts):
    cash, _, _ = accounts
    rejected(lambda: Account.objects.filter(pk=cash.pk).update(closed_at=timezone.now()), CLOSED_EMPTY)


def test_postings_and_transactions_are_append_only(accounts):
    posting = Posting.objects.first()
    rejected(
        lambda: Posting.objects.filter(pk=posting.pk).update(amount=posting.amount + 1), POSTING_APPEND_ONLY
    )
    rejected(
        lambda: Transaction.objects.filter(pk=posting.transaction_id).update(realm=Realm.PLAY), TX_IMMUTABLE
    )
    if connection.vendor == "postgresql":
        rejected(
            lambda: Posting.objects.filter(pk=posting.pk)._raw_delete(connection.alias),
            "wallet: DELETE of wallet_posting refused",
        )
    else:  # SQLite ignores the delete of one posting of a written transaction (see migration 0002)
        with transaction.atomic():
            assert Posting.objects.filter(pk=posting.pk)._raw_delete(connection.alias) == 0
    assert Posting.objects.filter(pk=posting.pk, amount=posting.amount).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_a_posting_cannot_join_a_transaction_another_session_is_writing(accounts):
    """Session B adds a posting to the transaction session A has written but not committed yet.

    PostgreSQL checks a transaction's balance once, at the COMMIT of the session that writes its
    row; B's posting would escape that check. It cannot: B waits for A (one writer of postings per
    transaction id) and, once A has committed, is refused because the transaction row exists.
    """
    cash, other, _ = accounts
    tx_id = uuid.uuid4()
    written, may_commit = threading.Event(), threading.Event()
    b_backend: list[int] = []
    refused: list[str] = []

    def session_a() -> None:
        try:
            with transaction.atomic():
                Posting.objects.bulk_create(
                    [
                        Posting(transaction_id=tx_id, account=cash, amount=-100, balance_after=0),
                        Posting(transaction_id=tx_id, account=other, amount=100, balance_after=0),
                    ]
                )
                Transaction.objects.create(id=tx_id, kind="transfer", realm=Realm.REAL)
                written.set()
                assert may_commit.wait(30)
        finally:
            connections.close_all()

    def session_b() -> None:
        try:
            assert written.wait(30)
            with connection.cursor() as cur:
                cur.execute("SELECT pg_backend_pid()")
                b_backend.append(cur.fetchone()[0])
            with transaction.atomic():
                Posting.objects.create(transaction_id=tx_id, account=cash, amount=-7, balance_after=0)
        except IntegrityError as exc:
            refused.append(str(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=session_a), threading.Thread(target=session_b)]
    for t in threads:
        t.start()
    # A commits only once B is blocked inserting its posting (waiting for a lock held by A).
    deadline = time.monotonic() + 30
    waiting = False
    while not waiting and time.monotonic() < deadline:
        if b_backend:
            with connection.cursor() as cur:
                cur.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [b_backend[0]])
                row = cur.fetchone()
            waiting = row is not None and row[0] == "Lock"
        time.sleep(0.01)
    may_commit.set()
    for t in threads:
        t.join(timeout=30)
    assert waiting, "session B was not made to wait for session A"
    assert refused and "postings must be written before their transaction row" in refused[0]
    assert sorted(Posting.objects.filter(transaction_id=tx_id).values_list("amount", flat=True)) == [
        -100,
        100,
    ]
