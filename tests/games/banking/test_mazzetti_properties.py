"""Mazzetti: random sessions (with carry between mazzate) keep every invariant.

After every action: money conserved across credits, stakes, piatto and rake; the 40 cards all
accounted for (deck and mazzetti); no view shows an unturned mazzetto's cards or the deck; state
and views round-trip through JSON; refused actions leave the state unchanged.
"""

from __future__ import annotations

import pytest

from games.registry import get
from tests.games.banking.settemezzo_support import random_session

ENGINE = get("mazzetti")
CONFIGS = {
    "cash": {"mode": "cash", "min_bet": 100, "min_bank": 300, "rake_bp": 500},
    "torneo": {"mode": "tournament", "min_bet": 100, "min_bank": 200},
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_random_sessions_full_checks(name):
    for seed in range(60):
        random_session(ENGINE, CONFIGS[name], seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_thousand_random_sessions_conserve_money_and_cards(name):
    outcomes = []
    for seed in range(1000, 2000):
        outcomes += random_session(ENGINE, CONFIGS[name], seed, check="light")
    assert len(outcomes) > 2000 and any(o["banker"] is not None for o in outcomes)
