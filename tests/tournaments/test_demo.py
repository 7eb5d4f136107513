"""The demo of `make run` opens tournaments of several games, once."""

import io

import pytest
from django.core.management import call_command

from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_opens_tournaments_of_several_games():
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())
    open_ones = Tournament.objects.filter(state="registration")
    assert open_ones.filter(kind="scheduled").count() == 7 and open_ones.filter(kind="sitgo").count() == 7
    training = open_ones.filter(training=True)  # the training section: free, one of each kind
    assert set(training.values_list("kind", "pool_quota", "fee")) == {("scheduled", 0, 0), ("sitgo", 0, 0)}
    assert training.get(kind="scheduled").confirmation_required
    target = Tournament.objects.get(name="Scopa della sera")
    assert set(open_ones.filter(satellite_of=target).values_list("kind", flat=True)) == {"scheduled", "sitgo"}
    assert open_ones.values("game").distinct().count() >= 5
    assert Registration.objects.filter(state="authorised", user__is_bot=True).count() == 3
