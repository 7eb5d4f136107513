"""Tournaments as staff create them (``tournaments.actions``), and entries to them.

``TournamentFactory(actor=staff, **values)`` creates through ``actions.tournament_create`` and
``RegistrationFactory(tournament=t, user=u)`` through ``actions.registration_create``, so a test's
tournament passes the same checks a staff member's does. ``make_tournament`` and ``enter`` are
their short forms.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factory
from django.utils import timezone

from tournaments import actions
from tournaments.models import Registration, Tournament


class TournamentFactory(factory.Factory):
    """A scheduled Scopa Danese € 10,00 (9,00 + 1,00), 4–16 players, open, in an hour.

    ``training=True``: free ("I tornei di allenamento sono gratuiti", rules 004); a sit&go has no
    start time.
    """

    class Meta:
        model = Tournament

    actor = None  # the staff member who creates it (required)
    name = "Torneo di prova"
    game = "scopa"
    format = Tournament.Format.DANESE
    kind = Tournament.Kind.SCHEDULED
    training = False
    pool_quota = factory.LazyAttribute(lambda t: 0 if t.training else 900)
    fee = factory.LazyAttribute(lambda t: 0 if t.training else 100)
    min_players = 4
    max_players = 16
    registration_opens_at = factory.LazyFunction(lambda: timezone.now() - timedelta(minutes=1))
    starts_at = factory.LazyFunction(lambda: timezone.now() + timedelta(hours=1))

    @classmethod
    def _create(cls, model_class, *args: Any, actor=None, **values: Any) -> Tournament:
        if actor is None:
            raise TypeError("TournamentFactory needs actor=<the staff member who creates it>")
        if values["kind"] == Tournament.Kind.SITGO:
            values["starts_at"] = None
        if not values["training"]:
            values.pop("training")
        return actions.tournament_create(actor=actor, values=values)

    @classmethod
    def _build(cls, model_class, *args: Any, **values: Any) -> Tournament:
        raise TypeError("a tournament exists only through actions.tournament_create: use create()")


class RegistrationFactory(factory.Factory):
    """A player's entry through ``actions.registration_create`` (his buy-in held on his conto)."""

    class Meta:
        model = Registration

    tournament = None
    user = None
    idempotency_key = factory.LazyAttribute(lambda r: f"k:{r.tournament.pk}:{r.user.pk}")

    @classmethod
    def _create(cls, model_class, *args: Any, tournament, user, idempotency_key) -> Registration:
        return actions.registration_create(
            tournament_id=tournament.pk, user=user, idempotency_key=idempotency_key
        )


def make_tournament(actor, **overrides: Any) -> Tournament:
    return TournamentFactory(actor=actor, **overrides)


def enter(tournament: Tournament, user, key: str | None = None) -> Registration:
    if key is None:
        return RegistrationFactory(tournament=tournament, user=user)
    return RegistrationFactory(tournament=tournament, user=user, idempotency_key=key)
