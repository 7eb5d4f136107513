"""The Tresette rules page tells what the Tresette engine does: its tables and examples are the
engine's order, thirds, accusi, declarations, penalty, options and cash arithmetic (rules 004;
RULINGS I5, I7, C1)."""

from __future__ import annotations

import re

import pytest

from games import options
from games.cards import italian_deck, suit
from games.partite import ABBANDONA_SPEC, cash_settlement
from games.registry import get
from games.rng import SeededRng
from games.tresette.deal import (
    COMBO_POINTS,
    HONOURS,
    THIRDS,
    TOTAL_POINTS,
    combo_points,
    combos,
    declaration_text,
    thirds,
)
from games.tricks import TRESETTE_ORDER, TRESETTE_RULES, legal_cards, trick_winner
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

E = get("tresette")
NAMES = {
    "Tre": "3",
    "Due": "2",
    "Asso": "A",
    "Re": "K",
    "Cavallo (donna nelle francesi)": "Q",
    "Fante": "J",
    "7": "7",
    "6": "6",
    "5": "5",
    "4": "4",
}
LOWER = {"Asso": "A", "Tre": "3", "due": "2", "re": "K", "cavallo": "Q", "fante": "J"}


@pytest.fixture
def html(client) -> str:
    response = client.get("/regole/tresette/")
    assert response.status_code == 200
    return response.content.decode()


def _table(html: str, caption: str) -> str:
    found = re.search(rf"<caption>{re.escape(caption)}</caption>(.*?)</table>", html, re.S)
    assert found, caption
    return found.group(1)


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


def test_the_order_of_taking_is_the_engines(html):
    rows = _cells(html, "Ordine di presa, dalla carta più forte")[1:]
    assert [int(r[0]) for r in rows] == list(range(1, 11))
    assert "".join(NAMES[r[1]] for r in rows) == TRESETTE_ORDER[::-1]
    assert TRESETTE_RULES.follow_suit


def test_the_card_points_are_the_engines_thirds_and_make_11(html):
    rows = {r[0]: r[1] for r in _cells(html, "Punti delle carte")[1:]}
    value = {"1": 3, "1/3": 1, "0": 0}  # in thirds
    for label, points in rows.items():
        if label == "Ultima presa della smazzata":
            assert points == "1"
            continue
        for part in label.split(", "):
            r = LOWER.get(part, part)
            assert THIRDS.get(r, 0) == value[points], part
    named = {LOWER.get(p, p) for label in rows for p in label.split(", ")} - {"Ultima presa della smazzata"}
    assert named == set("A32KQJ7654")
    assert thirds(italian_deck()) == 32 and 32 // 3 + 1 == TOTAL_POINTS == 11
    assert "arriva a <strong>11</strong>" in html


def test_the_card_examples_are_what_the_engine_takes_and_counts(html):
    (trick, trick_caption), (counted, counted_caption), (accusi, accusi_caption) = _examples(html)
    plays = [[seat, card] for seat, card in enumerate(trick)]
    assert trick_winner(TRESETTE_RULES, plays, None) == 3 and "Prende il due" in trick_caption
    # the 4 of spade may be played only by who has no coppe
    assert legal_cards(TRESETTE_RULES, ["4s", "Kc"], plays[:2], None) == ["4s", "Kc"]
    assert legal_cards(TRESETTE_RULES, ["4s", "5h"], plays[:2], None) == ["5h"]
    assert thirds(counted) == 11 and thirds(counted) // 3 == 3 and "che contano 3" in counted_caption
    found = combos(accusi)
    assert sorted(found) == ["napoletana:d", "tre:2"]
    assert sum(combo_points(c) for c in found) == 6 and "6 punti" in accusi_caption


def test_the_accusi_table_is_the_engines(html):
    rows = {r[0]: int(r[1]) for r in _cells(html, "Punti degli accusi")[1:]}
    assert rows == {
        "Napoletana: tre, due e asso dello stesso seme": COMBO_POINTS["napoletana"],
        "Tre tre, tre due o tre assi": COMBO_POINTS["tre"],
        "Quattro tre, quattro due o quattro assi": COMBO_POINTS["quattro"],
    }
    assert combos(["3d", "2d", "Ad"]) == ["napoletana:d"]
    assert combos(["3d", "3c", "3h", "3s"]) == ["quattro:3"]


def test_the_declaration_examples_are_the_engines_words(html):
    rows = re.findall(
        r'<tr><td><span[^>]*data-cards="([^"]+)".*?</td><td>(.*?)</td></tr>',
        _table(html, "Esempi di dichiarazione"),
    )
    assert len(rows) == 5
    for codes, words in rows:
        held = codes.split()
        s = suit(held[0])
        assert all(suit(c) == s for c in held)
        honours = [r for r in HONOURS if r + s in held]
        assert declaration_text(True, False, False, honours, len(held)) == words.replace("&#x27;", "'"), codes
    assert "«" + declaration_text(True, False, True, ["3", "2"], 5) + "»" in html


def test_the_abandon_examples_are_the_engines_forfeit(html):
    rows = _cells(html, "Esempi di abbandono")[1:]
    assert f"fino a un massimo di <strong>{E.defaults['penalty_cap']}</strong>" in html
    taken = {
        0: [],
        1: ["Kc", "Kh", "Ks"],
        3: ["Ad", "Ac", "Ah"],
        4: ["As", "3d", "3c", "3h", "3s", "2d", "2c", "2h", "2s", "Kd"],
        7: ["Ad", "Ac", "Ah", "As", "3d", "3c", "3h", "3s", "2d", "2c", "2h", "2s", "Kd"],
    }
    for mine, theirs, out, given, result, difference in rows:
        mine, theirs = int(mine), int(theirs)
        st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(5))
        st["deal"]["taken"] = {"0": list(taken[mine]), "1": list(taken[theirs])}
        assert thirds(taken[mine]) // 3 == mine and thirds(taken[theirs]) // 3 == theirs
        E.apply(st, st["seats"][0], {"type": "tempo_scaduto"}, SeededRng(6))
        report = E.outcome(st)
        assert report["forfeit"]["penalty"] == int(given)
        assert TOTAL_POINTS - mine - theirs == int(out)
        assert report["winner"] == 1
        assert result == f"{report['points'][0]} a {report['points'][1]}"
        assert report["cash"]["differenza_effettiva"] == int(difference)


def test_the_vp_and_the_match_defaults_are_the_engines(html):
    cfg = E.validate_config({})
    rows = {r[0]: int(r[1]) for r in _cells(html, "Victory Points (VP) di una partita")[1:]}
    assert rows == {
        "Vittoria": cfg["vp"]["win"],
        "Pareggio (dove previsto)": cfg["vp"]["draw"],
        "Sconfitta": cfg["vp"]["loss"],
    }
    assert f"almeno {cfg['forfeit_min_vp']} VP" in html
    assert cfg["mode"] == "punti" and f"(di solito {cfg['target']})" in html
    # a smazzate, KO: the last trick of the last smazzata wins; a perdere: fewer points, same tie rule
    smazzate = E.validate_config({"mode": "smazzate", "deals": 3, "ko": True})
    assert smazzate["decider"] == "wins" and smazzate["spareggi"] == 0
    perdere = E.validate_config({"a_perdere": True})
    assert perdere["lower_wins"] and perdere["decider"] == "wins" and perdere["decider_always"]


def test_the_automatic_options_are_the_players_options(html):
    rows = _cells(html, "Opzioni di gioco automatico")[1:]
    declared = {o.label: o.default for o in options.GAMES["tresette"].options if o.kind == "bool"}
    assert {r[0]: r[1] for r in rows} == {
        label: "attiva" if on else "disattiva" for label, on in declared.items()
    }


def test_the_cash_example_is_the_engines_settlement(html):
    rows = {r[0]: _euro(r[1]) for r in _cells(html, "Esempio di pagamento")[1:]}
    assert E.validate_config({})["cash_divisor"] == 1
    cash = {"winner": 0, "cappotto": False, "cappotti": [1, 0], "differenza_punti": 21 - 15}
    pay = cash_settlement(
        {"cash": cash},
        posta_partita=rows["Posta partita"],
        posta_unitaria=rows["Posta unitaria (punto)"],
        perdita_massima=rows["Perdita massima"],
        rake_bp=500,
    )
    assert pay["amount"] == rows["Paga chi perde: 1,00 + 6 × 0,20 + 1,00"]
    assert pay["rake"] == rows["Rake al 5 %: 3,20 × 2 × 5 %"]
    assert pay["won"] == rows["Riceve chi vince"]


def test_the_table_words_are_the_engines_and_the_clients(html):
    from pathlib import Path

    from django.conf import settings

    import games.tresette.deal as deal

    assert f"«{ABBANDONA_SPEC['label']}»" in html and f"«{ABBANDONA_SPEC['confirm']}»" in html
    source = Path(deal.__file__).read_text()
    for label in ("Accuso", "Dichiarazione", "Annulla", "Chiamo fuori"):
        assert f'"label": "{label}"' in source and f"«{label}»" in html, label
    js = "".join(p.read_text() for p in (Path(settings.BASE_DIR) / "static" / "js" / "table").glob("*.js"))
    for word in (
        "Tallone",
        "Presa in corso",
        "Ultima presa",
        "Compagno",
        "Questa carta non si può giocare ora",
    ):
        assert f"«{word}»" in html and f'"{word}' in js, word
