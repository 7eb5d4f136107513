"""Bestia: the chapter's examples and rules, hand by hand (rules 004 "Regole della Bestia"; RULINGS I8).

Seats are 0..n-1 and, unless a test says otherwise, the dealer is the last seat, so the playing
order (from the dealer's right) is 0, 1, 2, …; seat numbers grow counter-clockwise.
"""

from __future__ import annotations

import pytest

from games import tricks
from games.bestia import StockTooShort, invito_and_bestia, rake_on_shares, split_by_tricks
from games.engine import ConfigError, HandOver, IllegalAction, NotYourTurn, UnknownAction, dumps, loads
from games.rng import SeededRng
from tests.games.banking.bestia_support import ENGINE, act, deal, play_out, refused

# Three hands in which seat 0 takes the first trick, seat 1 the second, seat 2 the third
# (no trumps in hand; the briscola is the 2 of denari, the top trump Ad is in the stock).
ONE_TRICK_EACH = [["Ah", "2c", "4s"], ["2h", "Ac", "2s"], ["4h", "4c", "As"]]
ONE_TRICK_EACH_PLAY = ["Ah", "2h", "4h", "2c", "Ac", "4c", "2s", "As", "4s"]


def servito_all(state, seats):
    for s in seats:
        act(state, s, "servito")


# ---------------------------------------------------------------------------------- the split


def test_split_example_ten_euro_gives_334_333_333_the_334_to_the_first_trick():
    # "con un piatto di € 10,00 le tre parti saranno: € 3,34, € 3,33, € 3,33. La parte di € 3,34
    # spetterà al primo giocatore" — read as the player of the first trick (engine docstring).
    assert split_by_tricks(1000, [0, 1, 2], 3) == {"0": 334, "1": 333, "2": 333}
    assert split_by_tricks(1000, [2, 0, 1], 3) == {"2": 334, "0": 333, "1": 333}


def test_split_example_played_out_piatto_of_ten_euro():
    # piatto iniziale € 1,00 (a bestia carried in) + 3 inviti of € 3,00 = € 10,00
    st = deal(ONE_TRICK_EACH, "2d", carry={"piatto": 100, "entitled": [0, 1, 2]}, config={"invito": 300})
    assert st["piatto"] == 1000 and st["invito"] == 300
    servito_all(st, [0, 1, 2])
    play_out(st, *ONE_TRICK_EACH_PLAY)
    out = ENGINE.outcome(st)
    assert out["result"]["shares"] == {"0": 334, "1": 333, "2": 333}
    assert out["delta"] == {"0": 34, "1": 33, "2": 33}
    assert out["carried_in"] == 100 and out["carried_out"] == 0 and out["rake"] == 0
    assert ENGINE.carry(st)["piatto"] == 0 and ENGINE.carry(st)["entitled"] == []


def test_split_leftover_cents_all_go_with_the_first_trick():
    # "I resti generati dagli arrotondamenti vengono attribuiti al giocatore che ha fatto la prima presa"
    assert split_by_tricks(1100, [1, 0, 2], 3) == {"1": 368, "0": 366, "2": 366}
    assert split_by_tricks(1003, [3, 3, 1, 2], 4) == {"3": 503, "1": 250, "2": 250}
    assert split_by_tricks(900, [0, 0, 0], 3) == {"0": 900}  # three tricks: the whole piatto


def test_two_tricks_take_two_parts_three_tricks_the_whole_piatto():
    hands = [["Ah", "Ac", "As"], ["2h", "2c", "2s"]]
    st = deal(hands, "2d", chips=[1000, 1000])
    servito_all(st, [0, 1])
    play_out(st, "Ah", "2h", "Ac", "2c", "As", "2s")
    out = ENGINE.outcome(st)
    # seat 1 went in bestia: rischio bestia = the piatto (200), credit allows it
    assert out["result"]["shares"] == {"0": 200}
    assert out["result"]["bestie"] == [1] and out["bestia"] == 200
    assert out["chips"] == {"0": 1100, "1": 700} and out["carried_out"] == 200


# ---------------------------------------------------------------------------------- rake


def test_rake_example_ten_percent_a_collects_18_b_collects_9():
    # "Rake: 10% — N° giocatori al tavolo: 3 — Invito: € 10 — Piatto = € 30. Il giocatore A fa due
    # prese, il giocatore B fa una presa: A incassa € 18, B incassa € 9"
    hands = [["Ah", "Ac", "2s"], ["2h", "2c", "As"], ["4h", "4c", "4s"]]
    st = deal(hands, "2d", chips=[5000, 5000, 5000], config={"invito": 1000, "rake_bp": 1000})
    assert st["piatto"] == 3000
    act(st, 0, "servito")
    act(st, 1, "servito")
    act(st, 2, "passo")
    act(st, 2, "passo")  # the al buio round: C does not come back in
    play_out(st, "Ah", "2h", "Ac", "2c", "2s", "As")
    out = ENGINE.outcome(st)
    assert out["result"]["shares"] == {"0": 2000, "1": 1000}
    assert out["result"]["rake"] == {"0": 200, "1": 100}
    assert out["chips"] == {"0": 4000 + 1800, "1": 4000 + 900, "2": 4000}
    assert out["rake"] == 300 and out["carried_out"] == 0


def test_rake_per_collector_is_floored_and_the_cap_is_used_up_in_playing_order():
    assert rake_on_shares({"0": 334, "1": 333, "2": 333}, [0, 1, 2], 1000, None) == {
        "0": 33,
        "1": 33,
        "2": 33,
    }
    assert rake_on_shares({"2": 2000, "0": 1000}, [0, 1, 2], 1000, 150) == {"0": 100, "2": 50}
    st = deal(ONE_TRICK_EACH, "2d", config={"invito": 1000, "rake_bp": 500, "rake_cap": 120})
    servito_all(st, [0, 1, 2])
    play_out(st, *ONE_TRICK_EACH_PLAY)
    assert st["result"]["rake"] == {"0": 50, "1": 50, "2": 20} and st["rake"] == 120


def test_bestie_are_not_raked_when_paid_the_piatto_is_raked_when_shared():
    hands = [["Ah", "Ac", "As"], ["2h", "2c", "2s"]]
    st = deal(hands, "2d", chips=[1000, 1000], config={"rake_bp": 1000})
    servito_all(st, [0, 1])
    play_out(st, "Ah", "2h", "Ac", "2c", "As", "2s")
    out = ENGINE.outcome(st)
    assert (
        out["rake"] == 20 and out["carried_out"] == 200
    )  # 10 % of the 200 collected; the bestia is not raked


def test_rake_only_at_cash_tables_and_at_most_ten_percent():
    with pytest.raises(ConfigError):
        ENGINE.validate_config({"mode": "tournament", "rake_bp": 100})
    with pytest.raises(ConfigError):
        ENGINE.validate_config({"rake_bp": 1001})
    with pytest.raises(ConfigError):
        ENGINE.validate_config({"cards": 5})
    with pytest.raises(ConfigError):
        ENGINE.validate_config({"piatto": 5})
    assert ENGINE.table_settings == {"mode": "mode", "rake_bp": "rake_bp", "rake_cap": "rake_cap"}


# ---------------------------------------------------------------------------------- invito, bestia


def test_invito_capped_by_the_lowest_credit_plays_with_bestia_zero():
    # "l'invito è pari al credito residuo più basso … che si gioca con bestia = 0"
    assert invito_and_bestia(200, 0, [5000, 5000, 150]) == (150, True, 0)
    hands = [["Ah", "Ac", "4s"], ["2h", "2c", "2s"], ["4h", "4c", "As"]]
    st = deal(hands, "2d", chips=[5000, 5000, 150], config={"invito": 200, "min_credit": 100})
    assert (st["invito"], st["invito_capped"], st["bestia"], st["piatto"]) == (150, True, 0, 450)
    act(st, 0, "servito")
    act(st, 1, "servito")
    act(st, 2, "passo")
    act(st, 2, "passo")
    play_out(st, "Ah", "2h", "Ac", "2c", "4s", "2s")
    out = ENGINE.outcome(st)
    # seat 1 took no trick, but the bestia is 0
    assert out["result"]["bestie"] == [1] and out["bestia"] == 0
    assert out["carried_out"] == 0 and out["chips"] == {"0": 5000 - 150 + 450, "1": 4850, "2": 0}


def test_rischio_bestia_is_the_piatto_capped_by_the_lowest_credit_left():
    # "il rischio bestia è determinato dal credito residuo più basso" — 700 - 200 = 500 < piatto 600
    assert invito_and_bestia(200, 0, [5000, 5000, 700]) == (200, False, 500)
    # "Il valore massimo del rischio bestia è uguale al piatto"
    assert invito_and_bestia(200, 2000, [5000, 5000, 5000]) == (200, False, 2600)
    st = deal(ONE_TRICK_EACH, "2d", chips=[5000, 5000, 700], config={"invito": 200})
    assert (st["invito"], st["bestia"], st["piatto"]) == (200, 500, 600)
    view = ENGINE.view(st, None)
    assert (view["invito"], view["piatto"], view["bestia"]) == (200, 600, 500)  # shown at the start


def test_bestia_goes_into_the_next_piatto_for_the_same_players_only():
    hands = [["Ah", "Ac", "4s"], ["2h", "2c", "As"], ["4h", "4c", "2s"]]
    st = deal(hands, "2d", chips=[5000, 5000, 5000], config={"invito": 200})
    servito_all(st, [0, 1, 2])
    play_out(st, "Ah", "2h", "4h", "Ac", "2c", "4c", "4s", "As", "2s")
    out = ENGINE.outcome(st)
    assert out["result"]["tricks"] == {"0": 2, "1": 1, "2": 0}
    assert out["result"]["bestie"] == [2] and out["bestia"] == 600 and out["carried_out"] == 600
    carry = loads(dumps(ENGINE.carry(st)))
    assert carry["piatto"] == 600 and carry["entitled"] == [0, 1, 2]
    # a newcomer (seat 3) does not play until the piatto iniziale is back to 0
    seats = [{"seat": s, "chips": int(out["chips"][str(s)])} for s in range(3)]
    seats.append({"seat": 3, "chips": 5000, "new": True})
    nxt = ENGINE.new({"invito": 200}, seats, SeededRng(1), carry)
    assert nxt["active"] == [1, 2, 0] and nxt["dealer"] == 0  # the dealer moved to seat 2's right
    assert nxt["carried_in"] == 600 and nxt["piatto"] == 600 + 3 * 200
    assert nxt["chips"]["3"] == 5000 and "3" not in nxt["deal"]["hands"]


def test_four_card_variant_first_player_needs_two_tricks_and_the_piatto_splits_in_four():
    # "Il primo giocatore che decide di partecipare alla smazzata va in bestia se non realizza
    # almeno due prese. Tutti gli altri … se non realizzano almeno una presa." Seat 0 passes, so
    # seat 1 is the first player; he takes one trick only.
    hands = [["5h", "5c", "5s", "6s"], ["Ah", "2c", "2s", "4s"], ["2h", "Ac", "As", "7s"]]
    st = deal(hands, "2d", chips=[5000, 5000, 5000], config={"cards": 4, "invito": 100})
    assert st["piatto"] == 300 and st["bestia"] == 300
    act(st, 0, "passo")
    act(st, 1, "servito")
    act(st, 2, "servito")
    act(st, 0, "passo")
    assert st["players"] == [1, 2]
    play_out(st, "Ah", "2h", "2c", "Ac", "As", "2s", "7s", "4s")
    out = ENGINE.outcome(st)
    assert out["result"]["tricks"] == {"1": 1, "2": 3}
    assert out["result"]["shares"] == {"1": 75, "2": 225}
    assert out["result"]["bestie"] == [1]
    assert out["chips"] == {"0": 4900, "1": 4900 + 75 - 300, "2": 4900 + 225}
    assert out["carried_out"] == 300


def test_four_card_variant_other_players_need_one_trick():
    hands = [["Ah", "Ac", "As", "4s"], ["2h", "2c", "2s", "5s"]]
    st = deal(hands, "2d", chips=[5000, 5000], config={"cards": 4})
    servito_all(st, [0, 1])
    play_out(st, "Ah", "2h", "Ac", "2c", "As", "2s", "4s", "5s")
    out = ENGINE.outcome(st)
    assert out["result"]["shares"] == {"0": 150, "1": 50} and out["result"]["bestie"] == []


# ---------------------------------------------------------------------------------- declarations


def test_declarations_start_with_the_giocatore_di_mano_at_the_dealers_right():
    # RULINGS I8; seats 0..3, dealer 1: the order is 2, 3, 0, 1
    hands = [["Ah", "2c", "4s"], ["2h", "Ac", "2s"], ["4h", "4c", "As"], ["5h", "5c", "5s"]]
    st = deal(hands, "2d", dealer=1)
    assert st["dealer"] == 1 and st["active"] == [2, 3, 0, 1]
    assert ENGINE.to_act(st) == [2] and st["deal"]["hands"]["2"] == ["Ah", "2c", "4s"]
    assert [s["label"] for s in ENGINE.legal_actions(st, 2)][:3] == ["Passo", "Servito", "Cambio"]
    assert isinstance(refused(st, 3, {"type": "servito"}), NotYourTurn)


def test_cambio_replaces_the_chosen_cards_from_the_top_of_the_stock():
    st = deal(ONE_TRICK_EACH, "2d", stock_top=["Kd", "Qd", "Jd"])
    events = act(st, 0, "cambio", cards=["2c", "4s"])
    assert st["deal"]["hands"]["0"] == ["Ah", "Kd", "Qd"]
    assert st["discards"] == ["2c", "4s"] and st["changed"] == {"0": 2}
    private = [e for e in events if "to" in e]
    public = [e for e in events if "to" not in e]
    assert private == [{"type": "cambio", "seat": 0, "out": ["2c", "4s"], "in": ["Kd", "Qd"], "to": [0]}]
    assert public == [{"type": "cambio", "seat": 0, "count": 2}]
    # seven ways to change 1, 2 or 3 cards of three
    assert sum(1 for s in ENGINE.legal_actions(st, 1) if s["type"] == "cambio") == 7


def test_cambio_refuses_cards_not_in_hand_repeated_or_more_than_the_stock():
    st = deal(ONE_TRICK_EACH, "2d")
    refused(st, 0, {"type": "cambio", "cards": ["Kd"]})
    refused(st, 0, {"type": "cambio", "cards": ["Ah", "Ah"]})
    refused(st, 0, {"type": "cambio", "cards": []})
    refused(st, 0, {"type": "cambio", "cards": "Ah"})
    assert isinstance(refused(st, 0, {"type": "gioca", "card": "Ah"}), UnknownAction)
    st["deal"]["stock"] = st["deal"]["stock"][:2]  # (only for this check) a stock of two cards
    assert isinstance(refused(st, 0, {"type": "cambio", "cards": ["Ah", "2c", "4s"]}), StockTooShort)
    assert sum(1 for s in ENGINE.legal_actions(st, 0) if s["type"] == "cambio") == 6


def test_al_buio_a_player_who_passed_takes_the_top_of_the_stock_unseen():
    st = deal(ONE_TRICK_EACH, "2d", stock_top=["Kd", "Qd", "Jd", "7d"])
    act(st, 0, "servito")
    act(st, 1, "passo")
    act(st, 2, "servito")
    assert st["phase"] == "buio" and ENGINE.to_act(st) == [1]
    assert [s["label"] for s in ENGINE.legal_actions(st, 1)] == ["Passo", "Al buio"]
    events = act(st, 1, "buio")
    assert st["deal"]["hands"]["1"] == ["Kd", "Qd", "Jd"]
    assert st["discards"] == ["2h", "Ac", "2s"] and st["players"] == [0, 2, 1]
    assert next(e for e in events if "to" not in e) == {"type": "buio", "seat": 1}
    assert st["phase"] == "gioco" and st["deal"]["order"] == [0, 1, 2]


def test_al_buio_only_while_the_stock_holds_a_whole_hand():
    # eight players, three cards each: 24 dealt, the briscola, a stock of 15
    hands = [[c + s for s in "hcs"] for c in "A234567J"]
    st = deal(hands, "2d")
    act(st, 0, "servito")
    for s in range(1, 6):
        act(st, s, "cambio", cards=list(st["deal"]["hands"][str(s)]))  # 15 cards drawn
    act(st, 6, "passo")
    act(st, 7, "passo")
    assert len(st["deal"]["stock"]) == 0 and st["phase"] == "gioco"  # no buio round
    assert not [s for s in ENGINE.legal_actions(st, 0) if s["type"] == "cambio"]


def test_i8_fewer_than_two_players_void_the_hand_and_the_piatto_carries_with_new_inviti():
    st = deal(ONE_TRICK_EACH, "2d", config={"invito": 200})
    act(st, 0, "passo")
    act(st, 1, "servito")
    act(st, 2, "passo")
    act(st, 0, "passo")
    events = act(st, 2, "passo")
    assert ENGINE.is_over(st) and st["ended_by"] == "nulla"
    assert events[-1]["type"] == "smazzata_nulla"
    out = ENGINE.outcome(st)
    assert out["carried_out"] == 600 and out["delta"] == {"0": -200, "1": -200, "2": -200}
    carry = ENGINE.carry(st)
    assert carry == {"dealer": 2, "piatto": 600, "entitled": [0, 1, 2], "missed": {"0": 0, "1": 0, "2": 0}}
    seats = [{"seat": s, "chips": 9800} for s in range(3)]
    nxt = ENGINE.new({"invito": 200}, seats, SeededRng(3), carry)
    assert nxt["dealer"] == 0 and nxt["active"] == [1, 2, 0]  # cards redealt by the next dealer
    assert nxt["piatto"] == 1200 and nxt["bestia"] == 1200


def test_nobody_plays_is_void_too():
    st = deal(ONE_TRICK_EACH, "2d")
    for s in (0, 1, 2, 0, 1, 2):
        act(st, s, "passo")
    assert st["ended_by"] == "nulla" and ENGINE.outcome(st)["carried_out"] == 300


# ---------------------------------------------------------------------------------- the play


def test_first_leader_must_lead_the_trump_ace():
    hands = [["5h", "Ad", "4s"], ["2h", "Ac", "2s"], ["4h", "4c", "As"]]
    st = deal(hands, "2d")
    servito_all(st, [0, 1, 2])
    assert [s["card"] for s in ENGINE.legal_actions(st, 0)] == ["Ad"]
    assert isinstance(refused(st, 0, {"type": "gioca", "card": "5h"}), tricks.MustLeadTopTrump)


def test_with_the_ace_turned_up_the_three_is_the_top_trump():
    # "l'asso, oppure il 3 con l'asso scoperto per indicare la briscola"
    hands = [["5h", "3d", "4s"], ["2h", "Ac", "2s"], ["4h", "4c", "As"]]
    st = deal(hands, "Ad")
    servito_all(st, [0, 1, 2])
    assert [s["card"] for s in ENGINE.legal_actions(st, 0)] == ["3d"]


def test_the_obligation_binds_the_first_player_in_play_not_a_passer():
    hands = [["5h", "Ad", "4s"], ["2h", "3d", "2s"], ["4h", "4c", "As"]]
    st = deal(hands, "2d")
    act(st, 0, "passo")
    act(st, 1, "servito")
    act(st, 2, "servito")
    act(st, 0, "passo")
    # seat 1 leads; the ace went to the discards with seat 0's hand: no obligation
    assert ENGINE.to_act(st) == [1] and len(ENGINE.legal_actions(st, 1)) == 3


def test_follow_suit_then_trump_even_a_losing_one():
    hands = [["Ah", "5c", "6c"], ["2h", "Kd", "4c"], ["Qs", "2d", "3d"]]
    st = deal(hands, "7d")
    servito_all(st, [0, 1, 2])
    act(st, 0, "gioca", card="Ah")
    assert [s["card"] for s in ENGINE.legal_actions(st, 1)] == ["2h"]
    assert isinstance(refused(st, 1, {"type": "gioca", "card": "Kd"}), tricks.MustFollowSuit)
    act(st, 1, "gioca", card="2h")
    # seat 2 has no hearts: a trump, even the 2 of trumps
    assert sorted(s["card"] for s in ENGINE.legal_actions(st, 2)) == ["2d", "3d"]
    assert isinstance(refused(st, 2, {"type": "gioca", "card": "Qs"}), tricks.MustTrump)
    act(st, 2, "gioca", card="2d")
    assert st["deal"]["history"][0]["winner"] == 2  # the trump takes


def test_card_order_ace_three_king_queen_jack_seven_down_to_two():
    hands = [["Kh", "Ac", "2s"], ["3h", "2c", "4s"]]
    st = deal(hands, "2d")
    servito_all(st, [0, 1])
    play_out(st, "Kh", "3h")
    assert st["deal"]["history"][0]["winner"] == 1  # 3 over the king
    play_out(st, "4s", "2s", "2c", "Ac")
    assert [t["winner"] for t in st["deal"]["history"]] == [1, 1, 0]


def test_no_action_after_the_end_and_outcome_only_at_the_end():
    st = deal(ONE_TRICK_EACH, "2d")
    with pytest.raises(IllegalAction):
        ENGINE.outcome(st)
    servito_all(st, [0, 1, 2])
    play_out(st, *ONE_TRICK_EACH_PLAY)
    assert isinstance(refused(st, 0, {"type": "passo"}), HandOver)
    assert ENGINE.to_act(st) == []


# ---------------------------------------------------------------------------------- active players


def test_cash_min_credit_needed_only_with_piatto_zero():
    seats = [{"seat": 0, "chips": 5000}, {"seat": 1, "chips": 5000}, {"seat": 2, "chips": 150}]
    st = ENGINE.new({"invito": 100, "min_credit": 200}, seats, SeededRng(0), {"dealer": 2})
    assert st["active"] == [1, 0]
    carry = {"dealer": 2, "piatto": 300, "entitled": [0, 1, 2]}
    st = ENGINE.new({"invito": 100, "min_credit": 200}, seats, SeededRng(0), carry)
    assert st["active"] == [1, 2, 0] and st["invito"] == 100


def test_cash_sitout_players_pay_no_invito_even_with_a_piatto():
    seats = [{"seat": s, "chips": 5000, "sitout": s == 1} for s in range(3)]
    carry = {"dealer": 2, "piatto": 300, "entitled": [0, 1, 2]}
    st = ENGINE.new({"invito": 100}, seats, SeededRng(0), carry)
    assert st["active"] == [2, 0] and st["chips"]["1"] == 5000
    assert 1 in ENGINE.carry(st)["entitled"]  # he keeps the right while the piatto lasts


def test_tournament_sitout_players_pay_the_invito_and_are_passed():
    seats = [{"seat": s, "chips": 5000, "sitout": s == 1} for s in range(3)]
    st = ENGINE.new({"mode": "tournament", "invito": 100}, seats, SeededRng(0), {"dealer": 1})
    assert st["active"] == [0, 1, 2] and st["chips"]["1"] == 4900
    act(st, 0, "servito")
    assert st["decisions"]["1"] == "passo" and ENGINE.to_act(st) == [2]


def test_entitled_players_gone_open_the_piatto_to_everybody():
    seats = [{"seat": 0, "chips": 5000}, {"seat": 4, "chips": 5000}, {"seat": 5, "chips": 5000, "new": True}]
    carry = {"dealer": 5, "piatto": 300, "entitled": [0, 1, 2]}
    st = ENGINE.new({"invito": 100}, seats, SeededRng(0), carry)
    assert st["active"] == [4, 5, 0] and st["piatto"] == 600


def test_too_few_active_players_end_at_once_and_keep_the_carry():
    seats = [{"seat": 0, "chips": 5000}, {"seat": 1, "chips": 5000, "sitout": True}]
    carry = {"dealer": 1, "piatto": 300, "entitled": [0, 1], "missed": {"1": 2}}
    st = ENGINE.new({"invito": 100}, seats, SeededRng(0), carry)
    assert ENGINE.is_over(st) and st["ended_by"] == "pochi_giocatori"
    out = ENGINE.outcome(st)
    assert out["delta"] == {"0": 0, "1": 0} and out["carried_out"] == 300
    assert out["missed"] == {"0": 0, "1": 3} and out["stand_up"] == [1]
    assert ENGINE.carry(st)["dealer"] == 1 and ENGINE.carry(st)["entitled"] == [0, 1]


def test_the_first_dealer_is_drawn_among_the_active_players_then_rotates_right():
    seats = [{"seat": s, "chips": 5000} for s in (1, 3, 6)]
    dealers = []
    carry = None
    for i in range(4):
        st = ENGINE.new({"invito": 100}, seats, SeededRng(i), carry)
        dealers.append(st["dealer"])
        while not ENGINE.is_over(st):
            act(st, ENGINE.to_act(st)[0], "passo")
        carry = ENGINE.carry(st)
    first = dealers[0]
    ring = [1, 3, 6]
    assert dealers == [ring[(ring.index(first) + i) % 3] for i in range(4)]


# ---------------------------------------------------------------------------------- sitout


def test_timeout_before_declaring_passes_after_declaring_plays_the_first_legal_card():
    st = deal(ONE_TRICK_EACH, "2d")
    act(st, 0, "servito")
    assert ENGINE.timeout_action(st, 1) == {"type": "sitout"}
    events = act(st, 1, "sitout")
    assert st["sitout"]["1"] and st["decisions"]["1"] == "passo"
    assert {"type": "passo", "seat": 1, "auto": True} in events
    act(st, 2, "servito")
    # buio round: seat 1 is sitout, passed automatically; play starts with seat 0
    assert st["phase"] == "gioco" and ENGINE.to_act(st) == [0]
    act(st, 0, "gioca", card="2c")  # any card (no trump ace in hand)
    events = act(st, 2, "sitout")
    assert events[1] == {"type": "gioca", "seat": 2, "card": "4c", "auto": True}  # must follow clubs
    # from now on seat 2 plays automatically whenever its turn comes
    act(st, 0, "gioca", card="Ah")
    assert st["deal"]["trick"] == [] and ENGINE.to_act(st) == [0]
    act(st, 0, "gioca", card="4s")
    assert ENGINE.is_over(st)


def test_three_missed_turns_in_sitout_stand_the_player_up_at_cash_tables():
    seats = [{"seat": s, "chips": 5000, "sitout": s == 2} for s in range(3)]
    carry = None
    for i in range(3):
        st = ENGINE.new({"invito": 100}, seats, SeededRng(i), carry)
        while not ENGINE.is_over(st):
            act(st, ENGINE.to_act(st)[0], "passo")
        out = ENGINE.outcome(st)
        assert out["missed"]["2"] == i + 1
        carry = ENGINE.carry(st)
        seats = [{"seat": s, "chips": out["chips"][str(s)], "sitout": s == 2} for s in range(3)]
    assert out["stand_up"] == [2]
    # coming back resets the counter
    seats[2]["sitout"] = False
    st = ENGINE.new({"invito": 100}, seats, SeededRng(9), carry)
    while not ENGINE.is_over(st):
        act(st, ENGINE.to_act(st)[0], "passo")
    assert ENGINE.outcome(st)["missed"]["2"] == 0


def test_tournament_heads_up_with_a_player_in_sitout_ends_on_the_inviti():
    """RULINGS L1: the one player not in sitout takes the piatto at once, the absent one is blinded
    off (with I8 alone every smazzata would be void and the piatto would grow for ever)."""
    chips = {0: 1000, 1: 1000}
    carry = {"dealer": 1, "piatto": 50, "entitled": [0, 1]}
    hands = 0
    while chips[1] and hands < 50:
        hands += 1
        seats = [{"seat": s, "chips": c, "sitout": s == 1} for s, c in chips.items()]
        st = ENGINE.new({"mode": "tournament", "invito": 100}, seats, SeededRng(hands), carry)
        assert ENGINE.is_over(st) and st["deal"] is None and st["ended_by"] == "presente_unico"
        out = ENGINE.outcome(st)
        assert sum(out["chips"].values()) + out["carried_out"] == sum(chips.values()) + out["carried_in"]
        chips, carry = {s: out["chips"][str(s)] for s in chips}, ENGINE.carry(st)
    assert hands == 10 and chips == {0: 2050, 1: 0} and carry["piatto"] == 0


def test_tournament_with_two_players_present_the_sitout_one_only_pays_the_invito():
    seats = [{"seat": s, "chips": 1000, "sitout": s == 2} for s in range(3)]
    st = ENGINE.new({"mode": "tournament", "invito": 100}, seats, SeededRng(0), {"dealer": 2})
    assert not ENGINE.is_over(st) and st["chips"]["2"] == 900 and st["piatto"] == 300


def test_cash_tables_keep_the_void_smazzata():
    seats = [{"seat": 0, "chips": 1000}, {"seat": 1, "chips": 1000, "sitout": True}]
    st = ENGINE.new({"invito": 100}, seats, SeededRng(0), {"dealer": 1, "piatto": 50, "entitled": [0, 1]})
    assert st["ended_by"] == "pochi_giocatori" and ENGINE.outcome(st)["chips"] == {"0": 1000, "1": 1000}


def test_tournaments_never_stand_up():
    seats = [{"seat": s, "chips": 5000, "sitout": s == 2} for s in range(3)]
    st = ENGINE.new({"mode": "tournament"}, seats, SeededRng(0), {"missed": {"2": 5}})
    while not ENGINE.is_over(st):
        act(st, ENGINE.to_act(st)[0], "passo")
    out = ENGINE.outcome(st)
    assert out["missed"]["2"] == 6 and out["stand_up"] == []


# ---------------------------------------------------------------------------------- views


def test_views_show_own_hand_briscola_and_counts_never_others_or_the_stock():
    st = deal(ONE_TRICK_EACH, "2d", stock_top=["Kd", "Qd"])
    act(st, 0, "cambio", cards=["4s"])
    v0, v1, spectator = ENGINE.view(st, 0), ENGINE.view(st, 1), ENGINE.view(st, None)
    assert v0["hand"] == ["Ah", "2c", "Kd"] and v1["hand"] == ["2h", "Ac", "2s"]
    assert "hand" not in spectator and "legal_actions" not in spectator
    assert v0["briscola"] == spectator["briscola"] == "2d"
    assert v0["stock_count"] == 40 - 9 - 1 - 1 and v0["hand_counts"] == {"0": 3, "1": 3, "2": 3}
    assert v0["changed"] == {"0": 1} and v0["decisions"]["0"] == "cambio"
    for text in (dumps(v1), dumps(spectator)):
        assert '"Kd"' not in text and '"4s"' not in text and '"Ah"' not in text and '"Qd"' not in text
    assert [s["type"] for s in v1["legal_actions"]][:2] == ["passo", "servito"]


def test_tournament_players_without_chips_are_eliminated_even_after_paying_a_bestia():
    hands = [["Ah", "Ac", "As"], ["2h", "2c", "2s"]]
    st = deal(hands, "2d", chips=[1000, 600], config={"mode": "tournament", "invito": 300})
    assert st["bestia"] == 300  # the lowest credit left: 600 - 300
    servito_all(st, [0, 1])
    play_out(st, "Ah", "2h", "Ac", "2c", "As", "2s")
    out = ENGINE.outcome(st)
    assert out["chips"] == {"0": 1300, "1": 0} and out["carried_out"] == 300
    assert out["eliminated"] == [1] and out["stand_up"] == []
    seats = [{"seat": 0, "chips": 1300}, {"seat": 1, "chips": 0}]
    nxt = ENGINE.new({"mode": "tournament", "invito": 300}, seats, SeededRng(0), ENGINE.carry(st))
    # RULINGS L1: the last player with chips takes the piatto left at the table, no invito, no deal
    assert nxt["ended_by"] == "presente_unico" and nxt["piatto"] == 0
    out = ENGINE.outcome(nxt)
    assert out["chips"] == {"0": 1600, "1": 0} and out["carried_in"] == 300 and out["carried_out"] == 0


def test_registered_as_a_puntate_engine():
    from games.engine import Engine
    from games.registry import get

    engine = get("bestia")
    assert isinstance(engine, Engine) and engine.family == "puntate" and engine.title == "Bestia"
    assert (engine.min_seats, engine.max_seats) == (2, 8)


def test_the_timeout_is_accepted_in_every_phase_and_never_listed_as_a_button():
    st = deal(ONE_TRICK_EACH, "2d")
    assert ENGINE.can_apply(st, 0, ENGINE.timeout_action(st, 0))
    assert all(s["type"] != "sitout" for s in ENGINE.legal_actions(st, 0))
    act(st, 0, "servito")
    act(st, 1, "passo")
    act(st, 2, "servito")
    assert st["phase"] == "buio" and ENGINE.can_apply(st, 1, ENGINE.timeout_action(st, 1))
    act(st, 1, "sitout")
    assert st["phase"] == "gioco"
    with pytest.raises(NotYourTurn):
        ENGINE.timeout_action(st, 2)
    act(st, 0, "sitout")  # seat 0 leads automatically, then seat 2 must act
    assert ENGINE.to_act(st) == [2] and st["deal"]["trick"] == [[0, "Ah"]]
