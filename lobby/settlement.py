"""Money at the end of a hand or match: engine outcome -> one balanced ledger transaction.

Giochi a puntate: each seat's table credit changes by its final chips minus its starting chips;
the rake goes to the house. Giochi a partite: the loser line pays the C1 amount (RULINGS C1) to the
winner line, less rake. Chips a hand carries to the next (piatto di parol, bestia) stay in the
table's pot account between hands.
"""

from __future__ import annotations

from typing import Any

from games.engine import Engine
from games.partite import cash_settlement
from lobby.models import Hand, Table
from wallet import actions as wallet_actions


class SettlementError(RuntimeError):
    """An engine outcome that does not balance: a bug, never a player's fault."""


def puntate_deltas(hand: Hand, outcome: dict[str, Any]) -> tuple[dict[str, int], int, int]:
    """Return (table-credit deltas by session, rake, chips moved into the table pot)."""
    final = outcome["chips"]
    deltas = {s["session_ref"]: int(final[str(s["seat"])]) - int(s["chips"]) for s in hand.seats}
    rake = int(outcome.get("rake", 0))
    pot = int(outcome.get("carried_out", 0)) - int(outcome.get("carried_in", 0))
    if sum(deltas.values()) + rake + pot != 0:
        raise SettlementError(f"hand {hand.pk} does not balance: {deltas} rake {rake} pot {pot}")
    return deltas, rake, pot


def partite_deltas(table: Table, hand: Hand, outcome: dict[str, Any]) -> tuple[dict[str, int], int]:
    """Return (table-credit deltas by session, rake) of a match at a cash table (RULINGS C1)."""
    money = cash_settlement(
        outcome,
        posta_partita=table.posta_partita,
        posta_unitaria=table.posta_unitaria,
        perdita_massima=table.perdita_massima,
        rake_bp=table.rake_bp,
    )
    deltas = {s["session_ref"]: 0 for s in hand.seats}
    if money["winner"] is None or money["amount"] == 0:
        return deltas, 0
    by_seat = {s["seat"]: s for s in hand.seats}
    lines = outcome["lines"]
    rake = 0
    for seat in lines[money["loser"]]:
        deltas[by_seat[seat]["session_ref"]] -= money["amount"]
    for seat in lines[money["winner"]]:
        deltas[by_seat[seat]["session_ref"]] += money["won"]
        rake += money["rake"]
    return deltas, rake


def settle_hand(*, table: Table, hand: Hand, engine: Engine, outcome: dict[str, Any]) -> None:
    """Move the money of an ended hand or match through the wallet (idempotent per hand)."""
    pot = 0
    if engine.family == "partite":
        deltas, rake = partite_deltas(table, hand, outcome)
    else:
        deltas, rake, pot = puntate_deltas(hand, outcome)
    if not any(deltas.values()) and not rake and not pot:
        return
    wallet_actions.table_hand_settle(
        deltas=deltas,
        rake=rake,
        pot=pot,
        pot_ref=f"table-{table.pk}",
        idempotency_key=f"hand:{hand.pk}",
        realm=table.realm,
        hand_ref=f"{table.pk}:{hand.number}",
    )


def release_to_seat(*, table: Table, session_ref: str, amount: int) -> None:
    """Move money the table held for a seat (its banco) from the table pot back to its credit."""
    wallet_actions.table_hand_settle(
        deltas={session_ref: amount},
        rake=0,
        pot=-amount,
        pot_ref=f"table-{table.pk}",
        idempotency_key=f"release:{session_ref}",
        realm=table.realm,
        hand_ref=f"{table.pk}:release",
    )
