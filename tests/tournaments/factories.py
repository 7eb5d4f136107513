"""Tournaments as staff create them (``tournaments.actions``), and entries to them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tournaments import actions
from tournaments.models import Registration, Tournament


def make_tournament(actor, **overrides: Any) -> Tournament:
    """A scheduled Scopa Danese € 10,00 (9,00 + 1,00), 4–16 players, open, in an hour (training: free)."""
    now = timezone.now()
    values: dict[str, Any] = {
        "name": "Torneo di prova",
        "game": "scopa",
        "format": Tournament.Format.DANESE,
        "kind": Tournament.Kind.SCHEDULED,
        "pool_quota": 900,
        "fee": 100,
        "min_players": 4,
        "max_players": 16,
        "registration_opens_at": now - timedelta(minutes=1),
        "starts_at": now + timedelta(hours=1),
    }
    if overrides.get("training"):  # "I tornei di allenamento sono gratuiti" (rules 004)
        values.update(pool_quota=0, fee=0)
    values.update(overrides)
    if values["kind"] == Tournament.Kind.SITGO:
        values["starts_at"] = None
    return actions.tournament_create(actor=actor, values=values)


def enter(tournament: Tournament, user, key: str | None = None) -> Registration:
    return actions.registration_create(
        tournament_id=tournament.pk, user=user, idempotency_key=key or f"k:{tournament.pk}:{user.pk}"
    )
