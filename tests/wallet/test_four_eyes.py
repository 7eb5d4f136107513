"""Four eyes on manual adjustments: above ``WALLET_ADJUSTMENT_APPROVAL_CENTS`` one staff member
asks and another approves (posted then, once) or rejects (nothing posted); never the same one."""

from __future__ import annotations

import pytest
from django.db.models import Sum
from django.urls import reverse

from piattaforma import roles
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.conftest import ledger_snapshot
from wallet import actions, selectors
from wallet.errors import InvalidState, NeedsApproval, NotPermitted
from wallet.models import Account, AccountKind, AdjustmentRequest, Posting, Realm, Transaction

pytestmark = pytest.mark.django_db

LIMIT = 10_000  # the default threshold: 100,00 euro


@pytest.fixture
def second(db):
    return UserFactory(role=roles.STAFF)


def cash(user):
    return Account.objects.get(owner=user, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL)


def assert_ledger_balanced():
    assert Posting.objects.aggregate(total=Sum("amount"))["total"] in (0, None)
    assert actions.ledger_reconcile()["ok"]


def ask(actor, account, amount, key="r1", reason="rimborso per guasto del tavolo"):
    return actions.adjustment_request(
        account_id=account.pk, amount=amount, reason=reason, actor=actor, idempotency_key=key
    )


def test_the_threshold_is_a_setting_in_cents(settings):
    assert actions.adjustment_threshold() == LIMIT == settings.WALLET_ADJUSTMENT_APPROVAL_CENTS


def test_up_to_the_threshold_one_staff_member_posts_it(funded, staff):
    result = ask(staff, cash(funded), LIMIT)
    assert result["status"] == "posted"
    assert selectors.balance_get(user=funded)["cash"] == 50_000 + LIMIT
    assert not AdjustmentRequest.objects.exists()
    assert_ledger_balanced()


@pytest.mark.parametrize("amount", [LIMIT + 1, -(LIMIT + 1)])
def test_above_the_threshold_it_waits_and_another_staff_member_approves_it(funded, staff, second, amount):
    before = ledger_snapshot()
    result = ask(staff, cash(funded), amount)
    assert result["status"] == "pending"
    # nothing moved yet: only the request and its idempotency key
    after = ledger_snapshot()
    assert after["accounts"] == before["accounts"] and after["postings"] == before["postings"]
    request = AdjustmentRequest.objects.get(pk=result["request_id"])
    assert (request.status, request.amount, request.requested_by) == ("pending", amount, staff)
    assert AuditLog.objects.get(action="wallet.adjust_request").actor == staff

    done = actions.adjustment_approve(request_id=request.pk, actor=second)
    assert done["status"] == "approved"
    assert selectors.balance_get(user=funded)["cash"] == 50_000 + amount
    request.refresh_from_db()
    assert (request.status, request.decided_by) == ("approved", second)
    tx = Transaction.objects.get(kind="adjustment")
    assert request.transaction == tx and tx.actor_id == second.pk
    assert tx.data == {"request": request.pk, "requested_by": staff.pk}
    assert AuditLog.objects.get(action="wallet.adjust_approve").actor == second
    assert AuditLog.objects.get(action="wallet.adjust").actor == second
    assert_ledger_balanced()

    # approving again posts nothing (idempotent)
    again = actions.adjustment_approve(request_id=request.pk, actor=second)
    assert again["replayed"] and again["transaction_id"] == str(tx.pk)
    assert Transaction.objects.filter(kind="adjustment").count() == 1
    assert selectors.balance_get(user=funded)["cash"] == 50_000 + amount


def test_the_requester_cannot_approve_or_reject_his_own_request(funded, staff):
    request_id = ask(staff, cash(funded), LIMIT + 500)["request_id"]
    before = ledger_snapshot()
    with pytest.raises(NotPermitted):
        actions.adjustment_approve(request_id=request_id, actor=staff)
    with pytest.raises(NotPermitted):
        actions.adjustment_reject(request_id=request_id, actor=staff, reason="ci ho ripensato")
    assert ledger_snapshot() == before
    assert AdjustmentRequest.objects.get(pk=request_id).status == "pending"


def test_a_player_or_a_moderator_decides_nothing(funded, staff, other_player):
    request_id = ask(staff, cash(funded), LIMIT + 500)["request_id"]
    moderator = UserFactory(role=roles.MODERATORS)
    for actor in (other_player, moderator):
        with pytest.raises(NotPermitted):
            actions.adjustment_approve(request_id=request_id, actor=actor)
    assert AdjustmentRequest.objects.get(pk=request_id).status == "pending"


def test_a_rejected_request_posts_nothing_and_cannot_be_approved_later(funded, staff, second):
    before = ledger_snapshot()
    request_id = ask(staff, cash(funded), -(LIMIT * 3))["request_id"]
    with pytest.raises(InvalidState):
        actions.adjustment_reject(request_id=request_id, actor=second, reason=" ")
    actions.adjustment_reject(request_id=request_id, actor=second, reason="importo sbagliato")
    request = AdjustmentRequest.objects.get(pk=request_id)
    assert (request.status, request.decided_by, request.decision_reason) == (
        "rejected",
        second,
        "importo sbagliato",
    )
    with pytest.raises(InvalidState):
        actions.adjustment_approve(request_id=request_id, actor=second)
    after = ledger_snapshot()
    assert after["accounts"] == before["accounts"] and after["transactions"] == before["transactions"]
    assert AuditLog.objects.get(action="wallet.adjust_reject").reason == "importo sbagliato"
    assert_ledger_balanced()


def test_ledger_adjust_alone_refuses_above_the_threshold(funded, staff):
    before = ledger_snapshot()
    with pytest.raises(NeedsApproval) as refused:
        actions.ledger_adjust(
            account_id=cash(funded).pk,
            amount=LIMIT + 1,
            reason="tutto insieme",
            actor=staff,
            idempotency_key="x",
        )
    assert refused.value.code == "adjustment_needs_approval"
    assert ledger_snapshot() == before


def test_a_request_retried_with_its_key_is_one_request(funded, staff):
    first = ask(staff, cash(funded), LIMIT + 1)
    assert ask(staff, cash(funded), LIMIT + 1)["request_id"] == first["request_id"]
    assert AdjustmentRequest.objects.count() == 1


def test_the_approver_may_not_approve_an_adjustment_of_his_own_money(funded, staff):
    request_id = ask(staff, cash(funded), LIMIT + 1)["request_id"]
    funded.is_staff = True  # the conto's owner became staff meanwhile: still not his to decide
    funded.save(update_fields=["is_staff"])
    funded.groups.add(*UserFactory(role=roles.STAFF).groups.all())
    with pytest.raises(NotPermitted):
        actions.adjustment_approve(request_id=request_id, actor=funded)
    assert AdjustmentRequest.objects.get(pk=request_id).status == "pending"


# --- the back office -------------------------------------------------------------------------------


def test_back_office_four_eyes_both_ways(client, funded, staff, second):
    account = cash(funded)
    sign_in(client, staff)
    url = reverse("backoffice:wallet_account_adjust", args=[account.pk])
    response = client.post(
        url, {"direction": "credit", "amount": "250,00", "reason": "rimborso guasto", "idempotency_key": "k1"}
    )
    assert response.status_code == 302
    assert selectors.balance_get(user=funded)["cash"] == 50_000  # not yet
    request = AdjustmentRequest.objects.get()
    changelist = reverse("backoffice:wallet_adjustmentrequest_changelist")
    assert client.get(changelist).status_code == 200
    # the requester's approval is refused, with the reason shown
    client.post(changelist, {"action": "approve", "_selected_action": [request.pk]})
    request.refresh_from_db()
    assert request.status == "pending" and selectors.balance_get(user=funded)["cash"] == 50_000

    sign_in(client, second)
    response = client.post(changelist, {"action": "approve", "_selected_action": [request.pk]})
    assert response.status_code == 302
    request.refresh_from_db()
    assert request.status == "approved"
    assert selectors.balance_get(user=funded)["cash"] == 75_000
    assert_ledger_balanced()
