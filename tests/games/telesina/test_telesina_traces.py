"""Telesina plays exactly as before: a digest of many seeded random hands (tests/games/telesina/traces.py).

The digest covers what the engine contract exposes (to_act, legal actions, events, every view,
outcomes, carries, refusals), not the state's insides. If a rules change moves it on purpose,
recompute it with ``trace_digest`` and say why in the commit.
"""

from __future__ import annotations

from games.telesina import Telesina
from tests.games.telesina.traces import TELESINA_TABLES, trace_digest

# A regression pin, not a result from the rules: recomputed (and said so in the commit) whenever the
# engine, the deal or the random policy changes on purpose. The rules' own examples are the golden tests.
PINNED_DIGEST = "4020cac6fed7f6aa06d976a76f7c847e5630eb2f9d3dcdeadf8fd7dd4775b971"


def test_random_hands_match_their_pinned_digest():
    assert trace_digest(Telesina(), TELESINA_TABLES, hands=100, seed=7) == PINNED_DIGEST
