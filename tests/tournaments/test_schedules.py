"""Recurring schedules: a template tournament on some weekdays at a time, created ahead, opened on time."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.factories import make_tournament
from tournaments import actions, errors
from tournaments.models import Tournament, TournamentSchedule

pytestmark = pytest.mark.django_db


def rome(y, m, d, hh, mm=0):
    return datetime(y, m, d, hh, mm, tzinfo=ZoneInfo("Europe/Rome"))


def test_schedule_creates_announced_tournaments_ahead_and_only_once(staff):
    template = make_tournament(staff, name="Scopa della sera")
    schedule = actions.schedule_create(
        actor=staff, template_id=template.pk, weekdays="310", start_time=time(21, 0), opens_hours_before=6
    )
    assert schedule.weekdays == "013"
    monday_noon = rome(2026, 11, 23, 12)  # a Monday
    # Monday and Tuesday 21:00; Thursday's is beyond the two days ahead
    assert actions.schedules_run(now=monday_noon) == 2
    assert actions.schedules_run(now=monday_noon) == 0
    made = list(Tournament.objects.filter(schedule=schedule).order_by("starts_at"))
    assert [t.starts_at for t in made] == [rome(2026, 11, 23, 21), rome(2026, 11, 24, 21)]
    assert all(t.state == "announced" and t.name == template.name and t.pool_quota == 900 for t in made)
    # the sweeper opens Monday's at 15:00 (6 hours before) and closes it at 20:58
    assert actions.tournaments_sweep(now=rome(2026, 11, 23, 15))["opened"] == 1
    made[0].refresh_from_db()
    assert made[0].state == "registration"
    actions.tournaments_sweep(now=rome(2026, 11, 23, 20, 58))
    made[0].refresh_from_db()
    assert made[0].state == "cancelled"  # nobody registered: under the minimum


def test_inactive_schedules_and_past_slots_create_nothing(staff):
    template = make_tournament(staff)
    schedule = actions.schedule_create(
        actor=staff, template_id=template.pk, weekdays="0", start_time=time(9, 0)
    )
    assert (
        actions.schedules_run(now=rome(2026, 11, 23, 12)) == 0
    )  # Monday 9:00 has passed; next Monday too far
    TournamentSchedule.objects.filter(pk=schedule.pk).update(active=False)
    assert actions.schedules_run(now=rome(2026, 11, 29, 12)) == 0


@pytest.mark.parametrize("weekdays", ["", "7", "lun"])
def test_schedule_refuses_bad_input(staff, weekdays):
    template = make_tournament(staff)
    with pytest.raises(errors.InvalidTournament):
        actions.schedule_create(
            actor=staff, template_id=template.pk, weekdays=weekdays, start_time=time(9, 0)
        )
    assert not TournamentSchedule.objects.exists()


def test_schedule_needs_a_scheduled_template_and_staff(staff, players):
    sitgo = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=4)
    with pytest.raises(errors.InvalidTournament):
        actions.schedule_create(actor=staff, template_id=sitgo.pk, weekdays="0", start_time=time(9, 0))
    template = make_tournament(staff)
    with pytest.raises(errors.NotPermitted):
        actions.schedule_create(
            actor=players[0], template_id=template.pk, weekdays="0", start_time=time(9, 0)
        )
    assert not TournamentSchedule.objects.exists()


def test_staff_create_a_schedule_in_the_back_office(client, staff):
    template = make_tournament(staff)
    sign_in(client, staff)
    response = client.post(
        reverse("backoffice:tournaments_tournamentschedule_add"),
        {
            "template": template.pk,
            "weekdays": "56",
            "start_time": "21:30",
            "opens_hours_before": "12",
            "active": "on",
        },
    )
    assert response.status_code == 302
    schedule = TournamentSchedule.objects.get()
    assert (schedule.weekdays, schedule.start_time, schedule.created_by) == ("56", time(21, 30), staff)
    sign_in(client, UserFactory())
    assert client.get(reverse("backoffice:tournaments_tournamentschedule_changelist")).status_code == 302
    assert timedelta(hours=schedule.opens_hours_before) == timedelta(hours=12)
