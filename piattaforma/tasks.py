"""Platform-level Celery tasks."""

from celery import shared_task


@shared_task(name="piattaforma.ping")
def ping(value: str = "pong") -> str:
    """Answer with the value sent: a broker and worker round trip."""
    return value


@shared_task(name="piattaforma.site_tick")
def site_tick() -> dict[str, object]:
    """Beat, every minute: notices that start, the closing's warnings and effects (piattaforma.siteops)."""
    from piattaforma import siteops

    return siteops.site_tick()


@shared_task(name="piattaforma.lift_self_exclusions")
def lift_self_exclusions() -> int:
    """Every minute (beat): reactivate the players whose self-exclusion ended."""
    from piattaforma.actions import self_exclusions_lift

    return len(self_exclusions_lift())


@shared_task(name="piattaforma.audit_verify")
def audit_verify() -> dict[str, object]:
    """Nightly (beat): verify the audit log's hash chain; on a break, record it and alert staff."""
    from piattaforma.audit import audit_chain_check

    return audit_chain_check().as_dict()


@shared_task(name="piattaforma.audit_seal")
def audit_seal() -> int:
    """Every minute (beat): chain audit rows whose seal after commit did not happen (a process died)."""
    from piattaforma.audit import audit_seal as seal

    return seal()


@shared_task(name="piattaforma.sample_activity")
def sample_activity() -> int:
    """Every five minutes (beat): record the open tables and seated players, for the reports."""
    from piattaforma.actions import activity_sample_record

    return activity_sample_record().seated
