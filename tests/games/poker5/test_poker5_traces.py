"""Poker 5 carte plays exactly as before: a digest of many seeded random hands (the telesina traces.py).

The digest covers what the engine contract exposes (to_act, legal actions, events, every view,
outcomes, carries, refusals), not the state's insides. If a rules change moves it on purpose,
recompute it with ``trace_digest`` and say why in the commit.
"""

from __future__ import annotations

from games.poker5 import Poker5
from tests.games.telesina.traces import POKER_TABLES, trace_digest

# A regression pin, not a result from the rules: recomputed (and said so in the commit) whenever the
# engine, the deal or the random policy changes on purpose. The rules' own examples are the golden tests.
PINNED_DIGEST = "855e2ab2cc5d6fe38b850e0eb319dbcef6742d18667b791927e32c6e71085684"


def test_random_hands_match_their_pinned_digest():
    assert trace_digest(Poker5(), POKER_TABLES, hands=100, seed=7) == PINNED_DIGEST
