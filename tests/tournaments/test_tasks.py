"""The wiring: a paid registration or cancellation asks the regulator through a Celery task after commit."""

from __future__ import annotations

import pytest
from celery import Signature

from config.celery import app
from piattaforma import regulator as authorization
from tests.tournaments.conftest import FUNDS, money
from tests.tournaments.factories import enter, make_tournament
from tournaments import actions, errors, tasks
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def tasks_on(settings, monkeypatch):
    settings.TOURNAMENTS_SCHEDULE_TASKS = True
    settings.REGULATOR = {"delay": 0}
    monkeypatch.setitem(app.conf, "task_always_eager", True)


def test_registration_and_cancellation_are_authorised_by_the_task(
    tasks_on, staff, players, django_capture_on_commit_callbacks
):
    t = make_tournament(staff)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        reg = enter(t, players[0])
    # after the commit: one task sent (the regulator's authorisation), beside the metrics' counts
    sent = [c.__self__ for c in callbacks if isinstance(getattr(c, "__self__", None), Signature)]
    assert [s.task for s in sent] == ["tournaments.authorise"]
    reg.refresh_from_db()
    assert reg.state == Registration.State.AUTHORISED and reg.ticket.startswith("ADM")
    with django_capture_on_commit_callbacks(execute=True):
        actions.registration_cancel(tournament_id=t.pk, user=players[0])
    reg.refresh_from_db()
    assert reg.state == Registration.State.CANCELLED
    assert money(players[0]) == FUNDS


def test_nothing_is_scheduled_when_the_registration_is_refused(
    tasks_on, staff, players, django_capture_on_commit_callbacks
):
    t = make_tournament(staff, min_players=2, max_players=2)
    enter(t, players[0])
    enter(t, players[1])
    with django_capture_on_commit_callbacks(execute=False) as callbacks, pytest.raises(errors.TournamentFull):
        enter(t, players[2])
    assert callbacks == []


def test_configured_regulator_refuses(settings, staff, players):
    settings.REGULATOR = {"delay": 0, "mode": "refuse"}
    t = make_tournament(staff)
    reg = enter(t, players[0])
    assert tasks.authorise(registration_id=reg.pk) == Registration.State.REFUSED
    assert money(players[0]) == FUNDS


def test_simulator_is_idempotent_and_checks_its_mode():
    sim = authorization.SimulatedRegulator(delay=0)
    first = sim.authorise_entry(request_id="entry:1", tournament_code="T", player_ref="1", amount=100)
    again = sim.authorise_entry(request_id="entry:1", tournament_code="T", player_ref="1", amount=100)
    other = sim.authorise_entry(request_id="entry:2", tournament_code="T", player_ref="1", amount=100)
    assert first == again and first.ticket != other.ticket and len(first.ticket) == 19
    assert (
        not authorization.SimulatedRegulator(delay=0, refuse_players=("7",))
        .authorise_entry(request_id="entry:3", tournament_code="T", player_ref="7", amount=100)
        .authorised
    )
    with pytest.raises(ValueError):
        authorization.SimulatedRegulator(mode="maybe")
