"""Four eyes on reversals: one staff member asks for the reversal of a ledger transaction, another
approves it (posted then, once, atomically) or rejects it (nothing posted); never the same one."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.urls import reverse

from piattaforma import roles
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.conftest import ledger_snapshot
from wallet import actions, selectors
from wallet.errors import IdempotencyConflict, InvalidState, NotPermitted, ReversalPending
from wallet.models import Posting, ReversalRequest, Transaction, TransactionKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def second(db):
    return UserFactory(role=roles.STAFF)


@pytest.fixture
def deposit(funded):
    return Transaction.objects.get(kind=TransactionKind.DEPOSIT, postings__account__owner=funded)


def assert_ledger_balanced():
    assert Posting.objects.aggregate(total=Sum("amount"))["total"] in (0, None)
    assert actions.ledger_reconcile()["ok"]


def ask(actor, tx, key="rev1", reason="deposito registrato due volte"):
    return actions.reversal_request(
        transaction_id=str(tx.pk), reason=reason, actor=actor, idempotency_key=key
    )


def test_a_reversal_waits_for_a_second_staff_member_then_posts_once(funded, staff, second, deposit):
    before = ledger_snapshot()
    asked = ask(staff, deposit)
    assert asked["status"] == "pending"
    after = ledger_snapshot()  # nothing moved: only the request and its idempotency key
    assert (after["accounts"], after["postings"], after["transactions"]) == (
        before["accounts"],
        before["postings"],
        before["transactions"],
    )
    assert selectors.balance_get(user=funded)["cash"] == 50_000
    request = ReversalRequest.objects.get(pk=asked["request_id"])
    assert (request.status, request.original, request.requested_by) == ("pending", deposit, staff)
    assert AuditLog.objects.get(action="wallet.reverse_request").actor == staff

    done = actions.reversal_approve(request_id=request.pk, actor=second)
    assert done["status"] == "approved"
    assert selectors.balance_get(user=funded)["cash"] == 0
    reversal = Transaction.objects.get(reverses=deposit)
    request.refresh_from_db()
    assert (request.status, request.decided_by, request.reversal) == ("approved", second, reversal)
    assert reversal.actor_id == second.pk and reversal.kind == TransactionKind.REVERSAL
    assert reversal.data == {"reverses": str(deposit.pk), "request": request.pk, "requested_by": staff.pk}
    assert AuditLog.objects.get(action="wallet.reverse_approve").actor == second
    assert AuditLog.objects.get(action="wallet.reverse").actor == second
    assert_ledger_balanced()

    # approving again, or asking again, posts nothing
    again = actions.reversal_approve(request_id=request.pk, actor=second)
    assert again["replayed"] and again["transaction_id"] == str(reversal.pk)
    assert ask(staff, deposit)["request_id"] == request.pk  # the same key: the first answer
    settled = ledger_snapshot()
    with pytest.raises(InvalidState):  # a new request: already reversed
        ask(second, deposit, key="rev2")
    assert Transaction.objects.filter(reverses=deposit).count() == 1
    assert ledger_snapshot()["accounts"] == settled["accounts"]


def test_the_requester_cannot_approve_or_reject_his_own_request(funded, staff, deposit):
    request_id = ask(staff, deposit)["request_id"]
    before = ledger_snapshot()
    with pytest.raises(NotPermitted):
        actions.reversal_approve(request_id=request_id, actor=staff)
    with pytest.raises(NotPermitted):
        actions.reversal_reject(request_id=request_id, actor=staff, reason="ci ho ripensato")
    assert ledger_snapshot() == before
    assert ReversalRequest.objects.get(pk=request_id).status == "pending"


def test_the_database_refuses_a_self_approved_request(funded, staff, deposit):
    request = ReversalRequest.objects.get(pk=ask(staff, deposit)["request_id"])
    request.status, request.decided_by = "rejected", staff
    with pytest.raises(IntegrityError), transaction.atomic():
        request.save()


@pytest.mark.parametrize("role", ["player", roles.MODERATORS])
def test_players_and_moderators_neither_ask_nor_decide(funded, staff, deposit, role):
    actor = UserFactory() if role == "player" else UserFactory(role=role)
    before = ledger_snapshot()
    with pytest.raises(NotPermitted):
        ask(actor, deposit, key="x")
    request_id = ask(staff, deposit)["request_id"]
    pending = ledger_snapshot()
    for decide in (
        lambda: actions.reversal_approve(request_id=request_id, actor=actor),
        lambda: actions.reversal_reject(request_id=request_id, actor=actor, reason="non mi piace"),
    ):
        with pytest.raises(NotPermitted):
            decide()
    assert ledger_snapshot() == pending and pending["keys"] == before["keys"] + 1
    assert ReversalRequest.objects.get().status == "pending"


def test_a_superuser_asks_and_another_superuser_approves(funded, deposit):
    boss, other = UserFactory(is_superuser=True, is_staff=True), UserFactory(is_superuser=True, is_staff=True)
    request_id = ask(boss, deposit)["request_id"]
    with pytest.raises(NotPermitted):  # superusers too: four eyes
        actions.reversal_approve(request_id=request_id, actor=boss)
    actions.reversal_approve(request_id=request_id, actor=other)
    assert selectors.balance_get(user=funded)["cash"] == 0
    assert_ledger_balanced()


def test_a_rejected_request_posts_nothing_and_cannot_be_approved_later(funded, staff, second, deposit):
    before = ledger_snapshot()
    request_id = ask(staff, deposit)["request_id"]
    with pytest.raises(InvalidState):
        actions.reversal_reject(request_id=request_id, actor=second, reason=" ")
    actions.reversal_reject(request_id=request_id, actor=second, reason="il deposito è giusto")
    request = ReversalRequest.objects.get(pk=request_id)
    assert (request.status, request.decided_by, request.decision_reason) == (
        "rejected",
        second,
        "il deposito è giusto",
    )
    with pytest.raises(InvalidState):
        actions.reversal_approve(request_id=request_id, actor=second)
    after = ledger_snapshot()
    assert after["accounts"] == before["accounts"] and after["transactions"] == before["transactions"]
    assert AuditLog.objects.get(action="wallet.reverse_reject").reason == "il deposito è giusto"
    # a rejected request does not stand in the way of a new one
    assert ask(second, deposit, key="rev2")["status"] == "pending"


def test_one_open_request_per_transaction(funded, staff, second, deposit):
    ask(staff, deposit)
    with pytest.raises(ReversalPending) as refused:
        ask(second, deposit, key="rev2")
    assert refused.value.code == "reversal_pending"
    with pytest.raises(IdempotencyConflict):  # the same key for another reason
        ask(staff, deposit, reason="un altro motivo qualsiasi")
    assert ReversalRequest.objects.count() == 1


def test_a_refused_request_writes_nothing(funded, staff, deposit):
    before = ledger_snapshot()
    with pytest.raises(InvalidState):
        ask(staff, deposit, reason="  ")
    with pytest.raises(InvalidState):
        actions.reversal_request(
            transaction_id="00000000-0000-0000-0000-000000000000",
            reason="movimento sbagliato",
            actor=staff,
            idempotency_key="rev9",
        )
    assert ledger_snapshot() == before and not ReversalRequest.objects.exists()


# --- the back office -------------------------------------------------------------------------------


def test_back_office_reversal_four_eyes_both_ways(client, funded, staff, second, deposit):
    sign_in(client, staff)
    transactions = reverse("backoffice:wallet_transaction_changelist")
    selected = {"action": "reverse_transactions", "_selected_action": [str(deposit.pk)]}
    form = client.post(transactions, selected)
    assert form.status_code == 200 and "Richiesta di storno" in form.content.decode()
    key = form.context["form"].initial["idempotency_key"]
    posted = {**selected, "reason": "deposito registrato due volte", "idempotency_key": key}
    assert client.post(transactions, posted).status_code == 302
    assert client.post(transactions, posted).status_code == 302  # a double submit asks once
    request = ReversalRequest.objects.get()
    assert request.requested_by == staff and selectors.balance_get(user=funded)["cash"] == 50_000

    changelist = reverse("backoffice:wallet_reversalrequest_changelist")
    assert client.get(changelist).status_code == 200
    index = client.get(reverse("backoffice:index")).content.decode()
    client.post(changelist, {"action": "approve", "_selected_action": [request.pk]})
    request.refresh_from_db()
    assert request.status == "pending" and selectors.balance_get(user=funded)["cash"] == 50_000

    sign_in(client, second)
    waiting = {item["label"]: item["count"] for item in selectors.four_eyes_waiting(second)}
    assert waiting["Storni da approvare"] == 1
    assert {item["label"]: item["count"] for item in selectors.four_eyes_waiting(staff)}[
        "Storni da approvare"
    ] == 0  # his own request waits for somebody else
    assert "Storni da approvare" in index
    response = client.post(changelist, {"action": "approve", "_selected_action": [request.pk]})
    assert response.status_code == 302
    request.refresh_from_db()
    assert request.status == "approved"
    assert selectors.balance_get(user=funded)["cash"] == 0
    assert_ledger_balanced()


def test_back_office_reversal_pages_by_role(client, funded, staff, deposit):
    request_id = ask(staff, deposit)["request_id"]
    changelist = reverse("backoffice:wallet_reversalrequest_changelist")
    page = reverse("backoffice:wallet_reversalrequest_change", args=[request_id])
    moderator = UserFactory(role=roles.MODERATORS)
    sign_in(client, moderator)
    assert client.get(changelist).status_code == 403
    response = client.post(changelist, {"action": "approve", "_selected_action": [request_id]})
    assert response.status_code == 403
    client.logout()
    client.force_login(UserFactory())  # a player never reaches the back office
    assert client.get(page).status_code == 302
    assert ReversalRequest.objects.get().status == "pending"
    assert selectors.balance_get(user=funded)["cash"] == 50_000
