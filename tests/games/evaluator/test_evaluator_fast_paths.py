"""The evaluator's shortcuts agree with the plain definitions (RULINGS P5 suited four, P3 ace low)."""

import random

import pytest

from games import evaluator as ev
from games.cards import RANK_INDEX


def _suited_four_reference(cards, low_r):
    """Four cards of one suit in sequence, the ace both below the lowest rank and above the king."""
    order = [12, *range(low_r, 13)]
    windows = [set(order[i : i + 4]) for i in range(len(order) - 3)]
    by_suit = {}
    for card in cards:
        by_suit.setdefault(card[1], set()).add(RANK_INDEX[card[0]])
    return any(w <= held for held in by_suit.values() for w in windows)


@pytest.mark.parametrize("low", ev.LOWEST_RANKS)
def test_suited_four_shortcut_agrees_with_the_reference(low):
    rnd = random.Random(low)
    deck = ev.deck(low)
    low_r = RANK_INDEX[low]
    hands = [rnd.sample(deck, 5) for _ in range(5000)]
    # plus hands that hold four of one suit, which the random sample rarely meets
    by_suit = {s: [c for c in deck if c[1] == s] for s in "hdcs"}
    for _ in range(2000):
        four = rnd.sample(by_suit[rnd.choice("hdcs")], 4)
        fifth = rnd.choice([c for c in deck if c not in four])
        hand = [*four, fifth]
        rnd.shuffle(hand)
        hands.append(hand)
    for hand in hands:
        assert ev._has_suited_four(hand, low_r) == _suited_four_reference(hand, low_r), hand


@pytest.mark.parametrize("low", ev.LOWEST_RANKS)
def test_evaluate_and_evaluator_for_agree_with_the_slow_path(low):
    rnd = random.Random(f"e{low}")
    deck = ev.deck(low)
    bound = ev.evaluator_for(low)
    for _ in range(3000):
        hand = rnd.sample(deck, 5)
        assert ev.evaluate(hand, low) == bound(hand) == ev.evaluate_slow(hand, low)
