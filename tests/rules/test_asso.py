"""The Asso piglia tutto rules page tells what the Asso engine does: its tables and examples are
the engine's values, captures, aces, primiera and forfeit penalty (rules 004; RULINGS I1, I2, I4)."""

from __future__ import annotations

import re

import pytest

from games.capture import PRIMIERA_VALUE, VALUE, captures, primiera_points
from games.cards import italian_deck
from games.partite import ABBANDONA_SPEC
from games.registry import get
from games.rng import SeededRng
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

E = get("asso")
RULES = E.rules.capture_rules


@pytest.fixture
def html(client) -> str:
    response = client.get("/regole/asso/")
    assert response.status_code == 200
    return response.content.decode()


def _examples(html: str) -> list[tuple[list[str], str]]:
    found = re.findall(
        r'<figure class="rules-example">\s*<span[^>]*data-cards="([^"]+)".*?<figcaption>(.*?)</figcaption>',
        html,
        re.S,
    )
    return [(codes.split(), caption) for codes, caption in found]


def test_the_card_values_and_the_primiera_are_the_engines(html):
    values = {r[0]: r[1] for r in _cells(html, "Valore delle carte nelle prese")[1:]}
    assert values["Re"] == str(VALUE["Kd"]) and values["Cavallo (donna nelle francesi)"] == str(VALUE["Qd"])
    assert values["Fante"] == str(VALUE["Jd"]) and values["Asso"] == str(VALUE["Ad"])
    assert all(VALUE[f"{n}d"] == n for n in range(2, 8))
    primiera = {r[0]: r[1] for r in _cells(html, "Valori della primiera")[1:]}
    named = {"7": "7", "6": "6", "A": "Asso", "5": "5", "4": "4", "3": "3", "2": "2"}
    for rank, label in named.items():
        assert primiera[label] == str(PRIMIERA_VALUE[rank]), rank
    assert primiera["Re, cavallo, fante"] == str(PRIMIERA_VALUE["K"]) == str(PRIMIERA_VALUE["Q"])
    assert PRIMIERA_VALUE["J"] == PRIMIERA_VALUE["K"]


def test_the_card_examples_are_the_engines_captures(html):
    kings, equal, sums, ace_on_ace, ace_sweep, prim = _examples(html)
    assert E.rules.redeal_needed(kings[0]) and not E.rules.redeal_needed(["Kc", "Kh", "6d", "5s"])
    assert captures("Jd", equal[0], RULES) == [["Jh"]]
    assert sorted(map(sorted, captures("Qd", sums[0], RULES))) == sorted(
        map(sorted, [["Ad", "3c", "5h"], ["4s", "5h"]])
    )
    assert captures("As", ace_on_ace[0], RULES) == [["Ac"]] and "fai scopa" in ace_on_ace[1]
    assert sorted(captures("As", ace_sweep[0], RULES)[0]) == sorted(ace_sweep[0])
    assert "non è scopa" in ace_sweep[1]
    assert captures("As", [], RULES) == []
    assert sorted(captures("As", ["Ac", "Ad", "4s"], RULES)) == [["Ac"], ["Ad"]]  # you choose which ace
    assert captures("5d", ["Ac", "4s"], RULES) == [["Ac", "4s"]]  # an ace on the table, by sum
    assert primiera_points(prim[0] + ["Kd"]) == 70 and "= 70" in prim[1]


def _ace_play(table: list[str], card: str = "As", last: bool = False) -> dict:
    """Play ``card`` on ``table`` in a fresh match; return the move recorded."""
    st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(8))
    deal = st["deal"]
    pos = deal["turn"]
    spare = [c for c in italian_deck() if c not in table and c != card]
    deal["table"] = list(table)
    deal["hands"] = [[], []]
    deal["hands"][pos] = [card] if last else [card, spare[0]]
    deal["stock"] = [] if last else deal["stock"]
    take = captures(card, table, RULES)
    E.rules.apply(st, pos, {"type": "gioca", "card": card, "take": take[0] if take else []}, SeededRng(9))
    return deal["moves"][-1]


def test_the_ace_table_is_the_engines_play(html):
    rows = _cells(html, "Che cosa fa l'asso giocato")[1:]
    assert [r[2] for r in rows] == ["sì", "no", "no"]
    assert _ace_play(["Ac", "5d", "Kh"])["scopa"] is True
    swept = _ace_play(["5d", "Kh", "7c"])
    assert swept["scopa"] is False and len(swept["take"]) == 3
    laid = _ace_play([])
    assert laid["take"] == [] and laid["scopa"] is False
    assert _ace_play(["Ac", "5d"], last=True)["scopa"] is False  # never on the last play


def test_the_forfeit_tables_are_the_engines_penalty(html):
    given = {r[0]: int(r[2]) for r in _cells(html, "Punti dati all'avversario")[1:]}
    assert given == {"Scopa": 1, "Primiera": 1, "Sette bello": 1, "Carte": 1, "Denari": 1}
    assert E.validate_config({})["penalty_cap"] is None  # no cap: every undecided point
    denari = [c for c in italian_deck() if c.endswith("d")]
    others = [c for c in italian_deck() if not c.endswith("d")]
    decided = [*denari[:6], "7d", *others[:15]]
    piles = {
        "non è ancora deciso nulla": [[], []],
        "il sette bello è già preso": [["7d", "Kc"], ["2s"]],
        "sette bello, carte e denari già decisi": [sorted(set(decided)), []],
    }
    rows = _cells(html, "Esempi di abbandono")[1:]
    assert [r[2] for r in rows] == list(piles)
    for mine, theirs, state, penalty, result, difference in rows:
        st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(10))
        st["totals"] = [int(mine), int(theirs)]
        st["deal"]["piles"] = [list(p) for p in piles[state]]
        E.apply(st, st["seats"][0], {"type": "abbandona"}, SeededRng(11))
        report = E.outcome(st)
        assert report["forfeit"]["penalty"] == int(penalty), state
        assert report["winner"] == 1
        assert result == f"{report['points'][0]} a {report['points'][1]}"
        assert report["cash"]["differenza_effettiva"] == int(difference)
    assert len(piles["sette bello, carte e denari già decisi"][0]) >= 21


def test_the_vp_and_the_table_words(html):
    from pathlib import Path

    from django.conf import settings

    cfg = E.validate_config({})
    rows = {r[0]: int(r[1]) for r in _cells(html, "Victory Points (VP) di una partita")[1:]}
    assert rows == {
        "Vittoria": cfg["vp"]["win"],
        "Pareggio (dove previsto)": cfg["vp"]["draw"],
        "Sconfitta": cfg["vp"]["loss"],
    }
    assert f"almeno {cfg['forfeit_min_vp']} VP" in html and f"(di solito {cfg['target']})" in html
    assert f"«{ABBANDONA_SPEC['label']}»" in html and f"«{ABBANDONA_SPEC['confirm']}»" in html
    st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(12))
    labels = {s["label"] for s in E.legal_actions(st, E.to_act(st)[0])}
    assert labels <= {"Conferma presa", "Scarta", "Abbandona"} and "«Conferma presa»" in html
    js = "".join(p.read_text() for p in (Path(settings.BASE_DIR) / "static" / "js" / "table").glob("*.js"))
    for word in ("Carte in tavola", "Tallone", "Ultima giocata", "Annulla", "Un'altra partita"):
        assert f"«{word}»" in html and f'"{word}' in js, word
