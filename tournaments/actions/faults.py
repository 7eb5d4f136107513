"""Staff give one player's entry back for a fault of the platform (rules 004, "Rimborsi per
disconnessioni": "Il rimborso della quota d'iscrizione è previsto solo in caso di interruzione di
sessioni di gioco imputabili alla Piattaforma").

The refund answers for one recorded connection of the player at one of the tournament's tables
(``lobby.selectors.connection_records``) that the network or the platform ended: one the player
closed himself, or the server closed (his session, an exclusion), is refused. The entry comes back
from the house's adjustments account, as it was paid (cash to cash, bonus to bonus); the prize pool
is the other players' and is not touched. Each part is a staff adjustment: posted at once up to
the four-eyes threshold, else waiting for a second staff member's approval (``wallet``). Once per
registration; audited.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from lobby import selectors as lobby_selectors
from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments import errors
from tournaments.actions.common import check_perm
from tournaments.models import Registration, Tournament, TournamentMatch
from wallet import actions as wallet
from wallet import selectors as wallet_selectors


def _tables(t: Tournament) -> list[int]:
    ids = TournamentMatch.objects.filter(tournament=t, table_id__isnull=False).values_list(
        "table_id", flat=True
    )
    return sorted({int(i) for i in ids})


def fault_refund_preview(*, registration_id: int) -> dict[str, Any]:
    """What a fault refund of this registration would give back, and the evidence: the player's
    connections at the tournament's tables. ``refusal``: why it cannot be done, or ""."""
    reg = Registration.objects.select_related("tournament", "user").get(pk=registration_id)
    t = reg.tournament
    parts = (
        wallet_selectors.entry_paid_from(entry_transaction_id=reg.entry_transaction)
        if reg.entry_transaction
        else {}
    )
    records = lobby_selectors.connection_records(user_id=reg.user_id, table_ids=_tables(t))
    refusal = ""
    if reg.fault_refund:
        refusal = "Iscrizione già rimborsata per guasto."
    elif not parts:
        refusal = "Iscrizione senza quota pagata: nulla da rimborsare."
    elif reg.refund_transaction:
        refusal = "Iscrizione già rimborsata."
    elif t.state not in (Tournament.State.RUNNING, Tournament.State.FINISHED):
        refusal = "Il torneo non è in corso né concluso: l'annullamento rimborsa tutti gli iscritti."
    elif not any(r["platform_side"] for r in records):
        refusal = (
            "Nessuna connessione del giocatore interrotta dalla rete o dalla piattaforma in questo torneo."
        )
    return {
        "registration": reg,
        "tournament": t,
        "parts": {kind: amount for kind, (_account, amount) in parts.items()},
        "total": sum(amount for _account, amount in parts.values()),
        "records": records,
        "refusal": refusal,
        "threshold": wallet.adjustment_threshold(),
    }


@transaction.atomic
def registration_fault_refund(
    *, registration_id: int, record_id: int, reason: str, actor: User
) -> dict[str, Any]:
    """Give one player's entry back for the platform's fault shown by connection ``record_id``.

    Returns ``{"cash": {"status": "posted"|"pending", …}, "bonus": …}`` per part paid.
    """
    check_perm(actor, "tournaments.cancel_tournament")
    if len(reason.strip()) < 5:
        raise errors.FaultRefundRefused("Indica la motivazione del rimborso.")
    reg = Registration.objects.select_for_update().filter(pk=registration_id).first()
    if reg is None:
        raise errors.FaultRefundRefused("Iscrizione inesistente.")
    preview = fault_refund_preview(registration_id=reg.pk)
    if preview["refusal"]:
        raise errors.FaultRefundRefused(preview["refusal"])
    record = next((r for r in preview["records"] if r["id"] == record_id), None)
    if record is None:
        raise errors.FaultRefundRefused("La connessione indicata non è del giocatore in questo torneo.")
    if not record["platform_side"]:
        raise errors.FaultRefundRefused(
            "La connessione indicata è stata chiusa dal giocatore o dal server: non dà diritto a rimborso."
        )
    t = preview["tournament"]
    memo = f"Rimborso iscrizione per guasto – {t.code} {t.name}: {reason.strip()}"
    parts = wallet_selectors.entry_paid_from(entry_transaction_id=reg.entry_transaction)
    results = {
        kind: wallet.adjustment_request(
            account_id=account_id,
            amount=amount,
            reason=memo,
            actor=actor,
            idempotency_key=f"fault-refund:{reg.pk}:{kind}",
        )
        for kind, (account_id, amount) in sorted(parts.items())
    }
    reg.fault_refund = {
        "record": record_id,
        "reason": reason.strip(),
        "by": actor.pk,
        "at": timezone.now().isoformat(),
        "parts": results,
    }
    reg.save(update_fields=["fault_refund", "updated_at"])
    audit_record(
        actor=actor,
        action="tournament.fault_refund",
        target=reg,
        reason=reason.strip(),
        data={"tournament": t.pk, "record": record_id, "parts": results},
    )
    return results
