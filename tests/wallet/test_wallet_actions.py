"""Wallet actions: happy paths, refusals that change nothing, idempotency, query counts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from piattaforma import roles
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import ledger_snapshot
from wallet import actions, selectors
from wallet.actions import tables
from wallet.errors import (
    AccountClosed,
    BuyInOutOfRange,
    DepositLimitExceeded,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidEntryCost,
    InvalidState,
    NotPermitted,
    PlayerNotAllowed,
    TableCapExceeded,
)
from wallet.ledger import cash_key, house_key
from wallet.models import Account, AccountKind, Hold, Payment, Realm, Transaction
from wallet.money import LEGAL_TABLE_CAP

pytestmark = pytest.mark.django_db


def balance(user: User) -> dict[str, int]:
    return selectors.balance_get(user=user)


def house(kind: str, realm: str = Realm.REAL) -> int:
    k = house_key(kind, realm)
    return Account.objects.get(kind=k.kind, realm=k.realm, ref=k.ref).balance


# --- deposits, idempotency -------------------------------------------------------------------------


def test_deposit_credits_conto_against_clearing(player):
    result = actions.deposit_create(user=player, amount=2_500, idempotency_key="d1")
    assert result["status"] == Payment.Status.SETTLED
    assert balance(player)["cash"] == 2_500
    assert house(AccountKind.PAYMENTS_CLEARING) == -2_500
    assert selectors.ledger_totals() == {"real": 0}


def test_retry_returns_first_result_and_reused_key_is_refused(player):
    first = actions.deposit_create(user=player, amount=1_000, idempotency_key="same")
    again = actions.deposit_create(user=player, amount=1_000, idempotency_key="same")
    assert again["transaction_id"] == first["transaction_id"] and again["replayed"] is True
    line = AuditLog.objects.get(action="wallet.deposit", actor=player)  # one line: the retry wrote none
    assert line.data == {"amount": 1_000, "status": Payment.Status.SETTLED}
    assert balance(player)["cash"] == 1_000
    before = ledger_snapshot()
    with pytest.raises(IdempotencyConflict) as exc:
        actions.deposit_create(user=player, amount=2_000, idempotency_key="same")
    assert exc.value.code == "idempotency_key_reused"
    assert ledger_snapshot() == before


def test_deposit_hot_path_query_count(player, django_assert_num_queries):
    actions.deposit_create(user=player, amount=100, idempotency_key="warm")  # accounts exist now
    # key lookup, savepoint, lock, limits, payment insert, balance update, postings, transaction
    # (PostgreSQL: the balance update, postings and transaction in one query string), payment
    # update, audit line, key insert, release (the audit line is chained after the commit, outside
    # this count)
    with django_assert_num_queries(12 if connection.vendor == "sqlite" else 10):
        actions.deposit_create(user=player, amount=100, idempotency_key="hot")


def test_suspended_or_self_excluded_player_cannot_deposit(player):
    player.status = User.Status.SUSPENDED
    player.save()
    before = ledger_snapshot()
    with pytest.raises(PlayerNotAllowed):
        actions.deposit_create(user=player, amount=100, idempotency_key="x")
    assert ledger_snapshot() == before


# --- deposit limits ----------------------------------------------------------------------------------


def test_deposit_limit_enforced_in_the_deposit_transaction(player):
    actions.deposit_limit_set(user=player, period="day", amount=5_000)
    actions.deposit_create(user=player, amount=4_000, idempotency_key="a")
    before = ledger_snapshot()
    with pytest.raises(DepositLimitExceeded) as exc:
        actions.deposit_create(user=player, amount=1_001, idempotency_key="b")
    assert exc.value.details["remaining"] == 1_000
    assert ledger_snapshot() == before
    actions.deposit_create(user=player, amount=1_000, idempotency_key="c")
    assert balance(player)["cash"] == 5_000


def test_lowering_a_limit_is_immediate_raising_waits_seven_days(player):
    now = timezone.now()
    actions.deposit_limit_set(user=player, period="week", amount=10_000, now=now)
    raised = actions.deposit_limit_set(user=player, period="week", amount=50_000, now=now)
    assert raised["amount"] == 10_000  # still in force
    assert raised["applies_from"] == (now + actions.DEPOSIT_LIMIT_RAISE_DELAY).isoformat()
    with pytest.raises(DepositLimitExceeded):
        actions.deposit_create(user=player, amount=20_000, idempotency_key="w1")
    lowered = actions.deposit_limit_set(user=player, period="week", amount=3_000, now=now)
    assert lowered["amount"] == 3_000  # immediate, and the pending raise is dropped
    limits = selectors.deposit_limits_get(user=player, now=now + timedelta(days=8))
    assert limits["week"]["amount"] == 3_000
    actions.deposit_limit_set(user=player, period="week", amount=None, now=now)  # removal waits too
    assert selectors.deposit_limits_get(user=player, now=now + timedelta(days=6))["week"]["amount"] == 3_000
    assert selectors.deposit_limits_get(user=player, now=now + timedelta(days=7))["week"]["amount"] is None


# --- withdrawals and holds ---------------------------------------------------------------------------


def test_withdrawal_holds_then_staff_approves(funded, staff):
    req = actions.withdrawal_request(user=funded, amount=20_000, idempotency_key="w")
    b = balance(funded)
    assert (b["cash"], b["held"], b["available"]) == (50_000, 20_000, 30_000)
    with pytest.raises(InsufficientFunds):  # held money cannot be spent
        actions.table_buy_in(
            user=funded,
            table_session_ref="t1",
            amount=40_000,
            min_amount=100,
            max_amount=100_000,
            idempotency_key="b",
        )
    actions.withdrawal_approve(payment_id=req["payment_id"], actor=staff)
    b = balance(funded)
    assert (b["cash"], b["held"]) == (30_000, 0)
    assert Payment.objects.get(pk=req["payment_id"]).status == Payment.Status.SETTLED
    assert Hold.objects.get(pk=req["hold_id"]).status == "posted"
    assert AuditLog.objects.filter(action="wallet.withdrawal_approve").count() == 1
    request_line = AuditLog.objects.get(action="wallet.withdrawal_request")
    assert (request_line.actor, request_line.target_id, request_line.data) == (
        funded,
        str(req["payment_id"]),
        {"amount": 20_000},
    )
    with pytest.raises(InvalidState):
        actions.withdrawal_reject(payment_id=req["payment_id"], actor=staff, reason="troppo tardi")


def test_withdrawal_reject_releases_and_player_cannot_approve(funded, staff):
    req = actions.withdrawal_request(user=funded, amount=10_000, idempotency_key="w")
    before = ledger_snapshot()
    with pytest.raises(NotPermitted):
        actions.withdrawal_approve(payment_id=req["payment_id"], actor=funded)
    assert ledger_snapshot() == before
    actions.withdrawal_reject(payment_id=req["payment_id"], actor=staff, reason="dati bancari errati")
    assert balance(funded)["available"] == 50_000


def test_withdrawal_more_than_available_refused(funded):
    before = ledger_snapshot()
    with pytest.raises(InsufficientFunds):
        actions.withdrawal_request(user=funded, amount=50_001, idempotency_key="w")
    assert ledger_snapshot() == before
    assert not AuditLog.objects.filter(action="wallet.withdrawal_request").exists()


def test_holds_expire(funded):
    past = timezone.now() - timedelta(minutes=1)
    h = actions.hold_place(
        account=cash_key(funded.pk), destination=None, amount=1_000, expires_at=past, idempotency_key="h"
    )
    assert balance(funded)["held"] == 1_000
    assert actions.holds_expire() == 1
    assert Hold.objects.get(pk=h["hold_id"]).status == "expired"
    assert balance(funded)["held"] == 0


# --- cash tables -------------------------------------------------------------------------------------


def buy_in(user, ref="s1", amount=10_000, key=None, **kw):
    return actions.table_buy_in(
        user=user,
        table_session_ref=ref,
        amount=amount,
        min_amount=kw.get("min_amount", 1_000),
        max_amount=kw.get("max_amount", 100_000),
        idempotency_key=key or f"buyin:{ref}",
        realm=kw.get("realm", Realm.REAL),
    )


def test_buy_in_hand_rake_cash_out(funded, other_player):
    actions.deposit_create(user=other_player, amount=20_000, idempotency_key="o")
    buy_in(funded, "s1", 10_000)
    buy_in(other_player, "s2", 10_000)
    assert balance(funded)["cash"] == 40_000
    actions.table_hand_settle(deltas={"s1": 950, "s2": -1_000}, rake=50, idempotency_key="hand1")
    assert house(AccountKind.HOUSE_RAKE) == 50
    out = actions.table_cash_out(table_session_ref="s1", idempotency_key="out1")
    assert out["amount"] == 10_950
    assert balance(funded)["cash"] == 50_950
    assert Account.objects.get(ref="table:s1").closed_at is not None
    before = ledger_snapshot()
    with pytest.raises(AccountClosed):  # a closed table session takes no more money
        actions.table_hand_settle(deltas={"s1": 10, "s2": -10}, rake=0, idempotency_key="hand2")
    assert ledger_snapshot() == before
    assert selectors.ledger_totals() == {"real": 0}


@pytest.mark.django_db(transaction=True)
def test_a_hand_settled_without_a_key_needs_the_callers_transaction(funded, other_player):
    """No key: the caller's own transaction makes it once (the lobby's hand row ended with it);
    outside one it is refused, nothing posted, no key stored either way."""
    from django.db import transaction

    from wallet.models import IdempotencyKey

    actions.deposit_create(user=other_player, amount=20_000, idempotency_key="o")
    buy_in(funded, "s1", 10_000)
    buy_in(other_player, "s2", 10_000)
    keys = IdempotencyKey.objects.count()
    before = ledger_snapshot()
    with pytest.raises(InvalidState):
        actions.table_hand_settle(deltas={"s1": 950, "s2": -1_000}, rake=50, idempotency_key=None)
    assert ledger_snapshot() == before
    with transaction.atomic():
        actions.table_hand_settle(deltas={"s1": 950, "s2": -1_000}, rake=50, idempotency_key=None)
    assert selectors.table_credit_get(table_session_ref="s1")["balance"] == 10_950
    assert house(AccountKind.HOUSE_RAKE) == 50
    assert IdempotencyKey.objects.count() == keys
    assert selectors.ledger_totals() == {"real": 0}


def test_buy_in_out_of_range_and_legal_cap(funded):
    actions.deposit_create(user=funded, amount=200_000, idempotency_key="more")
    before = ledger_snapshot()
    with pytest.raises(BuyInOutOfRange):
        buy_in(funded, amount=500)
    with pytest.raises(TableCapExceeded):
        buy_in(funded, amount=LEGAL_TABLE_CAP + 1, max_amount=500_000)
    assert ledger_snapshot() == before
    buy_in(funded, amount=90_000, max_amount=200_000)
    with pytest.raises(TableCapExceeded):  # € 900 + € 100,01 > € 1.000 transferred to this table
        actions.table_rebuy(
            user=funded,
            table_session_ref="s1",
            amount=10_001,
            max_amount=200_000,
            hand_in_progress=False,
            idempotency_key="r",
        )


def test_rebuy_during_hand_is_credited_after_the_hand(funded):
    buy_in(funded, "s1", 10_000, max_amount=30_000)
    r = actions.table_rebuy(
        user=funded,
        table_session_ref="s1",
        amount=5_000,
        max_amount=30_000,
        hand_in_progress=True,
        idempotency_key="r",
    )
    assert r["status"] == "pending"
    assert selectors.table_credit_get(table_session_ref="s1")["credit"] == 10_000
    assert balance(funded)["available"] == 35_000
    with pytest.raises(BuyInOutOfRange):  # 10 000 + 5 000 pending + 20 000 > 30 000
        actions.table_rebuy(
            user=funded,
            table_session_ref="s1",
            amount=20_000,
            max_amount=30_000,
            hand_in_progress=True,
            idempotency_key="r2",
        )
    actions.table_rebuys_credit(table_session_refs=["s1"])
    assert selectors.table_credit_get(table_session_ref="s1")["credit"] == 15_000
    assert balance(funded)["cash"] == 35_000 and balance(funded)["held"] == 0


def test_rebuys_of_several_sessions_are_credited_in_one_call(funded, django_assert_max_num_queries):
    for ref in ("s1", "s2", "s3"):
        buy_in(funded, ref, 5_000, key=f"in-{ref}")
    for ref, amount in (("s1", 1_000), ("s1", 500), ("s3", 2_000)):
        actions.table_rebuy(
            user=funded,
            table_session_ref=ref,
            amount=amount,
            max_amount=30_000,
            hand_in_progress=True,
            idempotency_key=f"r-{ref}-{amount}",
        )
    assert balance(funded)["held"] == 3_500
    with django_assert_max_num_queries(1):  # no pending rebuy among these sessions: one query
        assert actions.table_rebuys_credit(table_session_refs=["s2", "nobody"]) == []
    posted = actions.table_rebuys_credit(table_session_refs=["s1", "s2", "s3"])
    assert len(posted) == 3 and all(posted)
    credits = {ref: selectors.table_credit_get(table_session_ref=ref)["credit"] for ref in ("s1", "s2", "s3")}
    assert credits == {"s1": 6_500, "s2": 5_000, "s3": 7_000}
    assert balance(funded)["held"] == 0 and balance(funded)["cash"] == 50_000 - 15_000 - 3_500
    compiled = tables._PENDING_REBUYS.compilations
    assert actions.table_rebuys_credit(table_session_refs=["s1", "s2", "s3"]) == []  # idempotent
    assert tables._PENDING_REBUYS.compilations == compiled  # three sessions: its SQL compiled once


def test_buy_in_hot_path_query_count(funded, django_assert_num_queries):
    # key lookup, savepoint, lock (x2: the table account is created), get_or_create (select, savepoint,
    # insert, release), balance update, postings, transaction (PostgreSQL: in one query string), key
    # insert, release savepoint, and the player's loss and session-time limits (one indexed read:
    # wallet.actions.check_play_limits)
    with django_assert_num_queries(14 if connection.vendor == "sqlite" else 12):
        buy_in(funded, "hot", 1_000)


def test_self_exclusion_cashes_out_tables_and_blocks_play(funded):
    buy_in(funded, "s1", 10_000)
    actions.table_rebuy(
        user=funded,
        table_session_ref="s1",
        amount=1_000,
        max_amount=50_000,
        hand_in_progress=True,
        idempotency_key="r",
    )
    actions.play_money_top_up(user=funded, amount=100_000, idempotency_key="p")
    buy_in(funded, "p1", 5_000, realm=Realm.PLAY)
    result = actions.user_self_exclude(user=funded, until=timezone.now() + timedelta(days=30), reason="pausa")
    assert len(result["cashed_out"]) == 2
    funded.refresh_from_db()
    assert funded.status == User.Status.SELF_EXCLUDED
    b = balance(funded)
    assert (b["cash"], b["held"], b["play"]) == (50_000, 0, 100_000)
    assert not Account.objects.filter(
        owner=funded, kind=AccountKind.TABLE_CREDIT, closed_at__isnull=True
    ).exists()
    assert AuditLog.objects.filter(action="user.set_status", target_id=str(funded.pk)).exists()
    before = ledger_snapshot()
    for attempt in (
        lambda: actions.deposit_create(user=funded, amount=100, idempotency_key="d"),
        lambda: buy_in(funded, "s9", 1_000),
        lambda: actions.tournament_enter(
            user=funded, tournament_ref="t", pool_quota=800, rake=200, idempotency_key="e"
        ),
    ):
        with pytest.raises(PlayerNotAllowed):
            attempt()
    assert ledger_snapshot() == before
    actions.withdrawal_request(user=funded, amount=1_000, idempotency_key="still-can-withdraw")


# --- tournaments -------------------------------------------------------------------------------------


def test_entry_split_bonus_first_refund_restores_each_source(funded):
    actions.tournament_guarantee_top_up(tournament_ref="free", guaranteed=600, idempotency_key="g")
    actions.tournament_prizes_pay(
        tournament_ref="free", prizes={funded.pk: 600}, in_bonus=True, idempotency_key="p"
    )
    assert balance(funded)["bonus"] == 600
    entry = actions.tournament_enter(
        user=funded, tournament_ref="t10", pool_quota=800, rake=200, idempotency_key="e"
    )
    assert (entry["from_bonus"], entry["from_cash"]) == (600, 400)
    assert selectors.tournament_pool_get(tournament_ref="t10") == 800
    assert house(AccountKind.HOUSE_RAKE) == 200
    actions.tournament_entry_refund(entry_transaction_id=entry["transaction_id"], idempotency_key="refund")
    b = balance(funded)
    assert (b["cash"], b["bonus"]) == (50_000, 600)
    assert house(AccountKind.HOUSE_PROMOTIONS) == -600
    before = ledger_snapshot()
    with pytest.raises(InvalidState):  # an entry is refunded once
        actions.tournament_entry_refund(
            entry_transaction_id=entry["transaction_id"], idempotency_key="refund2"
        )
    assert ledger_snapshot() == before


def test_entry_cost_must_give_the_pool_eighty_percent(funded):
    before = ledger_snapshot()
    with pytest.raises(InvalidEntryCost):
        actions.tournament_enter(
            user=funded, tournament_ref="t", pool_quota=790, rake=210, idempotency_key="e"
        )
    with pytest.raises(InsufficientFunds):
        actions.tournament_enter(
            user=funded, tournament_ref="t", pool_quota=80_000, rake=0, idempotency_key="e2"
        )
    assert ledger_snapshot() == before


def test_prizes_and_guarantee(funded, other_player):
    actions.tournament_enter(user=funded, tournament_ref="g", pool_quota=800, rake=200, idempotency_key="e")
    top = actions.tournament_guarantee_top_up(tournament_ref="g", guaranteed=5_000, idempotency_key="g")
    assert top["top_up"] == 4_200
    actions.tournament_prizes_pay(
        tournament_ref="g", prizes={funded.pk: 3_000, other_player.pk: 2_000}, idempotency_key="prizes"
    )
    assert balance(other_player)["cash"] == 2_000
    assert selectors.tournament_pool_get(tournament_ref="g") == 0
    with pytest.raises(InsufficientFunds):
        actions.tournament_prizes_pay(tournament_ref="g", prizes={funded.pk: 1}, idempotency_key="more")


def test_freeroll_entry_writes_nothing(player):
    before = ledger_snapshot()
    result = actions.tournament_enter(
        user=player, tournament_ref="f", pool_quota=0, rake=0, idempotency_key="f"
    )
    assert result["transaction_id"] is None
    assert ledger_snapshot()["transactions"] == before["transactions"]


# --- staff corrections -------------------------------------------------------------------------------


def test_manual_adjustment_needs_permission_and_reason_and_is_audited(funded, staff, other_player):
    cash = Account.objects.get(kind=AccountKind.PLAYER_CASH, owner=funded, realm=Realm.REAL)
    before = ledger_snapshot()
    with pytest.raises(NotPermitted):
        actions.ledger_adjust(
            account_id=cash.pk, amount=100, reason="regalo", actor=other_player, idempotency_key="a"
        )
    with pytest.raises(InvalidState):
        actions.ledger_adjust(account_id=cash.pk, amount=100, reason=" ", actor=staff, idempotency_key="a")
    assert ledger_snapshot() == before
    actions.ledger_adjust(
        account_id=cash.pk, amount=-300, reason="doppio accredito", actor=staff, idempotency_key="a"
    )
    assert balance(funded)["cash"] == 49_700
    assert house(AccountKind.HOUSE_ADJUSTMENTS) == 300
    log = AuditLog.objects.get(action="wallet.adjust")
    assert log.actor == staff and log.reason == "doppio accredito"
    tx = Transaction.objects.get(kind="adjustment")
    asked = actions.reversal_request(
        transaction_id=str(tx.pk), reason="rettifica errata", actor=staff, idempotency_key="r"
    )
    assert balance(funded)["cash"] == 49_700  # waits for a second staff member
    actions.reversal_approve(request_id=asked["request_id"], actor=UserFactory(role=roles.STAFF))
    assert balance(funded)["cash"] == 50_000


def test_play_money_never_mixes_with_real(player):
    actions.play_money_top_up(user=player, amount=100_000, idempotency_key="p")
    assert balance(player)["play"] == 100_000 and balance(player)["cash"] == 0
    assert selectors.ledger_totals() == {"play": 0}


def test_carried_pot_stays_on_the_table_between_hands(funded, other_player):
    actions.deposit_create(user=other_player, amount=20_000, idempotency_key="o")
    buy_in(funded, "s1", 10_000)
    buy_in(other_player, "s2", 10_000)
    # piatto di parol: both put 500 in, nobody wins it, it is carried to the next hand
    actions.table_hand_settle(
        deltas={"s1": -500, "s2": -500}, rake=0, pot=1_000, pot_ref="t9", idempotency_key="h1"
    )
    assert selectors.table_pot_get(pot_ref="t9") == 1_000
    before = ledger_snapshot()
    with pytest.raises(InvalidAmount):  # does not balance
        actions.table_hand_settle(
            deltas={"s1": 1_000}, rake=50, pot=-1_000, pot_ref="t9", idempotency_key="h2"
        )
    with pytest.raises(InsufficientFunds):  # more than the carried pot holds
        actions.table_hand_settle(
            deltas={"s1": 1_100}, rake=0, pot=-1_100, pot_ref="t9", idempotency_key="h3"
        )
    assert ledger_snapshot() == before
    actions.table_hand_settle(deltas={"s1": 950}, rake=50, pot=-1_000, pot_ref="t9", idempotency_key="h4")
    assert selectors.table_pot_get(pot_ref="t9") == 0
    assert selectors.table_credit_get(table_session_ref="s1")["balance"] == 10_450
    assert selectors.ledger_totals() == {"real": 0}


class PendingProvider:
    """An asynchronous provider: deposits wait for its callback."""

    name = "async-test"

    def deposit(self, *, payment_id, user_id, amount):
        from wallet.providers import ProviderResult

        return ProviderResult("pending", f"async-{payment_id}")

    def payout(self, *, payment_id, user_id, amount):  # pragma: no cover - not used
        raise AssertionError


def test_asynchronous_deposit_is_credited_when_the_provider_settles(player):
    actions.deposit_limit_set(user=player, period="day", amount=3_000)
    r = actions.deposit_create(user=player, amount=2_000, idempotency_key="a", provider=PendingProvider())
    assert r["status"] == Payment.Status.PENDING and r["transaction_id"] is None
    assert balance(player)["cash"] == 0
    with pytest.raises(DepositLimitExceeded):  # a pending deposit counts against the limit
        actions.deposit_create(user=player, amount=1_500, idempotency_key="b", provider=PendingProvider())
    settled = actions.deposit_settle(payment_id=r["payment_id"], provider_ref="ok-1", succeeded=True)
    assert settled["status"] == Payment.Status.SETTLED and balance(player)["cash"] == 2_000
    again = actions.deposit_settle(payment_id=r["payment_id"], provider_ref="ok-1", succeeded=True)
    assert again["transaction_id"] == settled["transaction_id"] and balance(player)["cash"] == 2_000
    failed = actions.deposit_create(user=player, amount=500, idempotency_key="c", provider=PendingProvider())
    actions.deposit_settle(payment_id=failed["payment_id"], provider_ref="ko", succeeded=False)
    assert Payment.objects.get(pk=failed["payment_id"]).status == Payment.Status.FAILED
    assert balance(player)["cash"] == 2_000
    # each deposit started and each settlement is an audit line, the repeated settlement is not
    lines = AuditLog.objects.filter(target_type="wallet.Payment").order_by("id")
    assert [(a.action, a.target_id, a.data["status"]) for a in lines] == [
        ("wallet.deposit", str(r["payment_id"]), Payment.Status.PENDING),
        ("wallet.deposit_settle", str(r["payment_id"]), Payment.Status.SETTLED),
        ("wallet.deposit", str(failed["payment_id"]), Payment.Status.PENDING),
        ("wallet.deposit_settle", str(failed["payment_id"]), Payment.Status.FAILED),
    ]
