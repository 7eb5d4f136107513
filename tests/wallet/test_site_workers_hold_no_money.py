"""Staff, moderators and superusers hold no game money and take no seat at money tables or tournaments.

The rule lives in one check (``wallet.actions.check_player_can_play``) that every entry passes:
deposits, real-money buy-ins and rebuys, the waiting list of a real-money table, tournament
registrations. Play-money training tables stay open to them (play money has no value).
"""

from __future__ import annotations

import pytest

from lobby import door
from lobby.models import Seat, WaitingEntry
from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.factories import make_tournament
from tests.wallet.conftest import ledger_snapshot
from tests.wallet.factories import funded_player
from tournaments.models import Registration
from wallet import actions, selectors
from wallet.errors import SiteWorkerNoGameMoney

pytestmark = pytest.mark.django_db

REFUSAL = "Lo staff e i moderatori non giocano con denaro"


def site_worker(kind: str):
    if kind == "superuser":
        return UserFactory(is_superuser=True, is_staff=True)
    return UserFactory(role=kind)


WORKERS = [roles.STAFF, roles.MODERATORS, "superuser"]


@pytest.mark.parametrize("kind", WORKERS)
def test_site_workers_cannot_deposit_and_nothing_moves(kind):
    worker = site_worker(kind)
    before = ledger_snapshot()
    with pytest.raises(SiteWorkerNoGameMoney) as exc:
        actions.deposit_create(user=worker, amount=1_000, idempotency_key=f"d-{kind}")
    assert exc.value.code == "staff_no_game_money" and REFUSAL in exc.value.message
    assert ledger_snapshot() == before


def test_a_player_still_deposits():
    player = UserFactory()
    actions.deposit_create(user=player, amount=1_000, idempotency_key="d-player")


def test_deposit_page_refuses_staff_in_italian(client):
    worker = site_worker(roles.STAFF)
    sign_in(client, worker)
    before = ledger_snapshot()
    page = client.post("/conto/deposito/", {"amount": "10,00", "idempotency_key": "k1"})
    assert page.status_code == 200 and REFUSAL in page.content.decode()
    assert ledger_snapshot() == before


@pytest.mark.parametrize("kind", WORKERS)
def test_site_workers_take_no_seat_at_a_real_money_table(client, kind):
    """Even a worker who holds money (he had it as a player) cannot bring it to a table."""
    worker = funded_player(10_000)
    if kind == "superuser":
        type(worker).objects.filter(pk=worker.pk).update(is_superuser=True, is_staff=True)
    else:
        from piattaforma.actions import user_set_role

        user_set_role(user=worker, role=kind)
    worker.refresh_from_db()
    table = poker_table()
    with pytest.raises(SiteWorkerNoGameMoney):
        door.table_sit(table_id=table.pk, user=worker, seat_no=1, buy_in=5_000, idempotency_key="s1")
    sign_in(client, worker)
    page = client.post(f"/lobby/tavolo/{table.pk}/siediti/", {"seat": 1, "buy_in": "50,00"}, follow=True)
    assert REFUSAL in page.content.decode()
    assert not Seat.objects.filter(user=worker).exists()


def test_site_workers_join_no_waiting_list_of_a_money_table(client):
    worker = site_worker(roles.MODERATORS)
    table = poker_table(seats=2)
    seat_players(table, [funded_player(), funded_player()])
    with pytest.raises(SiteWorkerNoGameMoney):
        door.waiting_join(table_id=table.pk, user=worker)
    sign_in(client, worker)
    page = client.post(f"/lobby/tavolo/{table.pk}/attesa/", follow=True)
    assert page.status_code == 200 and REFUSAL in page.content.decode()
    assert not WaitingEntry.objects.filter(user=worker).exists()
    player = funded_player()
    door.waiting_join(table_id=table.pk, user=player)  # a player may
    assert WaitingEntry.objects.filter(user=player).exists()


def test_staff_may_sit_at_a_play_money_training_table():
    worker = site_worker(roles.STAFF)
    actions.play_money_top_up(user=worker, amount=10_000, idempotency_key="play")
    table = poker_table(realm="play")
    door.table_sit(table_id=table.pk, user=worker, seat_no=1, buy_in=5_000, idempotency_key="p1")
    assert Seat.objects.filter(table=table, user=worker).exists()


@pytest.mark.parametrize("training", [False, True])
def test_site_workers_enter_no_tournament(client, training):
    staff = site_worker(roles.STAFF)
    tournament = make_tournament(staff, training=training)
    for kind in (roles.STAFF, roles.MODERATORS):
        worker = site_worker(kind)
        sign_in(client, worker)
        page = client.post(f"/tornei/{tournament.pk}/iscriviti/", follow=True)
        assert REFUSAL in page.content.decode()
    assert not Registration.objects.filter(tournament=tournament).exists()
    player = funded_player()
    sign_in(client, player)
    client.post(f"/tornei/{tournament.pk}/iscriviti/")
    assert Registration.objects.filter(tournament=tournament, user=player).exists()


def test_a_player_made_moderator_leaves_his_money_tables_with_his_credit():
    from piattaforma.actions import user_set_role

    player = funded_player(20_000)
    table = poker_table()
    seat_players(table, [player], buy_in=5_000)
    user_set_role(user=player, role=roles.MODERATORS)
    assert not Seat.objects.filter(user=player).exists()
    assert selectors.balance_get(user=player)["cash"] == 20_000


def test_no_staff_correction_credits_real_money_to_the_site_s_people():
    from piattaforma.actions import user_set_role
    from wallet.models import Account

    worker, colleague, player = funded_player(5_000), UserFactory(role=roles.STAFF), funded_player(5_000)
    user_set_role(user=worker, role=roles.MODERATORS)
    worker_cash = Account.objects.get(owner=worker, kind="player_cash", realm="real")
    before = ledger_snapshot()
    with pytest.raises(SiteWorkerNoGameMoney):
        actions.ledger_adjust(
            account_id=worker_cash.pk,
            amount=1_000,
            reason="Rimborso guasto",
            actor=colleague,
            idempotency_key="c1",
        )
    assert ledger_snapshot() == before
    player_cash = Account.objects.get(owner=player, kind="player_cash", realm="real")
    actions.ledger_adjust(  # a player's correction goes through
        account_id=player_cash.pk,
        amount=1_000,
        reason="Rimborso guasto",
        actor=colleague,
        idempotency_key="c2",
    )
    assert selectors.balance_get(user=player)["cash"] == 6_000
