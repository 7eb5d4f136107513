"""The demo data of `make run`: accounts, money and tables, loaded twice without duplicates."""

import io

import pytest
from django.core.management import call_command

from lobby.models import Table
from piattaforma.models import User
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_prints_credentials():
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=io.StringIO())
    text = out.getvalue()
    assert "Tavolo-Verde-2026" in text and "moderatore" in text and "staff" in text
    mario = User.objects.get(nickname="mario")
    assert mario.check_password("Tavolo-Verde-2026") and mario.has_role("players")
    assert User.objects.get(nickname="staff").is_staff and User.objects.get(nickname="moderatore").is_staff
    assert wallet_selectors.balance_get(user=mario)["cash"] == 50_000  # once, not twice
    assert wallet_selectors.balance_get(user=mario)["play"] == 100_000
    assert Table.objects.filter(game="poker5").count() == 2
    assert Table.objects.filter(game="scopa").count() == 1
    from lobby.models import Seat

    bots = Seat.objects.filter(user__is_bot=True)
    assert bots.count() == 4 and bots.filter(table__name="Roma").count() == 2
    assert not User.objects.get(nickname="bot.scopa").has_usable_password()
