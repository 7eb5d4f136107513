"""The slot under the game switches (rules 004, "Disattivazione giochi") and out of the ratings."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from piattaforma import siteops
from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.test_slot import SLOT, play_bots, started
from tournaments import errors, rankings, running
from tournaments.models import Registration, SkillLevel, Tournament
from wallet import selectors as wallet_selectors
from wallet.models import Account

pytestmark = pytest.mark.django_db


def cash(user) -> int:
    return wallet_selectors.balance_get(user=user)["cash"]


def scheduled_slot(staff, **overrides) -> Tournament:
    values = {**SLOT, "kind": Tournament.Kind.SCHEDULED, "max_players": 8, "slot_minutes": 2, **overrides}
    return make_tournament(staff, **values)


def test_the_slot_is_a_switchable_game(staff, client):
    assert siteops.switchable_games()["slot"] == "Pierino Tenta la Fortuna"
    sign_in(client, staff)
    page = client.get("/backoffice/piattaforma/gameswitch/").content.decode()
    assert "Pierino Tenta la Fortuna" in page and "/backoffice/piattaforma/gameswitch/slot/switch/" in page
    confirm = client.post(
        "/backoffice/piattaforma/gameswitch/slot/switch/",
        {"training_enabled": "on", "reason": "Verifica della slot"},
    ).content.decode()
    assert "Pierino Tenta la Fortuna" in confirm and siteops.game_enabled("slot")  # a preview only
    client.post(
        "/backoffice/piattaforma/gameswitch/slot/switch/",
        {"training_enabled": "on", "reason": "Verifica della slot", "confirm": "1"},
    )
    assert not siteops.game_enabled("slot") and siteops.game_enabled("slot", "play")
    assert siteops.game_enabled("poker5")  # the other games stay on


def test_slot_off_refuses_registrations_and_cancels_and_refunds(staff, players):
    soon = scheduled_slot(staff)
    later = scheduled_slot(staff, name="Slot fra una settimana", starts_at=timezone.now() + timedelta(days=7))
    training = scheduled_slot(staff, name="Slot di allenamento", training=True)
    poker = make_tournament(staff, game="scopa", smazzate=1)
    for t in (soon, later, poker):
        for p in players[:3]:
            enter(t, p)
        authorise_all(t)
    before = {p.pk: cash(p) for p in players[:3]}
    siteops.game_switch_set(
        game="slot",
        money_enabled=False,
        training_enabled=True,
        actor=staff,
        reason="Manutenzione della slot",
        reactivate_at=timezone.now() + timedelta(days=1),
    )
    for t in (soon, later, training, poker):
        t.refresh_from_db()
    assert soon.state == Tournament.State.CANCELLED
    assert set(soon.registrations.values_list("state", flat=True)) == {Registration.State.REFUNDED}
    assert later.state == Tournament.State.REGISTRATION  # starts after the planned reactivation
    assert training.state == Tournament.State.REGISTRATION  # the training section stays on
    assert poker.state == Tournament.State.REGISTRATION  # another game
    for p in players[:3]:
        assert cash(p) == before[p.pk] + soon.cost
    assert wallet_selectors.tournament_pool_get(tournament_ref=soon.ledger_ref) == 0
    assert sum(Account.objects.values_list("balance", flat=True)) == 0
    # registrations refused with the switch's message, nothing paid
    balance = cash(players[4])
    with pytest.raises(siteops.GameDisabled) as refused:
        enter(later, players[4])
    assert refused.value.code == "game_disabled" and "disattivato" in refused.value.message
    assert cash(players[4]) == balance and not later.registrations.filter(user=players[4]).exists()
    enter(training, players[4])  # the training slot is still open


def test_a_slot_tournament_gives_no_rating_nor_skill_level(staff):
    t, players = started(staff, starting_chips=3_000)
    start = t.started_at
    ends = start + timedelta(minutes=t.slot_minutes)
    play_bots(t, players, start, ends, random.Random(7))
    assert running.tournament_advance(tournament_id=t.pk, now=ends)
    t.refresh_from_db()
    if t.progress["extra"] is not None:
        assert running.tournament_advance(tournament_id=t.pk, now=ends + timedelta(minutes=2))
        t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    regs = Registration.objects.filter(tournament=t)
    assert all(r.pt is not None for r in regs)  # scored (PT, leaderboards), as every tournament
    # the rating's own filter aside (a round played counted as a turn), the format alone keeps it out
    regs.update(turns_played=1, vp=1)
    # a turn tournament of the same players does give them a rating
    scopa = make_tournament(staff, game="scopa", smazzate=1, kind=Tournament.Kind.SCHEDULED)
    Tournament.objects.filter(pk=scopa.pk).update(state=Tournament.State.FINISHED, finished_at=timezone.now())
    for p in players:
        Registration.objects.create(
            tournament=scopa, user=p, state=Registration.State.ADMITTED, idempotency_key=f"k{p.pk}",
            pt=100, vp=10, turns_played=1,
        )  # fmt: skip
    rankings.skill_levels_update()
    assert not SkillLevel.objects.filter(game="slot").exists()
    assert SkillLevel.objects.filter(game="scopa").count() == len(players)
    assert all(row["game"] != "Pierino Tenta la Fortuna" for row in rankings.my_levels(user_id=players[0].pk))


def test_a_slot_tournament_admits_no_skill_levels(staff):
    with pytest.raises(errors.InvalidTournament) as exc:
        scheduled_slot(staff, skill_levels="1,2")
    assert "skill_levels" in exc.value.details["fields"]
