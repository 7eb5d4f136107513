"""The demo's bots fill a sit&go a person waits in, so one person can play it through."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.conftest import FUNDS, authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player
from tournaments import demo
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_bots_fill_a_sitgo_after_a_person_waited_and_it_closes(staff):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=8, smazzate=1)
    assert demo.sitgo_fill_with_bots(tournament_id=t.pk) == 0  # nobody waiting: no bots
    person = funded_player(FUNDS)
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


def test_bots_busy_in_two_training_sitgo_leave_the_third_to_other_bots(staff):
    """Bots keep the training section's limit (2 sit&go at once): the busy ones are passed over."""
    first_three = {"bot.torneo1", "bot.torneo2", "bot.torneo3"}
    for i in range(3):
        t = make_tournament(
            staff,
            name=f"Allenamento {i}",
            kind=Tournament.Kind.SITGO,
            max_players=4,
            training=True,
            pool_quota=0,
            fee=0,
        )
        enter(t, funded_player(FUNDS))
        later = timezone.now() + timedelta(seconds=11)  # he has waited long enough
        assert demo.sitgo_fill_with_bots(tournament_id=t.pk, now=later) == 3
        t.refresh_from_db()
        assert t.state == Tournament.State.CLOSED
        bots = set(
            Registration.objects.filter(tournament=t, user__is_bot=True).values_list(
                "user__nickname", flat=True
            )
        )
        if i < 2:
            assert bots == first_three  # the first bots, free until now
        else:
            assert len(bots) == 3 and not bots & first_three  # each of those already plays 2
