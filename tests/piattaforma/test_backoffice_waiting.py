"""The back office's index heads with what waits for this user, each count linked, by permission."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from piattaforma import actions, roles
from tests.moderation.factories import ReportFactory, say
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_identity import PDF
from wallet import actions as wallet_actions

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting():
    """One document to review, one withdrawal to approve, one report open, one line held."""
    newcomer = UserFactory(identity_verified_at=None)
    actions.identity_document_upload(
        user=newcomer,
        kind="passaporto",
        upload=SimpleUploadedFile("p.pdf", PDF, content_type="application/pdf"),
    )
    player = UserFactory()
    wallet_actions.deposit_create(user=player, amount=5_000, idempotency_key="d")
    wallet_actions.withdrawal_request(user=player, amount=1_000, idempotency_key="w")
    ReportFactory(reporter=UserFactory(), line=say(UserFactory(nickname="bullo"), "sei un incapace"))


def panel(client):
    html = client.get("/backoffice/").content.decode()
    if 'data-testid="staff-waiting"' not in html:
        return {}
    module = html.split('data-testid="staff-waiting"')[1].split("</div>")[0]
    rows = re.findall(r'<a href="([^"]+)">([^<]+)</a></th><td data-count="(\d+)"', module)
    return {label.replace("&#x27;", "'"): (int(n), url) for url, label, n in rows}


def test_staff_see_every_count_with_its_link(client, waiting):
    sign_in(client, UserFactory(role=roles.STAFF))
    counts = panel(client)
    assert counts["Documenti d'identità da esaminare"] == (
        1,
        "/backoffice/piattaforma/identitydocument/?status__exact=pending",
    )
    assert counts["Prelievi da approvare"] == (1, "/backoffice/wallet/withdrawal/?status__exact=pending")
    assert counts["Segnalazioni aperte"] == (1, "/moderazione/")
    assert counts["Messaggi trattenuti"][0] == 0
    for _count, url in counts.values():
        assert client.get(url).status_code == 200


def test_moderators_see_only_the_moderation_counts(client, waiting):
    sign_in(client, UserFactory(role=roles.MODERATORS))
    counts = panel(client)
    assert set(counts) == {"Segnalazioni aperte", "Messaggi trattenuti"}
    assert counts["Segnalazioni aperte"][0] == 1


def test_players_do_not_reach_the_index(client, waiting):
    sign_in(client, UserFactory())
    response = client.get("/backoffice/")
    assert response.status_code == 302 and "/login/" in response["Location"]
