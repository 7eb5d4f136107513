"""Collusion and dumping signals (rules 004, "Collusion e Dumping"): pure arithmetic, no database.

Money between two players of one hand: every cent a loser lost is shared among the winners in
proportion to what each won (floored), so a heads-up hand moves exactly the loser's loss. A pair's
score rewards money flowing one way, the loser's forfeits (abandon, time out, sit out) in hands the
other won, and the loser's unusual losses there; an honest pair's flows roughly cancel and score
near zero. A player's score rewards his rate of abandons and timeouts, sit-outs and unusual losses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

NORMAL, ABANDON, TIMEOUT, SITOUT = "normal", "abandon", "timeout", "sitout"
ENDS = (NORMAL, ABANDON, TIMEOUT, SITOUT)
FORFEITS = (ABANDON, TIMEOUT, SITOUT)

USUAL_MIN_HANDS = 20  # hands of a player before "his usual play" means anything
OUTLIER_SIGMAS = 3.0  # a loss below mean − 3σ of his earlier results is unusual
OUTLIER_MIN_CENTS = 500  # ... and at least €5, so penny games raise nothing
FLAG_SCORE = 40  # pairs and players at or above it are marked for review
TOGETHER_CAP = 500  # shared hands stop adding to a one-way pair's score past this
MONEY_WEIGHT = 5  # €70 all one way scores 31, €600 scores 46: money alone flags only large sums


def pair_key(x: int, y: int) -> tuple[int, int]:
    """The pair's key: the lower user id first."""
    return (x, y) if x < y else (y, x)


def flows(deltas: dict[int, int]) -> dict[tuple[int, int], int]:
    """Money each loser passed to each winner in one hand: ``{(loser, winner): cents}``."""
    won = {u: d for u, d in deltas.items() if d > 0}
    total = sum(won.values())
    if not total:
        return {}
    out: dict[tuple[int, int], int] = {}
    for loser, delta in deltas.items():
        if delta >= 0:
            continue
        for winner, gain in won.items():
            amount = -delta * gain // total
            if amount:
                out[(loser, winner)] = amount
    return out


def is_outlier(delta: int, *, hands: int, net: int, sum_sq: float) -> bool:
    """Whether a loss is far from the player's usual results (his earlier hands' mean and spread)."""
    if delta >= 0 or -delta < OUTLIER_MIN_CENTS or hands < USUAL_MIN_HANDS:
        return False
    mean = net / hands
    sd = math.sqrt(max(sum_sq / hands - mean * mean, 0.0))
    return delta < mean - OUTLIER_SIGMAS * sd


@dataclass(frozen=True, slots=True)
class Pair:
    """A pair's aggregates, as the score reads them."""

    hands: int
    a_to_b: int
    b_to_a: int
    forfeits_a: int = 0
    forfeits_b: int = 0
    outliers_a: int = 0
    outliers_b: int = 0

    @property
    def one_way(self) -> float:
        """How one-sided the money is: 0 (balanced) to 1 (all one way)."""
        gross = self.a_to_b + self.b_to_a
        return abs(self.a_to_b - self.b_to_a) / gross if gross else 0.0


def pair_score(p: Pair) -> int:
    """Rank a pair: one-way money (5 × log2(1 + net in euros) × one-wayness²), the losing side's
    forfeits and unusual losses beyond the other side's (15 and 10 points each, × one-wayness), and
    the hands shared while the money goes one way (up to 10 points)."""
    net = abs(p.a_to_b - p.b_to_a)
    one_way = p.one_way
    money = one_way * one_way * math.log2(1 + net / 100) * MONEY_WEIGHT
    if p.a_to_b >= p.b_to_a:  # a is the side losing to b
        forfeits, outliers = p.forfeits_a - p.forfeits_b, p.outliers_a - p.outliers_b
    else:
        forfeits, outliers = p.forfeits_b - p.forfeits_a, p.outliers_b - p.outliers_a
    together = min(p.hands, TOGETHER_CAP) / TOGETHER_CAP * 10 if one_way >= 0.5 else 0.0
    # forfeits and unusual losses weigh as much as the money goes the same way: between honest
    # regulars a few abandons fall on one side by chance while the money goes both ways
    conduct = (15 * max(forfeits, 0) + 10 * max(outliers, 0)) * one_way
    return round(money + conduct + together)


def player_score(*, hands: int, abandons: int, timeouts: int, sitouts: int, outliers: int) -> int:
    """Rank a player: abandons and timeouts per hand (up to 50), sit-outs per hand (up to 10),
    10 per unusual loss (up to 50). The rate's denominator is at least 10 hands."""
    base = max(hands, 10)
    return round(
        min(1.0, (abandons + timeouts) / base) * 50 + min(1.0, sitouts / base) * 10 + 10 * min(outliers, 5)
    )
