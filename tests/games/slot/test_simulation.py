"""A seeded simulation of the engine agrees with the exact return (RULINGS S7; bench.slot runs 10⁷)."""

from __future__ import annotations

import math

from games.engine import action_from_spec
from games.rng import SeededRng
from games.slot import engine, rtp

SPINS = 200_000
Z_999 = 3.2905


def test_simulated_return_at_unit_100_lies_in_its_interval_around_the_exact_one():
    # At unit 100 the wheel always enters the mode, so the jackpot bands are sampled often enough
    # for the sample's spread to be a fair estimate of the interval.
    rng = SeededRng(37)
    state = engine.new(10**15)
    wins = []
    for _ in range(SPINS):
        engine.apply(state, {"type": "gira", "amount": 100}, rng)
        while state["phase"] != engine.SPIN:
            specs = engine.legal_actions(state)
            engine.apply(state, action_from_spec(specs[rng.randbelow(len(specs))], rng), rng)
        wins.append(state["spin"]["win"])
        if len(state["journal"]) > 1_000:
            state["journal"].clear()
    returns = [w / 3000 for w in wins]
    mean = sum(returns) / SPINS
    sd = math.sqrt(sum((x - mean) ** 2 for x in returns) / (SPINS - 1))
    half = Z_999 * sd / math.sqrt(SPINS)
    exact = float(rtp.exact_return(100))
    assert abs(mean - exact) <= half, (mean, exact, half)
    assert state["bet"] == SPINS * 3000 and state["won"] == sum(wins)
