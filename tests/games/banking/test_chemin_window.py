"""Chemin de fer: the betting window before the deal (rules 004, "I giocatori di punta", "In caso di
vittoria del banco"): a punta raising his bet to banco / banco e rispetto / tavolo / tavolo e tavolo,
and the banker's dimezzare / aumentare / passare la mano "anche durante il tempo a disposizione delle
puntate"."""

from __future__ import annotations

import copy

import pytest

from games.chemin import engine as chemin
from games.chemin.engine import ChemindeferEngine
from games.chemin.sim import banco_carry
from games.engine import IllegalAction, NotYourTurn
from games.rng import SeededRng

E = ChemindeferEngine()
RNG = SeededRng(0)
CASH = {"mode": "cash", "min_posta": 1000, "min_bet": 100, "rake_bp": 0}


def seats(n=5, chips=10_000):
    return [{"seat": s, "chips": chips, "sitout": False, "prefs": {}} for s in range(1, n + 1)]


def coup(n=5, posta=1000, table=None, **extra):
    """A coup of a banco held by seat 1 (punte 2, 3, … per la mano)."""
    table = table or seats(n)
    return E.new(CASH, table, RNG, banco_carry(1, posta, [s["seat"] for s in table], **extra))


def act(state, seat, kind, **kw):
    total = E.money(state)
    events = E.apply(state, seat, {"type": kind, **kw}, RNG)
    assert E.money(state) == total  # money conserved after every action
    return events


def types(specs):
    return [s["type"] for s in specs]


def refused(state, seat, action, error=IllegalAction):
    before = copy.deepcopy(state)
    with pytest.raises(error):
        E.apply(state, seat, action, RNG)
    assert state == before


# --------------------------------------------------------------------------- a punta raises his bet


def test_partial_bet_raised_to_banco_solo_withdraws_every_partial_bet():
    # "banco solo: tutte le puntate parziali già piazzate vengono ritirate"
    state = coup()
    act(state, 3, "punto", amount=300)
    assert 3 not in E.to_act(state)  # the window does not wait for him…
    assert types(E.legal_actions(state, 3)) == ["banco", "tavolo"]  # …but he may still raise
    act(state, 4, "punto", amount=200)
    assert types(E.legal_actions(state, 3)) == ["banco", "rispetto", "tavolo"]
    act(state, 3, "banco")
    assert state["decl"]["3"]["mode"] == "banco" and state["decl"]["3"]["amount"] == 1000
    assert E.legal_actions(state, 3) == []  # nothing ranks above banco solo
    act(state, 2, "passo")
    act(state, 5, "passo")
    assert state["bets"] == {"3": 1000} and state["receiver"] == 3 and state["mode"] == "banco"
    assert state["seats"]["3"]["chips"] == 9_000 and state["seats"]["4"]["chips"] == 10_000


def test_partial_bet_raised_to_banco_e_rispetto_keeps_the_partial_bets_and_covers_the_difference():
    # "banco e rispetto: il giocatore copre il banco per la differenza, mantenendo valide tutte le
    # puntate piazzate fino a quel momento": his own 200 is part of what he covers.
    state = coup()
    act(state, 2, "punto", amount=300)
    act(state, 3, "punto", amount=200)
    act(state, 3, "rispetto")
    assert state["decl"]["3"]["amount"] == 700  # 1000 − the others' 300
    act(state, 2, "mantengo")  # 2 lost the cards to 3: asked again, he keeps his 300
    act(state, 4, "passo")
    act(state, 5, "punto", amount=400)  # after the posta was covered: annulled
    assert state["bets"] == {"2": 300, "3": 700} and state["receiver"] == 3
    assert state["mode"] == "rispetto" and state["seats"]["3"]["chips"] == 9_300


def test_partial_bet_raised_to_tavolo_has_priority_over_the_partial_bets():
    # "tavolo: il giocatore punta la metà della posta, … la puntata ha priorità su altre puntate parziali"
    state = coup()
    act(state, 3, "punto", amount=300)
    act(state, 4, "punto", amount=200)
    act(state, 3, "tavolo")
    act(state, 5, "punto", amount=400)
    act(state, 2, "passo")
    # tavolo 500, then the partials per la mano (4 before 5) up to the posta: 5 is cut to 300
    assert state["bets"] == {"3": 500, "4": 200, "5": 300} and state["mode"] == "tavolo"
    assert state["receiver"] == 3


def test_partial_bet_raised_to_the_second_tavolo_is_tavolo_e_tavolo():
    # "tavolo e tavolo: un secondo giocatore punta il tavolo, annullando di fatto tutte le puntate parziali"
    state = coup()
    act(state, 2, "tavolo")
    act(state, 3, "punto", amount=200)
    assert types(E.legal_actions(state, 3)) == ["banco", "tavolo"]  # no partial bet of others to keep
    act(state, 3, "tavolo")
    act(state, 4, "punto", amount=300)
    act(state, 5, "passo")
    assert state["bets"] == {"2": 500, "3": 500} and state["mode"] == "tavolo_e_tavolo"
    assert state["receiver"] == 2  # equal bets: per la mano


def test_tavolo_raised_to_banco_and_a_pass_raised_to_banco():
    # "Resta valido … il diritto di qualsiasi giocatore seduto di chiedere il banco da solo o il tavolo"
    state = coup()
    act(state, 2, "tavolo")
    assert types(E.legal_actions(state, 2)) == ["banco"]
    act(state, 2, "banco")
    for s in (3, 4, 5):
        act(state, s, "passo")
    assert state["bets"] == {"2": 1000}
    state = coup()
    act(state, 2, "passo")
    act(state, 3, "punto", amount=300)
    act(state, 2, "banco")
    act(state, 3, "mantengo")
    act(state, 4, "passo")
    act(state, 5, "passo")
    assert state["bets"] == {"2": 1000} and state["mode"] == "banco"


def test_the_ferito_keeps_his_privilege_when_banco_is_called_by_raising():
    state = coup(ferito=4)
    act(state, 2, "punto", amount=300)
    act(state, 4, "banco")
    act(state, 2, "banco")  # per la mano 2 comes first, but the ferito beats him
    act(state, 3, "passo")
    act(state, 5, "passo")
    assert state["bets"] == {"4": 1000} and state["receiver"] == 4


def test_raises_refused_when_not_allowed_and_the_state_is_unchanged():
    table = seats()
    table[2]["chips"] = 600  # seat 3 cannot cover the banco
    state = coup(table=table)
    act(state, 3, "punto", amount=300)
    assert types(E.legal_actions(state, 3)) == ["tavolo"]
    refused(state, 3, {"type": "banco"})
    refused(state, 3, {"type": "punto", "amount": 500})  # a partial bet is not changed to another
    refused(state, 3, {"type": "passo"})
    refused(state, 2, {"type": "mantengo"})  # 2 has not bet: he is due, but not that
    act(state, 3, "tavolo")
    assert E.legal_actions(state, 3) == []  # banco: not enough credit
    refused(state, 3, {"type": "tavolo"}, NotYourTurn)


def test_the_window_closes_when_every_punta_has_declared():
    state = coup(n=3)
    act(state, 2, "punto", amount=300)
    act(state, 3, "punto", amount=200)  # the last declaration: the bets close and the cards are dealt
    assert state["phase"] == chemin.PUNTA and E.to_act(state) == [2] and E.legal_actions(state, 3) == []


# --------------------------------------------------------------------------- the banker in the window


def test_after_continuo_the_banker_may_dimezzare_in_the_window_and_the_bets_are_declared_again():
    state = E.new(CASH, seats(), RNG, banco_carry(1, 1000, [1, 2, 3, 4, 5], ["2h", "4d", "3c", "5s"]))
    act(state, 2, "banco")
    for s in (3, 4, 5):
        act(state, s, "passo")
    act(state, 2, "sto")  # punta 5, banker 9: the banco wins
    act(state, 1, "continuo")
    state = E.new(CASH, seats(), RNG, E.carry(state))
    assert state["posta"] == 2000 and 1 not in E.to_act(state)
    assert types(E.legal_actions(state, 1)) == ["dimezzo", "aumento", "passo_mano"]
    act(state, 2, "punto", amount=300)
    events = act(state, 1, "dimezzo")
    assert state["posta"] == 1000 and state["seats"]["1"]["chips"] == 11_000 and state["banco"]["halved"]
    assert state["decl"] == {} and events[-1] == {"type": "puntate_annullate", "posta": 1000}
    assert 2 in E.to_act(state) and types(E.legal_actions(state, 1)) == ["passo_mano"]
    act(state, 2, "banco")
    assert state["decl"]["2"]["amount"] == 1000  # the new posta
    assert types(E.legal_actions(state, 1)) == ["tengo", "passo_mano"]  # the change was his one choice
    act(state, 1, "tengo")
    for s in (3, 4, 5):
        act(state, s, "passo")
    assert state["bets"] == {"2": 1000}


def test_aumentare_in_the_window_when_banco_is_called():
    state = coup(wins=1, ritocco=True)
    act(state, 2, "banco")
    assert types(E.legal_actions(state, 1)) == ["tengo", "passo_mano", "dimezzo", "aumento"]
    act(state, 1, "aumento", amount=500)
    assert state["posta"] == 1500 and state["seats"]["1"]["chips"] == 9_500 and state["decl"] == {}
    act(state, 2, "banco")
    assert state["decl"]["2"]["amount"] == 1500 and E.legal_actions(state, 1)[:2] == [
        {"type": "tengo", "label": "TENGO IL BANCO"},
        {"type": "passo_mano", "label": "PASSO LA MANO"},
    ]
    act(state, 1, "tengo")
    for s in (3, 4, 5):
        act(state, s, "passo")
    assert state["bets"] == {"2": 1500}


def test_no_dimezzo_or_aumento_in_the_window_once_the_choice_is_made():
    for choice in ({"type": "dimezzo"}, {"type": "aumento", "amount": 500}):
        state = E.new(CASH, seats(), RNG, banco_carry(1, 1000, [1, 2, 3, 4, 5], ["2h", "4d", "3c", "5s"]))
        act(state, 2, "banco")
        for s in (3, 4, 5):
            act(state, s, "passo")
        act(state, 2, "sto")
        E.apply(state, 1, choice, RNG)
        state = E.new(CASH, seats(), RNG, E.carry(state))
        assert types(E.legal_actions(state, 1)) == ["passo_mano"]
        refused(state, 1, {"type": "aumento", "amount": 100})


def test_dimezzare_in_the_window_once_and_not_after_the_third_win():
    # "Si può dimezzare una sola volta e non oltre il 3° banco"
    assert types(E.legal_actions(coup(wins=3, ritocco=True), 1)) == ["dimezzo", "aumento", "passo_mano"]
    assert types(E.legal_actions(coup(wins=4, ritocco=True), 1)) == ["aumento", "passo_mano"]
    assert types(E.legal_actions(coup(wins=1, halved=True, ritocco=True), 1)) == ["aumento", "passo_mano"]


def test_a_banco_that_has_not_won_has_no_choice_in_the_window():
    state = coup(wins=0)
    assert E.legal_actions(state, 1) == []
    refused(state, 1, {"type": "dimezzo"}, NotYourTurn)
    refused(state, 1, {"type": "passo_mano"}, NotYourTurn)


def test_passing_the_hand_in_the_window_without_a_banco_call():
    state = coup(wins=1, garage=300)
    act(state, 2, "punto", amount=400)
    act(state, 1, "passo_mano")
    assert state["phase"] == chemin.SEGUITO and state["seats"]["1"]["chips"] == 11_300
    assert state["decl"] == {} and state["seguito"]["height"] == 1000


def test_the_choice_lasts_until_the_cards_are_dealt():
    state = coup(wins=1, ritocco=True, prefix=["2h", "3d", "4c", "3s"])  # égalité 6 to 6
    for s in (2, 3, 4, 5):
        act(state, s, "punto" if s == 2 else "passo", **({"amount": 500} if s == 2 else {}))
    act(state, 2, "sto")
    act(state, 1, "sto")
    assert state["result"] == "egalite" and not E.carry(state)["banco"]["ritocco"]
