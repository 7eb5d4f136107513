"""The Scala 40 rules page prints what the engine plays: opening values, hand points, the deal."""

from __future__ import annotations

import pytest

from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def html(client):
    response = client.get("/regole/scala40/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_opening_values_are_the_engines(html):
    from games.melds import TOP, scala40_position_value, scala40_rank_value
    from games.scala40.deal import OPENING

    values = {row[0]: row[1] for row in _cells(html, "Valore delle carte per l'apertura")[1:]}
    assert values["Asso prima del 2 in una scala"] == str(scala40_position_value(1))
    assert values["Asso dopo il re in una scala"] == str(scala40_position_value(TOP))
    assert values["Asso in una combinazione"] == str(scala40_rank_value("A"))
    assert values["Figure (J, Q, K)"] == str(scala40_rank_value("J")) == str(scala40_rank_value("K"))
    assert {scala40_position_value(p) for p in (11, 12, 13)} == {10}
    assert values["Dal 2 al 10"] == "il numero della carta"
    assert [scala40_rank_value(r) for r in "23456789T"] == list(range(2, 11))
    assert f"almeno <strong>{OPENING} punti</strong>" in html


def test_the_opening_examples_are_what_the_engine_counts(html):
    from games.melds import SCALA40, meld_options, scala40_meld_value

    def value(cards: list[str]) -> int:
        return max(scala40_meld_value(o) for o in meld_options(cards, SCALA40))

    assert value(["9h", "9s", "9c"]) == 27 and value(["Td", "Jd", "Qd"]) == 30
    assert value(["4h", "4s", "4c"]) == 12 and value(["3d", "4d", "5d", "6d", "7d"]) == 25
    assert "57 punti, apertura valida" in html and "solo 37 punti" in html
    assert meld_options(["9h", "9h", "9c"], SCALA40) == []
    assert {o["jolly_suit"] for o in meld_options(["9h", "9s", "X1"], SCALA40)} == {"d", "c"}


def test_the_hand_points_and_special_cases_are_the_engines(html):
    from games.melds import scala40_hand_points
    from games.scala40.deal import NEVER_OPENED

    values = {row[0]: row[1] for row in _cells(html, "Valore delle carte rimaste in mano")[1:]}
    assert values["Jolly"] == str(scala40_hand_points(["X1"]))
    assert values["Asso"] == (f"{scala40_hand_points(['Ah', 'Ad']) // 2} (1 se è l'unico asso in mano)")
    assert scala40_hand_points(["Ah"]) == 1
    assert values["Figure (J, Q, K)"] == str(scala40_hand_points(["Qc"]))
    assert [scala40_hand_points([r + "s"]) for r in "23456789T"] == list(range(2, 11))
    cases = {row[0]: row[1] for row in _cells(html, "Casi particolari")[1:]}
    assert cases["Chi non aveva ancora aperto"] == f"{NEVER_OPENED}, qualunque carta abbia"
    assert scala40_hand_points(["Ah", "Ad", "Kc", "5s", "X2"]) == 62
    assert scala40_hand_points(["Ah", "7c"]) == 8


def test_the_deal_table_counts_every_card(html):
    from games.cards import rummy_deck
    from games.scala40.deal import HAND

    for players, hands, tallone in _cells(html, "Le carte dopo la distribuzione")[1:]:
        assert hands == f"{players} × {HAND}"
        assert int(players) * HAND + 1 + int(tallone) == len(rummy_deck())


def test_the_match_defaults_timeout_and_cash_rounding_are_the_engines(html):
    from games.partite import round_half_down
    from games.scala40 import DEFAULTS, TIMEOUT_PENALTY

    assert f"di norma {DEFAULTS['target']}" in html and f"di solito {DEFAULTS['deals']}" in html
    assert f"<strong>{TIMEOUT_PENALTY} punti</strong> di penalità" in html
    assert f"almeno {DEFAULTS['forfeit_min_vp']} VP" in html
    for row in _cells(html, "Differenza punti nei tavoli cash")[1:]:
        assert row[2] == str(round_half_down(int(row[0]), DEFAULTS["cash_divisor"])), row
    vp = {row[0]: row[1] for row in _cells(html, "Victory Points (VP) di una partita")[1:]}
    assert vp == {"Vittoria": str(DEFAULTS["vp"]["win"]), "Sconfitta": str(DEFAULTS["vp"]["loss"])}


def test_the_buttons_named_are_the_labels_of_the_engines_moves(html):
    """The labels of every move the engine offers, on rigged deals: all named on the page."""
    from games.melds import SCALA40, sequence_options
    from games.registry import get
    from games.rng import SeededRng

    engine = get("scala40")
    seats = [{"seat": 1, "prefs": {}}, {"seat": 2, "prefs": {}}]
    st = engine.new({}, seats, SeededRng(0))
    (seat,) = engine.to_act(st)
    labels = {spec["label"] for spec in engine.legal_actions(st, seat)}  # pesca, raccogli, abbandona
    engine.apply(st, seat, {"type": "raccogli"}, SeededRng(1))
    labels |= {spec["label"] for spec in engine.legal_actions(st, seat)}  # apri, rimetti, scarta
    pos = st["seats"].index(seat)
    jolly_run = {**sequence_options(["5h", "X1", "7h"], SCALA40)[0], "id": 99, "owner": 1 - pos}
    st["deal"].update({"melds": [jolly_run], "raccolto": None})
    st["deal"]["opened"][pos] = True
    st["deal"]["hands"][pos] = ["6h", "9c", "9d", "Kd"]
    labels |= {spec["label"] for spec in engine.legal_actions(st, seat)}  # cala, attacca, sostituisci
    assert labels == {
        "Pesca",
        "Raccogli",
        "Abbandona",
        "Apri",
        "Rimetti la carta raccolta",
        "Scarta",
        "Cala un gioco",
        "Attacca",
        "Sostituisci il jolly",
    }
    for label in labels:
        assert f"«{label}»" in html, label
