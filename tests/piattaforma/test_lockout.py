"""The login lockout counts failures per account and per address, whatever identifier was typed.

Every path that checks a password goes through it: the login page, the back office's login and
the old password of the password change.
"""

import pytest
from django.urls import reverse

from piattaforma import roles
from tests.piattaforma.factories import PASSWORD, UserFactory, sign_in

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")
ADMIN_LOGIN = "/backoffice/login/"


def fail(client, url, username, times=1, **extra):
    for _ in range(times):
        response = client.post(url, {"username": username, "password": "sbagliata"}, **extra)
        assert response.status_code in (200, 429)
    return response


def logs_in(client, url, username, **extra):
    response = client.post(url, {"username": username, "password": PASSWORD}, **extra)
    return response.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.parametrize(
    "spelling", ["mario", "MARIO", "Mario", "mario@example.invalid", "MARIO@EXAMPLE.INVALID"]
)
def test_five_failures_lock_the_account_whatever_the_spelling(client, spelling):
    UserFactory(nickname="mario", email="mario@example.invalid")
    fail(client, LOGIN, "mario", times=3)
    fail(client, LOGIN, "Mario@Example.Invalid")
    fail(client, LOGIN, " MaRiO ")
    response = client.post(LOGIN, {"username": spelling, "password": PASSWORD})
    assert response.status_code == 429 and "bloccato" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_of_several_spellings_count_once_each(client):
    UserFactory(nickname="mario", email="mario@example.invalid")
    fail(client, LOGIN, "MARIO", times=4)
    assert logs_in(client, LOGIN, "mario@example.invalid")  # four failures: still allowed


def test_the_account_is_locked_from_every_address(client):
    """A brute force spread over many addresses still gets 5 tries per account."""
    UserFactory(nickname="mario", email="mario@example.invalid")
    for n in range(5):
        fail(client, LOGIN, "mario", REMOTE_ADDR=f"198.51.100.{n + 1}")
    assert not logs_in(client, LOGIN, "mario", REMOTE_ADDR="203.0.113.9")


def test_one_address_is_locked_whatever_accounts_it_tries(client):
    """Password spraying: 5 failures from one address, spread over accounts, lock that address."""
    for n in range(5):
        UserFactory(nickname=f"vittima{n}")
        fail(client, LOGIN, f"vittima{n}", REMOTE_ADDR="198.51.100.7")
    UserFactory(nickname="onesto")
    assert not logs_in(client, LOGIN, "onesto", REMOTE_ADDR="198.51.100.7")
    assert logs_in(client, LOGIN, "onesto", REMOTE_ADDR="198.51.100.8")  # other addresses are not


def test_other_accounts_still_log_in(client):
    UserFactory(nickname="mario", email="mario@example.invalid")
    UserFactory(nickname="giulia")
    fail(client, LOGIN, "mario", times=5, REMOTE_ADDR="198.51.100.1")
    assert logs_in(client, LOGIN, "giulia", REMOTE_ADDR="198.51.100.2")


def test_logging_into_ones_own_account_does_not_clear_anothers_failures(client):
    """A success clears the account's own failures only, not those its address made on others."""
    UserFactory(nickname="mario", email="mario@example.invalid")
    UserFactory(nickname="furbo")
    attacker = {"REMOTE_ADDR": "198.51.100.9"}
    fail(client, LOGIN, "mario", times=4, **attacker)
    assert logs_in(client, LOGIN, "furbo", **attacker)
    client.logout()
    fail(client, LOGIN, "mario", **attacker)
    assert not logs_in(client, LOGIN, "mario", REMOTE_ADDR="203.0.113.9")  # five failures: locked


def test_a_success_clears_the_accounts_own_failures(client):
    UserFactory(nickname="mario", email="mario@example.invalid")
    fail(client, LOGIN, "MARIO", times=4, REMOTE_ADDR="198.51.100.1")
    assert logs_in(client, LOGIN, "mario", REMOTE_ADDR="198.51.100.2")
    client.logout()
    fail(client, LOGIN, "mario", times=4, REMOTE_ADDR="198.51.100.3")
    assert logs_in(client, LOGIN, "mario@example.invalid", REMOTE_ADDR="198.51.100.4")


def test_unknown_names_are_counted_regardless_of_case(client):
    fail(client, LOGIN, "nessuno", times=2, REMOTE_ADDR="198.51.100.1")
    fail(client, LOGIN, "NESSUNO", times=3, REMOTE_ADDR="198.51.100.2")
    response = fail(client, LOGIN, "Nessuno", REMOTE_ADDR="198.51.100.3")
    assert response.status_code == 429


@pytest.mark.parametrize("spelling", ["capo", "CAPO", "Capo"])
def test_the_back_office_login_shares_the_count(client, spelling):
    UserFactory(nickname="capo", email="capo@example.invalid", role=roles.STAFF)
    fail(client, LOGIN, "capo@example.invalid", times=3)
    fail(client, ADMIN_LOGIN, "CAPO", times=2)
    response = client.post(ADMIN_LOGIN, {"username": spelling, "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_back_office_login_works_below_the_limit(client):
    UserFactory(nickname="capo", email="capo@example.invalid", role=roles.STAFF)
    fail(client, ADMIN_LOGIN, "CAPO", times=4)
    assert logs_in(client, ADMIN_LOGIN, "Capo")


def test_wrong_old_passwords_count_as_failures(client):
    """The password change checks the old password: it is a login path like the others."""
    user = UserFactory(nickname="mario", email="mario@example.invalid")
    sign_in(client, user)
    form = {"new_password1": "Nuova-Password-77", "new_password2": "Nuova-Password-77"}
    for _ in range(5):
        response = client.post(reverse("password_change"), {**form, "old_password": "sbagliata"})
        assert response.status_code in (200, 429)
    response = client.post(reverse("password_change"), {**form, "old_password": PASSWORD})
    assert response.status_code == 429
    user.refresh_from_db()
    assert user.check_password(PASSWORD)  # nothing changed
    client.logout()
    assert not logs_in(client, LOGIN, "MARIO")


def test_the_password_change_still_works(client):
    user = UserFactory(nickname="mario")
    sign_in(client, user)
    form = {"new_password1": "Nuova-Password-77", "new_password2": "Nuova-Password-77"}
    response = client.post(reverse("password_change"), {**form, "old_password": "sbagliata"})
    assert response.status_code == 200 and "old_password" in response.context["form"].errors
    response = client.post(reverse("password_change"), {**form, "old_password": PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Nuova-Password-77")
