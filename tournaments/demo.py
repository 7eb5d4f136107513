"""The demo tournaments of ``make run`` (manage.py seed_demo): scheduled and sit&go, several games."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from piattaforma.models import User
from tournaments import actions
from tournaments.authorization import SimulatedRegulator
from tournaments.models import Tournament

SCHEDULED = "scheduled"
SITGO = "sitgo"
# name, kind, hours from now (scheduled), settings
DEMO_TOURNAMENTS: tuple[tuple[str, str, int, dict[str, Any]], ...] = (
    ("Scopa della sera", SCHEDULED, 3, {"game": "scopa", "pool_quota": 450, "fee": 50,
     "guaranteed": 10_000, "max_players": 64, "smazzate": 3, "turns": 4}),
    ("Burraco KO del giovedì", SCHEDULED, 26, {"game": "burraco", "format": "ko", "pool_quota": 900,
     "fee": 100, "max_players": 32, "points_to_win": 2005, "tempo_partita_min": 25}),
    ("Briscola freeroll", SCHEDULED, 5, {"game": "briscola", "guaranteed": 2_000, "max_players": 32}),
    ("Tresette a coppie casuali", SCHEDULED, 8, {"game": "tresette", "format": "danko", "ko_qualifiers": 8,
     "lines": "random_pairs", "table": "4", "pool_quota": 180, "fee": 20, "max_players": 64}),
    ("Asso piglia tutto - classifica di novembre", SCHEDULED, 30, {"game": "asso", "format": "danel",
     "pool_quota": 270, "fee": 30, "max_players": 48, "special_leaderboard": "Classifica di novembre"}),
    ("Scopa heads-up", SITGO, 0, {"game": "scopa", "format": "ko", "pool_quota": 90, "fee": 10,
     "max_players": 2, "repeat": True, "smazzate": 3}),
    ("Cirulla sit&go 8", SITGO, 0, {"game": "cirulla", "pool_quota": 180, "fee": 20, "max_players": 8,
     "repeat": True, "turns": 3}),
    ("Burraco 4in2 sit&go 4", SITGO, 0, {"game": "burraco", "format": "ko", "table": "4in2",
     "pool_quota": 450, "fee": 50, "max_players": 4, "repeat": True}),
)  # fmt: skip
BOT_ENTRANTS = {"Cirulla sit&go 8": 3}  # demo bots already registered, so the list is not empty


def seed_tournaments(*, actor: User, bots: list[User]) -> int:
    """Create the demo tournaments not yet open (idempotent by name); return how many were created."""
    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    live = Tournament.objects.exclude(state__in=("finished", "cancelled"))
    created = 0
    for name, kind, hours, spec in DEMO_TOURNAMENTS:
        if live.filter(name=name).exists():
            continue
        values = {"name": name, "kind": kind, **spec}
        if kind == SCHEDULED:
            values["starts_at"] = now + timedelta(hours=hours)
            values["registration_opens_at"] = timezone.now() - timedelta(minutes=1)
        tournament = actions.tournament_create(actor=actor, values=values)
        created += 1
        for bot in bots[: BOT_ENTRANTS.get(name, 0)]:
            reg = actions.registration_create(
                tournament_id=tournament.pk, user=bot, idempotency_key=f"demo-{tournament.pk}-{bot.pk}"
            )
            actions.registration_authorise(registration_id=reg.pk, authorizer=SimulatedRegulator(delay=0))
    return created
