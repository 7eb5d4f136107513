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

A turn tournament's match ended while the platform had cut one of its players (a connection at its
table the network or the platform ended during the match) is played again on staff's order, as
long as its turn is still open (its result not yet in the standings): the result is voided, the
old table closed and the same lines seated at a new table for a fresh match
(``running.match_reseat``); the voided result is kept in ``TournamentMatch.replays``. Audited.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from lobby import door
from lobby import selectors as lobby_selectors
from lobby.errors import TableError
from piattaforma import hooks
from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments import errors
from tournaments.actions.common import check_perm, tournament_lock
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


# --- one match of a turn played again --------------------------------------------------------------


def _match_users(t: Tournament, m: TournamentMatch) -> list[int]:
    lines = (t.progress or {}).get("lines", {})
    return [int(uid) for line in (m.line_a, m.line_b) if line for uid in lines.get(line, [])]


def match_replay_preview(*, match_id: int) -> dict[str, Any]:
    """What replaying this turn match would void, and the evidence: its players' connections at its
    table, those the network or the platform cut during the match marked (``during``).
    ``refusal``: why it cannot be done, or ""."""
    m = TournamentMatch.objects.select_related("tournament").get(pk=match_id)
    t = m.tournament
    users = _match_users(t, m)
    names = dict(User.objects.filter(pk__in=users).values_list("pk", "nickname"))
    end = m.ended_at or timezone.now()
    records = []
    for uid in users if m.table_id else []:
        for r in lobby_selectors.connection_records(user_id=uid, table_ids=[int(m.table_id)]):
            closed = r["closed_at"]
            r["during"] = closed is not None and m.started_at <= closed <= end
            r["player"] = names.get(uid, str(uid))
            records.append(r)
    records.sort(key=lambda r: (r["opened_at"], r["id"]))
    refusal = ""
    if t.is_levels or t.is_slot:
        refusal = "Solo le partite dei tornei a turni si rigiocano: questo torneo non ha turni."
    elif not m.line_b:
        refusal = "Passaggio del turno senza avversario: non c'è una partita da rigiocare."
    elif t.state != Tournament.State.RUNNING or m.turn != t.turn:
        refusal = (
            "Il turno di questa partita è chiuso e il suo risultato è già nella classifica: non si "
            "rigioca più. Per un guasto della piattaforma resta il rimborso dell'iscrizione del "
            "giocatore (Verifica e rimborsa, tra gli iscritti del torneo)."
        )
    elif m.ended_at is None:
        refusal = "La partita è in corso: si rigioca quando è finita, prima che il turno si chiuda."
    elif (m.result or {}).get("void"):
        refusal = "Un giocatore ha lasciato il torneo in questa partita: il risultato resta."
    elif not any(r["platform_side"] and r["during"] for r in records):
        refusal = (
            "Nessuna connessione dei giocatori della partita interrotta dalla rete o dalla "
            "piattaforma durante la partita."
        )
    return {
        "match": m,
        "tournament": t,
        "players": [names.get(uid, str(uid)) for uid in users],
        "records": records,
        "refusal": refusal,
    }


@transaction.atomic
def match_replay(*, match_id: int, record_id: int, reason: str, actor: User) -> dict[str, Any]:
    """Void an ended match of the turn in progress and seat its players again for a fresh match,
    for the platform's fault shown by connection ``record_id``. Returns ``{"table_id": new}``.

    Locks the tournament, then the old table's runtime (closing it), then the match: the order of
    ``running.match_record`` (table, then match), so a match ending meanwhile cannot deadlock it.
    """
    from tournaments import running

    check_perm(actor, "tournaments.cancel_tournament")
    if len(reason.strip()) < 5:
        raise errors.MatchReplayRefused("Indica la motivazione (almeno 5 caratteri).")
    found = TournamentMatch.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise errors.MatchReplayRefused("Partita inesistente.")
    t = tournament_lock(found)
    preview = match_replay_preview(match_id=match_id)
    if preview["refusal"]:
        raise errors.MatchReplayRefused(preview["refusal"])
    record = next((r for r in preview["records"] if r["id"] == record_id), None)
    if record is None:
        raise errors.MatchReplayRefused("La connessione indicata non è di un giocatore di questa partita.")
    if not record["platform_side"]:
        raise errors.MatchReplayRefused(
            "La connessione indicata è stata chiusa dal giocatore o dal server: la partita non si rigioca."
        )
    if not record["during"]:
        raise errors.MatchReplayRefused("La connessione indicata non è stata interrotta durante la partita.")
    old_table = int(preview["match"].table_id)
    door.tournament_tables_close(table_ids=[old_table])
    m = TournamentMatch.objects.select_for_update().get(pk=match_id)
    if m.ended_at is None or m.table_id != old_table:
        raise errors.MatchReplayRefused("La partita è cambiata nel frattempo: ricarica la pagina.")
    now = timezone.now()
    voided = {
        "table": old_table,
        "result": m.result,
        "started_at": m.started_at.isoformat(),
        "ended_at": m.ended_at.isoformat(),
        "record": record_id,
        "reason": reason.strip(),
        "by": actor.pk,
        "at": now.isoformat(),
    }
    try:
        running.match_reseat(t, m, now)
    except TableError as exc:  # the site closed: no table opens now
        raise errors.MatchReplayRefused(exc.message) from None
    m.replays = [*m.replays, voided]
    m.save(update_fields=["table_id", "result", "started_at", "ended_at", "replays"])
    # what the voided end recorded of its players (offences, a completed turn) is taken back
    users, tournament_id, turn = _match_users(t, m), t.pk, m.turn
    transaction.on_commit(
        lambda: hooks.tournament_match_voided(user_ids=users, tournament_id=tournament_id, turn=turn),
        robust=True,
    )
    audit_record(
        actor=actor,
        action="tournament.match_replay",
        target=m,
        reason=reason.strip(),
        data={"tournament": t.pk, "record": record_id, "old_table": old_table, "table": m.table_id},
    )
    return {"table_id": m.table_id}
