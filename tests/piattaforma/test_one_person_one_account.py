"""One person, one game account: an omocodic variant of a registered codice fiscale is the same
person (``identity.codice_fiscale_base``), refused at sign-up and by the database."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from codicefiscale import codicefiscale as cf
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from piattaforma.identity import OMOCODIA_POSITIONS, codice_fiscale_base
from piattaforma.models import User
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_identity import GIOVANNA_CF, signup
from wallet import actions as wallet_actions

OMOCODES = [c for c in cf.decode(GIOVANNA_CF)["omocodes"] if c != GIOVANNA_CF]


def test_every_omocodic_variant_has_the_code_as_its_base():
    assert len(OMOCODES) == 127  # every subset of the seven places
    assert {codice_fiscale_base(c) for c in OMOCODES} == {GIOVANNA_CF}
    assert codice_fiscale_base(" " + OMOCODES[5].lower()) == GIOVANNA_CF
    assert codice_fiscale_base(GIOVANNA_CF) == GIOVANNA_CF
    assert codice_fiscale_base("ABC") == "ABC"  # not a code: left as typed (the form refuses it)
    assert OMOCODIA_POSITIONS == (6, 7, 9, 10, 12, 13, 14)


@pytest.mark.django_db
@pytest.mark.parametrize("variant", [OMOCODES[0], OMOCODES[-1], OMOCODES[40].lower()])
def test_signup_with_an_omocodic_variant_of_a_registered_code_is_refused(client, variant):
    UserFactory(codice_fiscale=GIOVANNA_CF)
    response = signup(client, codice_fiscale=variant)
    assert response.status_code == 200
    errors = response.context["form"].errors["codice_fiscale"]
    assert "Esiste già un conto di gioco con questo codice fiscale." in errors
    assert not User.objects.filter(nickname="Scopone").exists()


@pytest.mark.django_db
def test_a_self_excluded_player_cannot_open_a_second_account_with_an_omocode(client):
    """The escape the issue names: excluded, he signs up again with a variant of his code."""
    excluded = UserFactory(codice_fiscale=OMOCODES[3])
    wallet_actions.user_self_exclude(
        user=excluded, until=timezone.now() + timedelta(days=180), reason="pausa"
    )
    response = signup(client, codice_fiscale=GIOVANNA_CF)
    assert (
        "Esiste già un conto di gioco con questo codice fiscale."
        in response.context["form"].errors["codice_fiscale"]
    )
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_the_database_refuses_a_second_account_of_one_person():
    User.objects.create_user(
        nickname="primo",
        email="primo@example.invalid",
        password="x-Password-1",
        date_of_birth=timezone.localdate().replace(year=1985),
        codice_fiscale=GIOVANNA_CF,
    )
    assert User.objects.get(nickname="primo").codice_fiscale_base == GIOVANNA_CF
    with pytest.raises(ValidationError):  # create_user checks the constraints
        User.objects.create_user(
            nickname="secondo",
            email="secondo@example.invalid",
            password="x-Password-1",
            date_of_birth=timezone.localdate().replace(year=1985),
            codice_fiscale=OMOCODES[7],
        )
    with pytest.raises(IntegrityError), transaction.atomic():  # and the table itself
        UserFactory(codice_fiscale=OMOCODES[7])
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_the_migration_gives_existing_accounts_their_base_and_the_older_keeps_a_shared_one():
    migration = importlib.import_module("piattaforma.migrations.0009_user_codice_fiscale_base")
    first = UserFactory(codice_fiscale=GIOVANNA_CF, codice_fiscale_base="")
    twin = UserFactory(codice_fiscale=OMOCODES[0], codice_fiscale_base="")
    other = UserFactory(codice_fiscale_base="")
    migration.fill_codice_fiscale_base(apps, None)
    bases = dict(User.objects.values_list("pk", "codice_fiscale_base"))
    assert bases[first.pk] == GIOVANNA_CF and bases[twin.pk] == ""
    assert bases[other.pk] == codice_fiscale_base(other.codice_fiscale) != ""


@pytest.mark.django_db
def test_a_twin_signed_up_meanwhile_gets_a_clear_page_not_an_error(client, monkeypatch):
    """Two sign-ups of one person racing: the form's check passed for both; the second one meets
    the database's constraint and the page says so, nothing opened."""
    from piattaforma.forms import SignupForm

    monkeypatch.setattr(SignupForm, "clean_codice_fiscale", lambda self: self.cleaned_data["codice_fiscale"])
    UserFactory(codice_fiscale=GIOVANNA_CF)
    response = signup(client, codice_fiscale=OMOCODES[9])
    assert response.status_code == 200
    assert "codice fiscale già registrati" in response.content.decode()
    assert not User.objects.filter(nickname="Scopone").exists()
