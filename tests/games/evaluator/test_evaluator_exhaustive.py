"""Exhaustive check: the evaluator orders every 5-card hand of every deck as a reference does.

The reference below is written separately from games/evaluator.py, straight from the ranking text
(RULINGS P2–P3): it names the category with a ``Counter`` of ranks and an explicit list of the
deck's straights, and compares plain tuples of ranks and suits in the order the rules list the
tie-breaks. No bit packing, no colex, no tables.

Why this proves the two orders are the same: ``ref_key`` returns tuples, and tuple comparison is a
total preorder; the test shows that walking all hands in the evaluator's order the reference key
strictly increases at every step. Then (1) the evaluator's values are all different, (2) the
reference keys are all different, and (3) for any two hands x before y in the evaluator's order,
key(x) < key(next) < … < key(y) by transitivity — so both order every pair the same way. With
``ref_cmp`` defined from the keys, this is what sorting with ``functools.cmp_to_key(ref_cmp)`` and
comparing the two sequences would show, in one pass instead of O(n log n) Python comparisons.
"""

from collections import Counter
from functools import cache, partial
from itertools import combinations

import pytest

from games import cards as deck_cards
from games import evaluator as ev

RANK_ORDER = "23456789TJQKA"  # a rank's strength is its position here
SUIT_ORDER = "scdh"  # ♠ < ♣ < ♦ < ♥ ("Come Quando Fuori Piove", highest first: h d c s)

Key = tuple


@cache
def straights(low: str) -> dict[str, tuple[list[str], str]]:
    """Map the sorted ranks of each of the deck's straights to (ranks from the top down, kind)."""
    ranks = RANK_ORDER[RANK_ORDER.index(low) :]  # the deck's ranks, low to A
    out = [([*reversed(ranks[:4]), "A"], "minima")]  # A below the lowest rank, no wrap
    for start in range(len(ranks) - 4):
        window = list(reversed(ranks[start : start + 5]))
        out.append((window, "massima" if window[0] == "A" else "media"))
    return {"".join(sorted(ranks)): (ranks, kind) for ranks, kind in out}


def ref_key(hand: tuple[str, ...], low: str) -> Key:
    """Return a tuple that orders hands as the rules rank them (without the P4 exception)."""

    def r(card: str) -> int:
        return RANK_ORDER.index(card[0])

    def s(card: str) -> int:
        return SUIT_ORDER.index(card[1])

    # "Highest first": by rank, a higher suit before a lower one of the same rank.
    high_first = sorted(hand, key=lambda c: (r(c), s(c)), reverse=True)
    counts = Counter(c[0] for c in hand)
    flush = len({c[1] for c in hand}) == 1
    straight = straights(low).get("".join(sorted(c[0] for c in hand)))
    if straight:
        # From the top card down; in a minima the ace is the bottom card.
        in_order = [next(c for c in hand if c[0] == rank) for rank in straight[0]]
        top = r(in_order[0])
        if flush:
            return (8, top, s(in_order[0]))
        return (4, top, [s(c) for c in in_order])
    if flush:
        return (6, s(hand[0]), [r(c) for c in high_first])
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        four = next(k for k, n in counts.items() if n == 4)
        fifth = next(c for c in hand if c[0] != four)
        return (7, RANK_ORDER.index(four), r(fifth), s(fifth))
    if shape == [3, 2]:
        three = next(k for k, n in counts.items() if n == 3)
        two = next(k for k, n in counts.items() if n == 2)
        return (5, RANK_ORDER.index(three), RANK_ORDER.index(two), [s(c) for c in high_first])
    if shape == [3, 1, 1]:
        three = next(k for k, n in counts.items() if n == 3)
        others = [c for c in high_first if c[0] != three]
        trips = [c for c in high_first if c[0] == three]
        return (
            3,
            RANK_ORDER.index(three),
            [r(c) for c in others],
            [s(c) for c in others],
            [s(c) for c in trips],
        )
    if shape == [2, 2, 1]:
        pairs = sorted((k for k, n in counts.items() if n == 2), key=RANK_ORDER.index, reverse=True)
        fifth = next(c for c in hand if counts[c[0]] == 1)
        hi = [s(c) for c in high_first if c[0] == pairs[0]]
        lo = [s(c) for c in high_first if c[0] == pairs[1]]
        return (2, RANK_ORDER.index(pairs[0]), RANK_ORDER.index(pairs[1]), r(fifth), s(fifth), hi, lo)
    if shape == [2, 1, 1, 1]:
        pair = next(k for k, n in counts.items() if n == 2)
        others = [c for c in high_first if c[0] != pair]
        pair_suits = [s(c) for c in high_first if c[0] == pair]
        return (1, RANK_ORDER.index(pair), [r(c) for c in others], [s(c) for c in others], pair_suits)
    return (0, [r(c) for c in high_first], [s(c) for c in high_first])


def ref_straight_kind(hand: tuple[str, ...], low: str) -> str | None:
    """Return "minima", "media" or "massima" if the hand is a straight of the deck, else None."""
    straight = straights(low).get("".join(sorted(c[0] for c in hand)))
    return straight[1] if straight else None


def ref_cmp(a: tuple[str, ...], b: tuple[str, ...], low: str) -> int:
    """Compare two hands of one deck: -1, 0 or 1 (the reference comparator)."""
    ka, kb = ref_key(a, low), ref_key(b, low)
    return (ka > kb) - (ka < kb)


CATEGORY_OF_KEY = {
    0: ev.CARTA_ALTA,
    1: ev.COPPIA,
    2: ev.DOPPIA_COPPIA,
    3: ev.TRIS,
    4: ev.SCALA,
    5: ev.FULL,
    6: ev.COLORE,
    7: ev.POKER,
    8: ev.SCALA_REALE,
}


def test_reference_on_rule_examples():
    # The reference itself reads the rules' examples right.
    def hh(text):
        return tuple(text.split())

    assert ref_cmp(hh("Kh Qh Th 9h 8h"), hh("As Ks Js 9s 8s"), "5") == 1
    assert ref_cmp(hh("Ts 9s 8s 7s As"), hh("Ah Kh Qh Jh Th"), "7") == -1  # ordinary order; P4 is apart
    assert ref_key(hh("Td 9d 8s 7c Ah"), "7")[0] == 4
    assert ref_key(hh("Td 9d 8s 7c Ah"), "5")[0] == 0
    assert ref_cmp(hh("Jh Jd Jc 6s 6c"), hh("Ad Kd Jd 9d 8d"), "5") == -1  # colore above full


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_evaluator_order_equals_reference_order(players):
    low = deck_cards.poker_lowest_rank(players)
    deck = deck_cards.poker_deck(players)  # the core's deck, not the evaluator's own list
    hands = list(combinations(deck, 5))
    value_of = partial(ev.evaluate, low=low)
    hands.sort(key=value_of)
    prev_value, prev_key = -1, None
    categories: Counter[int] = Counter()
    for hand in hands:
        value, key = value_of(hand), ref_key(hand, low)
        assert value > prev_value, hand  # strict: different hands never tie
        assert prev_key is None or key > prev_key, (hand, key, prev_key)
        assert ev.category(value) == CATEGORY_OF_KEY[key[0]], hand
        if key[0] in (4, 8):
            assert ev.straight_kind(value) == ref_straight_kind(hand, low), hand
        prev_value, prev_key = value, key
        categories[key[0]] += 1
    assert len(hands) == {2: 42504, 3: 98280, 4: 201376, 5: 376992, 6: 658008}[players]
    # Straight flushes: (ranks - 3) windows plus the minima, in four suits.
    ranks = 13 - deck_cards.RANK_INDEX[low]
    assert categories[8] == 4 * (ranks - 3)
    assert categories[7] == ranks * (4 * ranks - 4)
