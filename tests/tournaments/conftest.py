"""Fixtures of the tournament lifecycle tests: staff, funded players, regulators, ledger checks."""

from __future__ import annotations

import pytest

from piattaforma import roles
from piattaforma.regulator import SimulatedRegulator
from tests.piattaforma.factories import UserFactory
from tests.wallet.factories import funded_player
from tournaments import actions
from tournaments.models import Registration, Tournament
from wallet import selectors as wallet_selectors
from wallet.ledger import house_key
from wallet.models import Account, AccountKind

FUNDS = 10_000  # € 100,00 on every test player's conto
ACCEPT = SimulatedRegulator(delay=0)
REFUSE = SimulatedRegulator(delay=0, mode="refuse")
TIMEOUT = SimulatedRegulator(delay=0, mode="timeout")


@pytest.fixture
def staff(db):
    return UserFactory(role=roles.STAFF)


@pytest.fixture
def players(db):
    return [funded_player(FUNDS) for _ in range(10)]


def authorise_all(tournament: Tournament, authorizer=ACCEPT) -> None:
    for pk in Registration.objects.filter(
        tournament=tournament, state__in=["pending", "cancel_pending"]
    ).values_list("pk", flat=True):
        actions.registration_authorise(registration_id=pk, authorizer=authorizer)


def money(user) -> int:
    """Cash plus bonus of a player, in cents."""
    b = wallet_selectors.balance_get(user=user)
    return b["cash"] + b["bonus"]


def assert_ledger(tournament: Tournament, players_list) -> None:
    """Zero-sum: the pool holds the quota of every live entry, the house the fee of every one, each player
    has his funds less what his live entry cost, and the reconciliation finds no difference."""
    tournament.refresh_from_db()
    regs = Registration.objects.filter(tournament=tournament)
    paying = {r.user_id for r in regs if r.state in (*Registration.ACTIVE, Registration.State.ADMITTED)}
    assert wallet_selectors.tournament_pool_get(tournament_ref=tournament.ledger_ref) == (
        tournament.pool_quota * len(paying)
    )
    rake = Account.objects.filter(
        kind=AccountKind.HOUSE_RAKE, realm=house_key(AccountKind.HOUSE_RAKE).realm
    ).values_list("balance", flat=True)
    live = Registration.objects.filter(state__in=(*Registration.ACTIVE, Registration.State.ADMITTED))
    assert sum(rake) == sum(r.tournament.fee for r in live.select_related("tournament"))
    for user in players_list:
        assert money(user) == FUNDS - (tournament.cost if user.pk in paying else 0), user.nickname
    report = wallet_selectors.reconciliation_report()
    assert report["ok"], report
