"""The Briscola rules page tells what the Briscola engine does: its tables and examples are the
engine's order, card points, penalty, VP and cash arithmetic (rules 004; RULINGS I6, C1)."""

from __future__ import annotations

import re

import pytest

from games.briscola.deal import CARD_POINTS, TOTAL_POINTS, WINNING_POINTS, card_points
from games.cards import italian_deck
from games.partite import cash_settlement, round_half_down
from games.registry import get
from games.rng import SeededRng
from games.tricks import BRISCOLA_ORDER, BRISCOLA_RULES, trick_winner
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

E = get("briscola")
NAMES = {
    "Asso": "A",
    "Tre": "3",
    "Re": "K",
    "Cavallo (donna nelle francesi)": "Q",
    "Fante": "J",
    "7": "7",
    "6": "6",
    "5": "5",
    "4": "4",
    "2": "2",
}


@pytest.fixture
def html(client) -> str:
    response = client.get("/regole/briscola/")
    assert response.status_code == 200
    return response.content.decode()


def _examples(html: str) -> list[tuple[list[str], str]]:
    """Each card example of the page: its cards and its caption."""
    found = re.findall(
        r'<figure class="rules-example">\s*<span[^>]*data-cards="([^"]+)".*?<figcaption>(.*?)</figcaption>',
        html,
        re.S,
    )
    return [(codes.split(), caption) for codes, caption in found]


def _euro(text: str) -> int:
    """ "€ 5,50" in cents."""
    euros, cents = re.fullmatch(r"€ (\d+),(\d\d)", text).groups()
    return int(euros) * 100 + int(cents)


def test_the_order_of_taking_is_the_engines(html):
    rows = _cells(html, "Ordine di presa, dalla carta più forte")[1:]
    assert [int(r[0]) for r in rows] == list(range(1, 11))
    assert "".join(NAMES[r[1]] for r in rows) == BRISCOLA_ORDER[::-1]


def test_the_card_points_are_the_engines_and_add_up_to_120(html):
    rows = _cells(html, "Punti delle carte")[1:]
    points = {}
    for name, _kind, value in rows:
        for part in name.split(", "):
            points[NAMES[part]] = int(value)
    assert set(points) == set(NAMES.values())
    assert points == {r: CARD_POINTS.get(r, 0) for r in points}
    assert card_points(italian_deck()) == TOTAL_POINTS == 120
    assert WINNING_POINTS == 61
    assert f"ne bastano {WINNING_POINTS} per vincere" in html


def test_the_card_examples_are_what_the_engine_counts_and_takes(html):
    examples = _examples(html)
    counted, briscola, *tricks = examples
    assert card_points(counted[0]) == 28 and "= 28 punti" in counted[1]
    assert briscola[0] == ["5c"] and "la briscola è bastoni" in briscola[1]
    trump = "c"
    # who takes, by the position of the card in the example (the leader first)
    expected = {
        "3h Ah": (1, "prende l'asso"),
        "Ah 2c": (1, "prende il due"),
        "Kh As": (0, "prende il re"),
        "7s 3s Jc Kc": (3, "Prende il re di bastoni"),
    }
    assert [" ".join(cards) for cards, _ in tricks] == list(expected)
    for cards, caption in tricks:
        plays = [[seat, card] for seat, card in enumerate(cards)]
        taker, words = expected[" ".join(cards)]
        assert trick_winner(BRISCOLA_RULES, plays, trump) == taker, cards
        assert words in caption, caption
    assert not BRISCOLA_RULES.follow_suit  # "non si è mai obbligati a rispondere al seme"
    assert card_points(["3h", "Ah"]) == 21 and "fa 21 punti" in tricks[0][1]


def test_the_abandon_examples_are_the_engines_forfeit(html):
    rows = _cells(html, "Esempi di abbandono")[1:]
    assert f"fino a un massimo di <strong>{E.defaults['penalty_cap']}</strong>" in html
    # cards worth each side's points in the smazzata in progress
    taken = {
        48: ["Ad", "3d", "Ac", "3c", "Kd", "Jd"],
        35: ["As", "3s", "Kc", "Kh", "Qd", "Qc"],
        70: ["Ad", "3d", "Ac", "3c", "Ah", "3h", "Kd", "Qd"],
        20: ["3s", "Kc", "Kh", "Jc"],
    }
    for mine, theirs, out, given, result, difference in rows:
        mine, theirs = int(mine), int(theirs)
        st = E.new({"format": "testa_a_testa"}, [{"seat": 1}, {"seat": 2}], SeededRng(3))
        offender_line = 0
        st["deal"]["taken"] = {"0": list(taken[mine]), "1": list(taken[theirs])}
        assert card_points(taken[mine]) == mine and card_points(taken[theirs]) == theirs
        E.apply(st, st["seats"][offender_line], {"type": "abbandona"}, SeededRng(4))
        report = E.outcome(st)
        assert TOTAL_POINTS - mine - theirs == int(out)
        assert report["forfeit"]["penalty"] == int(given)
        assert report["winner"] == 1 - offender_line
        assert result == f"{report['points'][0]} a {report['points'][1]}"
        assert report["cash"]["differenza_effettiva"] == int(difference)
        assert report["vp"] == [0, 20]  # the win's VP, above the minimum 14


def test_the_vp_table_is_the_engines(html):
    cfg = E.validate_config({})
    rows = {r[0]: int(r[1]) for r in _cells(html, "Victory Points (VP) di una partita")[1:]}
    assert rows == {
        "Vittoria": cfg["vp"]["win"],
        "Pareggio (dove previsto)": cfg["vp"]["draw"],
        "Sconfitta": cfg["vp"]["loss"],
    }
    assert f"almeno {cfg['forfeit_min_vp']} VP" in html


def test_the_cash_tables_are_the_engines_arithmetic(html):
    divisor = E.defaults["cash_divisor"]
    assert divisor == 10
    for real, divided, difference in _cells(html, "Differenza punti ai tavoli cash")[1:]:
        assert divided == f"{int(real) / divisor:.1f}".replace(".", ",")
        assert round_half_down(int(real), divisor) == int(difference), real
    rows = {r[0]: _euro(r[1]) for r in _cells(html, "Esempio di pagamento")[1:]}
    difference = round_half_down(93 - 27, divisor)
    cash = {"winner": 0, "cappotto": False, "cappotti": [0, 0], "differenza_punti": difference}
    pay = cash_settlement(
        {"cash": cash},
        posta_partita=rows["Posta partita"],
        posta_unitaria=rows["Posta unitaria (punto)"],
        perdita_massima=rows["Perdita massima"],
        rake_bp=500,
    )
    assert pay["amount"] == rows["Paga chi perde: 2,00 + 7 × 0,50"]
    assert pay["rake"] == rows["Rake al 5 %: 5,50 × 2 × 5 %"]
    assert pay["won"] == rows["Riceve chi vince"]


def test_the_table_words_are_the_engines_and_the_clients(html):
    from pathlib import Path

    from django.conf import settings

    from games.partite import ABBANDONA_SPEC

    assert f"«{ABBANDONA_SPEC['label']}»" in html and f"«{ABBANDONA_SPEC['confirm']}»" in html
    js = "".join(p.read_text() for p in (Path(settings.BASE_DIR) / "static" / "js" / "table").glob("*.js"))
    for word in ("Briscola", "Tallone", "Presa in corso", "Ultima presa", "Compagno", "Un'altra partita"):
        assert f"«{word}»" in html and f'"{word}' in js, word
    assert "«Sono pronto per iniziare»" in html and '"Sono pronto per iniziare (' in js
