"""The Telesina page (/regole/telesina/) says what the engine does: its deck, its hand order, its
vele layouts, its deal, who speaks first, its automatic decisions and the buttons its table shows."""

from __future__ import annotations

import re

import pytest

from games import evaluator
from games.cards import poker_deck, poker_lowest_rank
from games.rng import SeededRng
from games.telesina import Telesina
from games.telesina.engine import DISTRIBUZIONE_LABELS, DISTRIBUZIONI
from games.telesina.hand import best_hand, partial_key
from games.telesina.vele import LAYOUTS
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

ENGINE = Telesina()
_SUIT = {"♥": "h", "♦": "d", "♣": "c", "♠": "s"}


@pytest.fixture
def page(client) -> str:
    response = client.get("/regole/telesina/")
    assert response.status_code == 200
    return response.content.decode()


def _codes(text: str) -> list[str]:
    """ "K♣ Q♥ 10♠" -> ["Kc", "Qh", "Ts"]."""
    return [("T" if c[:-1] == "10" else c[:-1]) + _SUIT[c[-1]] for c in text.split()]


def _h(text: str) -> list[str]:
    """ "Kh Qh" -> ["Kh", "Qh"]."""
    return text.split()


def _hand(n: int, seed: int = 3, prefs: dict | None = None, **cfg) -> dict:
    """A new hand of ``n`` seats (1..n), seat ``n`` dealing, automatic invito."""
    seats = [
        {"seat": s, "chips": 100_000, "prefs": {"invito_automatico": True, **(prefs or {})}}
        for s in range(1, n + 1)
    ]
    return ENGINE.new({"invito": 100, **cfg}, seats, SeededRng(seed), {"dealer": n - 1})


def test_the_deck_table_is_the_engines_deck(page):
    for players, lowest, size in _cells(page, "Il mazzo secondo i giocatori in mano")[1:]:
        assert poker_lowest_rank(int(players)) == lowest
        assert len(poker_deck(int(players))) == int(size)


def test_the_hand_table_is_the_evaluators_order(page):
    rows = _cells(page, "I punti, dal più alto al più basso")[1:]
    assert [r[0].lower() for r in rows] == list(reversed(evaluator.CATEGORY_NAMES))
    values = [evaluator.evaluate(_codes(example), "7") for _name, example in rows]
    assert [evaluator.category_name(v) for v in values] == [r[0].lower() for r in rows]


def test_the_vele_table_is_the_engines_layouts(page):
    rows = _cells(page, "Gli schemi delle vele")[1:]
    by_label = {layout.label: layout for layout in LAYOUTS.values()}
    assert [r[0] for r in rows] == [layout.label for layout in LAYOUTS.values()]
    for label, picture, turns, combos in rows:
        layout = by_label[label]
        if not layout.positions:
            assert picture == turns == combos == "—"
            continue
        grid = [line.split() for line in picture.splitlines()]
        positions = {x: (r, c) for r, line in enumerate(grid) for c, x in enumerate(line) if x != "·"}
        assert positions == layout.positions, label
        assert [tuple(t.split(" e ")) for t in turns.split("; ")] == [tuple(t) for t in layout.turns], label
        assert {frozenset(c.split("-")) for c in combos.split(", ")} == {
            frozenset(c) for c in layout.combinations
        }, label


def test_the_croce_example_is_the_engines_best_hand(page):
    assert 'data-cards="Qs Js Ts 8c 7d"' in page and 'data-cards="Ks 7c 8h 9s Ad"' in page
    vele = dict(zip("AEBCD", _h("Ks 7c 8h 9s Ad"), strict=True))
    value, cards, letters = best_hand(_h("Qs Js Ts 8c 7d"), LAYOUTS["croce"], vele, "ABCDE", "7")
    assert evaluator.describe(value) == "Scala media al Q"
    assert sorted(cards) == sorted(_h("8c 9s Ts Js Qs")) and letters == ["C"]
    # the scala reale K♠ Q♠ J♠ 10♠ 9♠ would need vele A and C, of two combinations
    assert not any({"A", "C"} <= set(c) for c in LAYOUTS["croce"].combinations)


def test_the_speaking_example_is_the_engines_order(page):
    assert 'data-cards="Kd Ks 9h"' in page and 'data-cards="Ah Qc Td"' in page
    assert partial_key(_h("Kd Ks 9h")) > partial_key(_h("Ah Qc Td"))
    # with fewer than five cards a four-card flush or straight counts for nothing
    assert partial_key(_h("9h Th Jh Qh")) < partial_key(_h("7c 7d 8s 9c"))


def test_the_distribution_table_is_the_engines(page):
    rows = _cells(page, "Distribuzione carta coperta")[1:]
    assert [r[0] for r in rows] == [DISTRIBUZIONE_LABELS[d] for d in DISTRIBUZIONI]


def test_the_deal_table_is_the_engines_classic_deal(page):
    rows = _cells(page, "I giri di carte")[1:]
    st = _hand(3, vele="nessuna", distribuzione="mai")
    for giro, _given, held in rows:
        assert st["street"] == int(giro)
        for s in st["players"]:
            assert len(st["cards"][str(s)]) == int(held) and len(st["covered"][str(s)]) == 1
        for _ in range(len(st["players"])):
            ENGINE.apply(st, st["turn"], {"type": "busso"}, SeededRng(1))
    assert st["phase"] == "mostra"  # no vele: after the fourth round, the showdown


def test_the_automatic_decisions_are_the_engines_timeouts(page):
    rows = dict(_cells(page, "Decisioni automatiche")[1:])
    st = _hand(3)  # vele and distribution Libera: the dealer's panel
    assert st["phase"] == "scelta"
    assert ENGINE.timeout_action(st, st["turn"]) == {
        "type": "scelta",
        "vele": "nessuna",
        "distribuzione": "mai",
    }
    assert rows["Scelta della variante (mazziere)"].endswith("altrimenti Nessuna vela e Mai")
    st = _hand(3, prefs={"vele_preferite": "croce", "distribuzione_preferita": "sempre"})
    assert ENGINE.timeout_action(st, st["turn"]) == {
        "type": "scelta",
        "vele": "croce",
        "distribuzione": "sempre",
    }
    st = _hand(3, vele="nessuna", distribuzione="primo_giro")
    assert st["phase"] == "scopri"
    seat = ENGINE.to_act(st)[0]
    newest = st["cards"][str(seat)][-1]
    assert ENGINE.timeout_action(st, seat) == {"type": "scopro", "card": newest}
    assert rows["Carta da scoprire"] == "si scopre l'ultima carta arrivata"


def _labels_of_random_hands() -> set[str]:
    """Every button label the engine offered in many random hands of cash tables, 2 to 6 players."""
    labels: set[str] = set()
    rng = SeededRng(13)
    for hand in range(150):
        n = 2 + hand % 5
        seats = [
            {"seat": s, "chips": 300 + 700 * (s % 3), "prefs": {"invito_automatico": hand % 2 == 0}}
            for s in range(1, n + 1)
        ]
        cfg = {"invito": 100, "limit": ("NL", "PL", "FL")[hand % 3]}
        st = ENGINE.new(cfg, seats, rng, {"dealer": 1})
        while not ENGINE.is_over(st):
            seat = ENGINE.to_act(st)[0]
            labels |= {s["label"] for s in ENGINE.legal_actions(st, seat)}
            ENGINE.apply(st, seat, ENGINE.sample_action(st, seat, rng), rng)
    return labels


def test_the_buttons_the_page_names_are_the_buttons_the_engine_offers(page):
    named: set[str] = set()
    for _phase, buttons in _cells(page, "I pulsanti del tavolo")[1:]:
        named |= set(re.findall(r"[A-Z]{2,}(?: [A-Z]{2,})*", buttons))
    offered = _labels_of_random_hands()
    assert named - offered == set()
    assert offered <= named


def test_the_cash_stand_up_rule_is_the_lobbys(page):
    from lobby.actions.seating import STAND_UP_RULES

    assert "Chi salta 10 mani di fila in sitout, o resta in sitout 10 minuti" in page
    assert STAND_UP_RULES["telesina"] == (10, 10 * 60)


def test_an_all_in_against_one_opponent_deals_the_rest_without_betting(page):
    assert "non si punta più: si danno tutte le carte e si girano tutte le vele senza altri giri" in page
    seats = [
        {"seat": 1, "chips": 300, "prefs": {"invito_automatico": True}},
        {"seat": 2, "chips": 100_000, "prefs": {"invito_automatico": True}},
    ]
    rng = SeededRng(4)
    st = ENGINE.new({"invito": 100, "vele": "due", "distribuzione": "mai"}, seats, rng, {"dealer": 1})
    assert st["street"] == 1 and st["phase"] == "puntata"
    first = st["turn"]
    other = 2 if first == 1 else 1
    ENGINE.apply(st, first, {"type": "punto", "amount": 200}, rng)  # seat 1 has 200 left: all-in
    ENGINE.apply(st, other, {"type": "vedo", "amount": 200}, rng)
    assert st["dealout"] and st["phase"] in ("mostra", "fine")  # the showdown, no betting round
    assert all(len(st["cards"][str(s)]) == 5 for s in (1, 2))
    assert sorted(st["revealed"]) == ["A", "B"]


@pytest.mark.parametrize("slug", ["poker5", "telesina", "bestia", "chemin"])
def test_the_page_needs_no_inline_style(client, slug):
    """The site's CSP (style-src 'self') blocks style attributes: the pages use rules.css only."""
    html = client.get(f"/regole/{slug}/").content.decode()
    article = html[html.index('data-testid="rules-page"') : html.index('class="rules-nav"')]
    assert " style=" not in article
