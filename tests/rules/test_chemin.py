"""The Chemin de fer page (/regole/chemin/) says what the engine does: its card points, the "gioco
alla regola" tables (normative, RULINGS B3), the bets, the garage, the rake and the buttons."""

from __future__ import annotations

import re

import pytest

from games.chemin import engine as chemin
from games.chemin import regola
from games.options import GAMES
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client) -> str:
    response = client.get("/regole/chemin/")
    assert response.status_code == 200
    return response.content.decode()


_PLAY = {"chiamo": "chiama", "sto": "sta", "batto": "batte"}


def test_the_card_points_and_examples_are_the_engines(page):
    rows = dict(_cells(page, "Valore delle carte")[1:])
    assert rows["Asso"] == str(regola.POINTS["A"])
    assert {regola.POINTS[r] for r in "TJQK"} == {int(rows["10, fante, donna, re"])}
    assert all(regola.POINTS[r] == int(r) for r in "23456789")
    assert 'data-cards="7h 6s 9d"' in page and regola.points(["7h", "6s", "9d"]) == 2
    assert 'data-cards="Tc 5h"' in page and regola.points(["Tc", "5h"]) == 5
    assert 'data-cards="9s 6d 5c"' in page and regola.points(["9s", "6d", "5c"]) == 0


def test_the_punta_table_is_the_engines_regola(page):
    rows = _cells(page, "La punta alla regola")[1:]
    assert [int(r[0]) for r in rows] == list(range(10))
    for points, play in rows:
        if play == "a volontà":
            assert regola.punta_decision(int(points), {}) == "sto"  # the default: "stare"
            assert regola.punta_decision(int(points), {"chemin_punta_5": "tiro"}) == "chiamo"
        else:
            assert _PLAY[regola.punta_decision(int(points), {})] == play


def test_the_banco_tables_are_the_engines_regola_cell_by_cell(page):
    rows = _cells(page, "Il banco alla regola, se la punta sta")[1:]
    assert [(int(p), play) for p, play in rows] == [(b, regola.banker_cell(b, None)) for b in range(10)]
    rows = _cells(page, "Il banco alla regola, se la punta chiede carta")
    assert rows[0][1:] == [str(v) for v in range(10)]
    assert [int(r[0]) for r in rows[1:]] == list(range(10))
    for row in rows[1:]:
        banco = int(row[0])
        assert row[1:] == [regola.banker_cell(banco, third) for third in range(10)], banco
    assert 'data-cards="Kh 5d"' in page and 'data-cards="6c"' in page
    assert regola.banker_cell(regola.points(["Kh", "5d"]), regola.card_value("6c")) == regola.TIRA


def test_a_volonta_defaults_to_stare_and_the_options_change_it(page):
    assert regola.banker_draws(3, 9, {}) is False
    assert regola.banker_draws(3, 9, {"chemin_banco_3_dando_9": "tiro"}) is True
    assert regola.banker_draws(5, 4, {}) is False
    assert regola.banker_draws(5, 4, {"chemin_banco_5_dando_4": "tiro"}) is True
    rows = _cells(page, "Opzioni di gioco automatico")[1:]
    options = GAMES["chemin"].options
    assert [r[0] for r in rows] == [o.label for o in options]
    for (_label, _values, default), option in zip(rows, options, strict=True):
        shown = dict(option.choices or ((True, "sì"), (False, "no")))[option.default]
        assert default.lower() == str(shown).lower()


def test_the_bets_resolve_in_the_pages_order():
    prio = [1, 2, 3]
    partial = {"1": {"mode": "punto", "amount": 300, "seq": 0}}
    bets, receiver, mode = chemin.resolve_bets(
        {**partial, "3": {"mode": "banco", "amount": 1000, "seq": 1}}, prio, 1000, None
    )
    assert (bets, receiver, mode) == ({3: 1000}, 3, "banco")  # banco solo annuls the partial bets
    bets, _receiver, mode = chemin.resolve_bets(
        {**partial, "2": {"mode": "rispetto", "amount": 700, "seq": 1}}, prio, 1000, None
    )
    assert (bets, mode) == ({1: 300, 2: 700}, "rispetto")  # banco e rispetto keeps them
    two_tables = {
        "2": {"mode": "tavolo", "amount": 500, "seq": 1},
        "3": {"mode": "tavolo", "amount": 500, "seq": 2},
    }
    bets, _receiver, mode = chemin.resolve_bets({**partial, **two_tables}, prio, 1000, None)
    assert (bets, mode) == ({2: 500, 3: 500}, "tavolo_e_tavolo")
    # partial bets in priority order up to the posta, the one crossing it cut; cards to the highest
    decl = {str(s): {"mode": "punto", "amount": a, "seq": s} for s, a in ((1, 400), (2, 500), (3, 300))}
    bets, receiver, _mode = chemin.resolve_bets(decl, prio, 1000, None)
    assert bets == {1: 400, 2: 500, 3: 100} and receiver == 2


def test_the_garage_and_rake_examples_are_the_engines_arithmetic(page):
    assert "la nuova posta è € 120 (le puntate più quanto le copriva) e € 40 vanno nel garage" in page
    posta, won = 10_000, 6_000
    assert (posta - won, 2 * won) == (4_000, 12_000)  # _showdown: garage += posta - won; posta = 2 won
    assert "chi vince € 10 paga (€ 10 × 2) × 5 % = € 1" in page
    assert 1000 * 2 * 500 // 10000 == 100  # _showdown: rake = vincita × 2 × rake_bp // 10000
    assert {o.key: o.max for o in chemin.OPTIONS}["rake_bp"] == 500  # "al massimo il 5 %"
    assert chemin.LAST_COUP_AFTER == 200 and chemin.SHOE_SIZE == 312 == 6 * 52
    assert "solo entro il terzo colpo vinto" in page and chemin.DIMEZZO_MAX_WINS == 3


def test_the_buttons_the_page_names_are_the_engines_labels(page):
    named: set[str] = set()
    for _when, buttons in _cells(page, "I pulsanti del tavolo")[1:]:
        named |= {re.sub(r"\s*\(.*\)", "", part) for part in buttons.split(", ")}
    assert named == set(chemin.LABELS.values())


def test_the_cash_stand_up_rule_is_the_lobbys(page):
    from lobby.actions.seating import STAND_UP_RULES

    assert "Chi salta tre turni di banco di fila, propri o altrui" in page
    assert STAND_UP_RULES["chemin"] == (3, None)
