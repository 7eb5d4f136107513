"""The Poker 5 carte page (/regole/poker5/) says what the engine does: its deck, its hand order,
its opening minimum, its blind amounts, its limits, its rake and the buttons its table shows."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from games import betting, evaluator
from games.cards import poker_deck, poker_lowest_rank
from games.poker5 import Poker5
from games.poker5.engine import MIN_PAIRS
from games.rng import SeededRng
from tests.rules.test_pages import _cells

pytestmark = pytest.mark.django_db

ENGINE = Poker5()
_SUIT = {"♥": "h", "♦": "d", "♣": "c", "♠": "s"}


@pytest.fixture
def page(client) -> str:
    response = client.get("/regole/poker5/")
    assert response.status_code == 200
    return response.content.decode()


def _codes(text: str) -> list[str]:
    """ "K♣ Q♥ 10♠" -> ["Kc", "Qh", "Ts"]."""
    return [("T" if c[:-1] == "10" else c[:-1]) + _SUIT[c[-1]] for c in text.split()]


def _h(text: str) -> list[str]:
    """ "Kh Qh" -> ["Kh", "Qh"]."""
    return text.split()


def _examples(page: str) -> list[list[str]]:
    """The card rows the page draws, in order, each a list of card codes."""
    return [row.split() for row in re.findall(r'data-cards="([^"]+)"', page)]


def _hand(cfg: dict, n: int, seed: int = 3, **seat_extra) -> dict:
    """A new hand of ``n`` seats (1..n), seat ``n`` dealing, 1000 chips each, automatic invito."""
    seats = [
        {"seat": s, "chips": 100_000, "prefs": {"invito_automatico": True, **seat_extra}}
        for s in range(1, n + 1)
    ]
    return ENGINE.new({"invito": 100, **cfg}, seats, SeededRng(seed), {"dealer": n - 1})


def test_the_deck_table_is_the_engines_deck_for_each_number_of_players(page):
    rows = _cells(page, "Il mazzo secondo i giocatori in mano")[1:]
    assert [int(r[0]) for r in rows] == [2, 3, 4, 5, 6]
    for players, lowest, size in rows:
        assert poker_lowest_rank(int(players)) == ("T" if lowest == "10" else lowest)
        assert len(poker_deck(int(players))) == int(size)


def test_the_suit_table_is_the_engines_suit_order(page):
    rows = _cells(page, "Ordine dei semi")[1:]
    assert [r[1][-1] for r in rows] == ["♥", "♦", "♣", "♠"]
    # one card apart only by suit: the higher suit wins (carta alta, RULINGS P2)
    hands = [f"A{s} Ks Qd Jc 8h" for s in "hdcs"]
    values = [evaluator.evaluate(h.split(), "7") for h in hands]
    assert values == sorted(values, reverse=True)


def test_the_hand_table_is_the_evaluators_order_and_its_examples_are_its_hands(page):
    rows = _cells(page, "I punti, dal più alto al più basso")[1:]
    assert [r[0].lower() for r in rows] == list(reversed(evaluator.CATEGORY_NAMES))
    ties = _cells(page, "A parità di punto")[1:]
    assert [r[0] for r in ties] == [r[0] for r in rows]
    values = []
    for name, _what, example in rows:
        value = evaluator.evaluate(_codes(example), "7")  # "Gli esempi usano il mazzo di 4 giocatori"
        assert evaluator.category_name(value) == name.lower(), example
        values.append(value)
    assert values == sorted(values, reverse=True)
    assert "Gli esempi usano il mazzo di 4 giocatori, dal 7 all'asso." in html_lib.unescape(page)


def test_the_card_examples_say_what_the_evaluator_decides(page):
    rows = _examples(page)

    def value(cards: list[str]) -> int:
        return evaluator.evaluate(cards, "7")

    def follows(first: str, second: str) -> bool:
        """Whether the page shows these two rows one after the other."""
        return [first.split(), second.split()] in [rows[i : i + 2] for i in range(len(rows) - 1)]

    # colore di cuori beats colore di picche with the ace; colore beats full
    assert follows("Kh Qh Th 9h 8h", "As Ks Js 9s 8s")
    assert evaluator.beats(value(_h("Kh Qh Th 9h 8h")), value(_h("As Ks Js 9s 8s")))
    assert follows("Ad Kd Jd 9d 8d", "Jh Jd Jc 8s 8c")
    assert evaluator.beats(value(_h("Ad Kd Jd 9d 8d")), value(_h("Jh Jd Jc 8s 8c")))
    # the same pair and kickers: the king of clubs beats the king of spades
    assert follows("Kc Jh Ts Th 7d", "Ks Jd Tc Td 7h")
    assert evaluator.beats(value(_h("Kc Jh Ts Th 7d")), value(_h("Ks Jd Tc Td 7h")))
    # minima and massima with 4 players; the minima is below the lowest media
    minima, massima = _h("Td 9d 8s 7c Ah"), _h("As Kd Qc Jh Td")
    assert minima in rows and massima in rows
    assert evaluator.straight_kind(value(minima)) == "minima"
    assert evaluator.straight_kind(value(massima)) == "massima"
    assert value(minima) < value(_h("Jc Td 9s 8h 7h")) < value(massima)
    # RULINGS P4: the scala reale minima di picche beats the massima di cuori, not with a media
    sf_min, sf_max, sf_media = _h("Ts 9s 8s 7s As"), _h("Ah Kh Qh Jh Th"), _h("Kd Qd Jd Td 9d")
    assert follows(" ".join(sf_min), " ".join(sf_max))
    assert evaluator.pot_winners([value(sf_min), value(sf_max)]) == [0]
    assert evaluator.pot_winners([value(sf_min), value(sf_max), value(sf_media)]) == [1]
    # the progetti bilaterali open at K with no pair
    for progetto in (_h("9s Ts Js Qs 7h"), _h("Ac 7c 8c 9c Kd")):
        assert progetto in rows
        assert evaluator.category(value(progetto)) == evaluator.CARTA_ALTA
        assert evaluator.opening_ok(progetto, "K", "7")


def test_the_opening_table_is_the_engines_escalation(page):
    rows = _cells(page, "Apertura minima")[1:]
    assert tuple(r[1] for r in rows) == MIN_PAIRS


def test_the_blind_table_is_what_the_engine_asks_for(page):
    rows = _cells(page, "Le puntate al buio")[1:]
    st = _hand({}, 4)  # 4 players, invito € 1: a pot of € 4
    for label, _who, _amount, example in rows:
        (spec,) = [s for s in ENGINE.legal_actions(st, st["turn"]) if s["type"] == "buio"]
        assert spec["label"] == label
        assert example == f"€ {spec['amount']['min'] // 100}"
        ENGINE.apply(st, st["turn"], {"type": "buio", "amount": spec["amount"]["min"]}, SeededRng(1))
    assert st["phase"] == "apertura"  # three blind raises at most


def test_the_pot_limit_example_is_the_engines_maximum(page):
    assert "Chi parla dopo può mettere al massimo 160: 100 + 20 + 20" in page
    b = betting.new_betting([1, 2, 3], {1: 1000, 2: 1000, 3: 1000}, dead=100)
    betting.act(b, 1, "bet", 20)
    betting.act(b, 2, "call")
    _check, _call, kind, _lo, hi = betting.ranges(b, 3, betting.PL, 10, 10)
    assert (kind, hi) == ("raise", 160)


def test_the_rake_example_is_the_engines_rake(page):
    assert "il piatto è di € 30 e il rake sarebbe € 1,50. Con un cap di € 1 se ne trattiene € 1" in page
    assert betting.rake_per_pot([3000], 500, None) == [150]
    assert betting.rake_per_pot([3000], 500, 100) == [100]


def test_the_parol_example_is_what_the_engine_does(page):
    text = html_lib.unescape(page)
    assert "il piatto di € 7 resta in tavola. C può rientrare pagando € 2" in text
    assert "la mano di parol parte da un piatto di € 9 e chi apre deve puntare almeno € 9" in text
    rng = SeededRng(5)
    st = _hand({}, 3)
    if st["phase"] == "buio":
        ENGINE.apply(st, st["turn"], {"type": "dai_carte"}, rng)
    st["hands"] = {"1": _h("Kh Kd 8c 9s Qh"), "2": _h("Jh Td 8d 9h Ks"), "3": _h("Ah Qd Jc 9c 8s")}
    ENGINE.apply(st, 1, {"type": "punto", "amount": 200}, rng)  # A opens with € 2
    ENGINE.apply(st, 2, {"type": "vedo", "amount": 200}, rng)
    ENGINE.apply(st, 3, {"type": "passo"}, rng)
    while st["phase"] == "cambio":
        ENGINE.apply(st, st["turn"], {"type": "cambio", "cards": []}, rng)
    ENGINE.apply(st, st["turn"], {"type": "parol"}, rng)
    ENGINE.apply(st, st["turn"], {"type": "parol"}, rng)
    assert st["phase"] == "parol" and betting.pot_total(st["b"]) == 700
    spec = {s["label"]: s for s in ENGINE.legal_actions(st, 3)}["PARTECIPO"]
    assert spec["amount"] == {"min": 200, "max": 200}
    ENGINE.apply(st, 3, {"type": "partecipo", "amount": 200}, rng)
    carry = ENGINE.carry(st)
    assert carry["pot"] == 900 and carry["min_pair"] == "K"
    chips = ENGINE.outcome(st)["chips"]
    seats = [{"seat": s, "chips": chips[str(s)], "prefs": {}} for s in (1, 2, 3)]
    nxt = ENGINE.new({"invito": 100}, seats, rng, carry)
    assert nxt["b"]["total"] == {"1": 0, "2": 0, "3": 0}  # no invito
    nxt["hands"][str(nxt["turn"])] = _h("Kh Kd 8c 9s Qh")
    punto = {s["type"]: s for s in ENGINE.legal_actions(nxt, nxt["turn"])}["punto"]
    assert punto["amount"]["min"] == 900


def test_the_automatic_decisions_are_the_engines_timeouts(page):
    rows = dict(_cells(page, "Decisioni automatiche")[1:])
    st = _hand({}, 3, invito_automatico=False)
    assert ENGINE.timeout_action(st, ENGINE.to_act(st)[0]) == {"type": "sitout"}
    assert rows["Invito (tavoli cash)"].startswith("SITOUT")
    st = _hand({}, 3)
    assert st["phase"] == "buio" and ENGINE.timeout_action(st, st["turn"]) == {"type": "dai_carte"}
    assert rows["Apertura al buio"] == "DAI CARTE"


def _labels_of_random_hands() -> set[str]:
    """Every button label the engine offered in many random hands of cash tables, 2 to 6 players."""
    labels: set[str] = set()
    rng = SeededRng(11)
    for hand in range(400):
        n = 2 + hand % 5
        seats = [
            {"seat": s, "chips": 300 + 700 * (s % 3), "prefs": {"invito_automatico": hand % 2 == 0}}
            for s in range(1, n + 1)
        ]
        st = ENGINE.new({"invito": 100, "limit": ("NL", "PL", "FL")[hand % 3]}, seats, rng, {"dealer": 1})
        while not ENGINE.is_over(st):
            seat = ENGINE.to_act(st)[0]
            labels |= {s["label"] for s in ENGINE.legal_actions(st, seat)}
            ENGINE.apply(st, seat, ENGINE.sample_action(st, seat, rng), rng)
    return labels


def test_the_buttons_the_page_names_are_the_buttons_the_engine_offers(page):
    named: set[str] = set()
    for _phase, buttons in _cells(page, "I pulsanti del tavolo")[1:]:
        named |= set(re.findall(r"[A-Z]{2,}(?: [A-Z]{2,})*", buttons))
    offered = _labels_of_random_hands() | {"PARTECIPO"}  # PARTECIPO: test_the_parol_example_...
    assert named - offered == set()
    # and every label of the engine's poker buttons is on the page
    assert {label for label in offered if not label.startswith(("TELESINA", "CLASSICA"))} <= named


def test_the_cash_stand_up_rule_is_the_lobbys(page):
    from lobby.actions.seating import STAND_UP_RULES

    assert "Chi salta 10 mani di fila perché è in sitout, o resta in sitout per 10 minuti" in page
    assert STAND_UP_RULES["poker5"] == (10, 10 * 60)


def test_the_raise_rules_are_the_engines(page):
    text = html_lib.unescape(page)
    assert "un rilancio deve superare la puntata da vedere almeno di un invito" in text
    assert "un rilancio che non arriva ad almeno il doppio della puntata precedente chiude i rilanci" in text

    def after(raise_to: int) -> betting.Ranges:
        b = betting.new_betting([1, 2, 3], {1: 1000, 2: 1000, 3: 1000})
        betting.act(b, 1, "bet", 20)
        betting.act(b, 2, "raise", raise_to)
        return betting.ranges(b, 3, betting.NL, 10, 10)

    assert after(30)[2] is None  # 20 → 30, below double: seat 3 may only call or fold
    assert after(40)[2:4] == ("raise", 40 + 10)  # 20 → 40: open; at least the bet to see + an invito
    b = betting.new_betting([1, 2], {1: 1000, 2: 1000})
    assert betting.ranges(b, 1, betting.FL, 10, 10)[2:] == ("bet", 10, 10)  # fixed: the invito
    betting.act(b, 1, "bet", 10)
    assert betting.ranges(b, 2, betting.FL, 10, 10)[2:] == ("raise", 20, 20)  # the call + an invito
