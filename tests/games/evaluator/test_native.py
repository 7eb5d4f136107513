"""The C lookup (games/_fasteval.c) against the Python one, on every hand of every deck.

Both read the tables ``games.evaluator._build`` fills, so agreeing on every five-card hand of the
five decks, for card strings and for codes, and refusing the same bad input with the same error,
makes them the same function. The exhaustive order test (test_evaluator_exhaustive.py) runs on the
public API, i.e. on the C lookup wherever it is built.
"""

import os
from array import array
from itertools import combinations

import pytest

from games import evaluator as ev
from games.cards import CardError

native = pytest.mark.skipif(not ev.NATIVE, reason="the C lookup is not built (scripts/build_native.py)")


def test_built_where_required():
    """CI sets PIATTAFORMA_REQUIRE_NATIVE=1: there a failed build must not pass unnoticed."""
    if os.environ.get("PIATTAFORMA_REQUIRE_NATIVE") != "1":
        pytest.skip("the C lookup is optional here")
    assert ev.NATIVE
    assert type(ev.evaluate).__module__ == "games._fasteval"


@native
@pytest.mark.parametrize("low", ev.LOWEST_RANKS)
def test_every_hand_same_value(low):
    """Every five-card hand: C and Python agree, by strings and by codes, bound or not."""
    deck = ev.deck(low)
    codes = ev.card_codes(deck)
    c_cards, c_codes = ev.evaluator_for(low), ev.evaluator_for_codes(low)
    py_cards, py_codes = ev._evaluator_for_py(low), ev._evaluator_for_codes_py(low)
    hands = 0
    for hand, hand_codes in zip(combinations(deck, 5), combinations(codes, 5), strict=True):
        value = py_cards(hand)
        assert c_cards(hand) == value == py_codes(hand_codes) == c_codes(hand_codes), hand
        hands += 1
    assert hands == len(ev.deck_tables(low).values)
    # The two-argument entry points, on a sample (the bound ones above took every hand).
    for hand in list(combinations(deck, 5))[::997]:
        assert ev.evaluate(hand, low) == ev._evaluate_py(hand, low)
        assert ev.evaluate_codes(ev.card_codes(hand), low) == ev._evaluate_codes_py(ev.card_codes(hand), low)


BAD_CARDS = [
    ["Ah", "Ah", "Kh", "Qh", "Jh"],  # a card twice
    ["Ah", "Kh", "Qh", "Jh"],  # four
    ["Ah", "Kh", "Qh", "Jh", "Th", "9h"],  # six
    ["Ah", "Kh", "Qh", "Jh", "4h"],  # below the deck (low 5)
    ["Ah", "Kh", "Qh", "Jh", "Xh"],  # no such card
    ["Ah", "Kh", "Qh", "Jh", "AH"],
    ["Ah", "Kh", "Qh", "Jh", "Àh"],  # not ASCII
    ["Ah", "Kh", "Qh", "Jh", "Thh"],
    ["Ah", "Kh", "Qh", "Jh", ""],
    ["Ah", "Kh", "Qh", "Jh", 5],
    ["Ah", "Kh", "Qh", "Jh", ["Th"]],  # unhashable
    ["Ah", "Kh", "Qh", "Jh", None],
    "AhKhQ",  # a str is a sequence of five one-character strings
    [],
]


def _codes(*cards: str) -> list[int]:
    return ev.card_codes(cards)


BAD_CODES = [
    _codes("Ah", "Ah", "Kh", "Qh", "Jh"),
    _codes("Ah", "Kh", "Qh", "Jh"),
    # Six codes, one of them twice: the sum carries into five bits (5♠ + 5♠ = 5♣), so only the
    # count tells it from the hand 5♣ A♥ K♥ Q♥ J♥.
    _codes("5s", "5s", "Ah", "Kh", "Qh", "Jh"),
    _codes("Ah", "Kh", "Qh", "Jh", "4h"),  # below the deck
    [*_codes("Ah", "Kh", "Qh", "Jh"), "Th"],
    [*_codes("Ah", "Kh", "Qh", "Jh"), 1.5],
    [*_codes("Ah", "Kh", "Qh", "Jh"), 1 << 80],
    [*_codes("Ah", "Kh", "Qh", "Jh"), None],
    [*_codes("Ah", "Kh", "Qh", "Jh"), 0],
    [],
    7,
]


@native
@pytest.mark.parametrize(
    ("kind", "items"),
    [("cards", items) for items in BAD_CARDS] + [("codes", items) for items in BAD_CODES],
    ids=repr,
)
def test_bad_input_refused_alike(kind, items):
    """The C lookup, its bound form and the Python lookup raise the same CardError."""
    if kind == "cards":
        public, bound, python = ev.evaluate, ev.evaluator_for("5"), ev._evaluate_py
        message = "servono 5 carte diverse del mazzo dal 5 all'asso"
    else:
        public, bound, python = ev.evaluate_codes, ev.evaluator_for_codes("5"), ev._evaluate_codes_py
        message = "servono i codici di 5 carte diverse del mazzo dal 5 all'asso"
    errors = []
    for call in (lambda: public(items, "5"), lambda: bound(items), lambda: python(items, "5")):
        with pytest.raises(CardError) as error:
            call()
        errors.append(str(error.value))
    assert errors[0] == errors[1] == errors[2]
    assert message in errors[0]


def test_six_codes_with_a_twin_refused_by_python():
    """The Python lookup counts the codes too (it once summed any number of them)."""
    with pytest.raises(CardError):
        ev._evaluate_codes_py(_codes("5s", "5s", "Ah", "Kh", "Qh", "Jh"), "5")
    assert ev._evaluate_codes_py(_codes("5c", "Ah", "Kh", "Qh", "Jh"), "5") > 0


@native
def test_c_refuses_ints_that_are_no_code():
    """The C lookup takes only positive ints below 2**56: a negative one cannot cancel another."""
    a, k, q, j, t, nine = _codes("Ah", "Kh", "Qh", "Jh", "Th", "9h")
    with pytest.raises(CardError):
        ev.evaluate_codes([a, k, q, j + t + nine, -nine], "5")
    # A subclass of int holding a code is still a code.
    assert ev.evaluate_codes([a, k, q, j, bool(0) + t], "5") == ev.evaluate_codes([a, k, q, j, t], "5")


@native
def test_entry_points_arguments():
    hand = ["Ah", "Kh", "Qh", "Jh", "Th"]
    value = ev._evaluate_py(hand, "5")
    assert ev.evaluate(hand, "5") == ev.evaluate(hand, low="5") == ev.evaluate(cards=hand, low="5") == value
    assert ev.evaluate(tuple(hand), "5") == value
    assert ev.evaluate(iter(hand), "5") == value  # any iterable, as the Python lookup's unpacking
    assert ev.evaluate_codes(codes=ev.card_codes(hand), low="5") == value
    with pytest.raises(CardError, match="mazzo sconosciuto"):
        ev.evaluate(hand, "4")
    with pytest.raises(CardError, match="mazzo sconosciuto"):
        ev.evaluate_codes(ev.card_codes(hand), "A")
    for call in (
        lambda: ev.evaluate(hand),
        lambda: ev.evaluate(hand, "5", "6"),
        lambda: ev.evaluate(hand, "5", low="5"),
        lambda: ev.evaluate(codes=hand, low="5"),  # the first argument of evaluate is "cards"
        lambda: ev.evaluate(hand, deck="5"),
    ):
        with pytest.raises(TypeError):
            call()


@native
def test_tables_refuse_what_is_not_a_deck():
    from games import _fasteval

    t = ev.deck_tables("9")
    good = {
        "values": t.values,
        "high": t.high,
        "low": t.low,
        "bit": t.bit,
        "split": t.split,
        "low_mask": t.low_mask,
        "base": 28,
        "top": 28 + t.split,
        "deck": "9",
        "cards_error": ev._bad_hand,
        "codes_error": ev._bad_codes,
    }
    assert _fasteval.Tables(**good).cards(["Ah", "Kh", "Qh", "Jh", "Th"]) == ev._evaluate_py(
        ["Ah", "Kh", "Qh", "Jh", "Th"], "9"
    )
    for change, error in (
        ({"values": array("i", t.values.tolist()[:10])}, TypeError),  # signed values
        ({"high": array("q", [0])}, TypeError),  # 8-byte items
        ({"low": array("i", [0] * 8)}, ValueError),  # not 1 << split entries
        ({"low_mask": t.low_mask >> 1}, ValueError),
        ({"bit": {"Ah": 3}}, ValueError),  # not a power of two
        ({"cards_error": None}, TypeError),
        ({"bit": ["Ah"]}, TypeError),
    ):
        with pytest.raises(error):
            _fasteval.Tables(**{**good, **change})
