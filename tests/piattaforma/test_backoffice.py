"""Roles and the back office: staff manage, moderators see only moderation, players are kept out."""

import pytest
from django.contrib.auth.models import Group

from piattaforma import roles
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


def test_roles_exist_with_the_right_permissions():
    assert set(Group.objects.values_list("name", flat=True)) >= set(roles.ROLES)
    staff = Group.objects.get(name=roles.STAFF)
    moderators = Group.objects.get(name=roles.MODERATORS)
    assert staff.permissions.filter(codename="change_user").exists()
    assert not staff.permissions.filter(codename="delete_auditlog").exists()
    assert not moderators.permissions.exclude(content_type__app_label="moderation").exists()
    assert not Group.objects.get(name=roles.PLAYERS).permissions.exists()


def test_player_is_sent_to_the_login(client):
    sign_in(client, UserFactory())
    response = client.get("/backoffice/")
    assert response.status_code == 302 and "/backoffice/login/" in response["Location"]


def test_staff_manages_users(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    assert client.get("/backoffice/").status_code == 200
    assert client.get("/backoffice/piattaforma/user/").status_code == 200


def test_moderator_enters_but_sees_no_player_data(client):
    sign_in(client, UserFactory(role=roles.MODERATORS))
    index = client.get("/backoffice/")
    assert index.status_code == 200
    assert "/backoffice/piattaforma/user/" not in index.content.decode()
    assert client.get("/backoffice/piattaforma/user/").status_code == 403


def test_suspending_needs_a_reason_and_is_audited(client):
    staff = UserFactory(role=roles.STAFF)
    player = UserFactory()
    sign_in(client, staff)
    form = {"action": "suspend", "_selected_action": [player.pk]}
    response = client.post("/backoffice/piattaforma/user/", form)
    assert response.status_code == 200 and "Motivazione" in response.content.decode()
    player.refresh_from_db()
    assert player.status == User.Status.ACTIVE  # nothing changed without a reason
    client.post("/backoffice/piattaforma/user/", {**form, "reason": "Segnalazione di collusione"})
    player.refresh_from_db()
    assert player.status == User.Status.SUSPENDED
    log = AuditLog.objects.get(action="user.set_status", target_id=str(player.pk))
    assert log.actor == staff and log.reason == "Segnalazione di collusione"


def test_audit_log_is_read_only_for_staff(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    assert client.get("/backoffice/piattaforma/auditlog/add/").status_code == 403


def test_django_strings_its_italian_catalog_leaves_empty_are_italian_here(client):
    """Django 6.1's Italian catalogs lack a few admin strings: locale/it fills them in."""
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get("/backoffice/tournaments/tournament/add/").content.decode()
    assert "- Scegli un&#x27;opzione -" in page and "Select an option" not in page
    sign_in(client, UserFactory(is_superuser=True, is_staff=True))  # the password field: a staff account's
    colleague = UserFactory(role=roles.STAFF)
    page = client.get(f"/backoffice/piattaforma/user/{colleague.pk}/change/").content.decode()
    assert "Reimposta la password" in page and "Raw passwords" not in page
    script = client.get("/backoffice/jsi18n/").content.decode()
    assert "Scegli tutti: %s" in script and "sei %(offset)s ora indietro" in script
