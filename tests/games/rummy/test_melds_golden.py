"""Golden tests of games.melds: every meld example of the Burraco and Scala 40 rules (004)."""

from __future__ import annotations

from games.melds import (
    BURRACO,
    SCALA40,
    burraco_card_points,
    burraco_kind,
    extend_options,
    is_valid,
    meld_hints,
    meld_options,
    scala40_hand_points,
    scala40_meld_value,
    sequence_options,
    set_options,
    sort_hand,
    wild_card_stands_for,
    wild_index,
)


def seq(cards: list[str], rules=BURRACO) -> dict:
    opts = sequence_options(cards, rules)
    assert len(opts) >= 1, cards
    return opts[0]


# -- Burraco: "Regole per aprire nuovi giochi" ------------------------------------------------------


def test_rules_examples_are_melds() -> None:
    assert sequence_options(["5c", "6c", "7c", "8c"], BURRACO)  # "Esempio di scala"
    assert set_options(["7h", "7h", "7c", "7d"], BURRACO)  # "Esempio di combinazione" (same suits ok)


def test_ace_low_or_high_but_no_wrap() -> None:
    assert [o["start"] for o in sequence_options(["Ah", "2h", "3h"], SCALA40)] == [1]
    assert [o["start"] for o in sequence_options(["Qh", "Kh", "Ah"], SCALA40)] == [12]
    assert sequence_options(["Kh", "Ah", "2h", "3h"], SCALA40) == []  # "non ... scale K-A-2-3"
    assert sequence_options(["Kh", "Ah", "2h"], SCALA40) == []


def test_at_most_one_matta_and_never_only_matte() -> None:
    assert meld_options(["X1", "5h", "X2"], BURRACO) == []
    assert meld_options(["X1", "2c", "2d"], BURRACO) == []  # 2s outside sequences are matte
    assert meld_options(["X1", "X2", "X3"], SCALA40) == []  # "Non sono ammesse combinazioni di jolly"
    assert meld_options(["5h", "X1", "7h"], BURRACO)[0]["cards"] == ["5h", "X1", "7h"]
    assert meld_options(["5h", "2c", "7h", "X2"], BURRACO) == []


def test_pinella_in_its_natural_place_is_not_a_matta() -> None:
    m = seq(["Ah", "2h", "3h", "4h"])
    assert wild_index(m, BURRACO) is None  # "il 2♥ non è considerato matta"
    # so a further matta may join it
    assert [o["cards"] for o in extend_options(m, ["X1"], BURRACO)] == [["Ah", "2h", "3h", "4h", "X1"]]
    # the same 2 standing for the 4 is the matta
    m2 = seq(["3h", "2h", "5h"])
    assert m2["cards"] == ["3h", "2h", "5h"] and wild_index(m2, BURRACO) == 1


def test_two_of_the_suit_natural_or_matta_is_the_players_choice() -> None:
    starts = sorted(o["start"] for o in sequence_options(["2h", "3h", "4h"], BURRACO))
    assert starts == [2, 3]  # 2♥ 3♥ 4♥, or 3♥ 4♥ with the 2♥ as the 5♥


def test_two_of_clubs_may_not_join_three_two_five_of_hearts() -> None:
    # "non si può aggiungere il 2♣ alla sequenza 3♥, 2♥, 5♥ ... il 2♥ può essere sostituito solo dal 4♥"
    m = seq(["3h", "2h", "5h"])
    assert extend_options(m, ["2c"], BURRACO) == []
    assert extend_options(m, ["2c", "6h"], BURRACO) == []


def test_matta_moves_to_the_end_the_player_picks_r1() -> None:
    m = seq(["3h", "2h", "5h"])  # 2♥ stands for the 4♥
    opts = extend_options(m, ["4h"], BURRACO)
    layouts = {o["start"]: o["cards"] for o in opts}
    assert layouts == {2: ["2h", "3h", "4h", "5h"], 3: ["3h", "4h", "5h", "2h"]}  # RULINGS R1
    assert wild_index(opts[0], BURRACO) is None  # at the low end the 2♥ is a pinella in its place
    j = seq(["6c", "X1", "8c"])
    assert {o["start"]: o["cards"] for o in extend_options(j, ["7c"], BURRACO)} == {
        5: ["X1", "6c", "7c", "8c"],
        6: ["6c", "7c", "8c", "X1"],
    }


def test_extend_keeps_matta_in_place_without_its_card() -> None:
    m = seq(["6c", "X1", "8c"])
    assert [o["cards"] for o in extend_options(m, ["9c"], BURRACO)] == [["6c", "X1", "8c", "9c"]]
    assert [o["cards"] for o in extend_options(m, ["5c", "4c"], BURRACO)] == [["4c", "5c", "6c", "X1", "8c"]]


def test_burraco_combinations_any_suits_one_matta() -> None:
    s = set_options(["9h", "9h", "9c"], BURRACO)[0]
    assert [o["cards"] for o in extend_options(s, ["2d"], BURRACO)] == [["9h", "9h", "9c", "2d"]]
    s2 = extend_options(s, ["2d"], BURRACO)[0]
    assert extend_options(s2, ["X1"], BURRACO) == []
    assert extend_options(s2, ["8h"], BURRACO) == []


# -- burrachi -----------------------------------------------------------------------------------------


def test_burraco_kinds() -> None:
    assert burraco_kind(seq(["3h", "4h", "5h", "6h", "7h", "8h"])) is None
    assert burraco_kind(seq(["3h", "4h", "5h", "6h", "7h", "8h", "9h"])) == "pulito"
    assert burraco_kind(seq(["Ah", "2h", "3h", "4h", "5h", "6h", "7h"])) == "pulito"  # pinella in place
    semi = seq(["3h", "4h", "5h", "6h", "7h", "8h", "9h", "X1"])
    assert semi["start"] == 2 or semi["cards"][-1] == "X1"
    assert burraco_kind(semi) == "semipulito"  # seven clean cards in sequence plus the matta
    assert burraco_kind(seq(["3h", "4h", "X1", "6h", "7h", "8h", "9h"])) == "sporco"
    assert burraco_kind(seq(["3h", "4h", "X1", "6h", "7h", "8h", "9h", "Th"])) == "sporco"
    assert burraco_kind(seq(["3h", "X1", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"])) == "semipulito"
    combo7 = set_options(["9h", "9h", "9c", "9c", "9d", "9s", "2d"], BURRACO)[0]
    assert burraco_kind(combo7) == "sporco"
    combo8 = set_options(["9h", "9h", "9c", "9c", "9d", "9s", "9d", "X1"], BURRACO)[0]
    assert burraco_kind(combo8) == "semipulito"  # "una combinazione di almeno 8 carte inclusa la matta"
    clean = set_options(["9h", "9h", "9c", "9c", "9d", "9s", "9d"], BURRACO)[0]
    assert burraco_kind(clean) == "pulito"


def test_burraco_card_values() -> None:
    assert [burraco_card_points(c) for c in ("3h", "7s", "8d", "Kc", "Ah", "2s", "X1")] == [
        5,
        5,
        10,
        10,
        15,
        20,
        30,
    ]


# -- Scala 40 -----------------------------------------------------------------------------------------


def test_scala40_combinations_distinct_suits_three_or_four() -> None:
    assert set_options(["9h", "9s", "9s"], SCALA40) == []  # "un 9 di cuori e due 9 di picche"
    assert set_options(["9h", "9s", "9c"], SCALA40)
    assert set_options(["9h", "9s", "9c", "9d", "X1"], SCALA40) == []  # at most 4
    assert set_options(["9h", "9s", "9c", "X1", "X2"], SCALA40) == []
    assert set_options(["2h", "2s", "2c"], SCALA40)  # no pinelle in Scala 40


def test_scala40_jolly_declares_the_suit_in_a_combination() -> None:
    opts = set_options(["9h", "9s", "X1"], SCALA40)
    assert sorted(o["jolly_suit"] for o in opts) == ["c", "d"]
    four = set_options(["9h", "9s", "9c", "X1"], SCALA40)
    assert [o["jolly_suit"] for o in four] == ["d"]
    assert wild_card_stands_for(four[0], SCALA40) == "9d"
    # the declared suit may not be added as a natural card by attaching (that is the sostituzione)
    three = next(o for o in opts if o["jolly_suit"] == "c")
    assert extend_options(three, ["9c"], SCALA40) == []
    assert extend_options(three, ["9d"], SCALA40)[0]["jolly_suit"] == "c"


def test_scala40_sequence_up_to_fourteen_with_one_jolly() -> None:
    full = [r + "h" for r in "A23456789TJQK"]
    assert sequence_options(full, SCALA40)
    assert sequence_options([*full, "X1"], SCALA40)  # "A-2-...-K + Jolly"
    assert sequence_options([*full, "Ah"], SCALA40) == []  # 13 cards of a suit at most
    assert sequence_options([*full, "Ah"], BURRACO)  # Burraco: the ace before the 2 and after the K
    # a Scala 40 jolly is never moved: its card is placed only by the sostituzione
    m = seq(["6c", "X1", "8c"], SCALA40)
    assert extend_options(m, ["7c"], SCALA40) == []


def test_scala40_opening_values_of_the_rules() -> None:
    tris9 = set_options(["9h", "9d", "9c"], SCALA40)[0]
    ten_to_queen = seq(["Th", "Jh", "Qh"], SCALA40)
    assert scala40_meld_value(tris9) + scala40_meld_value(ten_to_queen) == 57  # 27 + 30
    tris4 = set_options(["4h", "4d", "4c"], SCALA40)[0]
    three_to_seven = seq(["3s", "4s", "5s", "6s", "7s"], SCALA40)
    assert scala40_meld_value(tris4) + scala40_meld_value(three_to_seven) == 37  # 12 + 25
    assert scala40_meld_value(seq(["Ah", "2h", "3h"], SCALA40)) == 6  # ace 1 before the 2
    assert scala40_meld_value(seq(["Qh", "Kh", "Ah"], SCALA40)) == 31  # ace 11 after the king
    assert scala40_meld_value(set_options(["Ah", "Ad", "X1"], SCALA40)[0]) == 33  # jolly = the ace
    assert scala40_meld_value(seq(["8h", "X1", "Th"], SCALA40)) == 27  # jolly = the 9


def test_scala40_hand_points() -> None:
    assert scala40_hand_points(["X1", "Kh", "7d", "Ac"]) == 25 + 10 + 7 + 1  # a single ace is 1
    assert scala40_hand_points(["Ah", "Ac", "2d"]) == 11 + 11 + 2


def test_validity_of_table_layouts() -> None:
    assert is_valid(seq(["3h", "2h", "5h"]), BURRACO)
    assert not is_valid({"kind": "scala", "suit": "h", "start": 3, "cards": ["3h", "X1", "X2"]}, BURRACO)
    assert not is_valid({"kind": "scala", "suit": "h", "start": 13, "cards": ["Kh", "Ah", "2h"]}, BURRACO)
    assert not is_valid({"kind": "tris", "rank": "9", "cards": ["9h", "9s"], "jolly_suit": None}, SCALA40)


def test_hints_are_valid_melds() -> None:
    hand = ["3h", "4h", "5h", "9c", "9d", "X1", "Kc", "Qs", "Js"]
    hints = meld_hints(hand, SCALA40)
    assert ["3h", "4h", "5h"] in hints
    assert all(meld_options(h, SCALA40) for h in hints)


def test_sort_hand_by_suit_and_by_value_with_matte_first() -> None:
    hand = ["Ks", "2c", "X1", "3h", "Ah", "9d"]
    assert sort_hand(hand, "seme", BURRACO) == ["Ah", "3h", "9d", "2c", "Ks", "X1"]
    assert sort_hand(hand, "valore", BURRACO) == ["X1", "2c", "Ah", "3h", "9d", "Ks"]
    assert sort_hand(hand, "valore", SCALA40) == ["X1", "Ah", "2c", "3h", "9d", "Ks"]
