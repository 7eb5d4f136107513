"""Evaluator and shuffle figures: ``python -m bench.engines evaluator`` (``--quick`` for a smoke run).

Prints, side by side in one process:

* 5-card evaluations per second of ``games.evaluator`` against ``treys`` ``Evaluator.evaluate`` on
  the same random hands (each library gets the hands in its own card format, converted before
  timing): ours with card strings (``evaluate``, the API of views and JSON) and with card codes
  (``evaluate_codes``, the ints the engines use inside, as treys gets its ints), each with its
  ratio (target: ≥ 2×); plus two "floor" lines without the table reads: the five card
  strings turned into the bit mask (a call, five dict lookups, four ORs), and the five codes
  summed with the sign checked (a call, ``sum``, one comparison; the five-cards check itself is
  made by the table reads, see ``games.evaluator._CHECK``). The gap between a floor and its
  evaluator is the table reads: three random reads in about 10.6 MB of tables for the 40-card
  deck. A last, diagnostic line runs ``evaluator_for_codes`` over only 64 of the hands again and
  again, so its tables stay in the CPU caches: the gap between it and the real line is the cost
  of the cache misses, the gap between it and the floor the cost of the reads' bytecode;
* the resident memory the tables of all five decks add to a fresh process (target < 20 MB), and
  how long building them takes;
* ``best_hand`` calls per second for 7 and 14 cards (Telesina: own cards plus vele);
* the regulator-style shuffle test: 10**6 shuffles of the 40-card deck with ``SystemRng`` (10**4
  with ``--quick``), a chi-square test per position and one over the whole position × card table.

The chi-square helpers (``chi2_sf``, ``chi2_critical``, ``shuffle_chi_square``) use only ``math``;
the suite's quick statistical test (tests/games/evaluator/test_shuffle_stats.py) uses them too.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games import evaluator
from games.cards import poker_deck
from games.rng import Rng, SystemRng

_EPS = 1e-15
_TINY = 1e-300


def _gamma_q(a: float, x: float) -> float:
    """Return the regularized upper incomplete gamma function Q(a, x) (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        # Series for P(a, x), then Q = 1 − P.
        term = total = 1.0 / a
        ap = a
        for _ in range(100_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Continued fraction for Q(a, x), modified Lentz.
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: int) -> float:
    """Return P(X ≥ x) for X chi-square with ``df`` degrees of freedom (the test's p-value)."""
    return _gamma_q(df / 2, x / 2)


def chi2_critical(df: int, alpha: float = 0.01) -> float:
    """Return the value a chi-square statistic with ``df`` degrees exceeds with probability alpha."""
    low, high = 0.0, df + 50 * math.sqrt(2 * df) + 100
    for _ in range(200):
        mid = (low + high) / 2
        if chi2_sf(mid, df) > alpha:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def position_counts(size: int, shuffles: int, shuffle: Callable[[list[int]], list[int]]) -> list[list[int]]:
    """Shuffle range(size) ``shuffles`` times; return counts[position][card]."""
    counts = [[0] * size for _ in range(size)]
    cards = list(range(size))
    for _ in range(shuffles):
        for row, card in zip(counts, shuffle(cards), strict=True):
            row[card] += 1
    return counts


@dataclass(frozen=True)
class ChiSquareReport:
    """The chi-square figures of a position × card count table."""

    shuffles: int
    per_position: list[float]  # statistic of each position, df = size − 1
    per_position_p: list[float]
    df_position: int
    overall: float  # whole-table statistic scaled by (n − 1) / n, df = (n − 1)²
    overall_p: float
    df_overall: int

    def passes(self, alpha: float = 0.01) -> bool:
        """Tell whether the table passes at level ``alpha`` (e.g. 0.01 = 99 %).

        Two checks, each at ``alpha``: every position (Bonferroni: each at alpha / positions, so
        the family of positions has a false-alarm rate ≤ alpha) and the whole table.
        """
        positions_ok = min(self.per_position_p) >= alpha / len(self.per_position_p)
        return positions_ok and self.overall_p >= alpha


def shuffle_chi_square(counts: Sequence[Sequence[int]]) -> ChiSquareReport:
    """Return the chi-square figures of counts[position][card] from uniform shuffles.

    Per position the counts are multinomial (one card per shuffle, each 1/n under H0), so the
    statistic is chi-square with n − 1 degrees. Over the whole table each shuffle also puts every
    card exactly once, so the centred counts live in an (n − 1)²-dimensional space where a random
    permutation matrix has covariance (1 / (n − 1)) × the projector: the sum of all the cells'
    (O − E)² / E is (n / (n − 1)) × chi-square((n − 1)²); it is scaled back before the test.
    """
    n = len(counts)
    shuffles = sum(counts[0])
    expected = shuffles / n
    per_position = [sum((c - expected) ** 2 for c in row) / expected for row in counts]
    overall = sum(per_position) * (n - 1) / n
    df_position, df_overall = n - 1, (n - 1) ** 2
    return ChiSquareReport(
        shuffles=shuffles,
        per_position=per_position,
        per_position_p=[chi2_sf(x, df_position) for x in per_position],
        df_position=df_position,
        overall=overall,
        overall_p=chi2_sf(overall, df_overall),
        df_overall=df_overall,
    )


def _rng_shuffle(rng: Rng) -> Callable[[list[int]], list[int]]:
    """Return a shuffle through the core's Fisher-Yates (games.rng.shuffled) with this Rng."""
    from games.rng import shuffled

    return lambda cards: shuffled(cards, rng)


def _timer(fn: Callable[[Any], object], items: Sequence[Any]) -> Callable[[int, int], float]:
    """A timer of ``fn`` over ``items[lo:hi]``, one call per item (the same loop for every side)."""

    def timed(lo: int, hi: int) -> float:
        part = items[lo:hi]
        started = time.perf_counter()
        for item in part:
            fn(item)
        return time.perf_counter() - started

    return timed


def _bench_evaluate(quick: bool) -> None:
    """Print 5-card evaluations per second, ours against treys, on the same random hands.

    Each side gets the hands in its own card format, converted before timing: treys its ``int``
    cards (``Card.new``), ours the card strings (the API of views and JSON) and the card codes
    (``evaluator.card_codes``, the ``int`` cards the engines use inside, e.g. ``best_hand``).
    The timers run interleaved over many short slices of the hands and each keeps its fastest
    pass per slice (summed over the slices), so a burst of load on the shared machine lands on
    every side alike instead of on whichever happened to run then.
    """
    from treys import Card, Evaluator  # the bench extra (pyproject "bench")

    low = "5"
    deck = poker_deck(6)
    rnd = random.Random(20261121)
    count = 20_000 if quick else 300_000
    hands = [rnd.sample(deck, 5) for _ in range(count)]
    treys_hands = [([Card.new(c) for c in h[:2]], [Card.new(c) for c in h[2:]]) for h in hands]
    code_hands = [evaluator.card_codes(h) for h in hands]
    treys_eval = Evaluator().evaluate
    evaluate = evaluator.evaluate
    bound = evaluator.evaluator_for(low)
    evaluate_codes = evaluator.evaluate_codes
    bound_codes = evaluator.evaluator_for_codes(low)
    evaluate(hands[0], low)  # tables built before timing

    def time_treys(lo: int, hi: int) -> float:
        part = treys_hands[lo:hi]
        started = time.perf_counter()
        for cards, board in part:
            treys_eval(cards, board)
        return time.perf_counter() - started

    def time_ours(lo: int, hi: int) -> float:
        part = hands[lo:hi]
        started = time.perf_counter()
        for hand in part:
            evaluate(hand, low)
        return time.perf_counter() - started

    def time_codes(lo: int, hi: int) -> float:
        part = code_hands[lo:hi]
        started = time.perf_counter()
        for codes in part:
            evaluate_codes(codes, low)
        return time.perf_counter() - started

    bit = evaluator.deck_tables(low).bit

    def mask_only(cards: Sequence[str]) -> int:
        """Only the first step of any evaluation: five card strings to a bit mask (no table)."""
        c0, c1, c2, c3, c4 = cards
        return bit[c0] | bit[c1] | bit[c2] | bit[c3] | bit[c4]

    def check_only(codes: Sequence[int]) -> bool:
        """evaluator_for_codes without its three table reads: the sum and its sign check."""
        s = sum(codes)
        return s > 0

    few_hands = code_hands[:64] * (count // 64 + 1)  # diagnostic only: 64 hands, tables in cache

    timers = (
        ("treys", time_treys),
        ("codes_floor", _timer(check_only, code_hands)),
        ("evaluate", time_ours),
        ("evaluator_for", _timer(bound, hands)),
        ("codes", time_codes),
        ("codes_for", _timer(bound_codes, code_hands)),
        ("py_evaluator_for", _timer(evaluator._evaluator_for_py(low), hands)),
        ("py_codes_for", _timer(evaluator._evaluator_for_codes_py(low), code_hands)),
        ("floor", _timer(mask_only, hands)),
        ("py_codes_cached", _timer(evaluator._evaluator_for_codes_py(low), few_hands)),
    )
    size = 5_000
    slices = [(lo, min(lo + size, count)) for lo in range(0, count, size)]
    seconds: dict[str, float] = {}
    for lo, hi in slices:
        best: dict[str, float] = {}
        for _ in range(3):  # interleaved, the fastest of three passes of each slice
            for name, fn in timers:
                best[name] = min(best.get(name, math.inf), fn(lo, hi))
        for name, t in best.items():
            seconds[name] = seconds.get(name, 0.0) + t
    rates = {name: count / t for name, t in seconds.items()}
    treys = rates["treys"]

    def line(label: str, name: str, note: str = "") -> None:
        print(f"     {label:<44}{rates[name]:>12,.0f}   ratio {rates[name] / treys:.2f}x{note}")

    lookup = "C (games/_fasteval.c)" if evaluator.NATIVE else "Python (the C module is not built)"
    print(f"   5-card evaluations/s, {count} random hands of the 40-card deck (best of 3 per slice):")
    print(f"     {'treys Evaluator.evaluate (its int cards)':<44}{treys:>12,.0f}")
    print(f"     the public API, lookup in {lookup}:")
    print("     card strings (the API of views and JSON):")
    line("evaluator.evaluate(cards, low)", "evaluate", " (target >= 2x)")
    line("evaluator.evaluator_for(low)(cards)", "evaluator_for")
    print("     card codes (ints, as treys; the engines' representation inside):")
    line("evaluator.evaluate_codes(codes, low)", "codes", " (target >= 2x)")
    line("evaluator.evaluator_for_codes(low)(codes)", "codes_for")
    print("     the pure-Python lookup (used where the C module cannot be built), same tables:")
    line("cards: _evaluator_for_py(low)(cards)", "py_evaluator_for")
    line("codes: _evaluator_for_codes_py(low)(codes)", "py_codes_for")
    line("floor: 5 card strings -> a mask", "floor", " (no table read: a ceiling for Python strings)")
    line(
        "floor: 5 codes -> their sum, sign checked",
        "codes_floor",
        " (no table read: a ceiling for Python codes)",
    )
    line(
        "diagnostic: Python codes lookup on 64 hands",
        "py_codes_cached",
        " (the same 64 over and over, tables in cache: not the figure)",
    )


_RSS_PROBE = """
import time
from games import evaluator

def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

before = rss_kb()
started = time.perf_counter()
evaluator.build_all()
seconds = time.perf_counter() - started
print(before, rss_kb(), seconds)
"""


def _bench_memory() -> None:
    """Print the RSS that building all five decks' tables adds to a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", _RSS_PROBE], capture_output=True, text=True, check=True, timeout=600
    ).stdout.split()
    before, after, seconds = int(out[0]), int(out[1]), float(out[2])
    print(
        f"   tables of all five decks: +{(after - before) / 1024:.1f} MB RSS in a fresh process "
        f"({before / 1024:.1f} -> {after / 1024:.1f} MB; target < 20 MB), built in {seconds:.1f} s"
    )


def _bench_best_hand(quick: bool) -> None:
    """Print best_hand calls per second for 7 and 14 cards of the 40-card deck."""
    low = "5"
    deck = poker_deck(6)
    rnd = random.Random(7)
    for size in (7, 14):
        count = (2_000 if size == 7 else 200) * (1 if quick else 10)
        hands = [rnd.sample(deck, size) for _ in range(count)]
        started = time.perf_counter()
        for hand in hands:
            evaluator.best_hand(hand, low)
        seconds = time.perf_counter() - started
        print(
            f"   best_hand of {size:>2} cards: {count / seconds:>10,.0f} /s "
            f"({seconds / count * 1e6:,.0f} µs each, {math.comb(size, 5)} five-card subsets)"
        )


def _bench_shuffle(quick: bool) -> None:
    """Print the regulator-style chi-square test of SystemRng shuffles of the 40-card deck."""
    shuffles = 10_000 if quick else 1_000_000
    started = time.perf_counter()
    counts = position_counts(40, shuffles, _rng_shuffle(SystemRng()))
    seconds = time.perf_counter() - started
    report = shuffle_chi_square(counts)
    print(
        f"   shuffle test: {shuffles:,} Fisher-Yates shuffles of 40 cards with SystemRng in {seconds:.0f} s"
        f" (expected {shuffles / 40:,.0f} per position and card)"
    )
    crit_pos = chi2_critical(report.df_position, 0.01)
    crit_bonf = chi2_critical(report.df_position, 0.01 / 40)
    print(
        f"   chi-square per position (df {report.df_position}; 99 % critical {crit_pos:.2f}, "
        f"with Bonferroni over 40 positions {crit_bonf:.2f}):"
    )
    for start in range(0, 40, 5):
        cells = [
            f"{p + 1:>2}: {report.per_position[p]:6.2f} (p {report.per_position_p[p]:.3f})"
            for p in range(start, start + 5)
        ]
        print("     " + "   ".join(cells))
    above = sum(x > crit_pos for x in report.per_position)
    print(
        f"   positions above the 99 % critical value: {above} of 40 (about 0.4 expected by chance); "
        f"smallest p {min(report.per_position_p):.4f}"
    )
    print(
        f"   overall (position x card, scaled by 39/40, df {report.df_overall}): {report.overall:.1f}, "
        f"p {report.overall_p:.3f}, 99 % critical {chi2_critical(report.df_overall, 0.01):.1f}"
    )
    print(f"   verdict at 99 %: {'PASS' if report.passes(0.01) else 'FAIL'}")


def run(quick: bool) -> None:
    """Print the evaluator's and the shuffle's figures."""
    _bench_evaluate(quick)
    _bench_memory()
    _bench_best_hand(quick)
    _bench_shuffle(quick)
