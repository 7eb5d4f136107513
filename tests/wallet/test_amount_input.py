"""The platform's one amount parser (wallet.money) and every page that reads a typed amount.

Issue 17, "Amounts": "10.999" credited € 10.999,00, "1.000.000.000,00" passed up to the ledger's
sanity cap, Arabic-Indic and full-width digits were read, and a 5,000-digit amount was a 500.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from lobby.models import Seat
from tests.lobby.factories import poker_table
from tests.lobby.helpers import seat_players
from tests.piattaforma.factories import sign_in
from tests.wallet.conftest import ledger_snapshot
from tests.wallet.factories import funded_player
from wallet import selectors
from wallet.money import MAX_AMOUNT, AmountError, parse_cents, parse_eur

ACCEPTED = [
    ("10", 1_000),
    ("10,5", 1_050),
    ("10,50", 1_050),
    ("0,05", 5),
    ("1.234,56", 123_456),
    ("1.234,00", 123_400),
    ("10.999,00", 1_099_900),
    ("1.000.000", MAX_AMOUNT),  # two or more groups can only be thousands
    ("€ 7", 700),
    ("7 €", 700),
    ("  12,50  ", 1_250),
    ("1.000.000,00", MAX_AMOUNT),
    ("999.999,99", 99_999_999),
]

REFUSED = [
    # the reading of "10.999": one dot, three digits, no decimal comma -> ambiguous, refused
    ("10.999", "amount_ambiguous"),
    ("1.234", "amount_ambiguous"),
    ("3.50", "amount_decimal_point"),
    ("3.5", "amount_decimal_point"),
    ("10,999", "amount_decimals"),
    ("1.234,567", "amount_decimals"),
    ("1.000.000.000,00", "amount_too_large"),
    ("1.000.000,01", "amount_too_large"),
    ("1.234.567", "amount_too_large"),
    ("\u0661\u0660", "amount_digits"),  # Arabic-Indic ١٠
    ("\u06f1\u06f0", "amount_digits"),  # Extended Arabic-Indic ۱۰
    ("\uff11\uff10", "amount_digits"),  # full-width １０
    ("1\uff10,00", "amount_digits"),
    ("9" * 5000, "amount_too_long"),
    ("1" * 21, "amount_too_long"),
    ("-5", "amount_sign"),
    ("+5", "amount_sign"),
    ("0", "amount_zero"),
    ("0,00", "amount_zero"),
    ("", "invalid_amount"),
    ("abc", "invalid_amount"),
    ("1,234.56", "invalid_amount"),
    ("1.2.3", "invalid_amount"),
    ("12.34.567", "invalid_amount"),
    ("1 234", "invalid_amount"),
    ("1e3", "invalid_amount"),
    ("\u00b2", "amount_digits"),  # superscript two: str.isdigit() says yes
    ("10,", "invalid_amount"),
    (",5", "invalid_amount"),
]


@pytest.mark.parametrize(("text", "cents"), ACCEPTED)
def test_italian_amounts_are_read_as_cents(text, cents):
    assert parse_eur(text) == cents


@pytest.mark.parametrize(("text", "code"), REFUSED)
def test_anything_else_is_refused_with_a_code_and_an_italian_message(text, code):
    with pytest.raises(AmountError) as refused:
        parse_eur(text)
    assert refused.value.code == code
    assert refused.value.message and refused.value.message[0].isupper()


def test_the_ambiguous_message_says_how_to_write_it():
    with pytest.raises(AmountError) as refused:
        parse_eur("10.999")
    assert "10999" in refused.value.message and "10.999,00" in refused.value.message


def test_zero_only_where_asked():
    assert parse_eur("0", allow_zero=True) == 0
    for value in (None, 10, 1.5, b"10"):
        with pytest.raises(AmountError):
            parse_eur(value)


def test_amounts_sent_as_json_numbers():
    assert parse_cents(0) == 0 and parse_cents(MAX_AMOUNT) == MAX_AMOUNT
    for value in (True, 1.0, float("nan"), float("inf"), "100", None, -1, MAX_AMOUNT + 1, 10**5000):
        with pytest.raises(AmountError):
            parse_cents(value)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["deposit", "withdrawal"])
@pytest.mark.parametrize(
    "amount", ["10.999", "1.000.000.000,00", "\u0661\u0660", "\uff11\uff10", "9" * 5000, "3.50"]
)
def test_conto_pages_refuse_bad_amounts_and_change_nothing(client, funded, name, amount):
    sign_in(client, funded)
    before = ledger_snapshot()
    response = client.post(reverse(f"wallet:{name}"), {"amount": amount, "idempotency_key": "k1"})
    assert response.status_code == 200
    assert response.context["form"].errors["amount"]
    assert ledger_snapshot() == before


@pytest.mark.django_db
def test_the_deposit_of_10_999_is_not_ten_thousand_euro(client, funded):
    sign_in(client, funded)
    before = selectors.balance_get(user=funded)["cash"]
    page = client.post(reverse("wallet:deposit"), {"amount": "10.999", "idempotency_key": "k2"})
    assert "ambiguo" in page.content.decode()
    assert selectors.balance_get(user=funded)["cash"] == before
    client.post(reverse("wallet:deposit"), {"amount": "10,99", "idempotency_key": "k3"})
    assert selectors.balance_get(user=funded)["cash"] == before + 1_099


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ["10.999", "9" * 5000, "\u0661\u0660", "1.000.000.000,00"])
def test_limits_page_refuses_bad_amounts(client, funded, amount):
    sign_in(client, funded)
    response = client.post(reverse("wallet:limits"), {"day": amount, "week": "", "month": ""})
    assert response.status_code == 200 and response.context["form"].errors["day"]
    assert selectors.deposit_limits_get(user=funded)["day"]["amount"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["9" * 5000, "\u00b2", "\u0663", "-1", "0"])
def test_statement_page_number_junk_shows_the_first_page(client, funded, page):
    sign_in(client, funded)
    response = client.get(reverse("wallet:statement"), {"page": page})
    assert response.status_code == 200 and response.context["page"].number == 1


@pytest.mark.django_db
@pytest.mark.parametrize("buy_in", ["10.999", "9" * 5000, "\u0661\u0660", "1.000.000.000,00", "3.50"])
def test_sitting_down_refuses_bad_buy_ins_and_changes_nothing(client, buy_in):
    user = funded_player()
    table = poker_table()
    sign_in(client, user)
    before = ledger_snapshot()
    response = client.post(
        reverse("lobby:sit", args=[table.pk]), {"seat": "1", "buy_in": buy_in}, follow=True
    )
    assert response.status_code == 200
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert ledger_snapshot() == before


@pytest.mark.django_db
def test_a_good_buy_in_in_italian_sits_down(client):
    user = funded_player()
    table = poker_table()
    sign_in(client, user)
    client.post(reverse("lobby:sit", args=[table.pk]), {"seat": "1", "buy_in": "50,00"})
    assert Seat.objects.get(table=table, user=user).number == 1


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ["10.999", "9" * 5000, "\uff11\uff10"])
def test_rebuy_refuses_bad_amounts_and_changes_nothing(client, amount):
    user = funded_player()
    table = poker_table()
    seat_players(table, [user])
    sign_in(client, user)
    before = ledger_snapshot()
    response = client.post(reverse("lobby:rebuy", args=[table.pk]), {"amount": amount}, follow=True)
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert len(messages) == 1 and "importo" in messages[0].lower()
    assert ledger_snapshot() == before


@pytest.mark.django_db
def test_backoffice_adjustment_uses_the_same_parser(client, funded):
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory, sign_in
    from wallet.models import Account

    admin = UserFactory(role=roles.STAFF, is_superuser=True)
    sign_in(client, admin)
    account = Account.objects.filter(owner=funded).first()
    before = ledger_snapshot()
    url = reverse("backoffice:wallet_account_adjust", args=[account.pk])
    for amount in ("10.999", "9" * 5000, "\u0661\u0660"):
        response = client.post(
            url,
            {"direction": "credit", "amount": amount, "reason": "prova rettifica", "idempotency_key": "a"},
        )
        assert response.status_code == 200 and response.context["form"].errors["amount"]
    assert ledger_snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["a\x01b", "k" * 5000])  # NUL: refused before the view (test_request_guards)
def test_a_junk_idempotency_key_at_the_table_is_refused(client, key):
    user = funded_player()
    table = poker_table()
    sign_in(client, user)
    before = ledger_snapshot()
    data = {"seat": "1", "buy_in": "50,00", "idempotency_key": key}
    response = client.post(reverse("lobby:sit", args=[table.pk]), data, follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert ledger_snapshot() == before
