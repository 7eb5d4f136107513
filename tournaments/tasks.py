"""Celery tasks of the tournaments: authorisations, turns, prizes and the beat sweeper."""

from celery import shared_task
from django.conf import settings

from tournaments import actions, rankings, running


@shared_task(name="tournaments.authorise", ignore_result=True)
def authorise(*, registration_id: int) -> str:
    """Ask the regulator about one registration or cancellation and apply the answer."""
    return actions.registration_authorise(registration_id=registration_id)


@shared_task(name="tournaments.adm_code", ignore_result=True)
def adm_code(*, tournament_id: int) -> str:
    """Ask the regulator for a new money tournament's code."""
    return actions.tournament_adm_code_obtain(tournament_id=tournament_id)


@shared_task(name="tournaments.start", ignore_result=True)
def start(*, tournament_id: int) -> bool:
    """Start a closed tournament that is due (a full sit&go at once)."""
    return running.tournament_start(tournament_id=tournament_id)


@shared_task(name="tournaments.advance", ignore_result=True)
def advance(*, tournament_id: int) -> bool:
    """A match ended: when the whole turn has, start the next one or end the tournament."""
    return running.tournament_advance(tournament_id=tournament_id)


@shared_task(name="tournaments.pay", ignore_result=True)
def pay(*, tournament_id: int) -> bool:
    """Pay a finished tournament's prizes."""
    return running.tournament_pay(tournament_id=tournament_id) is not None


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Open and close registrations that are due, ask the regulator again where no answer came;
    start, advance and pay the tournaments whose task was lost."""
    bots = 0
    if getattr(settings, "TOURNAMENTS_DEMO_BOTS", False):
        from tournaments.demo import demo_bots_sweep

        bots = demo_bots_sweep()
    return {**actions.tournaments_sweep(), **running.running_sweep(), "demo_bots": bots}


@shared_task(name="tournaments.skill_levels", ignore_result=True)
def skill_levels() -> int:
    """Every night: each player's rating and skill level in every game ("Rating e livelli di abilità")."""
    return rankings.skill_levels_update()
