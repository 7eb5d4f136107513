"""Back office: a tournament without a guarantee leaves the field empty."""

import pytest
from django.urls import reverse

from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.test_backoffice import add_form
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("typed", "stored"), [("", 0), ("50,00", 5_000)])
def test_the_guarantee_may_be_left_empty(client, typed, stored):
    sign_in(client, UserFactory(role=roles.STAFF))
    response = client.post(reverse("backoffice:tournaments_tournament_add"), add_form(guaranteed=typed))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Tournament.objects.get().guaranteed == stored


def test_the_add_form_says_an_empty_guarantee_is_none(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get(reverse("backoffice:tournaments_tournament_add")).content.decode()
    assert "Vuoto: nessun montepremi garantito." in page
