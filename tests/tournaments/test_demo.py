"""The demo of `make run` opens tournaments of several games, once."""

import io
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.utils import timezone

from piattaforma import roles, siteops
from tests.piattaforma.factories import UserFactory
from tournaments import demo
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_opens_tournaments_of_several_games():
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())
    open_ones = Tournament.objects.filter(state="registration")
    assert open_ones.filter(kind="scheduled").count() == 9 and open_ones.filter(kind="sitgo").count() == 10
    # level tournaments of poker and Telesina, scheduled and sit&go (the sit&go: small, superturbo)
    levels = open_ones.filter(format="freezeout")
    assert set(levels.values_list("game", "kind")) == {
        (game, kind) for game in ("poker5", "telesina") for kind in ("scheduled", "sitgo")
    }
    assert set(levels.filter(kind="sitgo").values_list("speed", flat=True)) == {"superturbo"}
    slot = open_ones.get(format="slot")  # the slot sit&go the bots fill: four, same credit, 3 minutes
    assert (slot.game, slot.kind, slot.max_players, slot.slot_minutes) == ("slot", "sitgo", 4, 3)
    assert slot.starting_chips == 100_000 and slot.repeat
    training = open_ones.filter(training=True)  # the training section: free, one of each kind
    assert set(training.values_list("kind", "pool_quota", "fee")) == {("scheduled", 0, 0), ("sitgo", 0, 0)}
    assert training.get(kind="scheduled").confirmation_required
    target = Tournament.objects.get(name="Scopa della sera")
    assert set(open_ones.filter(satellite_of=target).values_list("kind", flat=True)) == {"scheduled", "sitgo"}
    assert open_ones.values("game").distinct().count() >= 5
    assert Registration.objects.filter(state="authorised", user__is_bot=True).count() == 3


@pytest.mark.parametrize("hour", [1, 4, 19, 23])
def test_the_demo_schedules_evening_tournaments_and_names_the_current_month(hour, monkeypatch):
    """Whatever the hour `make run` starts at (a night, the registrations' pause at 04:00), the
    scheduled tournaments start in the evening at least an hour later, each satellite before its
    target, and the special leaderboard is this month's."""
    now = datetime(2026, 12, 6, hour, 20, tzinfo=timezone.get_current_timezone())
    monkeypatch.setattr(timezone, "now", lambda: now)
    staff = UserFactory(role=roles.STAFF)
    assert demo.seed_tournaments(actor=staff, bots=[], now=now) == len(demo.DEMO_TOURNAMENTS)
    scheduled = Tournament.objects.filter(kind="scheduled")
    for t in scheduled:
        local = timezone.localtime(t.starts_at)
        assert 18 <= local.hour <= 22 and t.starts_at >= now + timedelta(hours=1), (t.name, local)
        if t.satellite_of is not None:
            assert t.starts_at < t.satellite_of.starts_at, t.name
    assert timezone.localtime(scheduled.get(name="Burraco KO del giovedì").starts_at).weekday() == 3
    asso = scheduled.get(game="asso")
    assert asso.name == "Asso piglia tutto - classifica di dicembre"
    assert asso.special_leaderboard == "Classifica di dicembre"


def test_the_demo_starts_during_the_registrations_pause(settings, monkeypatch):
    """`make run` at 04:20 (registrations paused 04:00-05:30, rules 004): the tournaments are
    created, the demo bots simply do not enter yet."""
    settings.SITE_HOURS_ENFORCED = True
    now = datetime(2026, 12, 6, 4, 20, tzinfo=ZoneInfo("Europe/Rome"))
    monkeypatch.setattr(timezone, "now", lambda: now)
    siteops.site_hours_forget()
    bots = [UserFactory(is_bot=True) for _ in range(3)]
    try:
        assert demo.seed_tournaments(actor=UserFactory(role=roles.STAFF), bots=bots, now=now) == len(
            demo.DEMO_TOURNAMENTS
        )
    finally:
        siteops.site_hours_forget()
    assert not Registration.objects.exists()
