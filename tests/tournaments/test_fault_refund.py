"""One player's entry given back for a fault of the platform (rules 004, "Rimborsi per
disconnessioni"): only for a connection the network or the platform ended, by the house, once,
four eyes above the threshold, audited; the staff page shows the evidence first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from lobby.models import ConnectionRecord
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.conftest import money
from tests.tournaments.running_helpers import full_tournament, ledger_zero, open_tables, pool
from tournaments import actions, errors
from tournaments.models import Registration
from wallet import actions as wallet
from wallet.models import AdjustmentRequest

pytestmark = pytest.mark.django_db
EndedBy = ConnectionRecord.EndedBy


def record(table, user, ended_by, *, process="daphne-a", socket_id=None, at=None):
    at = at or timezone.now()
    return ConnectionRecord.objects.create(
        table=table,
        user=user,
        seat_number=1,
        socket_id=socket_id or (ConnectionRecord.objects.count() + 7000),
        process=process,
        opened_at=at - timedelta(minutes=3),
        closed_at=at,
        ended_by=ended_by,
        close_code=None if ended_by == EndedBy.PLATFORM else 1006,
    )


@pytest.fixture
def running(staff):
    t, players = full_tournament(staff, 4)
    table = next(tb for tb in open_tables(t) if tb.seat_rows.filter(user=players[0]).exists())
    return t, players, table


def test_a_platform_interruption_gives_the_entry_back_from_the_house(staff, running):
    t, players, table = running
    cut = record(table, players[0], EndedBy.PLATFORM)
    record(table, players[1], EndedBy.PLATFORM)  # cut with it: the same process, the same moment
    reg = Registration.objects.get(tournament=t, user=players[0])
    preview = actions.fault_refund_preview(registration_id=reg.pk)
    assert preview["refusal"] == "" and preview["total"] == t.cost and preview["parts"] == {"cash": t.cost}
    assert [(r["id"], r["platform_side"], r["cut_together"]) for r in preview["records"]] == [
        (cut.pk, True, 1)
    ]
    before, pool_before = money(players[0]), pool(t)
    out = actions.registration_fault_refund(
        registration_id=reg.pk, record_id=cut.pk, reason="Processo daphne-a caduto", actor=staff
    )
    assert out["cash"]["status"] == "posted"
    assert money(players[0]) == before + t.cost
    assert pool(t) == pool_before  # the other players' prizes are untouched
    assert ledger_zero() == 0
    reg.refresh_from_db()
    assert reg.fault_refund["record"] == cut.pk and reg.fault_refund["by"] == staff.pk
    assert AuditLog.objects.filter(action="tournament.fault_refund", actor=staff).count() == 1
    with pytest.raises(errors.FaultRefundRefused) as again:  # once only
        actions.registration_fault_refund(
            registration_id=reg.pk, record_id=cut.pk, reason="Processo daphne-a caduto", actor=staff
        )
    assert again.value.code == "fault_refund_refused" and "già rimborsata" in again.value.message
    assert money(players[0]) == before + t.cost


@pytest.mark.parametrize("ended_by", [EndedBy.PLAYER, EndedBy.SERVER])
def test_a_connection_the_player_or_the_server_closed_is_refused(staff, running, ended_by):
    t, players, table = running
    own = record(table, players[0], ended_by)
    reg = Registration.objects.get(tournament=t, user=players[0])
    assert "Nessuna connessione" in actions.fault_refund_preview(registration_id=reg.pk)["refusal"]
    before = money(players[0])
    with pytest.raises(errors.FaultRefundRefused):
        actions.registration_fault_refund(
            registration_id=reg.pk, record_id=own.pk, reason="Guasto", actor=staff
        )
    assert money(players[0]) == before and Registration.objects.get(pk=reg.pk).fault_refund is None


def test_the_record_must_be_the_players_own_at_this_tournament(staff, running):
    t, players, table = running
    record(table, players[0], EndedBy.NETWORK)
    others = record(table, players[1], EndedBy.PLATFORM)
    reg = Registration.objects.get(tournament=t, user=players[0])
    with pytest.raises(errors.FaultRefundRefused) as refused:
        actions.registration_fault_refund(
            registration_id=reg.pk, record_id=others.pk, reason="Guasto di rete", actor=staff
        )
    assert "non è del giocatore" in refused.value.message
    assert Registration.objects.get(pk=reg.pk).fault_refund is None


def test_a_player_or_a_moderator_may_not_refund(running):
    t, players, table = running
    cut = record(table, players[0], EndedBy.PLATFORM)
    reg = Registration.objects.get(tournament=t, user=players[0])
    for actor in (players[2], UserFactory(role=roles.MODERATORS)):
        with pytest.raises(errors.NotPermitted):
            actions.registration_fault_refund(
                registration_id=reg.pk, record_id=cut.pk, reason="Guasto", actor=actor
            )
    assert Registration.objects.get(pk=reg.pk).fault_refund is None


def test_above_the_threshold_a_second_staff_member_approves(staff, running, settings):
    t, players, table = running
    settings.WALLET_ADJUSTMENT_APPROVAL_CENTS = t.cost - 1
    cut = record(table, players[0], EndedBy.NETWORK)
    reg = Registration.objects.get(tournament=t, user=players[0])
    before = money(players[0])
    out = actions.registration_fault_refund(
        registration_id=reg.pk, record_id=cut.pk, reason="Rete del data center", actor=staff
    )
    assert out["cash"]["status"] == "pending" and money(players[0]) == before
    request = AdjustmentRequest.objects.get(pk=out["cash"]["request_id"])
    wallet.adjustment_approve(request_id=request.pk, actor=UserFactory(role=roles.STAFF))
    assert money(players[0]) == before + t.cost and ledger_zero() == 0


def test_the_back_office_shows_the_evidence_then_refunds(client, staff, running):
    t, players, table = running
    cut = record(table, players[0], EndedBy.PLATFORM)
    own = record(table, players[0], EndedBy.PLAYER, at=timezone.now() - timedelta(minutes=10))
    reg = Registration.objects.get(tournament=t, user=players[0])
    url = reverse("backoffice:tournaments_registration_fault_refund", args=[reg.pk])
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(url).status_code in (302, 403)
    sign_in(client, staff)
    change = client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert url in change  # each paid registration links to its check
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="fault-form"' in html
    assert "Persa dalla piattaforma" in html and "Chiusa dal giocatore" in html
    choices = [value for value, _label in page.context["form"].fields["record"].choices]
    assert choices == [cut.pk]  # only the platform's side may be chosen
    before = money(players[0])
    refused = client.post(url, {"record": own.pk, "reason": "Guasto"})
    assert refused.status_code == 200 and money(players[0]) == before  # not a choice: the form says so
    done = client.post(url, {"record": cut.pk, "reason": "Processo daphne-a caduto"})
    assert done.status_code == 302 and money(players[0]) == before + t.cost
    again = client.get(url).content.decode()
    assert 'data-testid="fault-refusal"' in again and 'data-testid="fault-form"' not in again
