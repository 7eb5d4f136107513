"""Staff give one player's loss in one match at a cash table back for a fault of the platform
(rules 004, "Rimborsi per disconnessioni": the stake is refunded only when the platform interrupted
the game session).

A giochi a partite cash table plays one match a ``Hand`` row. The refund answers for one ended,
settled match and one player of it whose recorded connection at that table
(``lobby.selectors.connection_records``) the network or the platform ended while the match was
being played (closed between its start and its end). It gives back what the match's settlement
took from that player's table credit (the ledger's hand transaction, never more) to his conto di
gioco, from the house's adjustments account: a staff adjustment, posted at once up to the
four-eyes threshold, else waiting for a second staff member (``wallet``). The winners keep what
they won. A training table is refused: its chips are play money, and the rules refund stakes.
Once per match and player (``MatchFaultRefund``, unique); audited.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games import registry
from lobby import selectors
from lobby.errors import FaultRefundRefused, NotAllowed
from lobby.models import Hand, MatchFaultRefund, Table
from piattaforma.actions import audit_record
from piattaforma.models import User
from wallet import actions as wallet
from wallet import selectors as wallet_selectors

PERMISSION = "lobby.add_matchfaultrefund"


def _during(record: dict[str, Any], hand: Hand) -> bool:
    closed = record["closed_at"]
    return closed is not None and hand.ended_at is not None and hand.started_at <= closed <= hand.ended_at


def match_fault_refund_preview(*, hand_id: int, user_id: int) -> dict[str, Any]:
    """What a fault refund of this player's loss in this match would give back, and the evidence:
    his connections at the match's table, those cut by the platform during the match marked.
    ``refusal``: why it cannot be done, or ""."""
    hand = Hand.objects.select_related("table").get(pk=hand_id)
    table = hand.table
    seat = next((s for s in hand.seats if s.get("user_id") == user_id), None)
    loss = 0
    if seat is not None and table.realm == Table.Realm.REAL:
        delta = wallet_selectors.hand_deltas(hand_ref=f"{table.pk}:{hand.number}").get(seat["session_ref"], 0)
        loss = max(0, -delta)
    records = selectors.connection_records(user_id=user_id, table_ids=[table.pk])
    for r in records:
        r["during"] = _during(r, hand)
    done = MatchFaultRefund.objects.filter(hand=hand, user_id=user_id).first()
    refusal = ""
    if done is not None:
        refusal = "Partita già rimborsata per guasto a questo giocatore."
    elif table.tournament_id is not None or registry.get(hand.game).family != "partite":
        refusal = "Solo le partite dei giochi a partite ai tavoli cash si rimborsano da qui."
    elif table.realm != Table.Realm.REAL:
        refusal = "Tavolo di allenamento: si gioca con denaro virtuale, non c'è posta da rimborsare."
    elif hand.cancelled:
        refusal = "Partita annullata: le poste sono già state restituite."
    elif hand.ended_at is None:
        refusal = "La partita è in corso: si rimborsa solo una partita finita."
    elif seat is None:
        refusal = "Il giocatore non ha giocato questa partita."
    elif loss == 0:
        refusal = "Il giocatore non ha perso nulla in questa partita: nulla da rimborsare."
    elif not any(r["platform_side"] and r["during"] for r in records):
        refusal = (
            "Nessuna connessione del giocatore interrotta dalla rete o dalla piattaforma durante la partita."
        )
    return {
        "hand": hand,
        "table": table,
        "player": User.objects.get(pk=user_id),
        "loss": loss,
        "records": records,
        "done": done,
        "refusal": refusal,
        "threshold": wallet.adjustment_threshold(),
    }


@transaction.atomic
def match_fault_refund(
    *, hand_id: int, user_id: int, record_id: int, reason: str, actor: User
) -> dict[str, Any]:
    """Give one player's loss in one ended match back for the platform's fault shown by connection
    ``record_id``. Returns the adjustment's answer (``{"status": "posted"|"pending", …}``)."""
    if not actor.has_perm(PERMISSION) or not actor.has_perm("wallet.adjust_ledger"):
        raise NotAllowed("Non hai il permesso per questa operazione.")
    if len(reason.strip()) < 5:
        raise FaultRefundRefused("Indica la motivazione del rimborso (almeno 5 caratteri).")
    hand = Hand.objects.select_for_update().filter(pk=hand_id).first()
    if hand is None:
        raise FaultRefundRefused("Partita inesistente.")
    preview = match_fault_refund_preview(hand_id=hand.pk, user_id=user_id)
    if preview["refusal"]:
        raise FaultRefundRefused(preview["refusal"])
    record = next((r for r in preview["records"] if r["id"] == record_id), None)
    if record is None:
        raise FaultRefundRefused("La connessione indicata non è del giocatore a questo tavolo.")
    if not record["platform_side"]:
        raise FaultRefundRefused(
            "La connessione indicata è stata chiusa dal giocatore o dal server: non dà diritto a rimborso."
        )
    if not record["during"]:
        raise FaultRefundRefused("La connessione indicata non è stata interrotta durante la partita.")
    account_id = wallet_selectors.cash_account_id(user_id=user_id)
    if account_id is None:
        raise FaultRefundRefused("Il giocatore non ha un conto di gioco.")
    table, loss = preview["table"], preview["loss"]
    memo = f"Rimborso partita per guasto – {table.name} partita {hand.number}: {reason.strip()}"
    try:
        with transaction.atomic():
            row = MatchFaultRefund.objects.create(
                hand=hand,
                user_id=user_id,
                record_id=record_id,
                amount=loss,
                reason=reason.strip(),
                actor=actor,
            )
    except IntegrityError:  # a concurrent confirm won the race
        raise FaultRefundRefused("Partita già rimborsata per guasto a questo giocatore.") from None
    result = wallet.adjustment_request(
        account_id=account_id,
        amount=loss,
        reason=memo,
        actor=actor,
        idempotency_key=f"match-fault-refund:{hand.pk}:{user_id}",
    )
    row.result = result
    row.save(update_fields=["result"])
    audit_record(
        actor=actor,
        action="table.match_fault_refund",
        target=hand,
        reason=reason.strip(),
        data={"table": table.pk, "user": user_id, "record": record_id, "amount": loss, "adjustment": result},
    )
    return result
