"""Rebuild the collusion and dumping aggregates from the hand history (``manage.py signals_backfill``).

Every ended, not cancelled hand is summarised exactly as ``lobby.settlement.settle_hand`` reports
it to ``hooks.hand_settled`` and folded in, oldest first. Hands already seen are skipped, so the
command can run beside live tables and be resumed; ``--reset`` forgets the aggregates first. An
offline tool: the only place moderation reads lobby rows. A giochi-a-partite hand is valued with
its table's current stakes (RULINGS C1), as the lobby would settle it now.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import registry
from lobby import settlement
from lobby.models import Hand
from moderation import dumping
from moderation.errors import ModerationError
from moderation.models import SignalHand

CHUNK = 2000


def hand_summary(hand: Hand) -> dict[str, Any]:
    """The hook's summary of a stored hand, as its settlement reported it."""
    outcome = hand.outcome or {}
    if registry.get(hand.game).family == "partite":
        deltas, _ = settlement.partite_deltas(hand.table, hand, outcome)
    else:
        deltas, _, _ = settlement.puntate_deltas(hand, outcome)
    return settlement.hand_summary(table=hand.table, hand=hand, outcome=outcome, deltas=deltas)


class Command(BaseCommand):
    help = "Ricostruisce i segnali di collusione e dumping dallo storico delle mani."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reset", action="store_true", help="azzera i segnali prima di ricostruirli")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reset"]:
            dumping.signals_reset()
        seen = set(SignalHand.objects.values_list("hand_id", flat=True))
        hands = (
            Hand.objects.filter(outcome__isnull=False, cancelled=False, ended_at__isnull=False)
            .select_related("table")
            .order_by("ended_at", "pk")
        )
        added = skipped = failed = 0
        for hand in hands.iterator(chunk_size=CHUNK):
            if hand.pk in seen:
                skipped += 1
                continue
            try:
                recorded = dumping.hand_settled_record(summary=hand_summary(hand))
            except (ModerationError, settlement.SettlementError, KeyError, TypeError, ValueError) as exc:
                failed += 1
                self.stderr.write(f"mano {hand.pk}: {exc}")
                continue
            added += recorded
            skipped += not recorded
        self.stdout.write(
            f"mani aggiunte: {added}, già presenti o di allenamento: {skipped}, non valide: {failed}"
        )
