"""The demo's bots fill a sit&go a person waits in, so one person can play it through."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.conftest import authorise_all, enter, funded_player, make_tournament
from tournaments import demo
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_bots_fill_a_sitgo_after_a_person_waited_and_it_closes(staff):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=8, smazzate=1)
    assert demo.sitgo_fill_with_bots(tournament_id=t.pk) == 0  # nobody waiting: no bots
    person = funded_player()
    enter(t, person)
    authorise_all(t)
    assert demo.sitgo_fill_with_bots(tournament_id=t.pk) == 0  # he has not waited yet
    later = timezone.now() + timedelta(seconds=11)
    assert demo.sitgo_fill_with_bots(tournament_id=t.pk, now=later) == 7
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    admitted = Registration.objects.filter(tournament=t, state=Registration.State.ADMITTED)
    assert admitted.count() == 8 and admitted.filter(user__is_bot=True).count() == 7
    assert demo.sitgo_fill_with_bots(tournament_id=t.pk, now=later) == 0  # closed: nothing more
