"""Hypothesis fuzz of games.melds: every layout offered is a valid meld of exactly the cards given."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.cards import rummy_deck, same_cards
from games.melds import (
    BURRACO,
    SCALA40,
    MeldRules,
    extend_options,
    is_valid,
    meld_hints,
    meld_options,
    wild_index,
)

DECK = rummy_deck()
RULES = st.sampled_from([BURRACO, SCALA40])


def suited(suit: str) -> list[str]:
    return [c for c in DECK if c.endswith(suit)] + ["X1", "X2", "2c"]


cards_of_a_suit = st.sampled_from("hdcs").flatmap(
    lambda s: st.lists(st.sampled_from(suited(s)), min_size=3, max_size=9)
)
any_cards = st.lists(st.sampled_from(DECK), min_size=3, max_size=6)


@given(RULES, st.one_of(cards_of_a_suit, any_cards))
def test_every_layout_is_valid_and_uses_exactly_the_cards(rules: MeldRules, cards: list[str]) -> None:
    for layout in meld_options(cards, rules):
        assert is_valid(layout, rules)
        assert same_cards(layout["cards"], cards)


@given(RULES, cards_of_a_suit, st.lists(st.sampled_from(DECK), min_size=1, max_size=3))
def test_extensions_keep_the_cards_and_the_matta_in_place(
    rules: MeldRules, cards: list[str], more: list[str]
) -> None:
    for layout in meld_options(cards, rules):
        w = wild_index(layout, rules)
        for ext in extend_options(layout, more, rules):
            assert is_valid(ext, rules)
            assert same_cards(ext["cards"], [*cards, *more])
            if layout["kind"] == "scala" and w is not None:
                # a matta stays where it was unless its own card arrived (then it sits at an end, R1)
                old_pos = layout["start"] + w
                new = dict(enumerate(ext["cards"], start=ext["start"]))
                moved = new[old_pos] != layout["cards"][w]
                if moved:
                    assert rules.wild_moves
                    assert ext["cards"][0] == layout["cards"][w] or ext["cards"][-1] == layout["cards"][w]


@given(RULES, st.lists(st.sampled_from(DECK), min_size=5, max_size=20))
def test_hints_are_melds_from_the_hand(rules: MeldRules, hand: list[str]) -> None:
    for hint in meld_hints(hand, rules):
        assert meld_options(hint, rules)
        assert all(hint.count(c) <= hand.count(c) for c in hint)
