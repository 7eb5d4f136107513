"""The Mazzetti rules page prints what the engine plays: card values, sizes, penalties, buttons."""

from __future__ import annotations

import pytest

from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def html(client):
    response = client.get("/regole/mazzetti/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_card_values_are_the_engines(html):
    from games.mazzetti.engine import card_value

    named = {
        "Re": "K",
        "Cavallo (donna nelle francesi)": "Q",
        "Fante": "J",
        **{r: r for r in "765432"},
        "Asso": "A",
    }
    rows = _cells(html, "Valore delle carte")[1:]
    assert [r[0] for r in rows] == list(named)
    for label, value in rows:
        assert value == str(card_value(named[label] + "c")), label
    assert [r[1] for r in rows] == sorted((r[1] for r in rows), key=int, reverse=True)


def test_the_examples_are_what_the_engine_decides(html):
    from games.mazzetti.engine import punta_wins

    assert punta_wins("Jc", "7h") and "vince la punta" in html
    assert not punta_wins("5s", "5d") and "a parità vince il mattaro" in html


def test_the_sizes_and_the_split_are_the_engines(html):
    from games.mazzetti.engine import MIN_SIZE, Mazzetti, equal_sizes

    assert f"<strong>almeno {MIN_SIZE} carte</strong>" in html
    assert f"restarne almeno {MIN_SIZE}" in html
    assert Mazzetti.max_seats * MIN_SIZE == 40 and f"da 2 a {Mazzetti.max_seats}" in html
    assert equal_sizes(26, 3) == [9, 9, 8]  # the extra cards to the first mazzetti
    assert "le carte in più vanno ai primi" in html


def _game(mode: str = "cash", chips: int = 10_000):
    from games.registry import get
    from games.rng import SeededRng

    engine = get("mazzetti")
    seats = [{"seat": s, "chips": chips, "sitout": False, "prefs": {}} for s in (1, 2, 3, 4)]
    return engine, engine.new({"mode": mode, "min_bet": 100}, seats, SeededRng(7)), SeededRng(8)


def test_the_all_in_example_and_the_tournament_penalty_are_the_engines(html):
    from games.settemezzo.banco import punta_caps

    caps = punta_caps(250, [2, 3, 4], 100, None)
    assert caps == {"2": 100, "3": 100, "4": 50}
    assert "€ 2,50 di credito" in html and "la terza € 0,50" in html
    engine, state, _ = _game(mode="tournament")
    assert engine.banker_penalty(state) == 2 * state["config"]["min_bet"]
    assert "<strong>due volte la puntata minima</strong>" in html


def test_the_buttons_named_are_the_labels_of_the_engines_decisions(html):
    labels: set[str] = set()
    for chips in (10_000, 250):
        engine, state, rng = _game(chips=chips)
        for _ in range(30):
            if state["phase"] == "over":
                break
            (seat,) = engine.to_act(state)
            specs = engine.legal_actions(state, seat)
            labels |= {s["label"] for s in specs}
            play = next(s for s in specs if s["type"] not in ("sitout", "rifiuto"))
            action = {k: v for k, v in play.items() if k not in ("label", "amount")}
            if "amount" in play:
                action["amount"] = play["amount"]["min"]
            engine.apply(state, seat, action, rng)
        assert state["phase"] == "over"
    assert labels == {"ACCETTO", "ACCETTO (ALL IN)", "RIFIUTO", "MAZZETTO", "PUNTO", "SITOUT"}
    for label in labels - {"SITOUT"}:
        assert f"«{label}»" in html, label
    assert "«SITOUT (salta la mano)»" in html and "«Mazzetto 1»" in html
