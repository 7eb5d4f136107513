"""Loss and session-time limits reached through the lobby and tournaments' own paths (the wallet
check they already call), and the session-time job standing a seated player up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.rng import SeededRng
from lobby import door
from lobby.models import Seat
from tests.lobby.factories import poker_table
from tests.lobby.helpers import everyone_puts_the_invito, play_hand_randomly, seat_players
from tests.tournaments.factories import make_tournament
from tests.wallet.conftest import ledger_snapshot
from tests.wallet.factories import funded_player
from tournaments.models import Registration
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors
from wallet.errors import LossLimitReached, PlayTimeLimitReached
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def test_sitting_down_past_a_loss_limit_is_refused_and_changes_nothing():
    player = funded_player()
    wallet_actions.play_limit_set(user=player, kind="loss", period="week", amount=2_000)
    table = poker_table()
    before = ledger_snapshot()
    with pytest.raises(LossLimitReached):
        door.table_sit(table_id=table.pk, user=player, seat_no=1, buy_in=5_000, idempotency_key="s1")
    assert not Seat.objects.filter(user=player).exists()
    assert ledger_snapshot() == before
    door.table_sit(table_id=table.pk, user=player, seat_no=1, buy_in=2_000, idempotency_key="s2")


@pytest.mark.usefixtures("midday_zone")  # "31 minutes ago" stays in today
def test_sitting_down_after_the_time_limit_is_refused():
    player = funded_player()
    wallet_actions.play_limit_set(user=player, kind="time", period="day", amount=30)
    first, second = poker_table(), poker_table(name="Tavolo Bari")
    seat_players(first, [player], buy_in=2_000)
    Account.objects.filter(owner=player, kind=AccountKind.TABLE_CREDIT).update(
        created_at=timezone.now() - timedelta(minutes=31)
    )
    with pytest.raises(PlayTimeLimitReached):
        door.table_sit(table_id=second.pk, user=player, seat_no=1, buy_in=2_000, idempotency_key="s3")
    assert not Seat.objects.filter(user=player, table=second).exists()


def test_tournament_registration_past_a_loss_limit_is_refused():
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tournaments import actions as tournament_actions

    player = funded_player()
    wallet_actions.play_limit_set(user=player, kind="loss", period="day", amount=500)
    tournament = make_tournament(UserFactory(role=roles.STAFF))  # € 10,00 entry
    before = ledger_snapshot()
    with pytest.raises(LossLimitReached):
        tournament_actions.registration_create(tournament_id=tournament.pk, user=player, idempotency_key="r1")
    assert not Registration.objects.filter(user=player).exists()
    assert ledger_snapshot() == before


@pytest.mark.usefixtures("midday_zone")  # "31 minutes ago" stays in today
def test_the_time_limit_job_stands_the_player_up_between_hands():
    player, other = funded_player(), funded_player()
    wallet_actions.play_limit_set(user=player, kind="time", period="day", amount=20)
    table = poker_table()
    seat_players(table, [player, other], buy_in=3_000)
    Account.objects.filter(owner=player, kind=AccountKind.TABLE_CREDIT).update(
        created_at=timezone.now() - timedelta(minutes=25)
    )
    assert wallet_actions.play_time_enforce() == [player.pk]
    assert not Seat.objects.filter(user=player).exists()
    assert wallet_selectors.balance_get(user=player)["cash"] == 100_000  # the credit came back
    assert Seat.objects.filter(user=other).exists()


@pytest.mark.usefixtures("midday_zone")  # "31 minutes ago" stays in today
def test_the_time_limit_job_waits_for_the_end_of_the_hand():
    users = [funded_player() for _ in range(3)]
    wallet_actions.play_limit_set(user=users[0], kind="time", period="day", amount=20)
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    Account.objects.filter(owner=users[0], kind=AccountKind.TABLE_CREDIT).update(
        created_at=timezone.now() - timedelta(minutes=25)
    )
    assert wallet_actions.play_time_enforce() == [users[0].pk]
    seat = Seat.objects.get(user=users[0])
    assert seat.leave_after_hand  # still seated: he leaves when the hand settles
    play_hand_randomly(table, SeededRng(4), skip_user=users[0])
    assert not Seat.objects.filter(user=users[0]).exists()
    assert not Account.objects.filter(
        owner=users[0], kind=AccountKind.TABLE_CREDIT, closed_at__isnull=True
    ).exists()
