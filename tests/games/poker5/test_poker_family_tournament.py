"""Poker 5 carte and Telesina in a level tournament (``mode: "tournament"``): RULINGS L1 and P10.

L1: the invito is taken from every seat still in the tournament, sitout seats included, and they
lose it; when after the invito at most one seat is not in sitout, that seat wins the whole pot at
once with no cards dealt or shown, so an absent player is blinded off and a heads-up ends. With
none (every seat in sitout), the first to speak of those who paid (the product's decision). P10 (rules
004): in a tournament the hand after a piatto di parol takes the invito as usual, on top of it.
Cash tables keep their rules (the hand is void, the inviti go back; no invito in a parol hand).
"""

from __future__ import annotations

import pytest

from games.poker5 import Poker5
from games.rng import SeededRng
from games.telesina import Telesina

ENGINES = [Poker5(), Telesina()]
TOURNAMENT = {"mode": "tournament", "invito": 10}


def seats(chips: dict[int, int], sitout=()) -> list[dict]:
    prefs = {"invito_automatico": True, "mostra_nascondi": "chiedi"}
    return [{"seat": s, "chips": c, "sitout": s in sitout, "prefs": dict(prefs)} for s, c in chips.items()]


def conserved(engine, state, chips_in: dict[int, int], carried_in: int = 0) -> dict[str, int]:
    """Assert the hand's chips add up (before + carried in == after + rake + carried out); return them."""
    out = engine.outcome(state)
    after = sum(out["chips"].values()) + out["rake"] + out["carried_out"]
    assert sum(chips_in.values()) + carried_in == after
    return out["chips"]


def play_out(engine, state, rng) -> None:
    """Finish a hand with random legal actions."""
    for _ in range(500):
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
    raise AssertionError("the hand does not end")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_heads_up_with_a_player_in_sitout_the_other_takes_the_inviti_at_once(engine):
    chips = {1: 1000, 2: 1000}
    state = engine.new(TOURNAMENT, seats(chips, sitout=(2,)), SeededRng(1))
    assert engine.is_over(state)  # nothing to decide: no panel, no deal, no show
    out = conserved(engine, state, chips)
    assert out == {"1": 1010, "2": 990}
    result = engine.outcome(state)
    assert result["carried_out"] == 0 and result["pots"][0]["winners"] == [1]
    view = engine.view(state, 2)
    assert not view["hands"] or all(not cards for cards in view["hands"].values())  # no cards dealt


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_an_absent_player_is_blinded_off_and_the_heads_up_ends(engine):
    rng = SeededRng(2)
    chips = {1: 300, 2: 300}
    carry = None
    hands = 0
    while chips[2] and hands < 100:
        hands += 1
        state = engine.new(TOURNAMENT, seats(chips, sitout=(2,)), rng, carry)
        assert engine.is_over(state)
        after = conserved(engine, state, chips, engine.outcome(state)["carried_in"])
        chips, carry = {s: after[str(s)] for s in chips}, engine.carry(state)
    assert hands == 30 and chips == {1: 600, 2: 0}  # 30 inviti of 10: eliminated at the end of the hand


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_the_one_present_seat_takes_every_invito_and_a_carried_pot(engine):
    chips = {1: 1000, 2: 1000, 3: 5}
    state = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2)), SeededRng(3), {"pot": 50})
    out = conserved(engine, state, chips, carried_in=50)
    # seat 3 was all-in on the invito with 5 chips: still the whole pot, nothing handed back
    assert out == {"1": 990, "2": 990, "3": 75}


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_with_everyone_in_sitout_the_first_to_speak_takes_the_pot(engine):
    # nobody may win it at a showdown, and carried it would drain every stack: the first to speak
    # (the dealer's next) of those who paid into the hand takes it, a carried pot too; no cards
    chips = {1: 1000, 2: 1000, 3: 4}
    state = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2, 3)), SeededRng(4), {"pot": 50, "dealer": 1})
    assert engine.is_over(state) and state["dealer"] == 2 and state["b"]["order"] == [3, 1, 2]
    out = conserved(engine, state, chips, carried_in=50)
    assert out == {"1": 990, "2": 990, "3": 74} and engine.outcome(state)["carried_out"] == 0
    assert engine.outcome(state)["pots"][0]["winners"] == [3]  # all-in on the invito: still his
    # the next hands: the deal moves on, and so does the pot (each to its first to speak)
    chips = {1: 990, 2: 990, 3: 0}
    nxt = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2)), SeededRng(4), engine.carry(state))
    assert nxt["b"]["order"] == [1, 2, 3] and engine.outcome(nxt)["pots"][0]["winners"] == [1]
    after = conserved(engine, nxt, chips)
    chips = {1: 1000, 2: 980, 3: 0}
    last = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2)), SeededRng(4), engine.carry(nxt))
    assert last["b"]["order"] == [2, 3, 1] and engine.outcome(last)["pots"][0]["winners"] == [2]
    assert after == {"1": 1000, "2": 980, "3": 0}
    # a seat with no chips left pays nothing into the hand and is passed over
    empty = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2)), SeededRng(4), {"dealer": 1})
    assert empty["b"]["order"][0] == 3 and engine.outcome(empty)["pots"][0]["winners"] == [1]


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_a_cash_table_still_voids_the_hand_and_gives_the_inviti_back(engine):
    chips = {1: 1000, 2: 1000}
    panel = {"vele": "nessuna", "distribuzione": "mai"} if engine.name == "telesina" else {}
    state = engine.new({"mode": "cash", "invito": 10, **panel}, seats(chips, sitout=(2,)), SeededRng(5))
    assert engine.is_over(state)
    assert conserved(engine, state, chips) == {"1": 1000, "2": 1000}


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_two_present_seats_play_on_and_the_sitout_seat_loses_its_invito(engine):
    chips = {1: 1000, 2: 1000, 3: 1000}
    rng = SeededRng(6)
    state = engine.new(TOURNAMENT, seats(chips, sitout=(2,)), rng)
    if engine.name == "telesina" and state["phase"] == "scelta":
        dealer = engine.to_act(state)[0]
        engine.apply(state, dealer, engine.sample_action(state, dealer, rng), rng)
    assert not engine.is_over(state) and state["b"]["total"]["2"] == 10 and 2 in state["b"]["folded"]
    play_out(engine, state, rng)
    out = conserved(engine, state, chips)
    assert out["2"] == 990


# ---------------------------------------------------------------- the hand after a piatto di parol (P10)

PAROL = {"pot": 90, "min_pair": "K", "parol": {"seats": [1, 2]}}


def test_tournament_parol_hand_takes_the_invito_on_top_of_the_piatto_di_parol():
    engine = Poker5()
    chips = {1: 1000, 2: 1000, 3: 1000}
    rng = SeededRng(7)
    state = engine.new(TOURNAMENT, seats(chips), rng, dict(PAROL))
    b = state["b"]
    assert b["total"] == {"1": 10, "2": 10, "3": 10} and b["dead"] == 90  # every seat's invito
    assert state["parol_hand"] and sorted(state["players"]) == [1, 2] and 3 in b["folded"]  # P10: nobody else
    assert state["phase"] == "apertura" and state["min_pair"] == "K"
    seat = state["turn"]
    dealt = state["hands"][str(seat)]
    state["hands"][str(seat)] = ["Kh", "Kd", "9c", "Ts", "Qh"]  # two players: the deck from the 9
    punto = {s["type"]: s for s in engine.legal_actions(state, seat)}["punto"]
    assert punto["amount"]["min"] == 120  # the minimum opening is the pot, inviti included
    state["hands"][str(seat)] = dealt
    play_out(engine, state, rng)
    out = conserved(engine, state, chips, carried_in=90)
    assert out["3"] == 990


def test_cash_parol_hand_takes_no_invito():
    cash = {"mode": "cash", "invito": 10}
    state = Poker5().new(cash, seats({1: 1000, 2: 1000, 3: 1000}), SeededRng(8), PAROL)
    assert state["b"]["total"] == {"1": 0, "2": 0, "3": 0} and sorted(state["players"]) == [1, 2]


def test_tournament_parol_hand_with_one_parol_player_present_ends_on_the_invito():
    engine = Poker5()
    chips = {1: 1000, 2: 1000, 3: 1000}
    state = engine.new(TOURNAMENT, seats(chips, sitout=(2,)), SeededRng(9), dict(PAROL))
    assert engine.is_over(state)
    assert conserved(engine, state, chips, carried_in=90) == {"1": 1110, "2": 990, "3": 990}
    assert engine.carry(state)["parol"] is None and engine.carry(state)["min_pair"] == "J"


def test_tournament_parol_hand_without_its_players_at_the_table_is_an_ordinary_hand():
    engine = Poker5()
    chips = {1: 1000, 2: 1000, 3: 1000}
    rng = SeededRng(10)
    carry = {**PAROL, "parol": {"seats": [5, 6]}}  # both moved away: the pot must not wait for ever
    state = engine.new(TOURNAMENT, seats(chips), rng, carry)
    assert not state["parol_hand"] and state["b"]["dead"] == 90 and state["players"] == [1, 2, 3]
    play_out(engine, state, rng)
    conserved(engine, state, chips, carried_in=90)


def test_tournament_parol_hand_with_every_parol_player_away_is_an_ordinary_hand():
    # the parol players (1, 2) are in sitout: nobody could ever play the piatto di parol, and each
    # hand would take the inviti into it; it is played by those present (seat 3 alone: L1)
    engine = Poker5()
    chips = {1: 1000, 2: 1000, 3: 1000}
    state = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2)), SeededRng(7), dict(PAROL))
    assert engine.is_over(state) and not state["parol_hand"]
    out = engine.outcome(state)
    assert (
        out["pots"][0]["winners"] == [3] and out["carried_out"] == 0 and engine.carry(state)["parol"] is None
    )
    assert conserved(engine, state, chips, carried_in=90) == {"1": 990, "2": 990, "3": 1110}
    # everyone away: the first to speak of those who paid takes it
    state = engine.new(TOURNAMENT, seats(chips, sitout=(1, 2, 3)), SeededRng(7), dict(PAROL))
    out = engine.outcome(state)
    assert out["pots"][0]["winners"] == [state["b"]["order"][0]] and out["carried_out"] == 0
