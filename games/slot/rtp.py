"""The exact return of "Pierino Tenta la Fortuna" per chip bet, and its hit frequency (RULINGS S7).

    python -m games.slot.rtp

Everything is a ``Fraction``; nothing is sampled. How each part is exact:

* **Line wins.** Every reel stops uniformly on its strip, independently of the others, so the
  symbol under any one cell of reel ``i`` is distributed as the strip's symbol counts / its length.
  A payline takes one cell per reel, so its five symbols are independent with those marginals, and
  the expected line win is the sum over every symbol 5-tuple of (product of counts) × win, divided
  by the product of the lengths: the same sum as over all ``32⁵`` stop combinations, grouped by the
  symbols the line sees. The 30 lines share reels, but an expectation of a sum is the sum of the
  expectations, so the expected line payout of a spin is 30 × that (per chip bet: exactly that,
  the total bet being 30 units). ``tests/games/slot/test_rtp.py`` checks the grouping against a
  plain enumeration of every stop combination on small strips.
* **Special symbols** pay by their counts anywhere: a reel's count in its window depends on its own
  stop only, so each count's distribution is the convolution of the reels' (each from its stops).
* **Bonus**: the level reached is a Markov chain over the doors (Preside doors / 6 ends it).
* **Free spins**: the slates are drawn without replacement until a Preside, so the slates won are
  a uniformly ordered prefix: each set of ``k`` non-Preside slates comes first with probability
  ``k! · presides · (11 − k)! / 12!``. A free spin is played or not by the retriggers *before* it,
  so (Wald) the expected win is multiplier × the expected free spin × the expected number of spins
  played, which a recursion over (spins played, spins awarded ≤ 100) gives exactly.
* **Pierino**: the points of one mode spin have the distribution of an enumeration of the mode's
  ``8⁵`` stop combinations; the ten spins' total is its tenfold convolution (capped at the top band's
  floor), giving the band probabilities. The entry probability is unit / 100 and the bands are
  fixed chips, so per chip bet the mode is worth ``unit / 100 × E[band] / (30 × unit)``: the unit
  cancels, and so the return is the same at every unit bet. ``exact_return`` computes it at each
  unit bet anyway, with the unit in the formula, and tests check 1, 10, 50 and 100.
* **Hit frequency**: the probability that a paid spin wins on a line or starts a feature. A line
  wins only if its first three cells do, and the bonus looks at reels 1–3 only, so the stops of
  reels 1–3 are enumerated (32³) and reels 4–5 enter through their joint free-spin and Pierino
  counts (32² stops).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from games.slot import lines, table

Dist = dict[int, Fraction]


def line_expectation(strips: Sequence[str]) -> Fraction:
    """Return the expected win of one payline, in unit bets (see the module docstring)."""
    counts = [Counter(strip).items() for strip in strips]
    total = 0  # integer sum of win × number of stop combinations showing those symbols
    for combo in itertools.product(*counts):
        win = lines.line_win("".join(s for s, _ in combo))[0]
        if win:
            total += win * math.prod(c for _, c in combo)
    return Fraction(total, math.prod(len(s) for s in strips))


def count_distribution(strips: Sequence[str], symbol: str) -> Dist:
    """Return the distribution of how many times ``symbol`` shows in the windows of these reels."""
    dist: Dist = {0: Fraction(1)}
    for strip in strips:
        n = len(strip)
        per_reel = Counter(lines.window([strip], [s])[0].count(symbol) for s in range(n))
        nxt: Dist = {}
        for a, pa in dist.items():
            for b, c in per_reel.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * Fraction(c, n)
        dist = nxt
    return dist


def at_least(dist: Dist, k: int) -> Fraction:
    """Return P(X ≥ k)."""
    return sum((p for v, p in dist.items() if v >= k), Fraction(0))


def bonus_multiplier() -> Fraction:
    """Return the expected multiplier of total bet a bonus game pays (level 1, Maestra up)."""
    expected = Fraction(0)
    reach = Fraction(1)
    for level in range(1, table.BONUS_TOP_LEVEL):
        stop = Fraction(table.BONUS_PRESIDE[level], table.BONUS_DOORS)
        expected += reach * stop * table.BONUS_MULTIPLIERS[level]
        reach *= 1 - stop
    return expected + reach * table.BONUS_MULTIPLIERS[table.BONUS_TOP_LEVEL]


def slate_outcomes() -> dict[tuple[int, int], Fraction]:
    """Return the distribution of (spins added, multiplier added) of the slate picks."""
    slates = table.SLATES
    n = len(slates)
    presides = sum(1 for s in slates if tuple(s) == table.PRESIDE_SLATE)
    others = [tuple(s) for s in slates if tuple(s) != table.PRESIDE_SLATE]
    out: dict[tuple[int, int], Fraction] = {}
    for k in range(len(others) + 1):
        p_set = Fraction(math.factorial(k) * presides * math.factorial(n - 1 - k), math.factorial(n))
        for chosen in itertools.combinations(others, k):
            key = (sum(c[0] for c in chosen), sum(c[1] for c in chosen))
            out[key] = out.get(key, Fraction(0)) + p_set
    return out


def retrigger_table(strips: Sequence[str]) -> list[tuple[int, Fraction]]:
    """Return [(spins added, probability)] of one free spin's retrigger (0 spins: none)."""
    dist = count_distribution(strips, table.FREE_SPIN)
    out: dict[int, Fraction] = {}
    for count, p in dist.items():
        add = table.FREE_SPINS_AWARDED[min(count, 5)] if count >= table.FREE_SPIN_TRIGGER else 0
        out[add] = out.get(add, Fraction(0)) + p
    return sorted(out.items())


def spins_played(retrigger: Sequence[tuple[int, Fraction]]) -> list[Fraction]:
    """Return, for 0..100 spins awarded, the expected number of free spins played (retriggers
    add spins, never beyond 100 in all)."""
    cap = table.FREE_SPIN_CAP
    # played[p][t]: expected final total after p spins played out of t awarded; filled from the
    # cap downwards, as a spin only ever moves to more spins played and at least as many awarded.
    final: dict[tuple[int, int], Fraction] = {}
    for played in range(cap, -1, -1):
        for total in range(cap, played - 1, -1):
            if played == total:
                final[(played, total)] = Fraction(total)
            else:
                final[(played, total)] = sum(
                    (p * final[(played + 1, min(cap, total + add))] for add, p in retrigger), Fraction(0)
                )
    return [final[(0, awarded)] for awarded in range(cap + 1)]


def point_distribution() -> dict[int, Fraction]:
    """Return the distribution of the points of one Pierino-mode spin (every stop combination)."""
    counts = point_counts()
    total = math.prod(len(s) for s in table.POINT_STRIPS)
    return {v: Fraction(c, total) for v, c in counts.items()}


def point_counts() -> Counter[int]:
    """Return how many of the Pierino mode's stop combinations make each number of points."""
    strips = table.POINT_STRIPS
    counts: Counter[int] = Counter()
    tails = list(itertools.product(range(len(strips[3])), range(len(strips[4]))))
    for head in itertools.product(*(range(len(s)) for s in strips[:3])):
        first = lines.window(strips[:3], head)
        # a line scores only if its first three cells do: only those are looked at on reels 4–5
        scoring = [
            line for line in table.PAYLINES if lines.point_line(lines.line_symbols(first, line[:3]) + "__")
        ]
        if not scoring:
            counts[0] += len(tails)
            continue
        for tail in tails:
            win = first + lines.window(strips[3:], tail)
            counts[sum(lines.point_line(lines.line_symbols(win, line)) for line in scoring)] += 1
    return counts


def band_distribution() -> dict[int, Fraction]:
    """Return the distribution of the chips the Pierino mode adds (its ten spins' points → band)."""
    top = table.PIERINO_BANDS[-1][0]
    one = point_counts()
    # Integer counts of stop sequences (exact), divided once at the end.
    total: dict[int, int] = {0: 1}
    for _ in range(table.PIERINO_SPINS):
        nxt: dict[int, int] = {}
        for a, ca in total.items():
            for b, cb in one.items():
                v = min(top, a + b)  # every total at or above the top band's floor pays the same
                nxt[v] = nxt.get(v, 0) + ca * cb
        total = nxt
    sequences = math.prod(len(s) for s in table.POINT_STRIPS) ** table.PIERINO_SPINS
    out: dict[int, Fraction] = {}
    for v, c in total.items():
        prize = lines.band_prize(v)
        out[prize] = out.get(prize, Fraction(0)) + Fraction(c, sequences)
    return out


@dataclass(frozen=True)
class Figures:
    """The exact figures of the product's tables; returns are per chip bet."""

    line: Fraction
    bonus_probability: Fraction
    bonus: Fraction
    free_spin_probability: Fraction
    free_spin_line: Fraction  # expected win of one free spin per chip, multiplier 1
    free_spins: Fraction
    pierino_probability: Fraction
    pierino_base: Fraction
    bands: dict[int, Fraction]
    hit_frequency: Fraction

    def pierino_mode(self, unit: int) -> Fraction:
        """Return the mode's bands' return per chip bet at this unit bet."""
        entry = Fraction(unit, table.PIERINO_ENTRY_DENOMINATOR)
        expected_band = sum((chips * p for chips, p in self.bands.items()), Fraction(0))
        return self.pierino_probability * entry * expected_band / (unit * table.LINES)

    def total(self, unit: int) -> Fraction:
        """Return the whole return per chip bet at this unit bet."""
        return self.line + self.bonus + self.free_spins + self.pierino_base + self.pierino_mode(unit)


def hit_frequency(strips: Sequence[str]) -> Fraction:
    """Return P(a paid spin wins on a line or starts a feature), enumerating reels 1–3 stops."""
    n = [len(s) for s in strips]
    first = strips[:3]
    tail: Counter[tuple[int, int]] = Counter()
    for last in itertools.product(range(n[3]), range(n[4])):
        win = lines.window(strips[3:], last)
        tail[(lines.count_symbol(win, table.FREE_SPIN), lines.count_symbol(win, table.PIERINO))] += 1
    tail_total = n[3] * n[4]
    three: dict[str, bool] = {}
    hits = 0  # stop combinations of reels 1–3 that hit, each weighted by its reels 4–5 stops
    for stops in itertools.product(*(range(k) for k in n[:3])):
        win = lines.window(first, stops)
        hit = lines.count_symbol(win, table.BONUS) >= table.BONUS_TRIGGER
        if not hit:
            for line in table.PAYLINES:
                cells = win[0][line[0]] + win[1][line[1]] + win[2][line[2]]
                if cells not in three:
                    three[cells] = lines.line_win(cells)[0] > 0
                if three[cells]:
                    hit = True
                    break
        if hit:
            hits += tail_total
            continue
        f = lines.count_symbol(win, table.FREE_SPIN)
        p = lines.count_symbol(win, table.PIERINO)
        hits += sum(
            c
            for (f2, p2), c in tail.items()
            if f + f2 >= table.FREE_SPIN_TRIGGER or p + p2 >= table.PIERINO_TRIGGER
        )
    return Fraction(hits, math.prod(n))


@cache
def figures() -> Figures:
    """Compute every exact figure of the product's tables (a few seconds; cached)."""
    strips = table.STRIPS
    bonus_p = at_least(count_distribution(strips[: table.BONUS_REELS], table.BONUS), table.BONUS_TRIGGER)
    fs_dist = count_distribution(strips, table.FREE_SPIN)
    fs_line = line_expectation(table.FREE_SPIN_STRIPS)
    retrigger = retrigger_table(table.FREE_SPIN_STRIPS)
    slates = slate_outcomes()
    played = spins_played(retrigger)
    free = Fraction(0)
    for count, p in fs_dist.items():
        if count < table.FREE_SPIN_TRIGGER:
            continue
        awarded = table.FREE_SPINS_AWARDED[min(count, 5)]
        for (spins, mult), ps in slates.items():
            free += p * ps * (1 + mult) * fs_line * played[min(table.FREE_SPIN_CAP, awarded + spins)]
    pierino_p = at_least(count_distribution(strips, table.PIERINO), table.PIERINO_TRIGGER)
    return Figures(
        line=line_expectation(strips),
        bonus_probability=bonus_p,
        bonus=bonus_p * bonus_multiplier(),
        free_spin_probability=at_least(fs_dist, table.FREE_SPIN_TRIGGER),
        free_spin_line=fs_line,
        free_spins=free,
        pierino_probability=pierino_p,
        pierino_base=pierino_p * table.PIERINO_PAY,
        bands=band_distribution(),
        hit_frequency=hit_frequency(strips),
    )


def exact_return(unit: int) -> Fraction:
    """Return the exact expected return per chip bet at this unit bet (RULINGS S7)."""
    if not table.MIN_UNIT <= unit <= table.MAX_UNIT:
        raise ValueError(f"unit bet {unit} out of range")
    return figures().total(unit)


def percent(value: Fraction, digits: int = 4) -> str:
    """Format a fraction as a percentage rounded to ``digits`` decimals."""
    return f"{float(value * 100):.{digits}f} %"


def main() -> None:
    """Print the exact figures (the table of docs/slot.md)."""
    f = figures()
    print(f"line wins           {percent(f.line)}")
    print(f"bonus               {percent(f.bonus)}   (P = 1 / {float(1 / f.bonus_probability):.1f})")
    print(f"free spins          {percent(f.free_spins)}   (P = 1 / {float(1 / f.free_spin_probability):.1f})")
    print(f"Pierino 50 × bet    {percent(f.pierino_base)}   (P = 1 / {float(1 / f.pierino_probability):.1f})")
    print(f"Pierino mode        {percent(f.pierino_mode(1))}")
    for chips, p in sorted(f.bands.items()):
        print(f"  band {chips:>9,} chips  P = {float(p):.6f}")
    print(f"hit frequency       {percent(f.hit_frequency)}")
    for unit in (1, 10, 50, 100):
        exact = exact_return(unit)
        digits = len(str(exact.denominator))
        print(f"return at unit {unit:>3}  {percent(exact, 9)}   (a fraction of {digits}-digit terms)")


if __name__ == "__main__":
    main()
