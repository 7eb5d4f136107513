"""Bestia: random sessions (smazzate with the carry between them) keep every invariant.

After every action: money conserved (credits + piatto + rake, the carried piatto included); the 40
cards each accounted for once (hands, stock, briscola, discards, trick, taken); no view of a seat or
a spectator shows another hand, the stock or the discards, and public events name no hidden card;
refused actions leave the state exactly unchanged; state, views and carry round-trip through JSON.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.games.banking.bestia_support import random_session


def test_random_sessions_full_checks():
    outcomes = []
    for seed in range(30):
        outcomes += random_session(seed)
    ended = Counter(o["ended_by"] for o in outcomes)
    assert ended["fine"] > 100 and ended["nulla"] > 0
    assert any(o["carried_in"] for o in outcomes) and any(
        o["result"] and o["result"]["bestie"] for o in outcomes
    )


@pytest.mark.slow
def test_thousands_of_random_hands_conserve_money_and_cards():
    outcomes = []
    for seed in range(1000, 1500):
        outcomes += random_session(seed, check="light")
    assert len(outcomes) > 2500
    played = [o for o in outcomes if o["ended_by"] == "fine"]
    assert len(played) > 2000
    assert any(o["rake"] for o in played) and any(o["stand_up"] for o in outcomes)
    assert {o["result"]["tricks"].__len__() for o in played} >= {2, 3, 4}
