"""Celery tasks of the wallet: they parse nothing and call one action each."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from wallet import actions


@shared_task(name="wallet.reconcile")  # type: ignore[untyped-decorator]  # celery has no types
def reconcile() -> dict[str, Any]:
    """Nightly: stored balance = sum of postings for every account; alert staff otherwise."""
    result = actions.ledger_reconcile()
    return {"ok": result["ok"], "run_id": result["run_id"], "problems": len(result["mismatches"])}


@shared_task(name="wallet.expire_holds")  # type: ignore[untyped-decorator]  # celery has no types
def expire_holds() -> int:
    """Release the pending holds whose expiry has passed."""
    return actions.holds_expire()


@shared_task(name="wallet.enforce_play_time")  # type: ignore[untyped-decorator]  # celery has no types
def enforce_play_time() -> int:
    """Every minute: seated players past a session-time limit leave their tables after the hand."""
    return len(actions.play_time_enforce())
