"""The training section's gettoni: a welcome grant per account, a refill below it once a day, and
never a cent of real money (rules 004, "Tavoli e tornei di allenamento")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from wallet import actions, selectors
from wallet.errors import PlayRefillNotNeeded, PlayRefillToday
from wallet.models import Transaction

pytestmark = pytest.mark.django_db


def _player():
    from tests.piattaforma.factories import UserFactory

    return UserFactory()


def test_the_welcome_grant_is_given_once_whatever_the_retries():
    user = _player()
    actions.play_money_welcome(user=user)
    actions.play_money_welcome(user=user)
    money = selectors.balance_get(user=user)
    assert money["play"] == actions.PLAY_GRANT
    assert money["cash"] == money["bonus"] == 0  # no real money appears


def test_a_refill_tops_up_to_the_grant_below_it_and_once_a_day():
    user = _player()
    actions.play_money_welcome(user=user)
    with pytest.raises(PlayRefillNotNeeded):
        actions.play_money_refill(user=user)
    assert actions.play_money_refill_state(user=user) == "play_refill_not_needed"
    _spend(user, 73_450)
    now = timezone.now()
    before = Transaction.objects.count()
    result = actions.play_money_refill(user=user, now=now)
    assert result["balance"] == actions.PLAY_GRANT == actions.play_gettoni(user=user)
    assert Transaction.objects.count() == before + 1
    _spend(user, 90_000)
    assert actions.play_money_refill_state(user=user, now=now) == "play_refill_today"
    with pytest.raises(PlayRefillToday):
        actions.play_money_refill(user=user, now=now)
    assert actions.play_gettoni(user=user) == actions.PLAY_GRANT - 90_000  # nothing moved
    tomorrow = now + timedelta(days=1)
    assert actions.play_money_refill_state(user=user, now=tomorrow) is None
    assert actions.play_money_refill(user=user, now=tomorrow)["balance"] == actions.PLAY_GRANT


def _spend(user, amount):
    """Gettoni leave the conto the way they do at a training table: onto a table credit."""
    import uuid

    actions.table_buy_in(
        user=user, table_session_ref=f"t-{uuid.uuid4().hex[:8]}", amount=amount, realm="play",
        min_amount=1, max_amount=100_000,
        idempotency_key=f"buy-{uuid.uuid4().hex}",
    )  # fmt: skip
