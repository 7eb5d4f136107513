"""Training tournaments (rules 004, "Tavoli e tornei di allenamento"): "Conferma iscrizione" from 4 to
2 minutes before the start, brown sphere and black nickname until confirmed, no freeroll colour."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.conftest import enter, funded_player, make_tournament
from tournaments import actions, errors, selectors
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db
RS = Registration.State


def _training(staff, starts_in: timedelta, **overrides) -> Tournament:
    values = {
        "name": "Allenamento della sera",
        "training": True,
        "confirmation_required": True,
        "pool_quota": 0,
        "fee": 0,
        "starts_at": _now() + starts_in,
        **overrides,
    }
    return make_tournament(staff, **values)


def _now():
    from django.utils import timezone

    return timezone.now()


def test_confirmation_only_in_its_window_and_the_unconfirmed_do_not_play(staff, client):
    t = _training(staff, timedelta(minutes=30))
    players = [funded_player(0) for _ in range(5)]
    for p in players:
        assert enter(t, p).state == RS.AUTHORISED  # free: no regulator
    start = t.starts_at
    # too early (the button appears 4 minutes before the start): refused, nothing changes
    with pytest.raises(errors.ConfirmationNotOpen):
        actions.registration_confirm(tournament_id=t.pk, user=players[0], now=start - timedelta(minutes=5))
    assert not Registration.objects.filter(tournament=t, confirmed_at__isnull=False).exists()
    for p in players[:4]:
        actions.registration_confirm(tournament_id=t.pk, user=p, now=start - timedelta(minutes=3))
    first = Registration.objects.get(tournament=t, user=players[0]).confirmed_at
    actions.registration_confirm(
        tournament_id=t.pk, user=players[0], now=start - timedelta(minutes=2, seconds=30)
    )
    assert Registration.objects.get(tournament=t, user=players[0]).confirmed_at == first  # twice: no change
    # at the close (2 minutes before) the button is gone
    with pytest.raises(errors.ConfirmationNotOpen):
        actions.registration_confirm(tournament_id=t.pk, user=players[4], now=start - timedelta(minutes=2))
    closing = actions.tournament_close(tournament_id=t.pk, now=start - timedelta(minutes=2))
    assert closing is not None and closing["admitted"] == 4 and not closing["cancelled"]
    states = dict(Registration.objects.filter(tournament=t).values_list("user_id", "state"))
    assert states == {**{p.pk: RS.ADMITTED for p in players[:4]}, players[4].pk: RS.UNCONFIRMED}
    client.force_login(players[4])
    assert 'data-testid="missed-confirmation"' in client.get(f"/tornei/{t.pk}/").content.decode()
    client.force_login(players[0])
    assert 'data-testid="missed-confirmation"' not in client.get(f"/tornei/{t.pk}/").content.decode()


def test_confirm_refusals_change_nothing(staff):
    money_t = make_tournament(staff)
    player = funded_player()
    enter(money_t, player)
    with pytest.raises(errors.ConfirmationNotRequired):
        actions.registration_confirm(tournament_id=money_t.pk, user=player)
    t = _training(staff, timedelta(minutes=3))
    with pytest.raises(errors.NotRegistered):
        actions.registration_confirm(tournament_id=t.pk, user=player)
    assert not Registration.objects.filter(confirmed_at__isnull=False).exists()


@pytest.mark.parametrize(
    "overrides", [{"training": False}, {"kind": Tournament.Kind.SITGO, "max_players": 4}]
)
def test_confirmation_is_asked_only_in_scheduled_training_tournaments(staff, overrides):
    count = Tournament.objects.count()
    with pytest.raises(errors.InvalidTournament) as refused:
        _training(staff, timedelta(hours=1), **overrides)
    assert "confirmation_required" in refused.value.details["fields"]
    assert Tournament.objects.count() == count


def test_spheres_nicknames_and_list_look_of_a_training_tournament(staff, client):
    t = _training(staff, timedelta(minutes=3))  # the confirmation window is open now
    freeroll = make_tournament(staff, name="Freeroll", pool_quota=0, fee=0, guaranteed=1000)
    player = funded_player(0)
    client.force_login(player)
    client.post(f"/tornei/{t.pk}/iscriviti/", {"idempotency_key": "k1"})
    rows = {r["id"]: r for r in selectors.tournament_list(kind="scheduled", user_id=player.pk)}
    assert rows[t.pk]["sphere"] == "brown"  # "il giocatore deve cliccare sul tasto conferma iscrizione"
    assert rows[t.pk]["colour"] == "" and rows[freeroll.pk]["colour"] == "freeroll"
    assert rows[t.pk]["cost_total"] == "10 PT (fittizio)"
    assert [e["colour"] for e in selectors.entrants(tournament=t)] == ["black"]
    page = client.get(f"/tornei/{t.pk}/").content.decode()
    assert 'data-testid="confirm"' in page and 'data-testid="confirmation"' in page
    client.post(f"/tornei/{t.pk}/conferma/")
    rows = {r["id"]: r for r in selectors.tournament_list(kind="scheduled", user_id=player.pk)}
    assert rows[t.pk]["sphere"] == "green"
    assert [e["colour"] for e in selectors.entrants(tournament=t)] == ["blue"]
    page = client.get(f"/tornei/{t.pk}/").content.decode()
    assert 'data-testid="confirm"' not in page
    listing = client.get(f"/tornei/?t={t.pk}").content.decode()
    assert 'data-testid="training"' in listing and "t-row--freeroll is-selected" not in listing


def test_the_button_is_not_shown_before_its_window(staff, client):
    t = _training(staff, timedelta(minutes=20))
    player = funded_player(0)
    enter(t, player)
    client.force_login(player)
    page = client.get(f"/tornei/{t.pk}/").content.decode()
    assert 'data-testid="confirm"' not in page
    assert "Dovrai confermare la tua iscrizione" in page
    client.post(f"/tornei/{t.pk}/conferma/")  # forged: refused
    assert Registration.objects.get(tournament=t, user=player).confirmed_at is None
