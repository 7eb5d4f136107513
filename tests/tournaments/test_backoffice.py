"""Back office: staff create tournaments through the action, see the entrants and cancel for a fault."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from piattaforma import roles
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.conftest import FUNDS, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def add_form(**overrides):
    starts = timezone.localtime() + timedelta(hours=2)
    opens = timezone.localtime() - timedelta(minutes=5)
    data = {
        "name": "Torneo dal back office",
        "game": "scala40",
        "format": "danese",
        "kind": "scheduled",
        "lines": "individual",
        "table": "2",
        "turns": "3",
        "ko_qualifiers": "0",
        "smazzate": "2",
        "points_to_win": "0",
        "tempo_partita_min": "14",
        "tempo_giocata": "30",
        "pool_quota": "9,00",
        "fee": "1,00",
        "guaranteed": "0",
        "min_players": "4",
        "max_players": "32",
        "registration_opens_at_0": opens.strftime("%d/%m/%Y"),
        "registration_opens_at_1": opens.strftime("%H:%M:%S"),
        "starts_at_0": starts.strftime("%d/%m/%Y"),
        "starts_at_1": starts.strftime("%H:%M:%S"),
        "special_leaderboard": "",
        "description": "",
        "cancellation_allowed": "on",  # checked by default on the form
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
    }
    data.update(overrides)
    return data


def test_staff_create_a_tournament_and_it_opens(client):
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    response = client.post(reverse("backoffice:tournaments_tournament_add"), add_form())
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get()
    assert (t.state, t.created_by, t.game) == ("registration", staff, "scala40")
    assert (t.pool_quota, t.fee, t.guaranteed) == (900, 100, 0)  # typed in euro, stored in cents
    assert AuditLog.objects.filter(action="tournaments.create", actor=staff).exists()
    page = client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert "€ 9,00" in page and "€ 1,00" in page and "Quota montepremi" in page
    assert "centesimi" not in page and "Created" not in page


def test_backoffice_refuses_an_amount_that_is_not_euro(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    response = client.post(reverse("backoffice:tournaments_tournament_add"), add_form(pool_quota="9.00"))
    assert response.status_code == 200 and "virgola" in response.content.decode()
    assert not Tournament.objects.exists()


def test_backoffice_refuses_a_pool_under_80_percent(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    response = client.post(
        reverse("backoffice:tournaments_tournament_add"), add_form(pool_quota="7,00", fee="3,00")
    )
    assert response.status_code == 200 and "80%" in response.content.decode()
    assert not Tournament.objects.exists()


def test_staff_see_entrants_and_cancel_for_a_fault(client, staff, players):
    t = make_tournament(staff)
    for p in players[:3]:
        enter(t, p)
    authorise_all(t)
    sign_in(client, staff)
    page = client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert players[0].nickname in page and "ADM" in page
    changelist = reverse("backoffice:tournaments_tournament_changelist")
    confirm = client.post(changelist, {"action": "cancel_for_fault", "_selected_action": [t.pk]})
    assert "Motivazione" in confirm.content.decode()
    client.post(
        changelist, {"action": "cancel_for_fault", "_selected_action": [t.pk], "reason": "Guasto al server"}
    )
    t.refresh_from_db()
    assert t.state == "cancelled"
    assert all(money(p) == FUNDS for p in players[:3])
    assert set(Registration.objects.values_list("state", flat=True)) == {"refunded"}


@pytest.mark.parametrize("role", [roles.PLAYERS, roles.MODERATORS])
def test_players_and_moderators_cannot_reach_tournaments(client, staff, role):
    t = make_tournament(staff)
    sign_in(client, UserFactory(role=role))
    assert client.get(reverse("backoffice:tournaments_tournament_changelist")).status_code in (302, 403)
    client.post(
        reverse("backoffice:tournaments_tournament_changelist"),
        {"action": "cancel_for_fault", "_selected_action": [t.pk], "reason": "Guasto al server"},
    )
    t.refresh_from_db()
    assert t.state == "registration"
