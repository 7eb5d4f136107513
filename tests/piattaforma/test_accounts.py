"""Sign-up, login (nickname or e-mail), lockout, logout, password change and reset."""

from datetime import date

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def signup_data(**overrides):
    data = {
        "nickname": "Scopone",
        "email": "scopone@example.invalid",
        "date_of_birth": "1985-03-02",
        "first_name": "Giovanna",
        "last_name": "Scopetti",
        "sex": "F",
        "codice_fiscale": "scpgnn85c42f839m",  # typed in lower case: stored upper case
        "password1": "Settebello-2026",
        "password2": "Settebello-2026",
        "accetto": "on",
        "limiti-choice": "defaults",  # the deposit limits: the house's defaults, accepted
    }
    return {**data, **overrides}


def test_signup_opens_an_account_as_player_and_logs_in(client):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    user = User.objects.get(nickname="Scopone")
    assert user.email == "scopone@example.invalid" and user.status == User.Status.ACTIVE
    assert list(user.groups.values_list("name", flat=True)) == ["players"]
    assert AuditLog.objects.filter(action="user.sign_up", target_id=str(user.pk)).exists()
    page = client.get(reverse("home"))
    assert "Scopone" in page.content.decode()
    assert "scopone@example.invalid" not in page.content.decode()  # the nickname is shown, never the e-mail


def test_signup_refuses_minors_with_an_italian_message(client):
    today = timezone.localdate()
    seventeen = date(today.year - 17, today.month, 1)
    response = client.post(reverse("signup"), signup_data(date_of_birth=seventeen.isoformat()))
    assert response.status_code == 200
    assert "almeno 18 anni" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("nickname", "ab", "da 3 a 20 caratteri"),
        ("nickname", "x" * 21, "20 caratteri"),
        ("nickname", "con spazio", "da 3 a 20 caratteri"),
        ("password2", "Altra-password-9", "non coincidono"),
        ("password1", "1234567890", "password"),
    ],
)
def test_signup_bad_input_is_refused_and_changes_nothing(client, field, value, message):
    response = client.post(reverse("signup"), signup_data(**{field: value}))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_nickname_and_email_are_unique_regardless_of_case(client):
    UserFactory(nickname="Briscolone", email="b@example.invalid")
    response = client.post(reverse("signup"), signup_data(nickname="briscolone"))
    assert "già in uso" in response.content.decode()
    response = client.post(reverse("signup"), signup_data(email="B@EXAMPLE.INVALID"))
    assert "Esiste già un conto" in response.content.decode()
    assert User.objects.count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():  # the database enforces it too
        User.objects.create(
            nickname="BRISCOLONE", email="other@example.invalid", date_of_birth=date(1990, 1, 1)
        )


@pytest.mark.parametrize("identifier", ["tresettista", "TRESETTISTA", "tre@example.invalid"])
def test_login_with_nickname_or_email(client, identifier):
    UserFactory(nickname="Tresettista", email="tre@example.invalid")
    response = client.post(reverse("login"), {"username": identifier, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200


def test_wrong_password_is_refused_in_italian(client):
    UserFactory(nickname="Cirullaro")
    response = client.post(reverse("login"), {"username": "Cirullaro", "password": "sbagliata"})
    assert response.status_code == 200
    assert "non corretti" in response.content.decode()


def test_suspended_player_cannot_log_in(client):
    UserFactory(nickname="Sospeso", status=User.Status.SUSPENDED)
    response = client.post(reverse("login"), {"username": "Sospeso", "password": PASSWORD})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_brute_force_lockout_after_five_failures(client):
    UserFactory(nickname="Bersaglio")
    for _ in range(5):
        client.post(reverse("login"), {"username": "Bersaglio", "password": "sbagliata"})
    response = client.post(reverse("login"), {"username": "Bersaglio", "password": PASSWORD})
    assert response.status_code == 429
    assert "bloccato" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post(client):
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def test_password_change(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "Nuova-Password-77",
            "new_password2": "Nuova-Password-77",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Nuova-Password-77")


def test_password_reset_sends_a_link_by_email(client):
    UserFactory(nickname="Smemorato", email="smemo@example.invalid")
    response = client.post(reverse("password_reset"), {"email": "smemo@example.invalid"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "Smemorato" in mail.outbox[0].body and "/account/password/reset/" in mail.outbox[0].body


def test_pages_render_in_italian(client):
    for name in ("home", "login", "signup", "password_reset"):
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert 'lang="it"' in response.content.decode()
    page = client.get(reverse("password_reset")).content.decode()
    assert "<h1>Reimposta la password</h1>" in page and 'name="email"' in page


def test_english_is_the_second_language(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = client.get(reverse("login"))
    assert 'lang="en"' in response.content.decode()


def test_the_signup_links_the_rules_it_asks_the_player_to_accept(client):
    html = client.get(reverse("signup")).content.decode()
    help_text = html[html.index('id="id_accetto_helptext"') :]
    help_text = help_text[: help_text.index("</small>")]
    assert 'href="/regole/"' in help_text and 'href="/regole/regole-della-casa/"' in help_text
