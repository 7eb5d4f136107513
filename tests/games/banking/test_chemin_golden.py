"""Chemin de fer: every example and rule of the chapter (rules 004, "Regole dello Chemin de fer")."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from games import cards, registry
from games.chemin import engine as chemin
from games.chemin.engine import ChemindeferEngine, resolve_bets, right_of
from games.chemin.regola import points
from games.chemin.sim import banco_carry, rigged_shoe
from games.engine import IllegalAction, InvalidAmount, NotYourTurn
from games.rng import SeededRng

E = ChemindeferEngine()
RNG = SeededRng(0)
CASH = {"mode": "cash", "min_posta": 1000, "min_bet": 100, "rake_bp": 0}
TORNEO = {"mode": "tournament", "min_posta": 1000, "min_bet": 100}


def seats(chips=10_000, n=4, **prefs_by_seat):
    return [
        {"seat": s, "chips": chips, "sitout": False, "prefs": prefs_by_seat.get(f"p{s}", {})}
        for s in range(1, n + 1)
    ]


def coup(prefix=(), posta=1000, config=CASH, table=None, **extra):
    """A coup of a banco held by seat 1 (punte 2, 3, 4 per la mano), the sabot starting with prefix."""
    table = table or seats()
    carry = banco_carry(1, posta, [s["seat"] for s in table], list(prefix), **extra)
    return E.new(config, table, RNG, carry)


def act(state, seat, kind, **kw):
    return E.apply(state, seat, {"type": kind, **kw}, RNG)


def types(specs):
    return [s["type"] for s in specs]


def keep_bets(state):
    """Every punta who lost the cards to a later bet keeps his bet (MANTENGO)."""
    for seat in E.to_act(state):
        if state["decl"].get(str(seat), {}).get("reopen"):
            act(state, seat, "mantengo")


def test_registered():
    eng = registry.get("chemin")
    assert isinstance(eng, ChemindeferEngine) and eng.family == "puntate"


# --------------------------------------------------------------------------- Punteggi


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (["7h", "6d", "9c"], 2),
        (["Th", "5d"], 5),
        (["9h", "6d", "5c"], 0),
        (["Kh", "Qd"], 0),
        (["4s", "5s"], 9),
    ],
)
def test_points_examples(hand, expected):
    # 7 + 6 + 9 = 22 − 20 = 2; 10 + 5 = 15 − 10 = 5; 9 + 6 + 5 = 20 = 0 (baccarà); the maximum is 9.
    assert points(hand) == expected


def test_ace_is_one_and_figures_zero():
    assert points(["Ah"]) == 1 and points(["Jh", "Qh", "Kh", "Th"]) == 0


# --------------------------------------------------------------------------- the sabot


def test_six_decks_312_cards_and_random_first_banker():
    state = E.new(CASH, seats(), SeededRng(5))
    assert len(state["shoe"]) == 312 and state["shuffled"] and Counter(state["shoe"]) == Counter(cards.shoe())
    assert state["phase"] == chemin.ACCETTA
    firsts = {E.new(CASH, seats(), SeededRng(seed))["candidates"][0] for seed in range(30)}
    assert firsts == {1, 2, 3, 4}  # "il banco spetta ad un giocatore stabilito casualmente"


def banco_solo(state, seat=2):
    act(state, seat, "banco")
    for s in E.to_act(state):
        act(state, s, "tengo" if s == state["banker"] else "passo")


def test_last_coup_after_the_200th_card_then_reshuffle():
    carry = banco_carry(1, 1000, [1, 2, 3, 4])
    carry["discards"], carry["shoe"] = carry["shoe"][:199], carry["shoe"][199:]
    state = E.new(CASH, seats(), RNG, copy.deepcopy(carry))
    banco_solo(state)
    assert not state["ultimo"]  # 199 cards out when dealt: not yet
    carry["discards"], carry["shoe"] = carry["shoe"][:1] + carry["discards"], carry["shoe"][1:]
    state = E.new(CASH, seats(), RNG, carry)
    banco_solo(state)
    assert state["ultimo"] and E.view(state, None)["ultimo_colpo"]  # the 200th is out: last coup
    while not E.is_over(state):
        s = E.to_act(state)[0]
        action = {"type": "continuo"} if state["phase"] == chemin.DECISIONE else E.timeout_action(state, s)
        E.apply(state, s, action, RNG)
    nxt = E.new(CASH, seats(), RNG, E.carry(state))
    if nxt["banker"] is None:
        act(nxt, E.to_act(nxt)[0], "accetto", amount=1000)
    banco_solo(nxt, E.to_act(nxt)[0])
    assert nxt["shuffled"] and len(nxt["deck_log"][0]) == 312  # a new taglia, logged at the deal
    assert not nxt["ultimo"] and len(nxt["shoe"]) + len(nxt["punta"]) + len(nxt["banco_cards"]) == 312


# --------------------------------------------------------------------------- priority and bets


def test_priority_per_la_mano_from_the_bankers_right():
    assert right_of([1, 2, 3, 4], 1) == [2, 3, 4]
    assert right_of([1, 2, 3, 4], 3) == [4, 1, 2]
    assert right_of([1, 3, 4], 2) == [3, 4, 1]  # a seat that left still marks the place
    assert E.view(coup(), None)["priority"] == [2, 3, 4]


def test_banco_solo_per_la_mano():
    state = coup(["2h", "3h", "4h", "5h"])
    act(state, 4, "banco")
    act(state, 3, "punto", amount=500)
    act(state, 2, "banco")
    keep_bets(state)
    assert state["bets"] == {"2": 1000} and state["receiver"] == 2 and state["mode"] == "banco"


def test_ferito_has_priority_when_he_covers_the_whole_banco():
    decl = {
        "2": {"mode": "banco", "amount": 1000, "seq": 0},
        "4": {"mode": "banco", "amount": 1000, "seq": 1},
    }
    assert resolve_bets(decl, [2, 3, 4], 1000, ferito=4)[1] == 4
    assert resolve_bets(decl, [2, 3, 4], 1000, ferito=None)[1] == 2
    # "non si applica … se il giocatore non copre l'intero banco alla mano successiva"
    decl["4"] = {"mode": "punto", "amount": 900, "seq": 1}
    assert resolve_bets(decl, [2, 3, 4], 1000, ferito=4)[1] == 2


def test_losing_banco_solo_makes_a_ferito_a_partial_bet_does_not():
    # punta 2+3=5 sta, banker 4+5=9 batte
    state = coup(["2h", "4h", "3h", "5h"])
    act(state, 3, "banco")
    act(state, 2, "passo")
    act(state, 4, "passo")
    act(state, 3, "sto")
    assert state["result"] == "banco" and state["ferito"] == 3
    state = coup(["2h", "4h", "3h", "5h"])
    act(state, 3, "punto", amount=1000)
    act(state, 2, "passo")
    act(state, 4, "passo")
    act(state, 3, "sto")
    assert state["result"] == "banco" and state["ferito"] is None


def test_banco_e_rispetto_keeps_the_partial_bets_placed_before_it():
    state = coup(["2h", "3h", "4h", "5h"])
    act(state, 3, "punto", amount=300)
    act(state, 4, "punto", amount=200)
    assert "rispetto" in types(E.legal_actions(state, 2))
    act(state, 2, "rispetto")
    assert state["decl"]["2"]["amount"] == 500  # covers the banco for the difference
    keep_bets(state)
    assert state["bets"] == {"3": 300, "4": 200, "2": 500} and state["receiver"] == 2


def test_banco_e_rispetto_annuls_later_partial_bets():
    state = coup()
    act(state, 4, "punto", amount=200)
    act(state, 3, "rispetto")
    act(state, 2, "punto", amount=300)
    keep_bets(state)
    assert state["bets"] == {"4": 200, "3": 800} and state["receiver"] == 3 and state["mode"] == "rispetto"


def test_no_rispetto_without_partial_bets():
    assert "rispetto" not in types(E.legal_actions(coup(), 2))


def test_tavolo_has_priority_over_partial_bets():
    state = coup()
    act(state, 2, "punto", amount=800)
    act(state, 4, "tavolo")
    act(state, 3, "passo")
    # tavolo = half the posta; the partial bet keeps what is left; equal bets: cards per la mano
    assert state["bets"] == {"4": 500, "2": 500} and state["receiver"] == 2 and state["mode"] == "tavolo"


def test_tavolo_e_tavolo_annuls_partial_bets():
    state = coup()
    act(state, 2, "punto", amount=300)
    act(state, 4, "tavolo")
    act(state, 3, "tavolo")
    keep_bets(state)
    assert state["bets"] == {"3": 500, "4": 500} and state["mode"] == "tavolo_e_tavolo"
    assert state["receiver"] == 3


def test_banco_beats_tavolo_and_rispetto():
    state = coup()
    act(state, 2, "punto", amount=300)
    act(state, 4, "rispetto")
    act(state, 3, "banco")
    keep_bets(state)
    assert state["bets"] == {"3": 1000}


def test_partial_bets_valid_up_to_the_posta_in_priority_order():
    state = coup()
    act(state, 4, "punto", amount=600)
    act(state, 3, "punto", amount=300)
    act(state, 2, "punto", amount=400)
    # 2 (400) and 3 (300) come first per la mano; 4 keeps only what is left of the posta
    keep_bets(state)
    assert state["bets"] == {"2": 400, "3": 300, "4": 300} and state["receiver"] == 2


def test_highest_bet_gets_the_cards():
    state = coup()
    act(state, 2, "punto", amount=200)
    act(state, 3, "punto", amount=500)
    act(state, 4, "passo")
    keep_bets(state)
    assert state["receiver"] == 3


def test_minimum_bet_or_all_in_and_never_above_the_posta():
    table = seats()
    table[2]["chips"] = 60  # seat 3 has less than the puntata minima
    state = coup(table=table)
    punto = next(s for s in E.legal_actions(state, 3) if s["type"] == "punto")
    assert punto["amount"] == {"min": 60, "max": 60}
    punto = next(s for s in E.legal_actions(state, 2) if s["type"] == "punto")
    assert punto["amount"] == {"min": 100, "max": 1000}
    before = copy.deepcopy(state)
    with pytest.raises(InvalidAmount):
        act(state, 2, "punto", amount=1001)
    with pytest.raises(InvalidAmount):
        act(state, 2, "punto", amount=99)
    assert state == before


# --------------------------------------------------------------------------- the play


def test_deal_order_and_hidden_cards():
    state = coup(["Ah", "Kd", "3c", "Qs"])
    act(state, 2, "banco")
    act(state, 3, "passo")
    act(state, 4, "passo")
    assert state["punta"] == ["Ah", "3c"] and state["banco_cards"] == ["Kd", "Qs"]  # 1st/3rd, 2nd/4th
    assert state["deck_log"][0][:4] == ["Ah", "Kd", "3c", "Qs"]  # the sabot's order, kept for audit
    assert E.view(state, 2)["punta"] == ["Ah", "3c"]
    for who in (1, 3, None):
        assert E.view(state, who)["punta"] == [None, None]
    for who in (1, 2, 3, None):  # the banker's cards are covered until the punta decides
        assert E.view(state, who)["banco_cards"] == [None, None]
    assert types(E.legal_actions(state, 2)) == ["sto", "chiamo"]


def play_banco_solo(prefix, seat=2, config=CASH, **kw):
    state = coup(prefix, config=config, **kw)
    act(state, seat, "banco")
    for s in (2, 3, 4):
        if s != seat:
            act(state, s, "passo")
    if state["banker_asked"] == "pending":
        act(state, 1, "tengo")
    return state


def test_punta_batte_8_or_9_and_the_banker_cannot_draw():
    state = play_banco_solo(["4h", "2d", "5c", "3s"])  # punta 9, banker 5
    assert types(E.legal_actions(state, 2)) == ["batto"]
    shoe = len(state["shoe"])
    act(state, 2, "batto")
    assert state["result"] == "punta" and len(state["shoe"]) == shoe
    assert state["seats"]["2"]["chips"] == 11_000


def test_banker_batte_8_and_the_punta_gets_no_card():
    state = play_banco_solo(["2h", "4d", "2c", "4s"])  # punta 4, banker 8
    shoe = len(state["shoe"])
    act(state, 2, "chiamo")
    assert state["result"] == "banco" and state["banco_play"] == "batto"
    assert len(state["shoe"]) == shoe and len(state["punta"]) == 2


def test_punta_calls_once_then_banker_chooses():
    state = play_banco_solo(["2h", "3d", "2c", "Ks", "9h", "4c"])  # punta 4, banker 3, punta draws 9
    act(state, 2, "chiamo")
    assert state["punta"] == ["2h", "2c", "9h"] and state["phase"] == chemin.BANCO
    view = E.view(state, 1)
    assert view["punta"] == [None, None, "9h"] and view["banco_cards"] == ["3d", "Ks"]
    assert E.to_act(state) == [1] and types(E.legal_actions(state, 1)) == ["sto", "chiamo"]
    assert E.legal_actions(state, 2) == []
    act(state, 1, "chiamo")  # 3 + 4 = 7 against punta 2 + 2 + 9 = 3
    assert state["banco_cards"] == ["3d", "Ks", "4c"] and state["result"] == "banco"


def test_egalite_voids_the_coup_and_the_banco_goes_on():
    state = play_banco_solo(["2h", "3d", "4c", "3s"])  # punta 6, banker 6
    act(state, 2, "sto")
    act(state, 1, "sto")
    assert state["result"] == "egalite" and E.is_over(state)
    assert state["seats"]["2"]["chips"] == 10_000 and state["posta"] == 1000
    carry = E.carry(state)
    assert carry["banco"]["seat"] == 1 and carry["banco"]["posta"] == 1000


# --------------------------------------------------------------------------- money


def test_banker_wins_bets_join_the_posta_and_the_rest_goes_to_garage():
    state = coup(["2h", "4d", "3c", "5s"])  # punta 5, banker 9
    act(state, 2, "punto", amount=400)
    act(state, 3, "punto", amount=200)
    act(state, 4, "passo")
    act(state, 2, "sto")
    assert state["result"] == "banco"
    assert state["garage"] == 400 and state["posta"] == 1200  # 600 won + 600 covered; 400 uncovered
    assert E.money(state) == 40_000 + 1000


def test_punta_wins_paid_from_the_posta_and_the_banco_passes_right():
    state = coup(["4h", "2d", "5c", "3s"], garage=300)  # punta 9
    act(state, 2, "punto", amount=400)
    act(state, 3, "punto", amount=200)
    act(state, 4, "passo")
    act(state, 2, "batto")
    assert state["result"] == "punta"
    assert state["seats"]["2"]["chips"] == 10_400 and state["seats"]["3"]["chips"] == 10_200
    # the banker collects what is left of the posta and the garage
    assert state["seats"]["1"]["chips"] == 10_000 + 400 + 300
    assert state["banker"] is None and E.carry(state)["turn"]["after"] == 1
    nxt = E.new(CASH, seats(), RNG, E.carry(state))
    assert E.to_act(nxt) == [2]  # the player right of the banker who lost


@pytest.mark.parametrize("punta_wins", [True, False])
def test_rake_example_vincita_10_euro_at_5_percent_is_1_euro(punta_wins):
    # "Vincita € 10, Rake 5 %: (€ 10 * 2) * 0,05 = € 1", for punta and banco alike.
    cfg = {**CASH, "rake_bp": 500}
    prefix = ["4h", "2d", "5c", "3s"] if punta_wins else ["2h", "4d", "3c", "5s"]
    state = coup(prefix, config=cfg)
    act(state, 2, "tavolo")  # 500
    act(state, 3, "tavolo")  # 500: the banker's possible vincita is € 10
    act(state, 4, "passo")
    act(state, 2, "batto" if punta_wins else "sto")
    if punta_wins:
        assert state["rake"] == 2 * 50  # each punta wins € 5: (5 × 2) × 0,05 = € 0,50
        assert state["seats"]["2"]["chips"] == 10_000 + 500 - 50
    else:
        assert state["rake"] == 100 and state["posta"] == 2000 - 100
    state = coup(prefix, config=cfg, posta=2000)
    act(state, 2, "tavolo")  # a single punta winning € 10
    act(state, 3, "passo")
    act(state, 4, "passo")
    act(state, 2, "batto" if punta_wins else "sto")
    assert state["rake"] == 100


def test_no_rake_in_tournaments():
    state = play_banco_solo(["4h", "2d", "5c", "3s"], config=TORNEO)
    act(state, 2, "batto")
    assert state["rake"] == 0


# --------------------------------------------------------------------------- after a winning coup


def win_for_banker(**kw):
    state = play_banco_solo(["2h", "4d", "3c", "5s"], **kw)
    act(state, 2, "sto")
    assert state["phase"] == chemin.DECISIONE and E.to_act(state) == [1]
    return state


def test_decisions_after_a_win():
    state = win_for_banker()
    assert types(E.legal_actions(state, 1)) == ["continuo", "dimezzo", "aumento", "passo_mano"]
    act(state, 1, "continuo")
    assert E.is_over(state) and E.carry(state)["banco"]["posta"] == 2000


def test_dimezzare_once_and_not_after_the_third_win():
    state = win_for_banker()
    act(state, 1, "dimezzo")
    assert state["posta"] == 1000 and state["seats"]["1"]["chips"] == 11_000
    assert E.carry(state)["banco"]["halved"]
    state = win_for_banker(halved=True)
    assert "dimezzo" not in types(E.legal_actions(state, 1))
    state = win_for_banker(wins=2)  # third win: still allowed
    assert "dimezzo" in types(E.legal_actions(state, 1))
    state = win_for_banker(wins=3)  # fourth win: "non oltre il 3° banco"
    assert "dimezzo" not in types(E.legal_actions(state, 1))


def test_aumentare():
    state = win_for_banker()
    act(state, 1, "aumento", amount=500)
    assert state["posta"] == 2500 and state["seats"]["1"]["chips"] == 9_500


def test_passing_the_hand_seguito_bought_at_height_per_la_mano():
    state = win_for_banker(garage=0)
    act(state, 1, "passo_mano")
    assert state["seats"]["1"]["chips"] == 12_000 and state["phase"] == chemin.SEGUITO
    assert sorted(E.to_act(state)) == [2, 3, 4]
    act(state, 4, "compro")
    act(state, 3, "compro")
    act(state, 2, "passo")
    assert state["banker"] == 3 and state["posta"] == 2000 and E.is_over(state)
    carry = E.carry(state)
    assert carry["anchor"] == 1 and carry["banco"]["seat"] == 3
    # the seguito banco ends (the punta wins): the turn resumes right of the first banker who passed
    nxt = E.new(CASH, seats(), RNG, {**carry, "shoe": rigged_shoe(["4h", "2d", "5c", "3s"])})
    banco_solo(nxt, 4)
    act(nxt, 4, "batto")
    assert nxt["result"] == "punta" and E.carry(nxt)["turn"]["after"] == 1 and E.carry(nxt)["anchor"] is None
    assert E.to_act(E.new(CASH, seats(), RNG, E.carry(nxt))) == [2]


def test_seguito_auction_highest_offer_or_purchase_at_height():
    state = win_for_banker()
    act(state, 1, "passo_mano")
    for s in (2, 3, 4):
        act(state, s, "passo")
    assert state["phase"] == chemin.ASTA
    act(state, 3, "offerta", amount=1200)
    assert E.to_act(state) == [2, 4]
    offer = next(s for s in E.legal_actions(state, 2) if s["type"] == "offerta")
    assert offer["amount"] == {"min": 1201, "max": 1999}
    act(state, 2, "offerta", amount=1500)
    act(state, 4, "passo")
    act(state, 3, "passo")
    assert state["banker"] == 2 and state["posta"] == 1500 and E.is_over(state)
    state = win_for_banker()
    act(state, 1, "passo_mano")
    for s in (2, 3, 4):
        act(state, s, "passo")
    act(state, 3, "offerta", amount=1200)
    act(state, 4, "compro")  # closes the auction at once
    assert state["banker"] == 4 and state["posta"] == 2000


def test_no_seguito_the_turn_goes_right_of_the_banker():
    state = win_for_banker()
    act(state, 1, "passo_mano")
    for s in (2, 3, 4):
        act(state, s, "passo")
    for s in (2, 3, 4):
        act(state, s, "passo")
    assert E.is_over(state) and state["banker"] is None
    nxt = E.new(CASH, seats(), RNG, E.carry(state))
    assert E.to_act(nxt) == [2]


# --------------------------------------------------------------------------- cash freedoms


def test_cash_banco_refused_freely_passes_right():
    carry = {"shoe": rigged_shoe([]), "turn": {"after": 4, "known": [1, 2, 3, 4]}}
    state = E.new(CASH, seats(), RNG, carry)
    assert E.to_act(state) == [1]
    accept = E.legal_actions(state, 1)[0]
    assert accept["type"] == "accetto" and accept["amount"] == {"min": 1000, "max": 10_000}
    act(state, 1, "rifiuto")
    assert E.to_act(state) == [2] and state["seats"]["1"]["chips"] == 10_000
    act(state, 2, "accetto", amount=1500)
    assert state["banker"] == 2 and state["posta"] == 1500 and state["phase"] == chemin.PUNTATE


def test_all_in_banco_below_the_minimum():
    table = seats()
    table[0]["chips"] = 700
    state = E.new(CASH, table, RNG, {"shoe": rigged_shoe([]), "turn": {"after": 4, "known": [1, 2, 3, 4]}})
    assert E.legal_actions(state, 1)[0]["amount"] == {"min": 700, "max": 700}


def test_stallo_then_the_banker_withdraws_or_waits():
    state = coup()
    for s in (2, 3, 4):
        act(state, s, "passo")  # no obligation to bet at cash tables
    assert state["phase"] == chemin.STALLO and E.to_act(state) == [1]
    act(state, 1, "attendo")
    assert state["result"] == "stallo" and E.carry(state)["banco"]["posta"] == 1000
    state = coup(garage=200)
    for s in (2, 3, 4):
        act(state, s, "passo")
    act(state, 1, "ritiro")
    assert state["seats"]["1"]["chips"] == 11_200 and state["banker"] is None


def test_only_players_present_at_the_start_of_the_banco_may_bet():
    table = [*seats(), {"seat": 5, "chips": 10_000, "sitout": False, "prefs": {}}]
    state = E.new(CASH, table, RNG, banco_carry(1, 1000, [1, 2, 3, 4]))
    assert 5 not in E.to_act(state) and E.legal_actions(state, 5) == []


# --------------------------------------------------------------------------- tournament obligations


def test_tournament_banco_cannot_be_refused_and_forfeit_costs_half_the_minimum():
    carry = {"shoe": rigged_shoe([]), "turn": {"after": 4, "known": [1, 2, 3, 4]}, "played": [1, 2, 3, 4]}
    state = E.new(TORNEO, seats(), RNG, copy.deepcopy(carry))
    assert types(E.legal_actions(state, 1)) == ["accetto"]
    assert E.timeout_action(state, 1) == {"type": "forfait"} and E.can_apply(state, 1, {"type": "forfait"})
    act(state, 1, "forfait")
    # banco minimo / 2 = 500, split among the other seated players (G1: the odd cents from the right)
    assert state["seats"]["1"]["chips"] == 9_500
    assert [state["seats"][s]["chips"] for s in "234"] == [10_167, 10_167, 10_166]
    assert E.to_act(state) == [2]
    table = seats()
    table[0]["sitout"] = True  # a sitout banker due loses it without playing
    state = E.new(TORNEO, table, RNG, carry)
    assert state["seats"]["1"]["chips"] == 9_500 and E.to_act(state) == [2]


def test_tournament_newcomer_skipped_for_the_banco():
    carry = {"shoe": rigged_shoe([]), "turn": {"after": 1, "known": [1, 2, 3, 4]}, "played": [1, 3, 4]}
    state = E.new(TORNEO, seats(), RNG, carry)
    assert E.to_act(state) == [3]  # seat 2 has never bet


def test_tournament_obligation_to_bet_rotates_with_the_coups():
    state = coup(config=TORNEO)
    assert state["obligated"] == 2 and "passo" not in types(E.legal_actions(state, 2))
    assert "passo" in types(E.legal_actions(state, 3))
    act(state, 3, "punto", amount=500)  # a higher bet takes the cards from him: he may pass
    assert "passo" in types(E.legal_actions(state, 2))
    state = coup(config=TORNEO, coups=1)
    assert state["obligated"] == 3


def test_tournament_banco_with_none_of_its_punte_left_ends():
    # the banco of seat 1 started with seats 1-4; the tournament moved 2-4 away (or they went
    # out) and seated 5 and 6: they may not punt on it, so it ends and seat 1 collects
    table = [{"seat": s, "chips": c, "sitout": False, "prefs": {}} for s, c in ((1, 0), (5, 700), (6, 2600))]
    carry = banco_carry(1, 3000, [1, 2, 3, 4], [], garage=779)
    carry["played"] = [1]
    state = E.new(TORNEO, table, RNG, carry)
    assert state["seats"]["1"]["chips"] == 3_779 and state["banker"] is None and state["banco"] is None
    ended = [e for e in state["coup_events"] if e["type"] == "fine_banco"]
    assert ended == [{"type": "fine_banco", "seat": 1, "incasso": 3_779, "motivo": "nessuna_punta"}]
    assert not E.is_over(state) and E.to_act(state)  # a new banco is offered at once
    # one member left with chips: the banco goes on, and he may punt
    table.append({"seat": 3, "chips": 500, "sitout": False, "prefs": {}})
    state = E.new(TORNEO, table, RNG, banco_carry(1, 3000, [1, 2, 3, 4], []))
    assert state["banker"] == 1 and E.to_act(state) == [3]
    # a cash table keeps its own rules: the banker is asked (stallo) instead
    state = E.new(CASH, table[:3], RNG, banco_carry(1, 3000, [1, 2, 3, 4], []))
    assert state["banker"] == 1


def test_tournament_sitout_obligated_loses_without_playing():
    table = seats()
    table[1]["sitout"] = True
    state = coup(config=TORNEO, table=table)
    act(state, 3, "passo")
    act(state, 4, "passo")
    assert state["seats"]["2"]["chips"] == 9_900 and state["garage"] == 100
    assert state["result"] == "nessuna_puntata"


# --------------------------------------------------------------------------- automatic play


def test_alla_regola_player_plays_automatically_and_it_shows():
    table = seats(p2={"chemin_alla_regola": True})
    state = play_banco_solo(["2h", "5d", "2c", "Ks", "9h", "4c"], table=table)  # punta 4: chiama
    assert state["punta_play"] == "chiamo" and len(state["punta"]) == 3
    assert E.view(state, None)["seats"]["2"]["alla_regola"]


def test_a_volonta_options():
    # punta 5: "sto" by default, "tiro" if set
    state = play_banco_solo(["2h", "2d", "3c", "3s", "9h"], table=seats(p2={"chemin_alla_regola": True}))
    assert state["punta_play"] == "sto"
    table = seats(p2={"chemin_alla_regola": True, "chemin_punta_5": "tiro"})
    state = play_banco_solo(["2h", "2d", "3c", "3s", "9h"], table=table)
    assert state["punta_play"] == "chiamo"
    # banker 3 giving 9: sta by default, tira if set
    for pref, play in ((None, "sto"), ("tiro", "chiamo")):
        p1 = {"chemin_alla_regola": True, **({"chemin_banco_3_dando_9": pref} if pref else {})}
        state = play_banco_solo(["2h", "Ad", "Kc", "2s", "9h", "Ks"], table=seats(p1=p1))
        act(state, 2, "chiamo")
        assert state["banco_play"] == play
    # banker 5 giving 4
    for pref, play in ((None, "sto"), ("tiro", "chiamo")):
        p1 = {"chemin_alla_regola": True, **({"chemin_banco_5_dando_4": pref} if pref else {})}
        state = play_banco_solo(["2h", "2d", "Kc", "3s", "4h", "Ks"], table=seats(p1=p1))
        act(state, 2, "chiamo")
        assert state["banco_play"] == play


def test_battuta_automatica():
    table = seats(p2={"chemin_battuta_automatica": True})
    state = play_banco_solo(["4h", "2d", "4c", "3s"], table=table)  # punta 8
    assert state["punta_play"] == "batto" and state["result"] == "punta"
    state = play_banco_solo(["4h", "2d", "3c", "3s"], table=table)  # punta 7: he decides
    assert state["phase"] == chemin.PUNTA


def test_timeout_plays_alla_regola():
    state = play_banco_solo(["2h", "5d", "2c", "Ks", "9h", "4c"])
    assert E.timeout_action(state, 2) == {"type": "chiamo"}
    act(state, 2, "chiamo")  # banker 5, punta gives 9: sta
    assert E.timeout_action(state, 1) == {"type": "sto"}


def test_refusals_leave_the_state_unchanged():
    state = coup()
    before = copy.deepcopy(state)
    with pytest.raises(NotYourTurn):
        act(state, 1, "sto")
    with pytest.raises(IllegalAction):
        act(state, 2, "batto")
    with pytest.raises(IllegalAction):
        act(state, 2, "punto", amount=100, extra=1)
    assert state == before


def test_three_banco_turns_skipped_stand_a_cash_player_up():
    carry = {"shoe": rigged_shoe([]), "turn": {"after": 4, "known": [1, 2, 3, 4]}, "skipped": {"1": 2}}
    state = E.new(CASH, seats(), RNG, carry)
    act(state, 1, "rifiuto")
    act(state, 2, "accetto", amount=1000)
    assert E.outcome(state)["stand_up"] == [1]


def test_resumed_partita_the_bank_goes_to_the_first_in_turn_among_those_present_before():
    table = [*seats(), {"seat": 5, "chips": 10_000, "sitout": False, "prefs": {}}]
    carry = {"shoe": rigged_shoe([]), "turn": {"after": 4, "known": [1, 2, 3, 4]}}
    assert E.to_act(E.new(CASH, table, RNG, copy.deepcopy(carry))) == [1]  # not the newcomer 5
    del table[0]  # seat 1 left too: the next one in turn who was there
    assert E.to_act(E.new(CASH, table, RNG, copy.deepcopy(carry))) == [2]
    carry["turn"]["known"] = [7, 8]  # nobody from before is left: drawn at random, as at the start
    state = E.new(CASH, table, SeededRng(4), carry)
    assert E.to_act(state) and state["coup_events"][0]["type"] == "sorteggio_banco"


def test_a_punta_who_loses_the_cards_may_withdraw_his_bet():
    state = coup()
    act(state, 3, "punto", amount=400)
    act(state, 2, "punto", amount=600)  # now 2 gets the cards: 3 is asked again
    assert sorted(E.to_act(state)) == [3, 4]
    # he may also raise it (banco e rispetto keeps 2's 600: 3 covers 1000 - 600 = 400)
    assert types(E.legal_actions(state, 3)) == ["mantengo", "ritiro_puntata", "banco", "rispetto", "tavolo"]
    assert E.timeout_action(state, 3) == {"type": "mantengo"}
    act(state, 3, "ritiro_puntata")
    act(state, 4, "passo")
    assert state["bets"] == {"2": 600} and state["receiver"] == 2
    state = coup()
    act(state, 3, "punto", amount=400)
    act(state, 2, "punto", amount=600)
    act(state, 3, "mantengo")
    act(state, 4, "passo")
    assert state["bets"] == {"2": 600, "3": 400}


def test_banker_may_pass_the_hand_when_banco_is_called():
    state = coup(wins=1)
    act(state, 3, "punto", amount=300)
    assert 1 not in E.to_act(state)  # a partial bet does not ask him
    act(state, 2, "banco")
    assert 1 in E.to_act(state) and types(E.legal_actions(state, 1)) == ["tengo", "passo_mano"]
    assert E.timeout_action(state, 1) == {"type": "tengo"}
    act(state, 1, "passo_mano")
    assert state["phase"] == chemin.SEGUITO and state["seats"]["1"]["chips"] == 11_000
    assert state["decl"] == {} and state["seguito"]["height"] == 1000
    state = coup(wins=1)
    act(state, 2, "banco")
    act(state, 1, "tengo")
    keep_bets(state)
    for s in E.to_act(state):
        act(state, s, "passo")
    assert state["bets"] == {"2": 1000}
    state = coup(wins=0)  # a banco that has not won yet: nobody asks the banker
    act(state, 2, "banco")
    assert 1 not in E.to_act(state)


def test_tournament_newcomer_gets_the_bank_when_no_veteran_has_chips():
    table = seats()
    for spec in table[:3]:
        spec["chips"] = 0
    carry = {"shoe": rigged_shoe([]), "turn": {"after": 1, "known": [1, 2, 3, 4]}, "played": [1, 2, 3]}
    assert E.to_act(E.new(TORNEO, table, RNG, carry)) == [4]
