"""The Cirulla rules page tells what the Cirulla engine does: its tables and examples are the
engine's captures, accusi, matta, grande and piccola, penalty, cappotto and cash arithmetic
(rules 004; RULINGS I1, I3, I4, I5, C1)."""

from __future__ import annotations

import re

import pytest

from games import options
from games.capture import PRIMIERA_VALUE, VALUE, captures, primiera_points
from games.cirulla import ACCUSO_POINTS, dealer_accuso, hand_accusi
from games.partite import ABBANDONA_SPEC, cash_settlement
from games.registry import get
from games.rng import SeededRng
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

E = get("cirulla")
RULES = E.rules.capture_rules


@pytest.fixture
def html(client) -> str:
    response = client.get("/regole/cirulla/")
    assert response.status_code == 200
    return response.content.decode()


def _examples(html: str) -> list[tuple[list[str], str]]:
    found = re.findall(
        r'<figure class="rules-example">\s*<span[^>]*data-cards="([^"]+)".*?<figcaption>(.*?)</figcaption>',
        html,
        re.S,
    )
    return [(codes.split(), caption) for codes, caption in found]


def _euro(text: str) -> int:
    euros, cents = re.fullmatch(r"€ (\d+),(\d\d)", text).groups()
    return int(euros) * 100 + int(cents)


def _score(piles: list[list[str]]) -> tuple[list[int], dict]:
    return E.rules.score({"piles": piles, "scope": [0, 0], "accusi": [0, 0]})


def test_the_card_values_and_the_primiera_are_the_engines(html):
    values = {r[0]: r[1] for r in _cells(html, "Valore delle carte nelle prese")[1:]}
    assert values["Re"] == str(VALUE["Kd"]) and values["Cavallo (donna nelle francesi)"] == str(VALUE["Qd"])
    assert values["Fante"] == str(VALUE["Jd"]) and values["Asso"] == str(VALUE["Ad"])
    primiera = {r[0]: r[1] for r in _cells(html, "Valori della primiera")[1:]}
    named = {"7": "7", "6": "6", "A": "Asso", "5": "5", "4": "4", "3": "3", "2": "2"}
    for rank, label in named.items():
        assert primiera[label] == str(PRIMIERA_VALUE[rank]), rank
    assert primiera["Re, cavallo, fante"] == str(PRIMIERA_VALUE["K"]) == str(PRIMIERA_VALUE["Q"])
    assert primiera_points(["7c", "6d", "As", "5h"]) == 70
    # the deck style starts napoletane (a player's option; cosmetic, RULINGS G3)
    assert (
        options.defaults("cirulla")["stile_mazzo"] == "napoletane" and "di partenza sono napoletane" in html
    )


def test_the_capture_examples_are_the_engines(html):
    examples = _examples(html)
    fifteen, free, ace = examples[:3]
    assert sorted(captures("4h", fifteen[0], RULES)) == [["4c"], ["4c", "7s"]]
    assert sorted(captures("Jd", free[0], RULES)) == [["3c", "5s"], ["Jh"]]
    assert sorted(captures("As", ace[0], RULES)[0]) == sorted(ace[0]) and "fai scopa" in ace[1]
    assert captures("As", ["Ac", "5d", "Kh"], RULES) == [["Ac"]]
    assert captures("As", [], RULES) == []
    assert E.rules.redeal_needed(["Ac", "Ad", "5s", "6h"]) and not E.rules.redeal_needed(
        ["Ac", "5d", "5s", "6h"]
    )


def test_the_accusi_are_the_engines(html):
    rows = {r[0]: int(r[2]) for r in _cells(html, "Gli accusi")[1:]}
    assert rows["Cirulla"] == ACCUSO_POINTS["cirulla"] and rows["Decino"] == ACCUSO_POINTS["decino"]
    assert dealer_accuso(["Kc", "Ks", "5h", "5d"]) == rows["Tavola da 30"] == 2
    assert dealer_accuso(["5c", "4d", "3s", "3h"]) == rows["Tavola da 15"] == 1
    by_cards = {" ".join(cards): caption for cards, caption in _examples(html)}
    assert dealer_accuso(["5c", "4d", "3s", "3h"]) == 1 and "1 punto" in by_cards["5c 4d 3s 3h"]
    assert hand_accusi(["Ac", "3s", "4d"]) == {"cirulla": None} and "cirulla, 3 punti" in by_cards["Ac 3s 4d"]
    assert hand_accusi(["6c", "6d", "6s"]) == {"decino": None} and "decino, 10 punti" in by_cards["6c 6d 6s"]
    assert hand_accusi(["Ac", "3s", "6d"]) == {}  # 10: no cirulla


def test_the_matta_examples_are_the_engines(html):
    by_cards = {" ".join(cards): caption for cards, caption in _examples(html)}
    assert hand_accusi(["7h", "2c", "5s"]) == {"cirulla": 1} and "vale 1" in by_cards["7h 2c 5s"]
    assert hand_accusi(["7h", "Kc", "Ks"]) == {"decino": VALUE["Kc"]} and "vale re" in by_cards["7h Kc Ks"]
    assert dealer_accuso(["7h", "Kc", "2s", "Ad"]) == 1 and "vale 2" in by_cards["7h Kc 2s Ad"]
    assert hand_accusi(["7h", "Kc", "Qs"]) == {}  # no accuso: the 7 di coppe is a 7
    assert captures("7h", ["Ac", "5d"], RULES, played_value=1) == [
        ["Ac"]
    ]  # a cirulla's matta plays as an ace
    # both accusi: the automatic one takes the decino
    assert set(hand_accusi(["7h", "2c", "2s"])) == {"cirulla", "decino"}
    assert "l'accuso automatico sceglie il decino" in html


def test_grande_and_piccola_are_the_engines(html):
    rows = {r[0]: r[2] for r in _cells(html, "Punti di una smazzata")[1:]}
    assert rows["Grande"] == "5" and rows["Piccola"].startswith("3, più 1")
    points, detail = _score([["Jd", "Qd", "Kd"], ["Ac"]])
    assert detail["grande"] == 0 and points[0] == 5
    piccola = next(cards for cards, _ in _examples(html) if cards[0] == "Ad" and len(cards) == 5)
    _, detail = _score([piccola, ["Kc"]])
    assert detail["piccola"] == 0 and detail["piccola_punti"] == 5
    _, detail = _score([["Ad", "2d", "3d", "5d"], ["Kc"]])
    assert detail["piccola_punti"] == 3  # "Senza il quattro varrebbe 3, anche con il cinque"


def test_the_forfeit_tables_are_the_engines_penalty(html):
    given = {r[0]: int(r[2]) for r in _cells(html, "Punti dati all'avversario")[1:]}
    assert given == {
        "Scopa": 1,
        "Primiera": 1,
        "Sette bello": 1,
        "Carte": 1,
        "Denari": 1,
        "Grande": 5,
        "Piccola": 3,
    }
    cap = E.validate_config({})["penalty_cap"]
    assert cap == 6 and f"<strong>al massimo {cap}</strong>" in html
    piles = {
        "non è ancora deciso nulla": [[], []],
        "sette bello preso, grande e piccola divise": [["7d", "Jd", "Ad"], ["Qd", "2d"]],
    }
    rows = _cells(html, "Esempi di abbandono")[1:]
    assert [r[2] for r in rows] == list(piles)
    for mine, theirs, state, penalty, result, difference in rows:
        st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(20))
        st["totals"] = [int(mine), int(theirs)]
        st["deal"]["piles"] = [list(p) for p in piles[state]]
        E.apply(st, st["seats"][0], {"type": "tempo_scaduto"}, SeededRng(21))
        report = E.outcome(st)
        assert report["forfeit"]["penalty"] == int(penalty), state
        assert report["winner"] == 1
        assert result == f"{report['points'][0]} a {report['points'][1]}"
        assert report["cash"]["differenza_effettiva"] == int(difference)


def test_the_match_the_cappotto_and_the_cash_example_are_the_engines(html):
    cfg = E.validate_config({})
    assert cfg["mode"] == "punti" and f"(di solito {cfg['target']})" in html
    assert cfg["cappotto"] is True and "(lo fa di partenza)" in html
    assert cfg["spareggi"] == 3 and cfg["decider"] == "loses"
    rows = {r[0]: int(r[1]) for r in _cells(html, "Victory Points (VP) di una partita")[1:]}
    assert rows == {
        "Vittoria": cfg["vp"]["win"],
        "Pareggio (dove previsto)": cfg["vp"]["draw"],
        "Sconfitta": cfg["vp"]["loss"],
    }
    assert f"almeno {cfg['forfeit_min_vp']} VP" in html
    money = {r[0]: _euro(r[1]) for r in _cells(html, "Esempio di pagamento")[1:]}
    table = {
        "posta_partita": money["Posta partita"],
        "posta_unitaria": money["Posta unitaria (punto)"],
        "perdita_massima": money["Perdita massima"],
        "rake_bp": 0,
    }
    plain = {"winner": 0, "cappotto": False, "cappotti": [0, 0], "differenza_punti": 53 - 38}
    assert (
        cash_settlement({"cash": plain}, **table)["amount"]
        == money["Finisce 53 a 38: paga chi perde 1,00 + 15 × 0,10"]
    )
    cappotto = {**plain, "cappotto": True}
    assert (
        cash_settlement({"cash": cappotto}, **table)["amount"]
        == money["Finisce per cappotto: paga chi perde"]
    )


def test_the_cappotto_ends_the_match_at_the_tenth_denaro():
    st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(22))
    deal = st["deal"]
    pos = deal["turn"]
    line = pos % 2
    denari = ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Jd", "Qd", "Kd"]
    deal["piles"] = [[], []]
    deal["piles"][line] = denari[:9]
    deal["table"] = ["Kd"]
    deal["hands"][pos] = ["Kc", *[c for c in deal["hands"][pos] if c not in ("Kc", "Kd")][:2]]
    E.rules.apply(st, pos, {"type": "gioca", "card": "Kc", "take": ["Kd"]}, SeededRng(23))
    assert deal["cappotto"] == line and deal["over"]


def test_the_table_words_are_the_engines_and_the_clients(html):
    from pathlib import Path

    from django.conf import settings

    assert f"«{ABBANDONA_SPEC['label']}»" in html and f"«{ABBANDONA_SPEC['confirm']}»" in html
    label = next(o.label for o in options.GAMES["cirulla"].options if o.key == "accuso_automatico")
    assert f"«{label}»" in html
    st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(24))
    st["prefs"] = {str(s): {"accuso_automatico": False} for s in st["seats"]}
    deal = st["deal"]
    pos = deal["turn"]
    deal["hands"][pos] = ["6c", "6h", "6s"]
    deal["accused_round"][pos] = 0
    specs = E.rules.legal_actions(st, pos)
    assert {s["label"] for s in specs if s["type"] == "accuso"} == {"Accuso: Decino"}
    assert "«Accuso: Decino»" in html and "«Accuso: Cirulla»" in html
    js = "".join(p.read_text() for p in (Path(settings.BASE_DIR) / "static" / "js" / "table").glob("*.js"))
    for word in (
        "Carte in tavola",
        "Tallone",
        "Ultima giocata",
        "Carte mostrate",
        "Annulla",
        "Un'altra partita",
    ):
        assert f"«{word}»" in html and f'"{word}' in js, word
