"""Reconciliation: stored balances checked against their postings; staff alerted on a difference."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from piattaforma.actions import audit_record
from piattaforma.alerts import alert_staff
from wallet import selectors
from wallet.models import ReconciliationRun


def ledger_reconcile() -> dict[str, Any]:
    """Check stored balances against postings; record the run; on a difference alert staff.

    The alert is an AuditLog line ("wallet.reconciliation_failed") written with the run, and an
    e-mail to every active staff user (and to ADMINS) sent after commit.
    """
    report = selectors.reconciliation_report()
    problems = report["mismatches"] + [{"unbalanced_transaction": tx} for tx in report["unbalanced"]]
    with transaction.atomic():
        run = ReconciliationRun.objects.create(
            ok=report["ok"],
            accounts_checked=report["accounts_checked"],
            mismatches=problems,
            realm_totals=report["realm_totals"],
        )
        if not report["ok"]:
            audit_record(
                actor=None,
                action="wallet.reconciliation_failed",
                target=run,
                data={"problems": problems[:50], "realm_totals": report["realm_totals"]},
            )
            transaction.on_commit(lambda: _alert_staff(run.pk, problems, report["realm_totals"]))
    return {**report, "run_id": run.pk}


def _alert_staff(run_id: int, problems: list[dict[str, Any]], totals: dict[str, int]) -> None:
    subject = f"[Conto di gioco] Riconciliazione {run_id}: {len(problems)} differenze"
    lines = [f"Totali per ambito: {totals}", "", *(str(p) for p in problems[:100])]
    alert_staff(subject=subject, body="\n".join(lines))
