"""Responsible gaming beside the deposit limits: loss limits, session-time limits, reality checks,
self-exclusion that ends by the scheduled job, and the pending withdrawal in the statement."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from piattaforma import hooks
from piattaforma import tasks as core_tasks
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import ledger_snapshot
from wallet import actions, selectors
from wallet import tasks as wallet_tasks
from wallet.errors import InvalidAmount, InvalidState, LossLimitReached, PlayTimeLimitReached
from wallet.ledger import table_key
from wallet.models import Account, PlayLimit, Realm

NOW = timezone.now()


def buy_in(user, ref, amount=10_000):
    return actions.table_buy_in(
        user=user,
        table_session_ref=ref,
        amount=amount,
        min_amount=100,
        max_amount=100_000,
        idempotency_key=f"buyin:{user.pk}:{ref}",
    )


def lose_hand(loser, winner, ref_loser, ref_winner, amount, key):
    """Settle a hand in which ``loser`` pays ``amount`` to ``winner`` (no rake)."""
    actions.table_hand_settle(deltas={ref_loser: -amount, ref_winner: amount}, rake=0, idempotency_key=key)


def started_ago(user, ref, minutes):
    """Pretend the table session ``ref`` began ``minutes`` ago (the ledger's own record of it)."""
    Account.objects.filter(ref=table_key(ref, Realm.REAL, user.pk).ref).update(
        created_at=timezone.now() - timedelta(minutes=minutes)
    )


# --- setting limits: the 7-day rule -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["loss", "time"])
def test_lowering_is_immediate_raising_and_removing_wait_seven_days(player, kind):
    first = actions.play_limit_set(user=player, kind=kind, period="week", amount=600, now=NOW)
    assert first["amount"] == 600 and first["applies_from"] == NOW.isoformat()  # a first limit: now
    lowered = actions.play_limit_set(user=player, kind=kind, period="week", amount=300, now=NOW)
    assert lowered["amount"] == 300
    raised = actions.play_limit_set(user=player, kind=kind, period="week", amount=900, now=NOW)
    assert raised["amount"] == 300  # still in force
    assert raised["applies_from"] == (NOW + timedelta(days=7)).isoformat()
    view = selectors.play_limits_get(user=player, kind=kind, now=NOW + timedelta(days=6, hours=23))
    assert view["week"]["amount"] == 300 and view["week"]["pending_amount"] == 900
    view = selectors.play_limits_get(user=player, kind=kind, now=NOW + timedelta(days=7))
    assert view["week"]["amount"] == 900 and view["week"]["pending_from"] is None
    removed = actions.play_limit_set(
        user=player, kind=kind, period="week", amount=None, now=NOW + timedelta(days=8)
    )
    assert removed["amount"] == 900  # removal waits as well
    view = selectors.play_limits_get(user=player, kind=kind, now=NOW + timedelta(days=15))
    assert view["week"]["amount"] is None
    assert AuditLog.objects.filter(action="wallet.play_limit_set", actor=player).count() == 4


def test_bad_limits_are_refused(player):
    with pytest.raises(InvalidAmount):
        actions.play_limit_set(user=player, kind="time", period="day", amount=24 * 60 + 1)
    with pytest.raises(InvalidAmount):
        actions.play_limit_set(user=player, kind="loss", period="day", amount=-5)
    with pytest.raises(InvalidState):
        actions.play_limit_set(user=player, kind="deposit", period="day", amount=5)
    assert not PlayLimit.objects.exists()


# --- the loss limit ---------------------------------------------------------------------------------------


def test_loss_limit_refuses_a_buy_in_that_could_pass_it(funded, other_player):
    actions.deposit_create(user=other_player, amount=50_000, idempotency_key="fund-other")
    actions.play_limit_set(user=funded, kind="loss", period="day", amount=5_000)
    buy_in(funded, "a", 4_000)
    buy_in(other_player, "b", 4_000)
    lose_hand(funded, other_player, "a", "b", 3_000, "h1")  # funded lost € 30, € 10 still at table a
    assert selectors.net_result(user=funded, since=NOW - timedelta(days=1)) == -3_000
    assert selectors.money_at_tables(user=funded) == 1_000
    before = ledger_snapshot()
    with pytest.raises(LossLimitReached) as exc:
        buy_in(funded, "c", 1_500)  # worst case 30 + 10 + 15 > 50
    assert exc.value.code == "loss_limit_reached"
    assert exc.value.details["remaining"] == 1_000
    assert "puoi mettere in gioco ancora € 10,00" in exc.value.message
    assert ledger_snapshot() == before
    buy_in(funded, "d", 1_000)  # exactly to the limit: allowed
    with pytest.raises(LossLimitReached):  # a rebuy is a new stake too
        actions.table_rebuy(
            user=funded,
            table_session_ref="d",
            amount=100,
            max_amount=100_000,
            hand_in_progress=False,
            idempotency_key="rebuy",
        )


def test_winnings_leave_room(funded, other_player):
    actions.deposit_create(user=other_player, amount=50_000, idempotency_key="fund-other")
    actions.play_limit_set(user=other_player, kind="loss", period="day", amount=1_000)
    buy_in(funded, "a", 10_000)
    buy_in(other_player, "b", 1_000)
    lose_hand(funded, other_player, "a", "b", 5_000, "h1")
    assert selectors.net_result(user=other_player, since=NOW - timedelta(days=1)) == 5_000
    with pytest.raises(LossLimitReached):  # € 60 at table b and € 60 more could lose € 70 net
        buy_in(other_player, "c", 6_000)
    actions.table_cash_out(table_session_ref="b", idempotency_key="out-b")
    buy_in(other_player, "c", 6_000)  # with € 50 won and banked, € 60 at stake can lose € 10 net


def test_loss_limit_refuses_a_tournament_entry(funded):
    actions.play_limit_set(user=funded, kind="loss", period="month", amount=500)
    before = ledger_snapshot()
    with pytest.raises(LossLimitReached):
        actions.tournament_enter(
            user=funded, tournament_ref="t1", pool_quota=800, rake=200, idempotency_key="entry"
        )
    assert ledger_snapshot() == before


def test_a_raised_loss_limit_applies_only_after_seven_days(funded):
    long_ago = timezone.now() - timedelta(days=8)
    actions.play_limit_set(user=funded, kind="loss", period="day", amount=1_000, now=long_ago)
    actions.play_limit_set(user=funded, kind="loss", period="day", amount=20_000)  # raise: waits
    with pytest.raises(LossLimitReached):
        buy_in(funded, "a", 5_000)
    actions.play_limit_set(user=funded, kind="loss", period="day", amount=30_000, now=long_ago)
    # a raise asked 8 days ago is in force now
    buy_in(funded, "b", 5_000)


def test_play_money_is_not_limited(funded):
    actions.play_limit_set(user=funded, kind="loss", period="day", amount=100)
    actions.play_money_top_up(user=funded, amount=10_000, idempotency_key="p")
    actions.table_buy_in(
        user=funded,
        table_session_ref="p1",
        amount=5_000,
        min_amount=100,
        max_amount=100_000,
        idempotency_key="pb",
        realm=Realm.PLAY,
    )


# --- the session-time limit -------------------------------------------------------------------------------


def test_time_limit_refuses_a_new_seat(funded, midday_zone):
    actions.play_limit_set(user=funded, kind="time", period="day", amount=60)
    buy_in(funded, "a", 1_000)
    started_ago(funded, "a", 30)
    buy_in(funded, "b", 1_000)  # 30 minutes played: still allowed
    started_ago(funded, "a", 61)
    before = ledger_snapshot()
    with pytest.raises(PlayTimeLimitReached) as exc:
        buy_in(funded, "c", 1_000)
    assert exc.value.code == "play_time_limit_reached"
    assert "60 minuti" in exc.value.message
    assert ledger_snapshot() == before


def test_play_seconds_count_only_the_period(funded):
    buy_in(funded, "a", 1_000)
    actions.table_cash_out(table_session_ref="a", idempotency_key="out")
    Account.objects.filter(ref=table_key("a", Realm.REAL, funded.pk).ref).update(
        created_at=NOW - timedelta(hours=3), closed_at=NOW - timedelta(hours=1)
    )
    assert selectors.play_seconds(user=funded, since=NOW - timedelta(hours=2), now=NOW) == 3600
    assert selectors.play_seconds(user=funded, since=NOW - timedelta(hours=5), now=NOW) == 7200
    assert selectors.play_seconds(user=funded, since=NOW - timedelta(minutes=30), now=NOW) == 0


@pytest.fixture
def leaving():
    """Record the players the core asks to leave their tables (the lobby's handler in production)."""
    seen: list[int] = []

    def handler(user):
        seen.append(user.pk)

    hooks.on_player_leave_tables(handler)
    yield seen
    hooks._player_leave_tables.remove(handler)


def test_the_job_sends_away_players_past_their_time(funded, other_player, leaving, midday_zone):
    actions.deposit_create(user=other_player, amount=50_000, idempotency_key="fund-other")
    actions.play_limit_set(user=funded, kind="time", period="day", amount=45)
    actions.play_limit_set(user=other_player, kind="time", period="day", amount=45)
    buy_in(funded, "a", 1_000)
    buy_in(other_player, "b", 1_000)
    started_ago(funded, "a", 50)
    started_ago(other_player, "b", 20)
    assert wallet_tasks.enforce_play_time() == 1
    assert leaving == [funded.pk]


def test_the_lobby_stands_the_player_up_when_his_time_is_up():
    from lobby.door import tables_remove_player

    assert tables_remove_player in hooks._player_leave_tables  # lobby/apps.py registers it


# --- reality check ---------------------------------------------------------------------------------------


def test_reality_check_endpoint(client, funded, other_player):
    client.force_login(funded)
    url = reverse("wallet:reality_check")
    state = client.get(url).json()
    assert state["playing"] is False and state["due"] is False
    actions.deposit_create(user=other_player, amount=50_000, idempotency_key="fund-other")
    User.objects.filter(pk=funded.pk).update(reality_check_minutes=30)
    buy_in(funded, "a", 4_000)
    buy_in(other_player, "b", 4_000)
    lose_hand(funded, other_player, "a", "b", 1_250, "h1")
    started_ago(funded, "a", 10)
    state = client.get(url).json()
    assert state["playing"] is True and state["due"] is False and state["net_result"] == -1_250
    started_ago(funded, "a", 35)
    state = client.get(url).json()
    assert state["due"] is True
    assert state["message"] == "Stai giocando da 35 minuti. Risultato della sessione: -€ 12,50."
    assert state["labels"]["continue"] == "Continua"
    # "Continua": the next reminder one interval later
    assert client.post(reverse("wallet:reality_check_continue")).status_code == 200
    assert client.get(url).json()["due"] is False
    # English
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = client.get(url).json()
    assert english["labels"]["continue"] == "Continue"


def test_reality_check_shows_the_time_limit(client, funded, midday_zone):
    client.force_login(funded)
    actions.play_limit_set(user=funded, kind="time", period="day", amount=30)
    buy_in(funded, "a", 1_000)
    started_ago(funded, "a", 31)
    state = client.get(reverse("wallet:reality_check")).json()
    assert state["time_limit_reached"] is True
    assert "limite di tempo di gioco (30 minuti)" in state["time_limit_message"]


def test_reality_check_off_never_reminds(client, funded):
    User.objects.filter(pk=funded.pk).update(reality_check_minutes=0)
    client.force_login(funded)
    buy_in(funded, "a", 1_000)
    started_ago(funded, "a", 600)
    assert client.get(reverse("wallet:reality_check")).json()["due"] is False


def test_reality_check_needs_login_and_post(client, funded, leaving):
    url = reverse("wallet:reality_check")
    assert client.get(url).status_code == 302
    assert client.post(reverse("wallet:reality_check_stop")).status_code == 302  # to the login
    assert leaving == []
    client.force_login(funded)
    assert client.get(reverse("wallet:reality_check_stop")).status_code == 405
    response = client.post(reverse("wallet:reality_check_stop"))
    assert response.status_code == 302 and leaving == [funded.pk]
    assert AuditLog.objects.filter(action="wallet.play_stop", actor=funded).exists()


def test_play_limits_page(client, funded):
    client.force_login(funded)
    page = client.get(reverse("wallet:play_limits"))
    assert page.status_code == 200 and "Limiti di perdita e di tempo di gioco" in page.content.decode()
    data = {"loss_day": "50", "time_day": "120", "reality_check_minutes": "30"}
    assert client.post(reverse("wallet:play_limits"), data).status_code == 302
    assert selectors.play_limits_get(user=funded, kind="loss")["day"]["amount"] == 5_000
    assert selectors.play_limits_get(user=funded, kind="time")["day"]["amount"] == 120
    funded.refresh_from_db()
    assert funded.reality_check_minutes == 30
    # a raise waits: the page says so and the limit in force stays
    response = client.post(reverse("wallet:play_limits"), {**data, "loss_day": "80"}, follow=True)
    assert "avrà effetto dopo 7 giorni" in response.content.decode()
    assert selectors.play_limits_get(user=funded, kind="loss")["day"]["amount"] == 5_000
    bad = client.post(
        reverse("wallet:play_limits"), {**data, "time_day": "abc", "reality_check_minutes": "7"}
    )
    assert bad.status_code == 200 and bad.context["form"].errors.keys() == {
        "time_day",
        "reality_check_minutes",
    }


# --- self-exclusion that ends ------------------------------------------------------------------------------


def test_self_exclusion_ends_on_its_date_by_the_job(db):
    ends = UserFactory()
    permanent = UserFactory()
    later = UserFactory()
    actions.user_self_exclude(user=ends, until=timezone.now() - timedelta(minutes=1), reason="pausa")
    actions.user_self_exclude(user=permanent, until=None, reason="per sempre")
    actions.user_self_exclude(user=later, until=timezone.now() + timedelta(days=30), reason="pausa")
    assert core_tasks.lift_self_exclusions() == 1
    for user in (ends, permanent, later):
        user.refresh_from_db()
    assert ends.status == User.Status.ACTIVE and ends.self_excluded_until is None and ends.can_play
    assert permanent.status == User.Status.SELF_EXCLUDED
    assert later.status == User.Status.SELF_EXCLUDED
    line = AuditLog.objects.filter(action="user.set_status", target_id=str(ends.pk)).latest("id")
    assert line.actor is None and line.data["to"] == "active" and "Autoesclusione terminata" in line.reason
    assert core_tasks.lift_self_exclusions() == 0  # once


def test_self_exclusion_lift_at_a_later_time(db):
    from piattaforma.actions import self_exclusions_lift

    user = UserFactory()
    until = timezone.now() + timedelta(days=30)
    actions.user_self_exclude(user=user, until=until, reason="pausa")
    assert self_exclusions_lift(now=until - timedelta(seconds=1)) == []
    assert self_exclusions_lift(now=until) == [user.pk]
    user.refresh_from_db()
    assert user.can_play


def test_suspended_players_are_not_lifted(db):
    from piattaforma.actions import self_exclusions_lift, user_set_status

    user = UserFactory()
    user_set_status(
        user=user, status=User.Status.SUSPENDED, actor=None, reason="dumping", until=timezone.now()
    )
    assert self_exclusions_lift(now=timezone.now() + timedelta(days=1)) == []


# --- the statement ------------------------------------------------------------------------------------------


def test_statement_shows_the_pending_withdrawal_and_pluralises(client, funded):
    client.force_login(funded)
    page = client.get(reverse("wallet:statement")).content.decode()
    assert "1 movimento" in page and "1 movimenti" not in page
    actions.withdrawal_request(user=funded, amount=2_500, idempotency_key="w")
    page = client.get(reverse("wallet:statement")).content.decode()
    assert 'data-testid="pending-withdrawal"' in page and "€ 25,00" in page
    assert "In attesa di approvazione" in page
    assert (
        "pending-withdrawal"
        not in client.get(reverse("wallet:statement"), {"account": "bonus"}).content.decode()
    )
    assert (
        "pending-withdrawal"
        not in client.get(reverse("wallet:statement"), {"kind": "deposit"}).content.decode()
    )
    actions.deposit_create(user=funded, amount=1_000, idempotency_key="d2")
    assert "2 movimenti" in client.get(reverse("wallet:statement")).content.decode()
