"""The Bestia page (/regole/bestia/) says what the engine does: its card order, its invito and
rischio bestia, its trick obligations, its split of the piatto, its rake and its buttons."""

from __future__ import annotations

import pytest

from games import tricks
from games.bestia import Bestia
from games.bestia.money import invito_and_bestia, rake_on_shares, split_by_tricks
from games.cards import RANK_NAME_ITALIAN
from games.rng import SeededRng
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

ENGINE = Bestia()


@pytest.fixture
def page(client) -> str:
    response = client.get("/regole/bestia/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_card_table_is_the_engines_trick_order(page):
    rows = _cells(page, "Valore delle carte nelle prese")[1:]
    names = [RANK_NAME_ITALIAN[r].capitalize() for r in reversed(tricks.BRISCOLA_ORDER)]
    assert [r[1] for r in rows] == names
    assert tricks.BESTIA_RULES.strength == tricks.strength_of(tricks.BRISCOLA_ORDER)


def test_the_invito_and_bestia_table_and_example_are_the_engines(page):
    rows = _cells(page, "Invito e bestia secondo i crediti")[1:]
    assert [r[1:] for r in rows] == [
        ["l'invito del tavolo", "il piatto dopo gli inviti"],
        ["il credito più basso", "zero"],
        ["l'invito del tavolo", "il credito più basso rimasto dopo l'invito"],
    ]
    assert invito_and_bestia(100, 0, [5000, 5000, 5000]) == (100, False, 300)  # the piatto
    assert (
        "Tutti pagano l'invito e il piatto sale a € 13, ma al terzo restano € 4: il rischio bestia è € 4"
        in page
    )
    assert invito_and_bestia(100, 1000, [2000, 2000, 500]) == (100, False, 400)
    assert "l'invito sarebbe € 0,60 e la smazzata si giocherebbe senza bestia" in page
    assert invito_and_bestia(100, 1000, [2000, 2000, 60]) == (60, True, 0)


def test_the_trick_examples_follow_the_engines_obligations(page):
    assert 'data-cards="5c"' in page and 'data-cards="Kd 3d 2c"' in page
    # void in denari, the third player must trump: his 2 of bastoni takes the trick
    assert tricks.legal_cards(tricks.BESTIA_RULES, ["2c", "Ah", "7s"], [[1, "Kd"], [2, "3d"]], "c") == ["2c"]
    assert tricks.trick_winner(tricks.BESTIA_RULES, [[1, "Kd"], [2, "3d"], [3, "2c"]], "c") == 3
    # the ace of coppe turned up: the 3 of coppe is the top trump, to be led first
    assert 'data-cards="Ah"' in page and 'data-cards="3h 7s Qd"' in page
    assert tricks.top_trump(tricks.BESTIA_RULES, "h", "Ah") == "3h"
    assert tricks.legal_cards(tricks.BESTIA_RULES, ["3h", "7s", "Qd"], [], "h", ["3h"]) == ["3h"]


def test_the_split_examples_are_the_engines_split(page):
    assert "Piatto di € 10,00: le tre parti sono € 3,34, € 3,33 ed € 3,33" in page
    assert split_by_tricks(1000, [2, 3, 1], 3) == {"2": 334, "3": 333, "1": 333}
    assert "A prende € 2,67 (due parti da € 1,33 più il centesimo avanzato), B € 1,33" in page
    assert split_by_tricks(400, [1, 2, 1], 3) == {"1": 267, "2": 133}
    assert invito_and_bestia(100, 0, [500, 500, 500, 500]) == (100, False, 400)


def test_the_rake_example_is_the_engines_rake(page):
    assert "A fa due prese e incassa € 20 − € 2 = € 18; B fa una presa e incassa € 10 − € 1 = € 9" in page
    shares = split_by_tricks(3000, [1, 1, 2], 3)
    assert shares == {"1": 2000, "2": 1000}
    assert rake_on_shares(shares, [1, 2, 3], 1000, None) == {"1": 200, "2": 100}


def test_a_player_who_takes_no_trick_pays_the_bestia_into_the_next_piatto(page):
    """The worked example: four players, D passes, A two tricks, B one, C none."""
    seats = [{"seat": s, "chips": 500} for s in (1, 2, 3, 4)]
    st = ENGINE.new({"invito": 100, "mode": "tournament"}, seats, SeededRng(7), {"dealer": 4})
    a, b, c, d = st["active"]  # from the dealer's right
    assert (st["invito"], st["piatto"], st["bestia"]) == (100, 400, 400)
    # rig the hands: briscola spade; A holds the top trumps, B a trump, C nothing that takes
    st["deal"]["hands"] = {
        str(a): ["As", "3s", "2d"],
        str(b): ["Ks", "4d", "5d"],
        str(c): ["2c", "4c", "6c"],
        str(d): ["7h", "6h", "5h"],
    }
    st["briscola"] = st["deal"]["exposed"] = "7s"
    st["deal"]["trump"] = "s"
    st["deal"]["stock"] = ["Ad", "3d", "Kd", "Qd", "Jd", "7d", "6d", "Ac", "3c", "Kc", "Qc", "Jc"]
    for seat, decision in ((a, "servito"), (b, "servito"), (c, "servito"), (d, "passo")):
        ENGINE.apply(st, seat, {"type": decision}, SeededRng(1))
    ENGINE.apply(st, d, {"type": "passo"}, SeededRng(1))  # no buio
    for seat, card in ((a, "As"), (b, "Ks"), (c, "2c")):  # A leads the top trump: his first trick
        ENGINE.apply(st, seat, {"type": "gioca", "card": card}, SeededRng(1))
    for seat, card in ((a, "2d"), (b, "5d"), (c, "4c")):  # B's 5 of denari takes the second
        ENGINE.apply(st, seat, {"type": "gioca", "card": card}, SeededRng(1))
    for seat, card in ((b, "4d"), (c, "6c"), (a, "3s")):  # A trumps the third
        ENGINE.apply(st, seat, {"type": "gioca", "card": card}, SeededRng(1))
    out = ENGINE.outcome(st)
    assert out["result"]["shares"] == {str(a): 267, str(b): 133}
    assert out["result"]["bestie"] == [c] and out["carried_out"] == 400
    assert sorted(ENGINE.carry(st)["entitled"]) == sorted([a, b, c, d])


def test_the_buttons_are_the_engines_labels(page):
    rows = dict(_cells(page, "I pulsanti del tavolo")[1:])
    st = ENGINE.new({"invito": 100}, [{"seat": s, "chips": 5000} for s in (1, 2, 3)], SeededRng(3))
    seat = ENGINE.to_act(st)[0]
    labels = {s["label"] for s in ENGINE.legal_actions(st, seat)}
    assert set(rows["Dichiarazione"].split(", ")) == labels
    while st["phase"] == "dichiarazione":  # everybody passes: the buio round follows
        ENGINE.apply(st, ENGINE.to_act(st)[0], {"type": "passo"}, SeededRng(1))
    assert st["phase"] == "buio"
    labels = {s["label"] for s in ENGINE.legal_actions(st, ENGINE.to_act(st)[0])}
    assert set(rows["Giro del buio"].split(", ")) == labels


def test_the_cash_stand_up_rule_is_the_lobbys(page):
    from lobby.actions.seating import STAND_UP_RULES

    assert "Chi salta tre smazzate di fila in sitout viene fatto alzare" in page
    assert STAND_UP_RULES["bestia"] == (3, None)


def test_in_the_4_card_variant_the_first_player_needs_two_tricks(page):
    assert (
        "Il primo giocatore che ha deciso di giocare va in bestia se non fa almeno <strong>due</strong>"
        in page
    )
    seats = [{"seat": s, "chips": 500} for s in (1, 2, 3)]
    st = ENGINE.new({"invito": 100, "mode": "tournament", "cards": 4}, seats, SeededRng(5), {"dealer": 3})
    a, b, c = st["active"]
    st["deal"]["hands"] = {
        str(a): ["Ad", "4c", "5c", "6c"],
        str(b): ["As", "3s", "2d", "7h"],
        str(c): ["Jh", "Qh", "Kh", "2h"],
    }
    st["briscola"] = st["deal"]["exposed"] = "7s"
    st["deal"]["trump"] = "s"
    st["deal"]["stock"] = ["3d", "Kd", "Qd", "Jd", "7d", "6d"]
    for seat, decision in ((a, "servito"), (b, "servito"), (c, "passo")):
        ENGINE.apply(st, seat, {"type": decision}, SeededRng(1))
    ENGINE.apply(st, c, {"type": "passo"}, SeededRng(1))  # no buio
    plays = [(a, "Ad"), (b, "2d"), (a, "4c"), (b, "3s"), (b, "As"), (a, "5c"), (b, "7h"), (a, "6c")]
    for seat, card in plays:
        ENGINE.apply(st, seat, {"type": "gioca", "card": card}, SeededRng(1))
    out = ENGINE.outcome(st)
    assert out["result"]["tricks"] == {str(a): 1, str(b): 3}
    assert out["result"]["bestie"] == [a]  # one trick is not enough for the first player
    assert out["result"]["shares"] == {str(a): 75, str(b): 225}  # the piatto of € 3 in 4 parts of € 0,75
