"""Reserved tournaments (rules 004, "Tornei riservati"): with a password (PW), "Ristretto" by the
player's city, a leaderboard position or past wins, and "A inviti" with a notice to each invited
player. Each refusal has a stable code, an Italian message, changes nothing, and is said by the
list and the tournament lobby before the player tries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.hashers import make_password
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from games.rng import SeededRng
from piattaforma import hooks, roles
from piattaforma.models import User
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_accounts import signup_data
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.tournaments.conftest import FUNDS, money
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import full_tournament, play_out
from tests.tournaments.test_backoffice import add_form
from tests.wallet.factories import funded_player
from tournaments import actions, errors
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def _refused(t: Tournament, user, exc: type[errors.TournamentError], code: str, **kwargs) -> str:
    """Register ``user`` and expect the refusal ``exc`` with ``code``: nothing written, nothing paid."""
    before = (Registration.objects.count(), money(user))
    with pytest.raises(exc) as caught:
        actions.registration_create(tournament_id=t.pk, user=user, idempotency_key=f"no:{user.pk}", **kwargs)
    assert caught.value.code == code
    assert (Registration.objects.count(), money(user)) == before
    return caught.value.message


def _post_register(client, t: Tournament, user, **data) -> str:
    client.force_login(user)
    response = client.post(reverse("tournaments:register", args=[t.pk]), data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_a_password_tournament_shows_pw_and_takes_only_the_right_password(client, staff):
    t = make_tournament(staff, name="Con password", entry_password=make_password("cavallo"))
    assert t.state == Tournament.State.REGISTRATION and t.entry_password != "cavallo"  # stored hashed
    player = funded_player(FUNDS)
    assert "Serve la password" in _refused(t, player, errors.PasswordRequired, "password_required")
    assert _refused(t, player, errors.WrongPassword, "wrong_password", password="asino") == "Password errata."
    # the pages: "PW" in the list, the password field on the tournament lobby
    client.force_login(player)
    page = client.get(reverse("tournaments:list")).content.decode()
    assert 'data-testid="pw"' in page
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert 'data-testid="tournament-password"' in lobby
    # HTTP: a wrong password is told and registers nothing; the right one registers
    page = _post_register(client, t, player, password="asino")
    assert "Password errata." in page and not Registration.objects.filter(user=player).exists()
    _post_register(client, t, player, password="cavallo")
    assert Registration.objects.get(user=player).tournament_id == t.pk
    assert money(player) == FUNDS - t.cost


def test_a_tournament_reserved_by_city_refuses_other_cities_beforehand_and_at_registration(client, staff):
    t = make_tournament(staff, name="Torneo dei romani", cities="Roma, Milano")
    assert t.state == Tournament.State.RESERVED  # "Riservato"
    roman = funded_player(FUNDS, city="roma")
    neapolitan = funded_player(FUNDS, city="Napoli")
    nowhere = funded_player(FUNDS)
    message = _refused(t, neapolitan, errors.CityNotAdmitted, "city_not_admitted")
    assert message == "Riservato ai residenti a Roma, Milano: il tuo comune di residenza è Napoli."
    assert "non hai indicato il comune" in _refused(t, nowhere, errors.CityNotAdmitted, "city_not_admitted")
    # beforehand: the list's row and the lobby say why, and the lobby offers no «Iscriviti»
    client.force_login(neapolitan)
    row = client.get(reverse("tournaments:list")).content.decode()
    assert "i residenti a Roma, Milano" in row and message in row
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert 'data-testid="register-refusal"' in lobby and message in lobby
    assert 'data-testid="register"' not in lobby
    assert message in _post_register(client, t, neapolitan)
    assert not Registration.objects.filter(user=neapolitan).exists()
    # the right player: no refusal shown, registered by the page
    client.force_login(roman)
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert 'data-testid="register"' in lobby and 'data-testid="register-refusal"' not in lobby
    _post_register(client, t, roman)
    assert Registration.objects.filter(user=roman, tournament=t).exists()


@pytest.fixture
def champion(staff):
    """A Scopa KO of 4 played out: (winner, a loser, the tournament)."""
    t, players = full_tournament(staff, 4, format=Tournament.Format.KO)
    play_out(t, SeededRng(11))
    assert t.state == Tournament.State.FINISHED
    regs = {r.user_id: r for r in Registration.objects.filter(tournament=t, state="admitted")}
    winner = next(p for p in players if regs[p.pk].position == 1)
    loser = max(players, key=lambda p: regs[p.pk].position)  # a KO's losers of a round share a place
    assert regs[loser.pk].position > 1
    return winner, loser, t


def test_a_tournament_for_past_winners_admits_the_winner_only(client, staff, champion):
    winner, loser, _played = champion
    t = make_tournament(staff, name="Torneo dei campioni", wins_required=1)
    assert t.state == Tournament.State.RESERVED
    message = _refused(t, loser, errors.WinsRequired, "wins_required")
    assert message == "Riservato a chi ha vinto almeno un torneo money di Scopa: ne hai vinti 0."
    enter(t, winner)
    # a series is a special leaderboard: the Scopa KO was not in it
    series = make_tournament(staff, name="Finale della serie", wins_required=1, wins_series="Coppa d'inverno")
    assert "della serie «Coppa d'inverno»" in _refused(series, winner, errors.WinsRequired, "wins_required")
    # HTTP: the loser is told why
    assert message in _post_register(client, t, loser)


def test_a_tournament_for_the_top_of_a_leaderboard_admits_them_only(client, staff, champion):
    winner, loser, _played = champion
    outsider = funded_player(FUNDS)
    t = make_tournament(staff, name="I migliori", ranking_board="money:week", ranking_position=1)
    assert t.state == Tournament.State.RESERVED
    message = _refused(t, loser, errors.RankingPosition, "ranking_position")
    assert message.startswith("Riservato al primo della classifica money settimanale: sei al ")
    assert "non sei in questa classifica" in _refused(t, outsider, errors.RankingPosition, "ranking_position")
    client.force_login(loser)
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert message in lobby and "il primo della classifica money settimanale" in lobby
    assert message in _post_register(client, t, loser)
    _post_register(client, t, winner)
    assert Registration.objects.filter(user=winner, tournament=t).exists()


def test_reserved_entry_settings_that_make_no_sense_are_refused(staff):
    for values, field in (
        ({"ranking_position": 3}, "ranking_board"),
        ({"ranking_board": "money:week"}, "ranking_position"),
        ({"ranking_board": "special", "ranking_position": 3}, "ranking_special"),
        ({"wins_series": "Coppa"}, "wins_required"),
    ):
        with pytest.raises(errors.InvalidTournament) as caught:
            make_tournament(staff, **values)
        assert field in caught.value.details["fields"], values
    assert not Tournament.objects.exists()


def test_an_invited_player_finds_his_invitation_until_he_registers(staff):
    guest, other = funded_player(FUNDS), funded_player(FUNDS)
    t = actions.tournament_create(
        actor=staff,
        values={
            "name": "Su invito",
            "game": "scopa",
            "pool_quota": 900,
            "fee": 100,
            "max_players": 8,
            "starts_at": timezone.now() + timedelta(hours=1),
        },
        invited=[guest],
    )
    assert t.state == Tournament.State.RESERVED
    (call,) = hooks.player_calls(user_id=guest.pk)
    assert call["kind"] == "notice" and call["url"] == reverse("tournaments:lobby", args=[t.pk])
    assert "Su invito" in call["text"] and call["action"] == "Vai al torneo"
    assert hooks.player_calls(user_id=other.pk) == []
    assert "non sei tra gli invitati" in _refused(t, other, errors.NotInvited, "not_invited")
    enter(t, guest)
    assert hooks.player_calls(user_id=guest.pk) == []  # registered: nothing waits for him


@pytest.mark.django_db(transaction=True)
async def test_the_invitation_reaches_the_invited_players_open_page_when_the_tournament_opens():
    staff = await sync_to_async(UserFactory)(role="staff")
    guest = await sync_to_async(funded_player)(FUNDS)
    other = await sync_to_async(funded_player)(FUNDS)
    sockets = []
    for user in (guest, other):
        cookie = await sync_to_async(session_cookie)(user)
        ws = WebsocketCommunicator(application, "/ws/avvisi/", headers=[ORIGIN, (b"cookie", cookie)])
        connected, _ = await ws.connect()
        assert connected
        sockets.append(ws)
    t = await sync_to_async(actions.tournament_create)(
        actor=staff,
        values={
            "name": "Invito serale",
            "game": "scopa",
            "max_players": 8,
            "starts_at": timezone.now() + timedelta(hours=1),
        },
        invited=[guest],
    )
    call = await sockets[0].receive_json_from(timeout=5)
    assert call["type"] == "call" and call["kind"] == "notice" and call["key"] == f"invito-torneo-{t.pk}"
    assert "Invito serale" in call["text"] and call["url"] == f"/tornei/{t.pk}/"
    assert await sockets[1].receive_nothing(timeout=0.3)  # not invited: nothing
    for ws in sockets:
        await ws.disconnect()


def test_staff_reserve_a_tournament_in_the_back_office(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    url = reverse("backoffice:tournaments_tournament_add")
    response = client.post(url, add_form(wins_series="Coppa"))  # a series with no wins asked: refused
    assert response.status_code == 200 and "Indica quanti tornei della serie" in response.content.decode()
    assert not Tournament.objects.exists()
    response = client.post(url, add_form(entry_password="fante", cities="Lecce", wins_required="0"))
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get()
    assert t.state == Tournament.State.RESERVED and t.city_list == ["Lecce"]
    assert t.has_password and t.entry_password != "fante"
    # once created the restrictions are read-only, and the password is shown only as set or not
    page = client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert t.entry_password not in page and "Lecce" in page


def test_the_comune_of_residence_is_given_at_sign_up(client):
    assert client.post(reverse("signup"), signup_data(city=" Bari ")).status_code == 302
    assert User.objects.get(nickname="Scopone").city == "Bari"
