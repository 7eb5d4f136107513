"""``ledger_transfer``: the one-round-trip PostgreSQL path refuses and writes exactly like the portable path.

On PostgreSQL ``ledger_transfer`` calls the stored function ``wallet_transfer`` (migration 0005);
``ledger_transfer_portable`` is the lock helper + ``ledger.post`` path SQLite uses. Every case below
runs both paths (on SQLite both are the portable one) and expects the same refusal, the same
details and nothing written; the PostgreSQL-only tests show that the database guarantees (CHECK
constraints, deferred balance triggers, append-only) still apply to the function's writes.
"""

from __future__ import annotations

import json
import threading
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import ledger_snapshot, run_in_threads
from wallet import actions, ledger, selectors
from wallet.errors import (
    AccountClosed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidState,
    WalletError,
)
from wallet.ledger import NEGATIVE_KINDS
from wallet.models import Account, AccountKind, Posting, Realm, Transaction

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"
)
PATHS = {"fast": actions.ledger_transfer, "portable": actions.ledger_transfer_portable}


@pytest.fixture
def accts(funded, other_player):
    """Two funded real conti (€ 500,00 and € 10,00), a play-money conto and a closed table credit."""
    actions.deposit_create(user=other_player, amount=1_000, idempotency_key="other")
    actions.play_money_top_up(user=funded, amount=1_000, idempotency_key="play")
    cash = Account.objects.get(owner=funded, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL)
    other = Account.objects.get(owner=other_player, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL)
    play = Account.objects.get(owner=funded, kind=AccountKind.PLAYER_CASH, realm=Realm.PLAY)
    closed = Account.objects.create(
        kind=AccountKind.TABLE_CREDIT, ref="table:gone", closed_at=cash.created_at
    )
    return {"cash": cash.pk, "other": other.pk, "play": play.pk, "closed": closed.pk}


def refusal(path: str, exc_type: type[WalletError], **kwargs) -> dict:
    """Run a refused transfer on ``path``; check nothing was written; return the error as a dict."""
    before = ledger_snapshot()
    with pytest.raises(exc_type) as info:
        PATHS[path](**kwargs)
    assert ledger_snapshot() == before
    return info.value.as_dict()


CASES = [
    # (name, exception, source, destination, amount)
    ("overdraft", InsufficientFunds, "other", "cash", 1_001),
    ("mixed_realm", InvalidAmount, "cash", "play", 100),
    ("mixed_realm_reverse", InvalidAmount, "play", "cash", 100),
    ("closed_destination", AccountClosed, "cash", "closed", 100),
    ("closed_source", AccountClosed, "closed", "cash", 100),
    ("same_account", InvalidState, "cash", "cash", 100),
    ("missing_account", InvalidState, "cash", "nobody", 100),
]


@pytest.mark.parametrize(("name", "exc_type", "src", "dst", "amount"), CASES, ids=[c[0] for c in CASES])
def test_refusals_are_the_same_on_both_paths(accts, name, exc_type, src, dst, amount):
    accts = {**accts, "nobody": 10**9}
    seen = [
        refusal(
            path,
            exc_type,
            source_id=accts[src],
            destination_id=accts[dst],
            amount=amount,
            idempotency_key=f"{path}:{name}",
        )
        for path in PATHS
    ]
    assert seen[0] == seen[1]
    if exc_type is InsufficientFunds:
        ref = Account.objects.get(pk=accts["other"]).ref
        assert seen[0]["details"] == {"account": ref, "available": 1_000, "needed": 1_001}


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("amount", [0, -5, 1.5, True, 10**12])
def test_unbalanced_or_bad_amounts_are_refused(accts, path, amount):
    refusal(
        path,
        InvalidAmount,
        source_id=accts["cash"],
        destination_id=accts["other"],
        amount=amount,
        idempotency_key=f"bad:{path}",
    )


@pytest.mark.parametrize("path", list(PATHS))
def test_a_transfer_writes_one_balanced_transaction(accts, path):
    result = PATHS[path](
        source_id=accts["cash"],
        destination_id=accts["other"],
        amount=250,
        idempotency_key=f"ok:{path}",
        memo="x",
    )
    tx = Transaction.objects.get(pk=result["transaction_id"])
    assert (tx.kind, tx.realm, tx.memo, tx.data) == ("transfer", "real", "x", {})
    postings = list(
        Posting.objects.filter(transaction=tx)
        .order_by("id")
        .values_list("account_id", "amount", "balance_after")
    )
    cash_after = Account.objects.get(pk=accts["cash"]).balance
    other_after = Account.objects.get(pk=accts["other"]).balance
    assert (cash_after, other_after) == (50_000 - 250, 1_000 + 250)
    expected = sorted([(accts["cash"], -250, cash_after), (accts["other"], 250, other_after)])
    assert postings == expected  # written in account order, with the balance after
    assert selectors.reconciliation_report()["ok"]


@pytest.mark.parametrize("path", list(PATHS))
def test_idempotency_replay_and_conflict(accts, path):
    kwargs = {
        "source_id": accts["cash"],
        "destination_id": accts["other"],
        "amount": 300,
        "idempotency_key": f"k:{path}",
    }
    first = PATHS[path](**kwargs)
    before = ledger_snapshot()
    again = PATHS[path](**kwargs)
    assert again == {**first, "replayed": True}
    assert ledger_snapshot() == before
    with pytest.raises(IdempotencyConflict):
        PATHS[path](**{**kwargs, "amount": 301})
    other_path = "portable" if path == "fast" else "fast"
    assert PATHS[other_path](**kwargs) == again  # both paths read the same stored result
    assert ledger_snapshot() == before


@pytest.mark.parametrize("path", list(PATHS))
def test_a_refusal_inside_a_transaction_leaves_it_usable(accts, path):
    with transaction.atomic():
        with pytest.raises(InsufficientFunds):
            PATHS[path](
                source_id=accts["other"], destination_id=accts["cash"], amount=5_000, idempotency_key="in:1"
            )
        PATHS[path](
            source_id=accts["other"], destination_id=accts["cash"], amount=500, idempotency_key="in:2"
        )
    assert Account.objects.get(pk=accts["other"]).balance == 500


# --- PostgreSQL only: the database guarantees still hold for the function's writes ---------------


def call_function(**overrides):
    params = {
        "key": f"raw:{uuid.uuid4()}",
        "action": "transfer",
        "hash": "h",
        "kind": "transfer",
        "source": None,
        "destination": None,
        "amount": 1,
        "memo": "",
        "negative": [str(k) for k in NEGATIVE_KINDS],
        **overrides,
    }
    with connection.cursor() as cur:
        cur.execute(
            "SELECT outcome, result FROM wallet_transfer(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            list(params.values()),
        )
        return cur.fetchone()


@postgres_only
def test_the_check_constraint_still_guards_the_function(accts):
    """Told (wrongly) that a conto may go negative, the function writes: the CHECK refuses it."""
    before = ledger_snapshot()
    with pytest.raises(IntegrityError, match="account_non_negative"), transaction.atomic():
        call_function(
            source=accts["other"], destination=accts["cash"], amount=1_001, negative=["player_cash"]
        )
    assert ledger_snapshot() == before


@postgres_only
def test_the_function_refuses_non_positive_amounts(accts):
    for amount in (0, -1):
        assert (
            call_function(source=accts["cash"], destination=accts["other"], amount=amount)[0]
            == "invalid_amount"
        )


@postgres_only
def test_no_posting_can_be_slipped_into_the_function_transaction(accts):
    """The ledger triggers apply to the function's rows: a posting added to its transaction is refused."""
    before = ledger_snapshot()
    with (
        pytest.raises(IntegrityError, match="postings must be written before their transaction row"),
        transaction.atomic(),
    ):
        outcome, result = call_function(source=accts["cash"], destination=accts["other"], amount=10)
        assert outcome == "ok"
        tx_id = (result if isinstance(result, dict) else json.loads(result))["transaction_id"]
        Posting.objects.create(transaction_id=tx_id, account_id=accts["cash"], amount=5, balance_after=0)
        with connection.cursor() as cur:
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert ledger_snapshot() == before


def test_the_prepared_call_names_exactly_the_kinds_that_may_go_negative():
    kinds = ledger._PG_TRANSFER.split("'{", 1)[1].split("}'", 1)[0].split(",")
    assert sorted(kinds) == sorted(str(k) for k in NEGATIVE_KINDS)


@postgres_only
def test_ledger_triggers_are_all_enabled():
    with connection.cursor() as cur:
        cur.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal "
            "AND tgrelid IN ('wallet_posting'::regclass, 'wallet_transaction'::regclass) ORDER BY tgname"
        )
        rows = cur.fetchall()
    assert rows == [
        ("wallet_posting_append_only", "O"),
        ("wallet_posting_tx_open", "O"),
        ("wallet_transaction_append_only", "O"),
        ("wallet_transaction_balanced", "O"),
    ]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_concurrent_transfers_in_both_directions_stay_exact():
    """Threads (one connection each) move money both ways between the same three conti, some overdrawing."""
    users = [UserFactory() for _ in range(3)]
    for u in users:
        actions.deposit_create(user=u, amount=2_000, idempotency_key=f"both:{u.pk}")
    pks = [Account.objects.get(owner=u, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL).pk for u in users]
    plans = []
    for w in range(6):
        plan = []
        for i in range(40):
            a, b = (
                (pks[(w + i) % 3], pks[(w + i + 1) % 3])
                if w % 2
                else (pks[(w + i + 1) % 3], pks[(w + i) % 3])
            )
            plan.append((a, b, 1 + (w * 37 + i * 11) % 300, f"both:{w}:{i}"))
        plans.append(plan)
    done: list[tuple[int, int, int]] = []
    refused: list[str] = []
    lock = threading.Lock()

    def step(item):
        a, b, amount, key = item
        try:
            actions.ledger_transfer(source_id=a, destination_id=b, amount=amount, idempotency_key=key)
        except InsufficientFunds:
            with lock:
                refused.append(key)
            return
        with lock:
            done.append((a, b, amount))

    run_in_threads(plans, step)
    assert len(done) + len(refused) == 240
    expected = dict.fromkeys(pks, 2_000)
    for a, b, amount in done:
        expected[a] -= amount
        expected[b] += amount
    balances = {pk: Account.objects.get(pk=pk).balance for pk in pks}
    assert balances == expected
    assert min(balances.values()) >= 0
    assert Transaction.objects.filter(kind="transfer").count() == len(done)
    assert selectors.reconciliation_report()["ok"]


@postgres_only
def test_a_post_whose_guard_misses_writes_nothing_though_its_inserts_went_with_the_update(accts):
    """``ledger.post`` on PostgreSQL sends the guarded UPDATE and the inserts in one query string; a
    row changed since its lock (the guard matches fewer rows than it updates) is refused and the
    inserts that ran with it are rolled back with the transaction."""
    before = ledger_snapshot()
    with (
        CaptureQueriesContext(connection) as ctx,
        pytest.raises(ledger.ConcurrentUpdate),
        transaction.atomic(),
    ):
        rows = ledger.accounts_lock_by_pk([accts["cash"], accts["other"]])
        stale = rows[accts["cash"]]
        stale.balance -= 1  # as if read before another transaction moved it
        ledger.post(kind="transfer", realm="real", legs=[(stale, -500), (rows[accts["other"]], 500)])
    assert ledger_snapshot() == before
    (sent,) = [q["sql"] for q in ctx.captured_queries if "UPDATE wallet_account" in q["sql"]]
    assert "INSERT INTO wallet_transaction" in sent  # the inserts went, in the same round trip

    # and a guard that matches posts as ever, in that one round trip
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        rows = ledger.accounts_lock_by_pk([accts["cash"], accts["other"]])
        tx = ledger.post(
            kind="transfer", realm="real", legs=[(rows[accts["cash"]], -500), (rows[accts["other"]], 500)]
        )
    assert sorted(Posting.objects.filter(transaction_id=tx.pk).values_list("amount", flat=True)) == [
        -500,
        500,
    ]
    assert len([q for q in ctx.captured_queries if "wallet_posting" in q["sql"]]) == 1
