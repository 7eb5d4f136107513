"""One player's loss in one cash match given back for a fault of the platform (rules 004,
"Rimborsi per disconnessioni"): only for a connection the network or the platform ended during the
match, what the settlement took and never more, from the house, once, four eyes above the
threshold, audited; the back office shows the evidence first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.partite import cash_settlement
from games.rng import SeededRng
from lobby import door
from lobby.errors import FaultRefundRefused, NotAllowed
from lobby.models import ConnectionRecord, Hand, MatchFaultRefund
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.lobby.factories import SCOPA_STAKES, scopa_table
from tests.lobby.helpers import house_rake, play_hand_randomly, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player
from wallet import actions as wallet
from wallet import selectors as wallet_selectors
from wallet.models import AdjustmentRequest, Posting

pytestmark = pytest.mark.django_db
EndedBy = ConnectionRecord.EndedBy


@pytest.fixture
def staff():
    return UserFactory(role=roles.STAFF)


def ledger_sum() -> int:
    return sum(Posting.objects.values_list("amount", flat=True))


def cash(user) -> int:
    return wallet_selectors.balance_get(user=user)["cash"]


def ended_match(realm: str = "real"):
    """An ended Scopa match at a cash table with a winner: (hand, loser, winner)."""
    for seed in range(1, 30):
        users = [funded_player() for _ in range(2)]
        table = scopa_table(realm=realm)
        for user in users if realm == "play" else []:
            wallet.play_money_top_up(user=user, amount=10_000, idempotency_key=f"gettoni-{user.pk}")
        seat_players(table, users, buy_in=5_000)
        door.table_ready(table_id=table.pk, user=users[0])
        assert door.table_ready(table_id=table.pk, user=users[1])
        play_hand_randomly(table, SeededRng(seed), max_steps=3000)
        hand = Hand.objects.get(table=table, number=1)
        money = cash_settlement(hand.outcome, **SCOPA_STAKES)
        if money["winner"] is None:
            continue
        by_seat = {s["seat"]: s["user_id"] for s in hand.seats}
        loser = next(u for u in users if u.pk == by_seat[hand.outcome["lines"][money["loser"]][0]])
        winner = next(u for u in users if u is not loser)
        return hand, loser, winner, money
    raise AssertionError("no seed gave a winner")


def record(hand, user, ended_by, *, during=True):
    at = (
        hand.started_at + (hand.ended_at - hand.started_at) / 2
        if during
        else hand.ended_at + timedelta(minutes=2)
    )
    return ConnectionRecord.objects.create(
        table=hand.table,
        user=user,
        seat_number=1,
        socket_id=ConnectionRecord.objects.count() + 9000,
        process="daphne-a",
        opened_at=hand.started_at - timedelta(minutes=1),
        closed_at=at,
        hand_at_open=hand.number,
        hand_at_close=hand.number,
        ended_by=ended_by,
    )


def test_a_platform_cut_during_the_match_gives_the_loss_back_from_the_house(staff):
    hand, loser, winner, money = ended_match()
    cut = record(hand, loser, EndedBy.PLATFORM)
    preview = door.match_fault_refund_preview(hand_id=hand.pk, user_id=loser.pk)
    assert preview["refusal"] == "" and preview["loss"] == money["amount"]
    assert [(r["id"], r["platform_side"], r["during"]) for r in preview["records"]] == [(cut.pk, True, True)]
    loser_before, winner_before, rake_before = cash(loser), cash(winner), house_rake()
    out = door.match_fault_refund(
        hand_id=hand.pk, user_id=loser.pk, record_id=cut.pk, reason="Processo daphne-a caduto", actor=staff
    )
    assert out["status"] == "posted"
    assert cash(loser) == loser_before + money["amount"]
    assert cash(winner) == winner_before and house_rake() == rake_before  # no claw-back
    assert ledger_sum() == 0
    row = MatchFaultRefund.objects.get(hand=hand, user=loser)
    assert row.amount == money["amount"] and row.record_id == cut.pk and row.actor_id == staff.pk
    assert AuditLog.objects.filter(action="table.match_fault_refund", actor=staff).count() == 1
    with pytest.raises(FaultRefundRefused) as again:  # once per match and player
        door.match_fault_refund(
            hand_id=hand.pk,
            user_id=loser.pk,
            record_id=cut.pk,
            reason="Processo daphne-a caduto",
            actor=staff,
        )
    assert again.value.code == "fault_refund_refused" and "già rimborsata" in again.value.message
    assert cash(loser) == loser_before + money["amount"] and MatchFaultRefund.objects.count() == 1


def refused_unchanged(hand, user, record_id, actor, error=FaultRefundRefused, reason="Guasto di rete"):
    before = (cash(user), Posting.objects.count(), AuditLog.objects.count())
    with pytest.raises(error) as refused:
        door.match_fault_refund(
            hand_id=hand.pk, user_id=user.pk, record_id=record_id, reason=reason, actor=actor
        )
    assert (cash(user), Posting.objects.count(), AuditLog.objects.count()) == before
    assert not MatchFaultRefund.objects.exists()
    return refused.value


@pytest.mark.parametrize("ended_by", [EndedBy.PLAYER, EndedBy.SERVER])
def test_a_connection_the_player_or_the_server_closed_is_refused(staff, ended_by):
    hand, loser, _winner, _money = ended_match()
    own = record(hand, loser, ended_by)
    assert (
        "Nessuna connessione" in door.match_fault_refund_preview(hand_id=hand.pk, user_id=loser.pk)["refusal"]
    )
    refused_unchanged(hand, loser, own.pk, staff)


def test_a_cut_outside_the_match_is_refused(staff):
    hand, loser, _winner, _money = ended_match()
    later = record(hand, loser, EndedBy.PLATFORM, during=False)
    assert (
        "durante la partita" in door.match_fault_refund_preview(hand_id=hand.pk, user_id=loser.pk)["refusal"]
    )
    refused_unchanged(hand, loser, later.pk, staff)


def test_the_winner_has_no_loss_to_refund(staff):
    hand, _loser, winner, _money = ended_match()
    cut = record(hand, winner, EndedBy.PLATFORM)
    error = refused_unchanged(hand, winner, cut.pk, staff)
    assert "non ha perso nulla" in error.message


def test_another_players_record_and_a_short_reason_are_refused(staff):
    hand, loser, winner, _money = ended_match()
    record(hand, loser, EndedBy.NETWORK)
    others = record(hand, winner, EndedBy.PLATFORM)
    assert "non è del giocatore" in refused_unchanged(hand, loser, others.pk, staff).message
    mine = ConnectionRecord.objects.get(user=loser)
    assert "motivazione" in refused_unchanged(hand, loser, mine.pk, staff, reason=" ab ").message


def test_a_training_table_is_refused(staff):
    hand, loser, _winner, _money = ended_match(realm="play")
    cut = record(hand, loser, EndedBy.PLATFORM)
    preview = door.match_fault_refund_preview(hand_id=hand.pk, user_id=loser.pk)
    assert "allenamento" in preview["refusal"] and preview["loss"] == 0
    refused_unchanged(hand, loser, cut.pk, staff)


def test_a_player_or_a_moderator_may_not_refund():
    hand, loser, winner, _money = ended_match()
    cut = record(hand, loser, EndedBy.PLATFORM)
    for actor in (winner, UserFactory(role=roles.MODERATORS)):
        refused_unchanged(hand, loser, cut.pk, actor, error=NotAllowed)


def test_above_the_threshold_a_second_staff_member_approves(staff, settings):
    hand, loser, _winner, money = ended_match()
    settings.WALLET_ADJUSTMENT_APPROVAL_CENTS = money["amount"] - 1
    cut = record(hand, loser, EndedBy.NETWORK)
    before = cash(loser)
    out = door.match_fault_refund(
        hand_id=hand.pk, user_id=loser.pk, record_id=cut.pk, reason="Rete del data center", actor=staff
    )
    assert out["status"] == "pending" and cash(loser) == before
    wallet.adjustment_approve(request_id=out["request_id"], actor=UserFactory(role=roles.STAFF))
    assert AdjustmentRequest.objects.get(pk=out["request_id"]).status == AdjustmentRequest.Status.APPROVED
    assert cash(loser) == before + money["amount"] and ledger_sum() == 0


def test_the_back_office_shows_the_evidence_then_refunds(client, staff):
    hand, loser, _winner, money = ended_match()
    cut = record(hand, loser, EndedBy.PLATFORM)
    own = record(hand, loser, EndedBy.PLAYER)
    url = reverse("backoffice:lobby_hand_fault_refund", args=[hand.pk, loser.pk])
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(url).status_code in (302, 403)
    sign_in(client, staff)
    change = client.get(reverse("backoffice:lobby_hand_change", args=[hand.pk])).content.decode()
    assert url in change  # each player of the ended match links to his check
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="fault-form"' in html
    assert "Persa dalla piattaforma" in html and "Chiusa dal giocatore" in html
    choices = [value for value, _label in page.context["form"].fields["record"].choices]
    assert choices == [cut.pk]  # only the platform's side, during the match, may be chosen
    before = cash(loser)
    refused = client.post(url, {"record": own.pk, "reason": "Guasto"})
    assert refused.status_code == 200 and cash(loser) == before
    short = client.post(url, {"record": cut.pk, "reason": "no"})
    assert short.status_code == 200 and cash(loser) == before
    done = client.post(url, {"record": cut.pk, "reason": "Processo daphne-a caduto"})
    assert done.status_code == 302 and cash(loser) == before + money["amount"]
    again = client.get(url).content.decode()
    assert 'data-testid="fault-refusal"' in again and 'data-testid="fault-form"' not in again
    assert client.post(url, {"record": cut.pk, "reason": "Processo daphne-a caduto"}).status_code == 200
    assert cash(loser) == before + money["amount"]
