"""What a new player reads on his first evening: the sign-up form's messages, the identity check
as the conto and the profile show it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from piattaforma import actions, roles
from piattaforma.models import User
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_accounts import signup_data

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"

pytestmark = pytest.mark.django_db


# --- the password's messages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "password",
    ["corta", "1234567890123", "password123", "scopone@example.invalid", "Scopetti2026", "Scopone2026"],
)
def test_every_password_validator_speaks_italian(password):
    probe = User(
        nickname="Scopone", email="scopone@example.invalid", first_name="Giovanna", last_name="Scopetti"
    )
    with translation.override("it"):
        with pytest.raises(ValidationError) as caught:
            password_validation.validate_password(password, probe)
        for message in caught.value.messages:
            assert not message.startswith(("This ", "The ")), message
        help_texts = password_validation.password_validators_help_texts()
    assert all(not text.startswith("Your ") for text in help_texts)


def test_signup_says_a_short_password_is_too_short_in_italian(client):
    response = client.post(reverse("signup"), signup_data(password1="Corta-1", password2="Corta-1"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Questa password è troppo corta. Deve contenere almeno 10 caratteri." in html
    assert "too short" not in html


def test_signup_refuses_a_password_like_the_nickname_or_the_name(client):
    for password in ("Scopone2026", "Scopetti2026"):
        response = client.post(reverse("signup"), signup_data(password1=password, password2=password))
        assert response.status_code == 200, password
        assert "troppo simile" in response.content.decode(), password
    assert not User.objects.filter(nickname="Scopone").exists()


# --- the identity check, as the conto and the profile show it -----------------------------------------


@pytest.fixture
def newcomer(db):
    return UserFactory(nickname="Nuovo", identity_verified_at=None)


def upload(user):
    return actions.identity_document_upload(
        user=user, kind="passaporto", upload=SimpleUploadedFile("p.pdf", PDF, content_type="application/pdf")
    )


def pages(client, user) -> dict[str, str]:
    sign_in(client, user)
    return {
        name: client.get(reverse(name)).content.decode()
        for name in ("wallet:balance", "profile", "wallet:withdrawal")
    }


def test_the_conto_shows_a_document_in_review(client, newcomer):
    before = pages(client, newcomer)
    assert "Identità non verificata" in before["wallet:balance"]
    upload(newcomer)
    after = pages(client, newcomer)
    assert "Identità non verificata" not in after["wallet:balance"]
    assert "Documento d'identità in revisione" in after["wallet:balance"]
    assert "documento in revisione" in after["profile"]
    assert "è in revisione" in after["wallet:withdrawal"]


def test_the_conto_shows_a_refused_document(client, newcomer):
    document = upload(newcomer)
    staff = UserFactory(nickname="Staff", role=roles.STAFF)
    actions.identity_document_review(
        document_id=document.pk, actor=staff, approve=False, reason="Illeggibile"
    )
    shown = pages(client, newcomer)
    assert "Documento d'identità rifiutato" in shown["wallet:balance"]
    assert "documento rifiutato" in shown["profile"]


# --- dates ----------------------------------------------------------------------------------------


def test_dates_write_months_and_days_in_lower_case():
    from datetime import date

    from django.template import Context, Template

    day = date(2026, 3, 14)
    template = Template(
        '{{ d|date:"j F Y" }}|{{ d|date:"l j F" }}|{{ d|date:"j b Y" }}|{{ d|date:"D j N" }}|{{ d|date }}'
    )
    with translation.override("it"):
        shown = template.render(Context({"d": day}))
    assert shown == "14 marzo 2026|sabato 14 marzo|14 mar 2026|sab 14 marzo|14 marzo 2026"


def test_no_template_formats_a_month_in_title_case():
    """The date filter's "M" title-cases the month ("14 Mar"): templates write "b" ("14 mar")."""
    import pathlib
    import re

    formats = re.compile(r'\|date:"([^"]*)"')
    offenders = [
        f"{path}: {fmt}"
        for path in pathlib.Path(settings.BASE_DIR, "templates").rglob("*.html")
        for fmt in formats.findall(path.read_text())
        if not fmt.endswith("_FORMAT") and "M" in fmt
    ]
    assert offenders == []


# --- the deposit limits, chosen as the account opens ------------------------------------------------


def opened_limits(nickname="Scopone") -> dict[str, int | None]:
    from wallet import selectors

    user = User.objects.get(nickname=nickname)
    return {period: shown["amount"] for period, shown in selectors.deposit_limits_get(user=user).items()}


def test_signup_asks_the_deposit_limits(client):
    html = client.get(reverse("signup")).content.decode()
    assert 'data-testid="opening-limits"' in html
    assert "€\u00a0100,00 al giorno, €\u00a0250,00 a settimana, €\u00a0500,00 al mese" in html
    for name in ("limiti-choice", "limiti-day", "limiti-week", "limiti-month"):
        assert f'name="{name}"' in html


def test_signup_without_a_limits_choice_opens_nothing(client):
    data = signup_data()
    del data["limiti-choice"]
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert "Scegli i tuoi limiti di deposito o accetta quelli predefiniti." in response.content.decode()
    assert not User.objects.filter(nickname="Scopone").exists()


def test_signup_with_the_defaults_sets_them(client):
    assert client.post(reverse("signup"), signup_data()).status_code == 302
    assert opened_limits() == settings.DEPOSIT_LIMITS_DEFAULT


def test_signup_with_own_limits_sets_them_at_once(client):
    data = signup_data(**{"limiti-choice": "own", "limiti-day": "50", "limiti-month": "300,00"})
    assert client.post(reverse("signup"), data).status_code == 302
    assert opened_limits() == {"day": 50_00, "week": None, "month": 300_00}
    balance = client.get(reverse("wallet:balance")).content.decode()
    assert "€ 50,00" in balance and "€ 300,00" in balance


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({}, "Indica almeno un limite, o accetta i limiti predefiniti."),
        ({"limiti-day": "abc"}, "Scrivi un importo in euro"),
        (
            {"limiti-day": "200", "limiti-week": "100"},
            "Non può essere minore del limite di un periodo più breve.",
        ),
    ],
)
def test_signup_with_bad_own_limits_opens_nothing(client, limits, message):
    response = client.post(reverse("signup"), signup_data(**{"limiti-choice": "own", **limits}))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(nickname="Scopone").exists()


@pytest.mark.parametrize("day", ["50", "abc", "-3"])
def test_signup_with_the_defaults_ignores_any_own_amount_sent(client, day):
    """The amounts belong to "Imposto io i miei limiti": sent with the defaults chosen (the page
    disables them), valid or not, they are neither refused nor kept: the defaults are set."""
    data = signup_data(**{"limiti-day": day, "limiti-week": "10"})
    assert client.post(reverse("signup"), data).status_code == 302
    assert opened_limits() == settings.DEPOSIT_LIMITS_DEFAULT


def test_the_own_limits_are_disabled_until_chosen(client):
    def own_fieldset(html: str) -> str:
        start = html.index('data-testid="own-limits"')
        return html[html.rindex("<fieldset", 0, start) : html.index(">", start)]

    assert " disabled" in own_fieldset(client.get(reverse("signup")).content.decode())
    data = signup_data(**{"limiti-choice": "own"})  # refused (no amount): shown again, enabled
    html = client.post(reverse("signup"), data).content.decode()
    assert " disabled" not in own_fieldset(html)
    assert 'data-enabled-by="limiti-choice=own"' in own_fieldset(html)
