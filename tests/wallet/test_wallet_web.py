"""Conto pages, the API and its schema, the back office, the reconciliation task, money formatting."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone

from piattaforma import roles
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.conftest import ledger_snapshot
from wallet import actions, selectors, tasks
from wallet.models import (
    Account,
    AccountKind,
    Payment,
    Realm,
    ReconciliationRun,
    ReversalRequest,
    Transaction,
)
from wallet.money import AmountError, Money, format_entry_cost, format_eur, parse_eur


def test_money_formatting_and_parsing():
    assert format_eur(123450) == "€ 1.234,50"
    assert format_eur(5) == "€ 0,05"
    assert format_eur(-100_000_00) == "-€ 100.000,00"
    assert format_entry_cost(pool_quota=800, rake=200) == "€ 10,00 (€ 8,00 + € 2,00)"
    assert str(Money(1000) + Money(250)) == "€ 12,50"
    for text, cents in [("12,5", 1250), ("1.234,56", 123456), ("€ 7", 700), ("1000", 100000)]:
        assert parse_eur(text) == cents
    for bad in ("", "abc", "1,234", "-5", "1.2.3", "3.50"):  # Italian only: the comma is the decimal
        with pytest.raises(AmountError):
            parse_eur(bad)
    with pytest.raises(TypeError):
        format_eur(1.5)  # type: ignore[arg-type]  # a float on purpose
    rendered = Template("{% load wallet_money %}{{ v|euro }} {{ v|euro_signed }}").render(Context({"v": 150}))
    assert rendered == "€ 1,50 +€ 1,50"


@pytest.mark.django_db
def test_pages_render_in_italian(client, funded):
    sign_in(client, funded)
    for name in ("balance", "statement", "deposit", "withdrawal", "limits", "self_exclusion"):
        response = client.get(reverse(f"wallet:{name}"))
        assert response.status_code == 200, name
        title = re.search(r"<title>(.*?)</title>", response.content.decode(), re.S)
        assert title and "<" not in title.group(1), (name, title)  # the title block holds text only
    page = client.get(reverse("wallet:balance")).content.decode()
    assert "€ 500,00" in page and "Bonus" in page


@pytest.mark.django_db
def test_pages_need_login(client):
    response = client.get(reverse("wallet:balance"))
    assert response.status_code == 302


@pytest.mark.django_db
def test_deposit_page_is_idempotent_on_double_submit(client, player):
    sign_in(client, player)
    data = {"amount": "25,00", "idempotency_key": "form-1"}
    assert client.post(reverse("wallet:deposit"), data).status_code == 302
    assert client.post(reverse("wallet:deposit"), data).status_code == 302
    assert selectors.balance_get(user=player)["cash"] == 2_500
    response = client.post(reverse("wallet:deposit"), {"amount": "abc", "idempotency_key": "form-2"})
    assert "Scrivi un importo" in response.content.decode()


@pytest.mark.django_db
def test_withdrawal_page_refusal_shows_message_and_changes_nothing(client, funded):
    sign_in(client, funded)
    before = ledger_snapshot()
    response = client.post(reverse("wallet:withdrawal"), {"amount": "600,00", "idempotency_key": "w"})
    assert response.status_code == 200
    assert "Saldo disponibile insufficiente" in response.content.decode()
    assert ledger_snapshot() == before
    client.post(reverse("wallet:withdrawal"), {"amount": "100,00", "idempotency_key": "w2"})
    assert selectors.balance_get(user=funded)["held"] == 10_000


@pytest.mark.django_db
def test_limits_page_and_self_exclusion_page(client, funded):
    sign_in(client, funded)
    client.post(reverse("wallet:limits"), {"day": "50,00", "week": "", "month": ""})
    assert selectors.deposit_limits_get(user=funded)["day"]["amount"] == 5_000
    client.post(reverse("wallet:limits"), {"day": "80,00", "week": "", "month": ""})
    limits = selectors.deposit_limits_get(user=funded)
    assert limits["day"]["amount"] == 5_000 and limits["day"]["pending_amount"] == 8_000
    assert "Modifica in attesa" in client.get(reverse("wallet:limits")).content.decode()
    response = client.post(reverse("wallet:self_exclusion"), {"duration": "30", "confirm": "on"})
    assert response.status_code == 302
    funded.refresh_from_db()
    assert funded.status == User.Status.SELF_EXCLUDED
    assert funded.self_excluded_until > timezone.now() + timedelta(days=29)


@pytest.mark.django_db
def test_statement_page_paginates_and_filters(client, funded):
    for i in range(30):
        actions.deposit_create(user=funded, amount=100 + i, idempotency_key=f"s{i}")
    actions.tournament_enter(user=funded, tournament_ref="t", pool_quota=800, rake=200, idempotency_key="e")
    sign_in(client, funded)
    first = client.get(reverse("wallet:statement"))
    assert first.context["page"].count == 32 and len(first.context["page"].items) == 25
    second = client.get(reverse("wallet:statement") + "?page=2")
    assert len(second.context["page"].items) == 7
    only_entries = client.get(reverse("wallet:statement") + "?kind=tournament_entry")
    assert [row["amount"] for row in only_entries.context["page"].items] == [-1_000]
    assert "-€ 10,00" in only_entries.content.decode()


@pytest.mark.django_db
def test_api_balance_and_statement(client, funded, django_assert_max_num_queries):
    from piattaforma import siteops

    sign_in(client, funded)
    siteops.site_hours()  # every request reads the site's hours once per process per 10 s: warm, as in use
    with django_assert_max_num_queries(4):
        body = client.get(reverse("wallet:api_balance")).json()
    assert body["cash"] == 50_000 and body["formatted"]["cash"] == "€ 500,00"
    body = client.get(reverse("wallet:api_statement"), {"kind": "deposit"}).json()
    assert body["count"] == 1 and body["results"][0]["amount"] == 50_000
    bad = client.get(reverse("wallet:api_statement"), {"kind": "nope"})
    assert bad.status_code == 400 and bad.json()["code"]
    client.logout()
    assert client.get(reverse("wallet:api_balance")).status_code == 403


def test_openapi_schema_has_no_warnings(tmp_path):
    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    text = (tmp_path / "schema.yml").read_text()
    assert "/conto/api/saldo/" in text and "/conto/api/movimenti/" in text


# --- back office ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_backoffice_ledger_is_read_only_and_adjustment_is_gated(client, funded, staff):
    account = Account.objects.get(owner=funded, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL)
    sign_in(client, staff)
    assert client.get(reverse("backoffice:wallet_account_changelist")).status_code == 200
    assert client.get(reverse("backoffice:wallet_transaction_changelist")).status_code == 200
    assert client.get(reverse("backoffice:wallet_reconciliationrun_changelist")).status_code == 200
    assert client.get(reverse("backoffice:wallet_account_change", args=[account.pk])).status_code == 200
    assert client.get(reverse("backoffice:wallet_account_add")).status_code == 403
    url = reverse("backoffice:wallet_account_adjust", args=[account.pk])
    response = client.post(
        url, {"direction": "credit", "amount": "5,00", "reason": "", "idempotency_key": "k"}
    )
    assert response.status_code == 200 and Transaction.objects.filter(kind="adjustment").count() == 0
    client.post(
        url, {"direction": "credit", "amount": "5,00", "reason": "compensazione", "idempotency_key": "k"}
    )
    assert selectors.balance_get(user=funded)["cash"] == 50_500
    assert AuditLog.objects.filter(action="wallet.adjust", actor=staff).count() == 1
    sign_in(client, funded)  # a player is not let in
    assert client.post(url, {"direction": "credit", "amount": "5,00", "reason": "x" * 9}).status_code == 302
    assert selectors.balance_get(user=funded)["cash"] == 50_500


@pytest.mark.django_db
def test_backoffice_withdrawal_approval(client, funded, staff):
    req = actions.withdrawal_request(user=funded, amount=1_000, idempotency_key="w")
    sign_in(client, staff)
    response = client.post(
        reverse("backoffice:wallet_withdrawal_changelist"),
        {"action": "approve", "_selected_action": [req["payment_id"]]},
    )
    assert response.status_code == 302
    assert Payment.objects.get(pk=req["payment_id"]).status == Payment.Status.SETTLED
    assert selectors.balance_get(user=funded)["cash"] == 49_000


# --- reconciliation --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=False)
def test_reconciliation_task_ok_then_alerts_staff_on_a_difference(
    funded, staff, django_capture_on_commit_callbacks
):
    result = tasks.reconcile()
    assert result["ok"] and ReconciliationRun.objects.get().ok
    # corrupt a stored balance behind the ledger's back (a positive value passes the CHECK)
    Account.objects.filter(owner=funded, kind=AccountKind.PLAYER_CASH).update(balance=60_000)
    with django_capture_on_commit_callbacks(execute=True):
        result = tasks.reconcile()
    assert not result["ok"] and result["problems"] == 1
    run = ReconciliationRun.objects.filter(ok=False).get()
    assert run.mismatches[0]["stored"] == 60_000 and run.mismatches[0]["postings"] == 50_000
    assert AuditLog.objects.filter(action="wallet.reconciliation_failed", target_id=str(run.pk)).exists()
    assert any(staff.email in m.to for m in mail.outbox)


@pytest.mark.django_db
def test_celery_beat_runs_the_reconciliation_nightly(settings):
    """Beat's entry fires at 03:30 Rome time every night, and the task it names reconciles."""
    from config.celery import app

    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "wallet.reconcile"]
    assert len(entries) == 1
    schedule = entries[0]["schedule"]
    schedule.app = app
    rome = ZoneInfo("Europe/Rome")
    last_run = datetime(2026, 3, 10, 12, 0, tzinfo=rome)
    runs = []
    for _ in range(3):
        since, wait, _now = schedule.remaining_delta(last_run)
        last_run = since + wait
        runs.append(last_run)
    assert runs == [datetime(2026, 3, day, 3, 30, tzinfo=rome) for day in (11, 12, 13)]
    app.loader.import_default_modules()
    assert app.tasks["wallet.reconcile"].apply().get()["ok"]
    assert ReconciliationRun.objects.get().ok


@pytest.mark.django_db
def test_backoffice_reverse_and_reject_need_a_reason(client, funded, staff):
    tx = Transaction.objects.get(kind="deposit")
    sign_in(client, staff)
    url = reverse("backoffice:wallet_transaction_changelist")
    page = client.post(url, {"action": "reverse_transactions", "_selected_action": [str(tx.pk)]})
    assert page.status_code == 200 and "Motivazione" in page.content.decode()  # the reason form
    assert not Transaction.objects.filter(kind="reversal").exists()
    client.post(
        url,
        {
            "action": "reverse_transactions", "_selected_action": [str(tx.pk)], "reason": "deposito doppio",
            "idempotency_key": "rev-prova",  # the form's own key: a double submit asks once
        },
    )  # fmt: skip
    # four eyes: the request is open and nothing moved until another staff member approves it
    request = ReversalRequest.objects.get(original=tx)
    assert not Transaction.objects.filter(kind="reversal").exists()
    actions.reversal_approve(request_id=request.pk, actor=UserFactory(role=roles.STAFF))
    assert Transaction.objects.filter(kind="reversal", reverses=tx).count() == 1
    assert selectors.balance_get(user=funded)["cash"] == 0
    actions.deposit_create(user=funded, amount=1_000, idempotency_key="again")
    req = actions.withdrawal_request(user=funded, amount=500, idempotency_key="w2")
    wurl = reverse("backoffice:wallet_withdrawal_changelist")
    client.post(wurl, {"action": "reject", "_selected_action": [req["payment_id"]], "reason": "IBAN errato"})
    assert Payment.objects.get(pk=req["payment_id"]).status == Payment.Status.REJECTED
    assert selectors.balance_get(user=funded)["held"] == 0


@pytest.mark.django_db
def test_backoffice_reconciliation_run_now(client, funded, staff):
    sign_in(client, staff)
    response = client.post(reverse("backoffice:wallet_reconciliation_run"))
    assert response.status_code == 302
    assert ReconciliationRun.objects.get().ok
    assert client.get(reverse("backoffice:wallet_reconciliation_run")).status_code == 403
