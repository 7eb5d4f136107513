"""Seeded full matches replayed to a fixed result (RULINGS G4: the deck of every deal is logged)."""

from __future__ import annotations

import hashlib
import json

import pytest

from games.engine import dumps
from games.registry import get
from games.rng import SeededRng
from tests.games.capture.helpers import play_random, seats_for

# Regression pins (recomputed when an engine changes on purpose), not results from the rules.
PINNED = [
    ("scopa", "testa_a_testa", [13, 10], 0, 6, 216, "97add8f0a71ee8bc"),
    ("scopa", "coppie", [12, 9], 0, 6, 216, "97add8f0a71ee8bc"),
    ("scopa", "4in2", [12, 9], 0, 6, 216, "97add8f0a71ee8bc"),
    ("asso", "testa_a_testa", [12, 4], 0, 4, 144, "bb10d99ca62dffff"),
    ("asso", "coppie", [11, 9], 0, 4, 144, "bb10d99ca62dffff"),
    ("asso", "4in2", [11, 9], 0, 4, 144, "bb10d99ca62dffff"),
    ("cirulla", "testa_a_testa", [51, 22], 0, 4, 144, "bb10d99ca62dffff"),
    ("cirulla", "coppie", [43, 59], 1, 6, 216, "97add8f0a71ee8bc"),
    ("cirulla", "4in2", [43, 59], 1, 6, 216, "97add8f0a71ee8bc"),
]


@pytest.mark.parametrize(("game", "fmt", "points", "winner", "deals", "moves", "decks"), PINNED)
def test_seeded_match_replays_to_fixed_result(game, fmt, points, winner, deals, moves, decks):
    eng = get(game)
    rng = SeededRng(2026)
    st = eng.new({"format": fmt}, seats_for(fmt), rng)
    log = play_random(eng, st, rng, chooser=SeededRng(7))
    out = eng.outcome(st)
    assert (out["points"], out["winner"], out["deals"], len(log)) == (points, winner, deals, moves)
    assert hashlib.sha256(json.dumps(st["deck_log"]).encode()).hexdigest()[:16] == decks
    # Replaying the recorded actions with the same generator rebuilds exactly the same match.
    rng2 = SeededRng(2026)
    again = eng.new({"format": fmt}, seats_for(fmt), rng2)
    for step in log:
        eng.apply(again, step["seat"], step["action"], rng2)
    assert dumps(again) == dumps(st)
    # Every smazzata's hands and table are the first cards of its logged deck.
    assert all(len(d) == 40 and len(set(d)) == 40 for d in st["deck_log"])
