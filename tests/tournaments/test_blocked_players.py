"""A player who may no longer play (self-excluded, suspended, made staff) leaves his tournaments:
his open registrations are cancelled and refunded, the close never admits him."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from piattaforma import roles
from piattaforma.actions import user_set_role, user_set_status
from piattaforma.models import User
from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import FUNDS, assert_ledger, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player
from tournaments import actions
from tournaments.models import Registration, Tournament
from wallet import actions as wallet_actions
from wallet.selectors import ledger_totals

pytestmark = pytest.mark.django_db
S = Registration.State


def close_now(t: Tournament):
    return actions.tournament_close(tournament_id=t.pk, now=t.starts_at - timedelta(minutes=2))


def block(user, how: str) -> None:
    if how == "self_excluded":
        wallet_actions.user_self_exclude(user=user, until=timezone.now() + timedelta(days=30), reason="pausa")
    elif how == "suspended":
        user_set_status(user=user, status=User.Status.SUSPENDED, actor=None, reason="verifica")
    else:
        user_set_role(user=user, role=roles.MODERATORS)


@pytest.mark.parametrize("how", ["self_excluded", "suspended", "made_moderator"])
def test_a_blocked_player_s_open_registrations_are_cancelled_and_refunded(staff, players, how):
    paid, free = make_tournament(staff), make_tournament(staff, training=True)
    waiting = make_tournament(staff, name="In attesa")
    for p in players[:4]:
        enter(paid, p)
        enter(free, p)
    authorise_all(paid)
    enter(waiting, players[0])  # still waiting for the regulator's answer
    assert money(players[0]) == FUNDS - 2 * paid.cost
    block(players[0], how)
    states = dict(Registration.objects.filter(user=players[0]).values_list("tournament_id", "state"))
    assert states == {paid.pk: S.CANCELLED, free.pk: S.CANCELLED, waiting.pk: S.CANCELLED}
    assert money(players[0]) == FUNDS
    assert ledger_totals() == {"real": 0}
    assert_ledger(paid, players[:4])
    # the regulator's late answer on the waiting one changes nothing
    actions.registration_authorise(
        registration_id=Registration.objects.get(tournament=waiting, user=players[0]).pk
    )
    assert Registration.objects.get(tournament=waiting, user=players[0]).state == S.CANCELLED
    assert money(players[0]) == FUNDS
    # the others play on
    assert Registration.objects.filter(tournament=paid, state=S.AUTHORISED).count() == 3


def test_the_close_never_admits_a_blocked_player_and_refunds_him(staff, players):
    """A block that reached the tournament without its hook (a status written elsewhere, an answer
    of the regulator after it): the close excludes and refunds him."""
    t = make_tournament(staff, max_players=16)
    for p in players[:5]:
        enter(t, p)
    authorise_all(t)
    User.objects.filter(pk=players[0].pk).update(status=User.Status.SELF_EXCLUDED)
    result = close_now(t)
    assert result["admitted"] == 4
    reg = Registration.objects.get(tournament=t, user=players[0])
    assert reg.state == S.EXCLUDED and reg.refund_transaction
    assert money(players[0]) == FUNDS
    admitted = set(
        Registration.objects.filter(tournament=t, state=S.ADMITTED).values_list("user_id", flat=True)
    )
    assert admitted == {p.pk for p in players[1:5]}
    assert ledger_totals() == {"real": 0}


def test_a_running_tournament_is_left_to_its_own_rules(staff, players):
    """Closed registration: the block does not touch the admitted (the tables stand him up)."""
    t = make_tournament(staff)
    for p in players[:4]:
        enter(t, p)
    authorise_all(t)
    close_now(t)
    assert actions.registrations_withdraw_blocked(players[0]) == 0
    assert Registration.objects.get(tournament=t, user=players[0]).state == S.ADMITTED


def test_a_blocked_player_joins_no_waiting_list_of_a_money_table(client):
    from lobby import door
    from lobby.models import WaitingEntry
    from tests.lobby.factories import poker_table
    from tests.lobby.helpers import seat_players
    from wallet.errors import PlayerNotAllowed

    table = poker_table(seats=2)
    seat_players(table, [funded_player(), funded_player()])
    blocked = funded_player()
    block(blocked, "self_excluded")
    with pytest.raises(PlayerNotAllowed):
        door.waiting_join(table_id=table.pk, user=blocked)
    sign_in(client, blocked)
    page = client.post(f"/lobby/tavolo/{table.pk}/attesa/", follow=True)
    assert page.status_code == 200 and "autoescluso" in page.content.decode()
    assert not WaitingEntry.objects.filter(user=blocked).exists()
