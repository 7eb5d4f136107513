"""Benchmark of the tournament formats: prints figures, asserts nothing.

Run with ``.venv/bin/python -m tournaments.bench`` (``--quick`` for fewer repetitions). Figures:

* pairing one Danese round of 10,000 entrants (standings sort by VP, MP, random list, then 1-2, 3-4);
* balancing a 10,000-entrant freezeout (9-handed) right after one elimination;
* for context, the same balancing after a whole table's worth of eliminations, and awarding a
  10,000-entrant Danese pool with ex aequo groups.

Target: under one second each (issue 11).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from games.rng import SeededRng
from tournaments.formats.balancing import apply_moves, balance
from tournaments.formats.danese import Score, add_results, danese_pairing, danese_placings, match_result
from tournaments.formats.draw import draw_random_list
from tournaments.formats.levels import seat_tables
from tournaments.formats.prizes import award, danese_weights

ENTRANTS = 10_000


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str]) -> None:
    """Print the figures."""
    repeat = 3 if "--quick" in argv else 20
    rng = SeededRng(2026)
    names = [f"u{i:05d}" for i in range(ENTRANTS)]
    rl = draw_random_list(names, rng)

    # A Danese after three played rounds, so the standings have many VP/MP ties to break.
    totals = {n: Score() for n in names}
    for r in range(3):
        round_tables = danese_pairing(totals, rl, first_round=r == 0)
        results: list[tuple[str, Score]] = []
        for a, b in round_tables:
            sa, sb = match_result(rng.randbelow(40), rng.randbelow(40))
            results += [(a, sa), (b, sb)]
        totals = add_results(totals, results)
    t = best_of(lambda: danese_pairing(totals, rl, first_round=False), repeat)
    print(f"danese pairing, {ENTRANTS} entrants, round 4: {t * 1000:.1f} ms (best of {repeat})")

    tables_list = seat_tables(list(rl.order), 9)
    tables = dict(enumerate(tables_list, start=1))
    tables[1] = tables[1][1:]  # one player busts at table 1
    plan = balance(tables, 9)
    t = best_of(lambda: balance(tables, 9), repeat)
    print(
        f"freezeout balance, {ENTRANTS} entrants on {len(tables)} tables of 9, after one elimination: "
        f"{t * 1000:.2f} ms, {len(plan.moves)} move(s), {len(plan.broken)} table(s) broken"
    )

    busted = {t_no: players[:-1] if t_no % 120 == 0 else players for t_no, players in tables.items()}
    plan = balance(busted, 9)
    t = best_of(lambda: balance(busted, 9), repeat)
    after = apply_moves(busted, plan.moves)
    more = sum(1 for n in busted if n % 120 == 0)
    print(
        f"freezeout balance after {more} more eliminations: {t * 1000:.2f} ms, "
        f"{len(plan.moves)} move(s), {len(plan.broken)} table(s) broken, {len(after)} tables left"
    )

    placings = danese_placings(totals)
    weights = danese_weights(ENTRANTS)
    t = best_of(lambda: award(ENTRANTS * 900, weights, placings, rl.order), repeat)
    groups = sum(1 for g in placings if len(g) > 1)
    print(f"danese award, {ENTRANTS} entrants ({groups} ex aequo groups): {t * 1000:.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
