"""Every staff action through the back office is in the audit log, whichever app's page it is on."""

from __future__ import annotations

import pytest
from django.urls import reverse

from moderation.models import WatchedEntry
from piattaforma import roles
from piattaforma.backoffice import AuditedAdminMixin, site
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


def test_every_back_office_page_writes_the_audit_log():
    plain = [type(a).__name__ for a in site._registry.values() if not isinstance(a, AuditedAdminMixin)]
    assert plain == []


def test_adding_changing_and_deleting_through_a_form_are_audit_lines(client):
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    data = {"pattern": "pippo*", "kind": "word", "category": "insult", "action": "block", "language": "it"}
    assert (
        client.post(reverse("backoffice:moderation_watchedentry_add"), {**data, "active": "on"}).status_code
        == 302
    )
    entry = WatchedEntry.objects.get(pattern="pippo*")
    added = AuditLog.objects.get(action="backoffice.add", target_id=str(entry.pk))
    assert (added.actor, added.target_type) == (staff, "moderation.WatchedEntry")

    change_url = reverse("backoffice:moderation_watchedentry_change", args=[entry.pk])
    assert client.post(change_url, data).status_code == 302  # switched off
    changed = AuditLog.objects.get(action="backoffice.change", target_id=str(entry.pk))
    assert changed.actor == staff
    assert changed.data == {"change": [{"changed": {"fields": ["Attiva"]}}]}

    delete_url = reverse("backoffice:moderation_watchedentry_delete", args=[entry.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 302
    deleted = AuditLog.objects.get(action="backoffice.delete", target_id=str(entry.pk))
    assert deleted.actor == staff and "pippo*" in deleted.data["repr"]


def test_a_refused_change_writes_nothing(client):
    sign_in(client, UserFactory(role=roles.MODERATORS))
    # its own entry: the default list of the data migration is gone after a flushing test
    entry = WatchedEntry.objects.create(pattern="parolaccia", category="insult")
    before = AuditLog.objects.count()
    url = reverse("backoffice:moderation_watchedentry_delete", args=[entry.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert AuditLog.objects.count() == before
