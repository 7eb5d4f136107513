"""Chemin de fer: random coups per second (``python -m bench.engines chemin [--quick]``)."""

from __future__ import annotations

import time
from typing import Any

from games.chemin.engine import ChemindeferEngine
from games.chemin.sim import next_seats, pick
from games.engine import dumps
from games.rng import SeededRng

E = ChemindeferEngine()


def _coups(n: int, mode: str, seed: int) -> tuple[int, int, int]:
    """Play ``n`` random coups (5 seats, none sitout, restarted when chips run out): coups, dealt, actions."""
    rng = SeededRng(seed)
    config = {"mode": mode, "min_posta": 1000, "min_bet": 100, "rake_bp": 500 if mode == "cash" else 0}
    fresh: list[dict[str, Any]] = [
        {"seat": s, "chips": 20_000, "sitout": False, "prefs": {}} for s in range(1, 6)
    ]
    seats, carry = fresh, None
    dealt = actions = 0
    for _ in range(n):
        state = E.new(config, seats, rng, carry)
        while not E.is_over(state):
            acting = E.to_act(state)
            seat = acting[rng.randbelow(len(acting))]
            E.apply(state, seat, pick(state, seat, rng), rng)
            actions += 1
        dealt += bool(state["punta"])
        carry = E.carry(state)
        seats = next_seats(state, seats, rng, sitouts=False)
        if sum(1 for s in seats if s["chips"] > 0) < 2:
            seats, carry = fresh, None
    return n, dealt, actions


def run(quick: bool) -> None:
    """Print random coups per second for cash and tournament tables, and a state's JSON size."""
    n = 2_000 if quick else 20_000
    for mode in ("cash", "tournament"):
        started = time.perf_counter()
        coups, dealt, actions = _coups(n, mode, 1)
        elapsed = time.perf_counter() - started
        print(
            f"   chemin {mode:10}: {coups / elapsed:8.0f} random coups/s "
            f"({dealt / elapsed:6.0f} dealt coups/s, {actions / elapsed:7.0f} actions/s; "
            f"{coups} coups, {dealt} dealt, in {elapsed:.2f} s)"
        )
    state = E.new({}, [{"seat": s, "chips": 20_000} for s in range(1, 6)], SeededRng(2))
    print(f"   state JSON size at a coup start: {len(dumps(state))} bytes (the sabot is most of it)")
