"""Money at the end of a hand or match: engine outcome -> one balanced ledger transaction.

Giochi a puntate: each seat's table credit changes by its final chips minus its starting chips;
the rake goes to the house. Giochi a partite: the loser line pays the C1 amount (RULINGS C1) to the
winner line, less rake. Chips a hand carries to the next (piatto di parol, bestia) stay in the
table's pot account between hands.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.engine import Engine
from games.partite import ABBANDONA, cash_settlement, round_half_down
from lobby.models import Hand, Table
from piattaforma import hooks
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
    if len(outcome["cash"].get("losers") or []) > 1:
        return _several_losers(table, hand, outcome)
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


def _several_losers(table: Table, hand: Hand, outcome: dict[str, Any]) -> tuple[dict[str, int], int]:
    """Scala 40 with three or four linee: each loser pays the winner his own C1 amount.

    The rules give C1 for one loser. With several, each loser's differenza punti is his own share
    of the winner's MP (his points − the winner's, / 10 rounded half down), and each amount is
    capped by the perdita massima, which the rules define per player; the rake is taken on each
    amount as C1 says (amount × 2 × rake %). Decided here where the rules are silent.
    """
    cash = outcome["cash"]
    divisor = int(hand.config["cash_divisor"])
    by_seat = {s["seat"]: s for s in hand.seats}
    lines = outcome["lines"]
    deltas = {s["session_ref"]: 0 for s in hand.seats}
    winner_ref = by_seat[lines[cash["winner"]][0]]["session_ref"]
    rake_total = 0
    for key, share in cash["per_loser"].items():
        points = round_half_down(int(share["differenza_effettiva"]), divisor)
        amount = min(table.posta_partita + table.posta_unitaria * points, table.perdita_massima)
        rake = amount * 2 * table.rake_bp // 10_000
        deltas[by_seat[lines[int(key)][0]]["session_ref"]] -= amount
        deltas[winner_ref] += amount - rake
        rake_total += rake
    return deltas, rake_total


def settle_hand(*, table: Table, hand: Hand, engine: Engine, outcome: dict[str, Any]) -> None:
    """Move the money of an ended hand or match through the wallet (idempotent per hand)."""
    pot = 0
    if engine.family == "partite":
        deltas, rake = partite_deltas(table, hand, outcome)
    else:
        deltas, rake, pot = puntate_deltas(hand, outcome)
        if table.tournament_id is not None:
            return  # a level tournament's chips (checked to balance above): no money, no ledger
    hooks.hand_settled(hand_summary(table=table, hand=hand, outcome=outcome, deltas=deltas))
    if not any(deltas.values()) and not rake and not pot:
        return
    wallet_actions.table_hand_settle(
        deltas=deltas,
        rake=rake,
        pot=pot,
        pot_ref=f"table-{table.pk}",
        idempotency_key=None,  # once per hand by the hand row's end (``hands.finish_hand``)
        realm=table.realm,
        hand_ref=f"{table.pk}:{hand.number}",
    )


def hand_summary(
    *, table: Table, hand: Hand, outcome: dict[str, Any], deltas: dict[str, int]
) -> dict[str, Any]:
    """What ``hooks.hand_settled`` reports of an ended hand: each seat's money and how it ended for him."""
    forfeit = outcome.get("forfeit") or {}
    forfeited = set(outcome["lines"][forfeit["line"]]) if forfeit and "lines" in outcome else set()
    listed = outcome.get("sitout")  # the seats a game reports sitout at the hand's end (poker, bestia)
    went_sitout = {int(n) for n in listed} if isinstance(listed, list) else set()
    seats = []
    for s in hand.seats:
        if s["seat"] in forfeited:
            end = "abandon" if forfeit.get("kind") == ABBANDONA else "timeout"
        else:
            end = "sitout" if s.get("sitout") or s["seat"] in went_sitout else "normal"
        seats.append({"user_id": s["user_id"], "delta": deltas.get(s["session_ref"], 0), "end": end})
    return {
        "table_id": table.pk,
        "game": hand.game,
        "hand_id": hand.pk,
        "ended_at": hand.ended_at or timezone.now(),
        "realm": table.realm,
        "seats": seats,
    }


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
