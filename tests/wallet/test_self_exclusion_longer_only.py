"""While excluded a player may only make his self-exclusion longer (indefinite is the longest)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from piattaforma.actions import self_exclusions_lift, user_set_status
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory, sign_in
from wallet import actions
from wallet.errors import SelfExclusionNotLonger, SelfExclusionWhileSuspended

pytestmark = pytest.mark.django_db


def state(user: User) -> tuple:
    user.refresh_from_db()
    return user.status, user.self_excluded_until, AuditLog.objects.filter(action="user.set_status").count()


def test_an_indefinite_exclusion_cannot_be_turned_into_30_days():
    user = UserFactory()
    actions.user_self_exclude(user=user, until=None, reason="per sempre")
    before = state(user)
    with pytest.raises(SelfExclusionNotLonger) as exc:
        actions.user_self_exclude(user=user, until=timezone.now() + timedelta(days=30), reason="ripensamento")
    assert exc.value.code == "self_exclusion_not_longer" and "prolungare" in exc.value.message
    assert state(user) == before
    with pytest.raises(SelfExclusionNotLonger):  # nothing is longer than indefinite
        actions.user_self_exclude(user=user, until=None, reason="di nuovo")
    assert self_exclusions_lift(now=timezone.now() + timedelta(days=31)) == []
    assert state(user)[0] == User.Status.SELF_EXCLUDED


def test_a_dated_exclusion_may_only_grow():
    user = UserFactory()
    ends = timezone.now() + timedelta(days=90)
    actions.user_self_exclude(user=user, until=ends, reason="pausa")
    for shorter in (ends - timedelta(days=60), ends):
        with pytest.raises(SelfExclusionNotLonger):
            actions.user_self_exclude(user=user, until=shorter, reason="meno")
    assert state(user)[1] == ends
    longer = ends + timedelta(days=90)
    actions.user_self_exclude(user=user, until=longer, reason="di più")
    assert state(user)[:2] == (User.Status.SELF_EXCLUDED, longer)
    actions.user_self_exclude(user=user, until=None, reason="per sempre")
    assert state(user)[:2] == (User.Status.SELF_EXCLUDED, None)


def test_a_suspended_player_cannot_exclude_himself_out_of_the_suspension():
    user = UserFactory()
    user_set_status(user=user, status=User.Status.SUSPENDED, actor=None, reason="verifica")
    with pytest.raises(SelfExclusionWhileSuspended):
        actions.user_self_exclude(user=user, until=timezone.now() + timedelta(days=30), reason="pausa")
    assert state(user)[0] == User.Status.SUSPENDED


def test_the_form_refuses_a_shorter_exclusion_in_italian_and_takes_a_longer_one(client):
    user = UserFactory()
    sign_in(client, user)
    url = reverse("wallet:self_exclusion")
    assert client.post(url, {"duration": "180", "confirm": "on"}).status_code == 302
    until = state(user)[1]
    page = client.get(url).content.decode()
    assert "Puoi solo prolungare" in page
    page = client.post(url, {"duration": "30", "confirm": "on"})
    assert page.status_code == 200 and "si può solo prolungare" in page.content.decode()
    assert state(user)[1] == until
    assert client.post(url, {"duration": "0", "confirm": "on"}).status_code == 302
    assert state(user)[1] is None
    page = client.get(url).content.decode()
    assert "a tempo indeterminato" in page and 'name="duration"' not in page
    page = client.post(url, {"duration": "30", "confirm": "on"})
    assert page.status_code == 200 and state(user)[:2] == (User.Status.SELF_EXCLUDED, None)
