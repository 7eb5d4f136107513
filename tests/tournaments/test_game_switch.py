"""Tournaments and a game switch (rules 004, "Disattivazione giochi"); the site hours' registration pause."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from piattaforma import siteops
from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import authorise_all
from tests.tournaments.factories import enter, make_tournament
from tournaments import actions
from tournaments.models import Registration, Tournament
from wallet import selectors as wallet_selectors
from wallet.models import Account

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def switch(staff, game="scopa", *, on=False, until=None):
    return siteops.game_switch_set(
        game=game,
        money_enabled=on,
        training_enabled=True,
        actor=staff,
        reason="Manutenzione",
        reactivate_at=until,
    )


def cash(user) -> int:
    return wallet_selectors.balance_get(user=user)["cash"]


def test_scheduled_tournaments_of_the_game_are_cancelled_and_refunded(staff, players):
    scheduled = make_tournament(staff)
    later = make_tournament(staff, name="Fra una settimana", starts_at=timezone.now() + timedelta(days=7))
    briscola = make_tournament(staff, game="briscola")
    running = make_tournament(staff, name="In corso")
    for t in (scheduled, later, briscola, running):
        for p in players[:4]:
            enter(t, p)
        authorise_all(t)
    Tournament.objects.filter(pk=running.pk).update(state=Tournament.State.RUNNING)
    before = {p.pk: cash(p) for p in players[:4]}
    switch(staff, until=timezone.now() + timedelta(days=1))
    for t in (scheduled, later, briscola, running):
        t.refresh_from_db()
    assert scheduled.state == Tournament.State.CANCELLED  # would have started while the game is off
    assert later.state == Tournament.State.REGISTRATION  # starts after the planned reactivation
    assert briscola.state == Tournament.State.REGISTRATION  # another game
    assert running.state == Tournament.State.RUNNING  # rule 1: it goes on to its end
    assert set(scheduled.registrations.values_list("state", flat=True)) == {Registration.State.REFUNDED}
    for p in players[:4]:
        assert cash(p) == before[p.pk] + scheduled.cost  # entry back in full, fee included
    assert wallet_selectors.tournament_pool_get(tournament_ref=scheduled.ledger_ref) == 0
    assert sum(Account.objects.values_list("balance", flat=True)) == 0


def test_no_registration_nor_cancellation_while_the_game_is_off(staff, players):
    t = make_tournament(staff, starts_at=timezone.now() + timedelta(days=3))
    enter(t, players[0])
    authorise_all(t)
    switch(staff, until=timezone.now() + timedelta(days=1))
    balance = cash(players[1])
    with pytest.raises(siteops.GameDisabled) as refused:
        enter(t, players[1])
    assert refused.value.code == "game_disabled"
    assert cash(players[1]) == balance and not t.registrations.filter(user=players[1]).exists()
    with pytest.raises(siteops.GameDisabled):
        actions.registration_cancel(tournament_id=t.pk, user=players[0])
    assert t.registrations.get(user=players[0]).state == Registration.State.AUTHORISED


def test_sitgo_registrations_wait_and_are_refunded_on_reactivation(staff, players):
    sitgo = make_tournament(staff, kind=Tournament.Kind.SITGO, min_players=4, max_players=4)
    for p in players[:2]:
        enter(sitgo, p)
    authorise_all(sitgo)
    paid = {p.pk: cash(p) for p in players[:2]}
    switch(staff)
    sitgo.refresh_from_db()
    assert sitgo.state == Tournament.State.REGISTRATION  # kept while off (nobody may leave or join)
    assert all(cash(p) == paid[p.pk] for p in players[:2])
    switch(staff, on=True)  # rule 5: back on, every sit&go registration is refunded
    sitgo.refresh_from_db()
    assert sitgo.state == Tournament.State.REGISTRATION
    assert set(sitgo.registrations.values_list("state", flat=True)) == {Registration.State.REFUNDED}
    assert all(cash(p) == paid[p.pk] + sitgo.cost for p in players[:2])
    assert wallet_selectors.tournament_pool_get(tournament_ref=sitgo.ledger_ref) == 0
    enter(sitgo, players[0])  # and registrations are open again


def test_site_hours_pause_registrations_but_not_cancellations(staff, players, settings, monkeypatch):
    settings.SITE_HOURS_ENFORCED = True
    siteops.site_hours_forget()
    at = datetime(2026, 3, 10, 4, 10, tzinfo=ROME)
    monkeypatch.setattr(timezone, "now", lambda: at.replace(hour=12))  # (whatever the hour of the run)
    t = make_tournament(staff, starts_at=timezone.now() + timedelta(days=3))
    enter(t, players[0])
    authorise_all(t)
    monkeypatch.setattr(timezone, "now", lambda: at)
    with pytest.raises(siteops.RegistrationsPaused) as refused:
        enter(t, players[1])
    assert refused.value.code == "registrations_paused"
    assert not t.registrations.filter(user=players[1]).exists()
    reg = actions.registration_cancel(tournament_id=t.pk, user=players[0])  # "è possibile cancellarsi"
    assert reg.state == Registration.State.CANCEL_PENDING
    monkeypatch.setattr(timezone, "now", lambda: at.replace(hour=5, minute=46))
    enter(t, players[1])


def test_a_switch_needs_a_reason_and_a_known_game(staff):
    with pytest.raises(siteops.SiteOpsError):
        siteops.game_switch_set(
            game="scopa", money_enabled=False, training_enabled=True, actor=staff, reason=""
        )
    with pytest.raises(siteops.SiteOpsError):
        siteops.game_switch_set(
            game="dama", money_enabled=False, training_enabled=True, actor=staff, reason="prova!"
        )
    assert siteops.game_enabled("scopa")


def test_fault_cancellation_is_previewed_with_each_refund_then_refunds_zero_sum(client, staff, players):
    t = make_tournament(staff)
    for p in players[:3]:
        enter(t, p)
    authorise_all(t)
    sign_in(client, staff)
    url = "/backoffice/tournaments/tournament/"
    page = client.post(url, {"action": "cancel_for_fault", "_selected_action": [t.pk]}).content.decode()
    for p in players[:3]:
        assert p.nickname in page
    assert page.count("10,00") >= 3 and "30,00" in page  # each entry back whole, and the total
    t.refresh_from_db()
    assert t.state == Tournament.State.REGISTRATION  # the preview changed nothing
    paid = {p.pk: cash(p) for p in players[:3]}
    client.post(url, {"action": "cancel_for_fault", "_selected_action": [t.pk], "reason": "Guasto al server"})
    t.refresh_from_db()
    assert t.state == Tournament.State.CANCELLED
    assert all(cash(p) == paid[p.pk] + t.cost for p in players[:3])
    assert wallet_selectors.tournament_pool_get(tournament_ref=t.ledger_ref) == 0
    assert sum(Account.objects.values_list("balance", flat=True)) == 0


def test_each_section_of_a_switch_acts_on_its_own_tournaments(staff, players):
    """The training half works on its own: off in training leaves the money tournaments alone, and
    off in money leaves the training ones alone (registrations, cancellations, the cancelling)."""
    soon = timezone.now() + timedelta(hours=3)
    money = make_tournament(staff, name="Money", starts_at=soon)
    training = make_tournament(staff, name="Allenamento", training=True, starts_at=soon)
    for t in (money, training):
        enter(t, players[0])
        authorise_all(t)
    siteops.game_switch_set(
        game="scopa", money_enabled=True, training_enabled=False, actor=staff, reason="Solo allenamento"
    )
    money.refresh_from_db()
    training.refresh_from_db()
    assert training.state == Tournament.State.CANCELLED and money.state == Tournament.State.REGISTRATION
    enter(money, players[1])  # the money half is on: registrations go on
    with pytest.raises(siteops.GameDisabled):
        enter(make_tournament(staff, name="Altro allenamento", training=True, starts_at=soon), players[2])
    siteops.game_switch_set(
        game="scopa", money_enabled=False, training_enabled=True, actor=staff, reason="Solo money"
    )
    other = make_tournament(staff, name="Allenamento due", training=True, starts_at=soon)
    enter(other, players[3])  # the training half is back on while money is off
    authorise_all(other)
    actions.registration_cancel(tournament_id=other.pk, user=players[3])  # and cancellations too
    money.refresh_from_db()
    assert money.state == Tournament.State.CANCELLED
