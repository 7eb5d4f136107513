"""What the back office says about money: euro amounts and Italian words, never cents and codes."""

import pytest
from django.urls import reverse

from tests.piattaforma.factories import sign_in
from wallet import actions
from wallet.models import DepositLimit, Hold, Payment, PlayLimit

pytestmark = pytest.mark.django_db


def test_approving_a_withdrawal_says_so_in_italian_with_the_amount_in_euro(client, funded, staff):
    req = actions.withdrawal_request(user=funded, amount=1_000, idempotency_key="w")
    sign_in(client, staff)
    page = client.post(
        reverse("backoffice:wallet_withdrawal_changelist"),
        {"action": "approve", "_selected_action": [req["payment_id"]]},
        follow=True,
    )
    said = [str(m) for m in page.context["messages"]]
    assert said == [f"Prelievo di € 10,00 a {funded.nickname} approvato e pagato."]


def test_money_rows_name_themselves_in_euro_and_italian(funded):
    req = actions.withdrawal_request(user=funded, amount=1_000, idempotency_key="w")
    payment = Payment.objects.get(pk=req["payment_id"])
    assert str(payment) == f"Prelievo {payment.pk}: € 10,00 (In attesa)"
    hold = Hold.objects.get(pk=payment.hold_id)
    assert str(hold) == f"Vincolo {hold.pk}: € 10,00 (In attesa)"
    limit = DepositLimit(user=funded, period="day", amount=2_500)
    assert str(limit).endswith(": € 25,00") and "2500" not in str(limit)
    minutes = PlayLimit(user=funded, kind=PlayLimit.Kind.TIME, period="day", amount=90)
    assert str(minutes).endswith(": 90 min")


def test_the_money_lists_show_euro_not_cents(client, funded, staff):
    actions.withdrawal_request(user=funded, amount=1_234, idempotency_key="w")
    sign_in(client, staff)
    for name in ("payment", "hold", "withdrawal"):
        html = client.get(reverse(f"backoffice:wallet_{name}_changelist")).content.decode()
        assert "€ 12,34" in html, name
        assert ">1234<" not in html and "centesimi" not in html, name
    posting = client.get(reverse("backoffice:wallet_posting_changelist")).content.decode()
    assert "€ 500,00" in posting and ">50000<" not in posting  # the funding deposit
