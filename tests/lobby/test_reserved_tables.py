"""Reserved cash tables (rules 004, "Tornei riservati": "Sono proposti tornei e tavoli"): a table with
a password (PW), Ristretto by city, A inviti. Sitting down and the waiting list refuse the wrong
player with a stable code and an Italian message, changing nothing; the lobby and the table page say
why beforehand; staff set the restrictions in the back office."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.urls import reverse

from lobby import door, errors
from lobby.models import Seat, Table, WaitingEntry
from piattaforma import roles
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import key
from tests.lobby.test_backoffice_tables import _change_form
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def _conto(user) -> int:
    return wallet_selectors.balance_get(user=user)["cash"]


def _sit(table: Table, user, **kwargs) -> Seat:
    return door.table_sit(
        table_id=table.pk,
        user=user,
        seat_no=1 + table.seat_rows.count(),
        buy_in=2_000,
        idempotency_key=key(),
        **kwargs,
    )


def _refused(table: Table, user, exc: type[errors.TableError], code: str, **kwargs) -> str:
    before = (Seat.objects.count(), _conto(user), table.runtime.version)
    with pytest.raises(exc) as caught:
        _sit(table, user, **kwargs)
    assert caught.value.code == code
    table.runtime.refresh_from_db()
    assert (Seat.objects.count(), _conto(user), table.runtime.version) == before
    return caught.value.message


def test_a_table_reserved_by_city_seats_its_residents_only(client):
    table = scopa_table(cities="Torino")
    turinese, roman = funded_player(city="Torino"), funded_player(city="Roma")
    message = _refused(table, roman, errors.CityNotAdmitted, "city_not_admitted")
    assert message == "Riservato ai residenti a Torino: il tuo comune di residenza è Roma."
    # beforehand: the lobby's row and the table page say why; the page offers no «Siediti»
    client.force_login(roman)
    lobby = client.get(reverse("lobby:lobby")).content.decode()
    assert "i residenti a Torino" in lobby and message in lobby
    page = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert 'data-testid="table-refusal"' in page and message in page
    assert f'action="/lobby/tavolo/{table.pk}/siediti/"' not in page
    # HTTP: refused with the message, nothing seated
    response = client.post(reverse("lobby:sit", args=[table.pk]), {"seat": 1, "buy_in": "20,00"}, follow=True)
    assert message in response.content.decode() and not Seat.objects.exists()
    _sit(table, turinese)
    assert Seat.objects.get().user == turinese


def test_a_table_with_a_password_asks_it_and_seats_whoever_knows_it(client):
    table = scopa_table(entry_password=make_password("briscola"))
    player = funded_player()
    assert "Serve la password" in _refused(table, player, errors.PasswordRequired, "password_required")
    assert (
        _refused(table, player, errors.WrongPassword, "wrong_password", password="scopa")
        == "Password errata."
    )
    client.force_login(player)
    assert 'data-testid="pw"' in client.get(reverse("lobby:lobby")).content.decode()
    page = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert 'data-testid="table-password"' in page and 'data-testid="table-refusal"' not in page
    url = reverse("lobby:sit", args=[table.pk])
    response = client.post(url, {"seat": 1, "buy_in": "20,00", "password": "scopa"}, follow=True)
    assert "Password errata." in response.content.decode() and not Seat.objects.exists()
    client.post(url, {"seat": 1, "buy_in": "20,00", "password": "briscola"})
    assert Seat.objects.get().user == player


def test_a_table_by_invitation_seats_and_queues_only_the_invited(client):
    table = scopa_table()
    guest, other = funded_player(), funded_player()
    table.invited.set([guest])
    message = _refused(table, other, errors.NotInvited, "not_invited")
    assert "non sei tra gli invitati" in message
    with pytest.raises(errors.NotInvited):
        door.waiting_join(table_id=table.pk, user=other)
    assert not WaitingEntry.objects.exists()
    client.force_login(other)
    response = client.post(reverse("lobby:waiting", args=[table.pk]), follow=True)
    assert message in response.content.decode() and not WaitingEntry.objects.exists()
    _sit(table, guest)
    assert Seat.objects.get().user == guest


def test_staff_reserve_a_table_in_the_back_office(client):
    table = scopa_table()
    guest = funded_player()
    sign_in(client, UserFactory(role=roles.STAFF))
    url = f"/backoffice/lobby/table/{table.pk}/change/"
    bad = _change_form(table, ranking_position=3)  # a position with no leaderboard: refused
    response = client.post(url, bad)
    assert response.status_code == 200 and "Scegli la classifica" in response.content.decode()
    form = _change_form(table, entry_password="tre sette", cities="Bari", invited=[guest.pk])
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    table.refresh_from_db()
    assert table.has_password and table.entry_password != "tre sette" and table.city_list == ["Bari"]
    assert list(table.invited.all()) == [guest]
    # an empty password field keeps the password; «Togli la password» takes it away
    response = client.post(url, _change_form(table, invited=[guest.pk]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.has_password
    response = client.post(url, {**_change_form(table, invited=[guest.pk]), "clear_password": "on"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert not table.has_password
