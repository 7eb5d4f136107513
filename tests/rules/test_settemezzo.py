"""The Sette e mezzo rules page prints what the engine plays: values, matta, thresholds, rake, buttons."""

from __future__ import annotations

import pytest

from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def html(client):
    response = client.get("/regole/settemezzo/")
    assert response.status_code == 200
    return response.content.decode()


def _half(n: int) -> str:
    """Half points as the page writes them: 9 → "4½", 1 → "½", 14 → "7"."""
    whole, half = divmod(n, 2)
    return ("" if whole == 0 and half else str(whole)) + ("½" if half else "")


def test_the_card_values_and_the_mattas_are_the_engines(html):
    from games.settemezzo.engine import _MATTA_VALUES, half_points, points

    values = {row[0]: row[1] for row in _cells(html, "Valore delle carte")[1:]}
    assert values["Dall'asso al 7"] == "il numero della carta (l'asso 1)"
    assert [half_points(r + "c") for r in "A234567"] == [2 * n for n in range(1, 8)]
    assert values["Fante, cavallo, re"] == _half(half_points("Jc")) == _half(half_points("Kc"))
    mattas = ", ".join(_half(v) for v in sorted(_MATTA_VALUES))
    assert values["Re di denari (la matta)"] == "a scelta " + mattas.replace(", 7", " o 7")
    assert _half(points(["Kd"])) == "½"  # alone, the matta counts ½


def test_the_examples_are_what_the_engine_counts(html):
    from games.settemezzo.engine import busted, points, punta_wins

    assert _half(points(["Kd", "Qc"])) == "7½" and "con il cavallo fa 7½" in html
    assert _half(points(["Kd", "5s"])) == "7" and "il totale è 7" in html
    assert busted(["7c", "3h"]) and "fanno 10: sballato" in html
    assert not punta_wins(["Kd", "7d"], ["3h", "4s", "Jc"])  # 7½ each: the banco wins
    assert "Pari punti, vince il banco" in html


def test_the_automatic_play_thresholds_are_the_options(html):
    from games.options import GAMES
    from games.settemezzo.engine import ALLOWED_THRESHOLDS, DEFAULT_THRESHOLD

    options = {o.label: o for o in GAMES["settemezzo"].options}
    rows = _cells(html, "Opzioni di gioco automatico")[1:]
    assert [r[0] for r in rows] == [
        "Se sono di punta sto a partire da",
        "Se sono di banco e la punta è stata, sto da",
    ]
    for label, values, default in rows:
        option = options[label]
        assert values == ", ".join(text for _, text in option.choices)
        assert {key for key, _ in option.choices} == ALLOWED_THRESHOLDS
        assert default == _half(option.default) == _half(DEFAULT_THRESHOLD)


def test_the_rake_examples_are_the_engines_rake():
    from games.settemezzo.banco import rake_of

    assert rake_of(1_000, 500) == 100  # vincita € 10 at 5 %: € 1,00
    assert rake_of(2_000, 500) == 200  # saldo € 20: € 2,00
    assert rake_of(-500, 500) == 0  # a negative balance pays nothing


def _game(variant: str, mode: str = "cash", chips: int = 10_000):
    from games.registry import get
    from games.rng import SeededRng

    engine = get("settemezzo")
    seats = [{"seat": s, "chips": chips, "sitout": False, "prefs": {}} for s in (1, 2, 3)]
    config = {"mode": mode, "min_bet": 100, "variant": variant}
    return engine, engine.new(config, seats, SeededRng(4)), SeededRng(5)


def test_the_tournament_banker_penalty_is_half_the_minimum_piatto(html):
    engine, state, _ = _game("piatto", mode="tournament")
    assert state["config"]["min_bank"] == 10 * state["config"]["min_bet"]
    assert engine.banker_penalty(state) == state["config"]["min_bank"] // 2
    assert "metà del piatto minimo" in html and "metà della puntata minima" in html
    assert engine.max_seats == 8 and "da 2 a 8" in html


def test_the_buttons_named_are_the_labels_of_the_engines_decisions(html):
    labels: set[str] = set()
    for variant, chips in (("piatto", 10_000), ("classica", 10_000), ("classica", 150)):
        engine, state, rng = _game(variant, chips=chips)
        for _ in range(30):
            if state["phase"] == "over":
                break
            (seat,) = engine.to_act(state)
            specs = engine.legal_actions(state, seat)
            labels |= {s["label"] for s in specs}
            play = next(s for s in specs if s["type"] not in ("sitout", "rifiuto"))
            action = {"type": play["type"], **({"amount": play["amount"]["min"]} if "amount" in play else {})}
            engine.apply(state, seat, action, rng)
    assert labels == {"ACCETTO", "ACCETTO (ALL IN)", "RIFIUTO", "STO", "TIRO", "SITOUT"}
    for label in labels - {"SITOUT"}:
        assert f"«{label}»" in html, label
    assert "«SITOUT (salta la mano)»" in html  # the table's wording of the engine's SITOUT
