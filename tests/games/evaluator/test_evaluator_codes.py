"""The card-code API (ints inside the engines) gives the same values as the card strings."""

import random
from itertools import combinations

import pytest

from games import evaluator as ev
from games.cards import POKER_ORDER, RANK_INDEX, SUITS, CardError


def test_codes_are_one_bit_per_card_the_same_in_every_deck():
    cards = [r + s for r in POKER_ORDER for s in SUITS]
    codes = ev.card_codes(cards)
    assert len(set(codes)) == 52 and all(c > 0 and c & (c - 1) == 0 for c in codes)
    assert ev.card_code("Ah") == 1 << 51 and ev.card_code("2s") == 1
    # a higher card has a higher code, and ♥ > ♦ > ♣ > ♠ within a rank (RULINGS P2)
    fives = ev.card_codes(["5h", "5d", "5c", "5s"])
    assert fives == sorted(fives, reverse=True)
    assert ev.card_code("6s") > ev.card_code("5h")
    for bad in ("1h", "Ax", "", None, 5):
        with pytest.raises(CardError):
            ev.card_code(bad)  # type: ignore[arg-type]  # junk on purpose
    with pytest.raises(CardError):
        ev.card_codes(["Ah", "Zz"])


@pytest.mark.parametrize("low", ev.LOWEST_RANKS)
def test_evaluate_codes_agrees_with_evaluate(low):
    rnd = random.Random(f"codes-{low}")
    deck = ev.deck(low)
    bound = ev.evaluator_for_codes(low)
    for _ in range(20_000):
        hand = rnd.sample(deck, 5)
        codes = ev.card_codes(hand)
        value = ev.evaluate(hand, low)
        assert ev.evaluate_codes(codes, low) == value == bound(codes)
        assert ev.evaluate_codes(tuple(reversed(codes)), low) == value


@pytest.mark.parametrize("low", ["9", "5"])
def test_evaluate_codes_on_every_hand_of_the_smallest_deck_and_a_sample_of_the_largest(low):
    deck = ev.deck(low)
    hands = combinations(deck, 5) if low == "9" else (random.Random(3).sample(deck, 5) for _ in range(50_000))
    bound = ev.evaluator_for_codes(low)
    for hand in hands:
        assert bound(ev.card_codes(hand)) == ev.evaluate(hand, low)


def test_codes_that_are_not_five_cards_of_the_deck_are_refused():
    low = "7"
    five = ev.card_codes(["Ah", "Kh", "Qh", "Jh", "Th"])
    bound = ev.evaluator_for_codes(low)
    bad = [
        five[:4],  # four cards
        [*five, ev.card_code("9h")],  # six
        [five[0], *five[:4]],  # a card twice (the sum carries: fewer bits)
        [five[0]] * 5,
        [ev.card_code("6h"), *five[:4]],  # below the deck's lowest rank
        [ev.card_code("2s"), ev.card_code("2s"), *five[:3]],
        [-1, -2, -4, -8, -16],
        [1 << 60, *five[:4]],  # no card
        ["Ah", "Kh", "Qh", "Jh", "Th"],  # strings are the other API
        None,
    ]
    for codes in bad:
        with pytest.raises(CardError):
            ev.evaluate_codes(codes, low)  # type: ignore[arg-type]  # junk on purpose
        with pytest.raises(CardError):
            bound(codes)  # type: ignore[arg-type]  # junk on purpose
    with pytest.raises(CardError):
        ev.evaluate_codes(five, "4")  # no such deck


@pytest.mark.parametrize("size", [5, 7, 14])
def test_best_hand_codes_agrees_with_best_hand(size):
    rnd = random.Random(size)
    for low in ev.LOWEST_RANKS:
        deck = ev.deck(low)
        for _ in range(100 if size == 14 else 400):
            cards = rnd.sample(deck, size)
            value, five = ev.best_hand(cards, low)
            code_value, mask = ev.best_hand_codes(ev.card_codes(cards), low)
            assert code_value == value
            assert mask == sum(ev.card_codes(five)) and len(five) == 5
            assert value == max(ev.evaluate(list(c), low) for c in combinations(cards, 5)) or (
                value >> ev.CATEGORY_SHIFT == ev.SCALA_REALE  # NB.1 may play a lower scala reale
            )


def test_best_hand_codes_refuses_what_best_hand_refuses():
    low = "8"
    four = ["Ah", "Kh", "Qh", "Jh"]
    twice = ["Ah", "Ah", "Kh", "Qh", "Jh", "Th"]
    below = ["Ah", "Kh", "Qh", "Jh", "7h"]  # the 8-card deck has no 7
    for cards in (four, twice, below):
        with pytest.raises(CardError):
            ev.best_hand(cards, low)
        with pytest.raises(CardError):
            ev.best_hand_codes(ev.card_codes(cards), low)
    assert RANK_INDEX[low] * 4 == (ev.card_code("8s")).bit_length() - 1
