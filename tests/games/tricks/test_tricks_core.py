"""games.tricks: obligations, trick winners, the counter-clockwise order and the draws."""

from __future__ import annotations

import pytest

from games.engine import NotYourTurn
from games.tricks import (
    BESTIA_RULES,
    BRISCOLA_RULES,
    TRESETTE_RULES,
    MustFollowSuit,
    MustLeadTopTrump,
    MustTrump,
    NotInHand,
    cards_in_play,
    check_card,
    check_play,
    deal_round_robin,
    draw_round,
    legal_cards,
    legal_now,
    new_trick_state,
    next_seat,
    play,
    rotation,
    top_trump,
    trick_winner,
    tricks_won,
)


def test_counter_clockwise_order_starts_at_the_dealers_right() -> None:
    # RULINGS G2: ``order`` lists each seat's right-hand neighbour next.
    order = [0, 1, 2, 3]
    assert next_seat(order, 3) == 0
    assert rotation(order, next_seat(order, 1)) == [2, 3, 0, 1]


def test_deal_one_card_at_a_time_in_playing_order() -> None:
    hands, rest = deal_round_robin(["a", "b", "c", "d", "e", "f", "g"], [2, 0], 3)
    assert hands == {2: ["a", "c", "e"], 0: ["b", "d", "f"]}
    assert rest == ["g"]


def test_briscola_play_is_free() -> None:
    hand = ["Ad", "3c", "2s"]
    assert legal_cards(BRISCOLA_RULES, hand, [[0, "Kd"]], "s") == hand


def test_tresette_must_follow_suit_and_may_discard_when_void() -> None:
    hand = ["Ad", "3c", "2d"]
    assert legal_cards(TRESETTE_RULES, hand, [[0, "Kd"]], None) == ["Ad", "2d"]
    assert legal_cards(TRESETTE_RULES, hand, [[0, "Kh"]], None) == hand
    with pytest.raises(MustFollowSuit):
        check_card(TRESETTE_RULES, hand, [[0, "Kd"]], None, "3c")
    with pytest.raises(NotInHand):
        check_card(TRESETTE_RULES, hand, [[0, "Kd"]], None, "7d")


def test_bestia_trump_when_void_even_a_losing_trump() -> None:
    hand = ["2s", "3c", "Kh"]
    trick = [[0, "Kd"], [1, "As"]]  # a higher trump is already on the table
    assert legal_cards(BESTIA_RULES, hand, trick, "s") == ["2s"]
    with pytest.raises(MustTrump):
        check_card(BESTIA_RULES, hand, trick, "s", "3c")
    # no card of the led suit and no trump: anything
    assert legal_cards(BESTIA_RULES, ["3c", "Kh"], trick, "s") == ["3c", "Kh"]


def test_bestia_leader_must_lead_the_top_trump() -> None:
    assert top_trump(BESTIA_RULES, "d", exposed="7d") == "Ad"
    assert top_trump(BESTIA_RULES, "d", exposed="Ad") == "3d"  # the ace shows the trump
    must = [top_trump(BESTIA_RULES, "d", exposed="Ad")]
    assert legal_cards(BESTIA_RULES, ["3d", "Kc"], [], "d", must) == ["3d"]
    assert legal_cards(BESTIA_RULES, ["2d", "Kc"], [], "d", must) == ["2d", "Kc"]
    with pytest.raises(MustLeadTopTrump):
        check_card(BESTIA_RULES, ["3d", "Kc"], [], "d", "Kc", must)


def test_trick_winner_with_and_without_trump() -> None:
    # Briscola order A 3 K Q J 7 6 5 4 2; a trump beats any card of another suit.
    assert trick_winner(BRISCOLA_RULES, [[0, "3d"], [1, "Ad"]], "s") == 1
    assert trick_winner(BRISCOLA_RULES, [[0, "Ad"], [1, "2s"]], "s") == 1
    assert trick_winner(BRISCOLA_RULES, [[0, "2d"], [1, "Ac"]], "s") == 0  # off-suit never takes
    assert trick_winner(BRISCOLA_RULES, [[0, "2d"], [1, "4s"], [2, "3s"], [3, "As"]], "s") == 3
    assert trick_winner(BRISCOLA_RULES, [[0, "2d"], [1, "Ks"], [2, "4s"], [3, "Ad"]], "s") == 1
    # Tresette order 3 2 A K Q J 7 6 5 4, no trump: the 3 and the 2 beat the ace.
    assert trick_winner(TRESETTE_RULES, [[0, "Ad"], [1, "2d"], [2, "3c"], [3, "Kd"]], None) == 1
    assert trick_winner(TRESETTE_RULES, [[0, "4d"], [1, "3d"]], None) == 1


def test_winner_draws_first_then_counter_clockwise() -> None:
    st = new_trick_state([0, 1, 2, 3], {s: [] for s in range(4)}, 0, "d", ["a", "b", "c", "d", "e"])
    assert draw_round(st, 2) == [[2, "a"], [3, "b"], [0, "c"], [1, "d"]]
    assert draw_round(st, 1) == [[1, "e"]]  # the stock runs out
    assert st["stock"] == []


def test_a_bestia_hand_through_the_trick_state() -> None:
    # Bestia reuses the same pieces: follow suit, trump when void, the top-trump lead.
    hands = {0: ["3d", "Kc", "4h"], 1: ["Ac", "2d", "5h"], 2: ["7c", "Qh", "Js"]}
    st = new_trick_state([0, 1, 2], hands, 0, "d", [])
    st["exposed"] = "Ad"  # the ace shows the trump: the 3 is the top trump
    assert legal_now(BESTIA_RULES, st, 0) == ["3d"]
    with pytest.raises(MustLeadTopTrump):
        check_play(BESTIA_RULES, st, 0, "Kc")
    with pytest.raises(NotYourTurn):
        check_play(BESTIA_RULES, st, 1, "2d")
    assert play(BESTIA_RULES, st, 0, "3d") is None
    assert legal_now(BESTIA_RULES, st, 1) == ["2d"]
    play(BESTIA_RULES, st, 1, "2d")
    assert legal_now(BESTIA_RULES, st, 2) == ["7c", "Qh", "Js"]  # no trump, no diamonds: free
    done = play(BESTIA_RULES, st, 2, "Js")
    assert done is not None and done["winner"] == 0 and st["turn"] == 0
    assert legal_now(BESTIA_RULES, st, 0) == ["Kc", "4h"]  # the obligation is the first lead's only
    play(BESTIA_RULES, st, 0, "Kc")
    assert legal_now(BESTIA_RULES, st, 1) == ["Ac"]
    play(BESTIA_RULES, st, 1, "Ac")
    play(BESTIA_RULES, st, 2, "7c")
    assert tricks_won(st) == {"0": 1, "1": 1, "2": 0}
    assert sorted(cards_in_play(st)) == sorted(c for h in hands.values() for c in h)
