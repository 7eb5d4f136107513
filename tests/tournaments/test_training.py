"""Training tournaments (rules 004, "Tavoli e tornei di allenamento"): "Conferma iscrizione" from 4 to
2 minutes before the start, brown sphere and black nickname until confirmed, no freeroll colour."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import FUNDS
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player
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
    sign_in(client, players[4])
    assert 'data-testid="missed-confirmation"' in client.get(f"/tornei/{t.pk}/").content.decode()
    sign_in(client, players[0])
    assert 'data-testid="missed-confirmation"' not in client.get(f"/tornei/{t.pk}/").content.decode()


def test_confirm_refusals_change_nothing(staff):
    money_t = make_tournament(staff)
    player = funded_player(FUNDS)
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
    sign_in(client, player)
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
    sign_in(client, player)
    page = client.get(f"/tornei/{t.pk}/").content.decode()
    assert 'data-testid="confirm"' not in page
    assert "Dovrai confermare la tua iscrizione" in page
    client.post(f"/tornei/{t.pk}/conferma/")  # forged: refused
    assert Registration.objects.get(tournament=t, user=player).confirmed_at is None


# --- the training section's differences: free, a limit of tournaments at once, no cancellation ---


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"pool_quota": 900, "fee": 100}, "fee"),
        ({"fee": 100}, "fee"),
        ({"guaranteed": 5_000}, "guaranteed"),
        ({"training": False, "cancellation_allowed": False}, "cancellation_allowed"),
    ],
)
def test_training_tournaments_are_free_and_only_they_may_forbid_cancelling(staff, overrides, field):
    """ "I tornei di allenamento sono gratuiti ... non si vincono soldi o premi in denaro"."""
    count = Tournament.objects.count()
    with pytest.raises(errors.InvalidTournament) as refused:
        _training(staff, timedelta(hours=1), confirmation_required=False, **overrides)
    assert field in refused.value.details["fields"]
    assert Tournament.objects.count() == count


def test_one_scheduled_training_tournament_at_a_time(staff, client):
    """ "Si può partecipare a un solo torneo programmato per volta" (training section only)."""
    first = _training(staff, timedelta(hours=1), confirmation_required=False)
    second = _training(staff, timedelta(hours=2), confirmation_required=False, name="Allenamento 2")
    money = make_tournament(staff, name="Money")
    sitgo = _training(
        staff, timedelta(0), kind=Tournament.Kind.SITGO, max_players=4, confirmation_required=False
    )
    player = funded_player(FUNDS)
    enter(first, player)
    with pytest.raises(errors.TrainingScheduledLimit) as refused:
        enter(second, player)
    assert refused.value.code == "training_scheduled_limit"
    assert not Registration.objects.filter(tournament=second).exists()
    enter(money, player)  # money tournaments and training sit&go are not counted
    enter(sitgo, player)
    sign_in(client, player)
    lobby = client.get(f"/tornei/{second.pk}/").content.decode()  # the lobby says why, with no button
    assert 'data-testid="register-refusal"' in lobby and "un solo torneo programmato per volta" in lobby
    assert 'data-testid="register"' not in lobby
    # the page says why, in Italian, and changes nothing
    page = client.post(f"/tornei/{second.pk}/iscriviti/", {"idempotency_key": "page"}, follow=True)
    assert "un solo torneo programmato per volta" in page.content.decode()
    assert not Registration.objects.filter(tournament=second).exists()
    actions.registration_cancel(tournament_id=first.pk, user=player)  # free: cancelled at once
    lobby = client.get(f"/tornei/{second.pk}/").content.decode()
    assert 'data-testid="register"' in lobby and 'data-testid="register-refusal"' not in lobby
    assert enter(second, player).state == RS.AUTHORISED
    third = _training(staff, timedelta(hours=3), confirmation_required=False, name="Allenamento 3")
    with pytest.raises(errors.TrainingScheduledLimit):
        enter(third, player)
    Tournament.objects.filter(pk=second.pk).update(state=Tournament.State.FINISHED)  # it ended
    assert enter(third, player).state == RS.AUTHORISED


def test_at_most_two_training_sitgo_at_once(staff):
    """ "Si può partecipare al massimo a 2 tornei sit&go contemporaneamente" (training section)."""
    sitgos = [
        _training(
            staff,
            timedelta(0),
            kind=Tournament.Kind.SITGO,
            max_players=2,
            confirmation_required=False,
            name=f"S{i}",
        )
        for i in range(3)
    ]
    player, rival = funded_player(FUNDS), funded_player(FUNDS)
    enter(sitgos[0], player)
    enter(sitgos[0], rival)  # full: it closes and the player is admitted, still taking part
    sitgos[0].refresh_from_db()
    assert sitgos[0].state not in Tournament.OPEN_STATES
    enter(sitgos[1], player)
    with pytest.raises(errors.TrainingSitgoLimit):
        enter(sitgos[2], player)
    assert not Registration.objects.filter(tournament=sitgos[2]).exists()
    Tournament.objects.filter(pk=sitgos[0].pk).update(state=Tournament.State.FINISHED)
    assert enter(sitgos[2], player).state in (RS.AUTHORISED, RS.ADMITTED)


def test_no_cancellation_where_the_details_say_so(staff, client):
    """ "Non è permesso cancellarsi da alcuni tornei di allenamento; l'eventuale impossibilità a
    cancellarsi è sempre indicata nei dettagli del torneo"."""
    strict = _training(staff, timedelta(hours=1), confirmation_required=False, cancellation_allowed=False)
    usual = _training(
        staff, timedelta(hours=2), kind=Tournament.Kind.SITGO, max_players=4, confirmation_required=False
    )
    player = funded_player(FUNDS)
    sign_in(client, player)
    assert 'data-testid="no-cancellation-hint"' in client.get(f"/tornei/{strict.pk}/").content.decode()
    enter(strict, player)
    page = client.get(f"/tornei/{strict.pk}/").content.decode()
    assert 'data-testid="no-cancellation"' in page and 'data-testid="cancel"' not in page
    with pytest.raises(errors.CancellationNotAllowed) as refused:
        actions.registration_cancel(tournament_id=strict.pk, user=player)
    assert refused.value.code == "cancellation_not_allowed"
    page = client.post(f"/tornei/{strict.pk}/cancella/", follow=True).content.decode()  # forged
    assert "non consente la cancellazione" in page
    assert Registration.objects.get(tournament=strict, user=player).state == RS.AUTHORISED
    enter(usual, player)
    page = client.get(f"/tornei/{usual.pk}/").content.decode()
    assert 'data-testid="no-cancellation"' not in page and 'data-testid="cancel"' in page
