"""Benchmark and check of the slot: simulated return beside the exact one, and spins per second.

    python -m bench.slot [--spins N] [--units 1,10,50,100] [--seed S]

Plays N paid spins in all (default 10⁷), shared evenly by the unit bets, through the engine
(``games.slot.engine``: validation, journal, features; the journal is emptied every 10,000 spins so
memory stays flat) with a seeded RNG (seed + unit bet, so a unit bet's figures do not depend on the
others run beside it), every pending door, slate and wheel answered by a random legal choice. Prints
the simulated return per chip bet, its 99.9 % interval (mean ± 3.29 standard errors of the spins'
win / bet), the exact return of ``games.slot.rtp`` beside it and whether it lies inside, the
number of features met, and paid spins per second (features included). Figures, not assertions.
"""

from __future__ import annotations

import argparse
import math
import time

from games.engine import action_from_spec
from games.rng import SeededRng
from games.slot import engine, rtp

Z_999 = 3.2905  # two-sided 99.9 % normal quantile


def simulate(unit: int, spins: int, seed: int) -> dict[str, float]:
    """Play ``spins`` paid spins at this unit bet; return the sums of the spins' return."""
    rng = SeededRng(seed)
    state = engine.new(10**18)
    action = {"type": "gira", "amount": unit}
    total = 0.0
    squares = 0.0
    features = {engine.BONUS: 0, engine.SLATES: 0, engine.WHEEL: 0, "mode": 0}
    start = time.perf_counter()
    for i in range(spins):
        engine.apply(state, action, rng)
        spin = state["spin"]
        if state["phase"] != engine.SPIN:
            for feature in spin["features"]:
                features[feature] += 1
            while state["phase"] != engine.SPIN:
                specs = engine.legal_actions(state)
                engine.apply(state, action_from_spec(specs[rng.randbelow(len(specs))], rng), rng)
            if spin["wheel"] is not None and spin["wheel"]["entered"]:
                features["mode"] += 1
        x = spin["win"] / spin["bet"]
        total += x
        squares += x * x
        if i % 10_000 == 0:
            state["journal"].clear()
    elapsed = time.perf_counter() - start
    mean = total / spins
    sd = math.sqrt(max(0.0, squares / spins - mean * mean) * spins / max(1, spins - 1))
    return {"mean": mean, "half": Z_999 * sd / math.sqrt(spins), "rate": spins / elapsed, **features}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=10_000_000, help="spins in all, shared by the units")
    parser.add_argument("--units", default="1,10,50,100", help="unit bets, comma separated")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    units = [int(u) for u in args.units.split(",")]
    each = args.spins // len(units)
    figures = rtp.figures()
    print(f"exact hit frequency {rtp.percent(figures.hit_frequency)}; {each:,} spins per unit bet")
    print(
        "unit  simulated     99.9 % interval          exact         inside  bonus  free  wheel  mode  spins/s"
    )
    for unit in units:
        r = simulate(unit, each, args.seed + unit)
        exact = float(rtp.exact_return(unit))
        lo, hi = r["mean"] - r["half"], r["mean"] + r["half"]
        inside = "yes" if lo <= exact <= hi else "NO"
        print(
            f"{unit:>4}  {r['mean'] * 100:8.4f} %  [{lo * 100:8.4f} %, {hi * 100:8.4f} %]  "
            f"{exact * 100:8.4f} %  {inside:>6}  {r[engine.BONUS]:>5}  {r[engine.SLATES]:>4}  "
            f"{r[engine.WHEEL]:>5}  {r['mode']:>4}  {r['rate']:,.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
