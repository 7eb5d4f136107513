"""The index tables carry the five-cards check (``games.evaluator._CHECK``).

A lookup makes no ``bit_count``: the two index reads add up to a valid index only for a mask of
exactly five of the deck's cards, and to an index out of range (IndexError) for any other count.
"""

import random
from itertools import combinations

import pytest

from games import evaluator as ev
from games.cards import CardError


def lookup(t: ev.DeckTables, m: int) -> int:
    return t.values[t.high[m >> t.split] + t.low[m & t.low_mask]]


def test_every_mask_of_four_or_six_cards_of_the_smallest_deck_is_out_of_range():
    t = ev.deck_tables("9")
    n = len(t.cards)
    for size in (0, 1, 2, 3, 4, 6, 7):
        for cards in combinations(range(n), size):
            m = sum(1 << i for i in cards)
            with pytest.raises(IndexError):
                lookup(t, m)


@pytest.mark.parametrize("low", ev.LOWEST_RANKS)
def test_random_masks_of_every_deck_give_a_value_only_with_five_cards(low):
    t = ev.deck_tables(low)
    n = len(t.cards)
    rnd = random.Random(f"check-{low}")
    seen = {5: 0, "other": 0}
    for _ in range(20_000):
        size = rnd.choice([0, 1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 10, 15, n])
        cards = rnd.sample(t.cards, size)
        m = sum(t.bit[c] for c in cards)
        if size == 5:
            assert lookup(t, m) == ev.evaluate(cards, low) == ev.evaluate_slow(cards, low)
            seen[5] += 1
        else:
            with pytest.raises(IndexError):
                lookup(t, m)
            seen["other"] += 1
    assert seen[5] > 1000 and seen["other"] > 1000


@pytest.mark.parametrize("low", ev.LOWEST_RANKS)
def test_the_largest_and_smallest_indices_stay_in_the_values(low):
    # The first and last hands of the layout: all five cards low, all five cards high.
    t = ev.deck_tables(low)
    n = len(t.cards)
    first = sum(1 << i for i in range(5))
    last = sum(1 << i for i in range(n - 5, n))
    assert t.high[first >> t.split] + t.low[first & t.low_mask] == 0
    assert t.high[last >> t.split] + t.low[last & t.low_mask] == len(t.values) - 1
    assert lookup(t, last) == ev.evaluate(list(t.cards[-5:]), low)


def test_the_string_api_refuses_a_repeated_card_through_the_tables():
    for low in ev.LOWEST_RANKS:
        cards = ev.deck(low)[-4:]
        bound = ev.evaluator_for(low)
        for hand in ([*cards, cards[0]], [cards[0]] * 5, [*cards[:3], cards[0], cards[1]]):
            with pytest.raises(CardError):
                ev.evaluate(hand, low)
            with pytest.raises(CardError):
                bound(hand)
