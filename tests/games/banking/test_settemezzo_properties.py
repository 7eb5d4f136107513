"""Sette e mezzo: random sessions (with carry between banchi) keep every invariant.

After every action: money conserved across credits, stakes, piatto and rake; the 40 cards all
accounted for; no view (any seat, spectator) shows a covered card of another seat or the deck;
state and views round-trip through JSON; refused actions leave the state unchanged.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import italian_deck
from games.registry import get
from games.settemezzo.engine import points
from tests.games.banking.settemezzo_support import random_session

ENGINE = get("settemezzo")
CONFIGS = {
    "piatto-cash": {"variant": "piatto", "mode": "cash", "min_bet": 100, "min_bank": 1000, "rake_bp": 500},
    "piatto-torneo": {"variant": "piatto", "mode": "tournament", "min_bet": 100, "min_bank": 600},
    "classica-cash": {"variant": "classica", "mode": "cash", "min_bet": 50, "min_bank": 300, "rake_bp": 1000},
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_random_sessions_full_checks(name):
    for seed in range(100):
        random_session(ENGINE, CONFIGS[name], seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_thousand_random_sessions_conserve_money_and_cards(name):
    outcomes = []
    for seed in range(1000, 2000):
        outcomes += random_session(ENGINE, CONFIGS[name], seed, check="light")
    assert len(outcomes) > 2000
    assert any(o["banker"] is not None for o in outcomes) and any(o["rake"] for o in outcomes) == (
        name != "piatto-torneo"
    )


@given(st.lists(st.sampled_from(italian_deck()), min_size=1, max_size=7, unique=True))
def test_points_give_the_matta_its_best_value(cards):
    others = sum(1 if c[0] in "JQK" else 2 * int(c[0].replace("A", "1")) for c in cards if c != "Kd")
    if "Kd" not in cards:
        assert points(cards) == others
    elif cards == ["Kd"]:
        assert points(cards) == 1  # RULINGS B1: alone it counts ½
    else:
        totals = [others + v for v in (1, 2, 4, 6, 8, 10, 12, 14)]
        fitting = [t for t in totals if t <= 15]
        assert points(cards) == (max(fitting) if fitting else min(totals))
