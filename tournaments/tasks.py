"""Celery tasks of the tournaments: the regulator's authorisations and the beat sweeper."""

from celery import shared_task

from tournaments import actions


@shared_task(name="tournaments.authorise", ignore_result=True)
def authorise(*, registration_id: int) -> str:
    """Ask the regulator about one registration or cancellation and apply the answer."""
    return actions.registration_authorise(registration_id=registration_id)


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Open and close registrations that are due; ask the regulator again where no answer came."""
    return actions.tournaments_sweep()
