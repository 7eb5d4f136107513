"""The Burraco rules page prints what the engine plays: card values, burrachi, premi, the deal."""

from __future__ import annotations

import pytest

from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def html(client):
    response = client.get("/regole/burraco/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_card_values_are_the_engines(html):
    from games.melds import burraco_card_points

    values = {row[0]: row[1] for row in _cells(html, "Valore delle carte")[1:]}
    for rank in "34567":
        assert values["Dal 3 al 7"] == str(burraco_card_points(rank + "h")), rank
    for rank in "89TJQK":
        assert values["Dall'8 al re"] == str(burraco_card_points(rank + "s")), rank
    assert values["Asso"] == str(burraco_card_points("Ad"))
    assert values["Pinella (2)"] == str(burraco_card_points("2c"))
    assert values["Jolly"] == str(burraco_card_points("X1"))


def test_the_burrachi_and_the_premi_are_the_engines(html):
    from games.burraco.deal import CLOSING_BONUS, NO_POZZETTO
    from games.melds import BURRACO_BONUS

    kinds = {row[0]: row[2] for row in _cells(html, "I tipi di burraco")[1:]}
    assert kinds == {
        "Pulito": str(BURRACO_BONUS["pulito"]),
        "Semipulito": str(BURRACO_BONUS["semipulito"]),
        "Sporco": str(BURRACO_BONUS["sporco"]),
    }
    premi = {row[0]: row[1] for row in _cells(html, "Premi e penalità della smazzata")[1:]}
    assert premi["Ogni burraco pulito"] == f"+{BURRACO_BONUS['pulito']}"
    assert premi["Ogni burraco semipulito"] == f"+{BURRACO_BONUS['semipulito']}"
    assert premi["Ogni burraco sporco"] == f"+{BURRACO_BONUS['sporco']}"
    assert premi["Chiusura"] == f"+{CLOSING_BONUS}"
    assert premi["Pozzetto non preso"] == f"−{NO_POZZETTO}"


def test_the_examples_of_burrachi_are_what_the_engine_counts(html):
    from games.melds import BURRACO, burraco_kind, meld_options

    semipulito = meld_options(["3h", "4h", "5h", "6h", "7h", "8h", "9h", "X1"], BURRACO)
    assert [burraco_kind(m) for m in semipulito if m["start"] == 3] == ["semipulito"]
    sporco = {"kind": "scala", "suit": "h", "start": 3, "cards": ["3h", "4h", "5h", "X1", "7h", "8h", "9h"]}
    assert burraco_kind(sporco) == "sporco"
    assert "burraco semipulito" in html and "burraco sporco" in html


def test_the_deal_table_counts_every_card(html):
    from games.burraco.deal import HAND, POZZETTO
    from games.cards import rummy_deck

    rows = {row[0]: row[1:] for row in _cells(html, "Le carte dopo la distribuzione")[1:]}
    for column, players in enumerate((2, 4)):
        assert rows["In mano a ciascuno"][column] == str(HAND)
        assert rows["Primo scarto"][column] == "1"
        assert rows["Pozzetti"][column] == f"2 × {POZZETTO}"
        tallone = int(rows["Tallone"][column])
        assert players * HAND + 1 + 2 * POZZETTO + tallone == len(rummy_deck()) == 108


def test_the_match_defaults_timeout_penalty_and_cash_rounding_are_the_engines(html):
    from games.burraco import BurracoEngine
    from games.burraco.deal import TIMEOUT_PENALTY
    from games.partite import round_half_down

    defaults = BurracoEngine.defaults
    assert f"a {defaults['target']}" in html
    assert f"{TIMEOUT_PENALTY} punti</strong> di penalità" in html
    for row in _cells(html, "Differenza punti nei tavoli cash")[1:]:
        assert row[2] == str(round_half_down(int(row[0]), defaults["cash_divisor"])), row
    vp = {row[0]: row[1] for row in _cells(html, "Victory Points (VP) di una partita")[1:]}
    assert vp == {"Vittoria": "20", "Pareggio (dove previsto)": "10", "Sconfitta": "0"}


def test_the_buttons_named_are_the_labels_of_the_engines_moves(html):
    """Play a smazzata's first turns and collect the labels the table shows as buttons."""
    from games.registry import get
    from games.rng import SeededRng

    engine = get("burraco")
    seats = [{"seat": 1, "prefs": {}}, {"seat": 2, "prefs": {}}]
    st = engine.new({"format": "testa_a_testa"}, seats, SeededRng(3))
    labels: set[str] = set()
    for _ in range(40):
        (seat,) = engine.to_act(st)
        legal = engine.legal_actions(st, seat)
        labels |= {spec["label"] for spec in legal}
        if {"Allunga", "Apri un gioco", "Raccogli"} <= labels:
            break
        engine.apply(st, seat, engine.sample_action(st, seat, SeededRng(len(labels))), SeededRng(1))
    assert labels == {"Pesca", "Raccogli", "Apri un gioco", "Allunga", "Scarta", "Abbandona"}
    for label in labels:
        assert f"«{label}»" in html, label
