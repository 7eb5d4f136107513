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
PINNED_DIGEST = "398cbab9bb0adbc8f81947720a5d222d208c727fc0db206d551af2092dad4ed2"


def test_random_hands_match_their_pinned_digest():
    assert trace_digest(Poker5(), POKER_TABLES, hands=100, seed=7) == PINNED_DIGEST
