"""The vele layouts of RULINGS T3: data, turns, betting rounds after each girata, combinations."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games import evaluator
from games.cards import poker_deck
from games.telesina import best_hand
from games.telesina.hand import ViewOfVele
from games.telesina.vele import LAYOUTS, Layout

from .telesina_support import Table

# RULINGS T3, written out again independently of the module under test.
EXPECTED = {
    "nessuna": ("", [], []),
    "una": ("A", ["A"], ["A"]),
    "due": ("AB", ["AB"], ["A", "B"]),
    "tre": ("ABC", ["ABC"], ["A", "C", "B"]),
    "croce": ("ABCDE", ["AEB", "CED"], ["AC", "BD", "E"]),
    "h": ("ABCDEFG", ["ABC", "EFG", "BDF", "AE", "CG", "ADG", "CDE"], ["CG", "BF", "AE", "D"]),
    "piramide": ("ABCDEFG", ["ABCD", "DEFG"], ["AG", "BF", "CE", "D"]),
    "ascensore": ("ABCDEFGHI", ["DEF", "BEH", "AEI", "CEG"], ["DI", "CH", "BG", "AF", "E"]),
}


def test_the_eight_layouts_are_the_rulings_ones():
    assert list(LAYOUTS) == list(EXPECTED)
    for key, (letters, combos, turns) in EXPECTED.items():
        lay = LAYOUTS[key]
        assert "".join(lay.letters) == letters
        assert sorted("".join(sorted(c)) for c in lay.combinations) == sorted(
            "".join(sorted(c)) for c in combos
        )
        assert ["".join(t) for t in lay.turns] == turns


def test_positions_follow_the_pictures_of_t3():
    pos = {k: lay.positions for k, lay in LAYOUTS.items()}
    # Croce: row A E B crossed by column C E D
    assert pos["croce"]["A"][0] == pos["croce"]["E"][0] == pos["croce"]["B"][0]
    assert pos["croce"]["C"][1] == pos["croce"]["E"][1] == pos["croce"]["D"][1]
    # H: columns A B C and E F G, D between B and F
    assert [pos["h"][x][1] for x in "ABC"] == [0, 0, 0] and [pos["h"][x][1] for x in "EFG"] == [2, 2, 2]
    assert pos["h"]["D"] == (1, 1) and pos["h"]["B"][0] == pos["h"]["F"][0] == 1
    # Piramide: D on top, A and G at the bottom corners
    assert min(r for r, _ in pos["piramide"].values()) == pos["piramide"]["D"][0]
    assert pos["piramide"]["A"][0] == pos["piramide"]["G"][0] == 3
    # Ascensore: E in the centre of the 3×3 grid, in all four combinations
    assert pos["ascensore"]["E"] == (1, 1)
    assert all("E" in c for c in LAYOUTS["ascensore"].combinations)


def test_h_combinations_are_the_straight_lines_of_its_grid():
    lay = LAYOUTS["h"]
    cell = {rc: x for x, rc in lay.positions.items()}
    lines = [[(r, c) for c in range(3)] for r in range(3)] + [[(r, c) for r in range(3)] for c in range(3)]
    lines += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
    found = {frozenset(cell[rc] for rc in line if rc in cell) for line in lines}
    assert {f for f in found if len(f) >= 2} == {frozenset(c) for c in lay.combinations}


def test_a_layout_must_turn_every_vela_once():
    with pytest.raises(ValueError):
        Layout("rotta", "Rotta", {"A": (0, 0), "B": (0, 1)}, (("A", "B"),), (("A",),))


@pytest.mark.parametrize("key", list(LAYOUTS))
def test_turns_and_a_betting_round_after_each(key):
    lay = LAYOUTS[key]
    t = Table(3, layout=key)
    t.play_checks()
    girate = [ev for ev in t.events if ev["type"] == "girata"]
    assert [list(ev["vele"]) for ev in girate] == [list(turn) for turn in lay.turns]
    # T2: a betting round after each of the four deals and after each girata
    assert len(t.firsts()) == 4 + len(lay.turns)
    assert t.phase in ("mostra", "fine")


@pytest.mark.parametrize("key", [k for k in LAYOUTS if k != "nessuna"])
def test_vele_stay_hidden_until_their_girata(key):
    lay = LAYOUTS[key]
    t = Table(2, layout=key)
    seen = []
    while t.phase == "puntata":
        expected = {x for turn in lay.turns[: t.st["girate"]] for x in turn}
        for seat in (None, 1, 2):
            view = t.e.view(t.st, seat)
            assert {x for x, c in view["vele_cards"].items() if c} == expected
        seen.append(len(expected))
        t.do(t.turn, "busso")
    assert seen[0] == 0 and seen[-1] == len(lay.letters)


@pytest.mark.parametrize("key", list(LAYOUTS))
def test_best_hand_is_the_best_five_with_the_vele_of_one_combination(key):
    lay = LAYOUTS[key]
    r = random.Random(key)
    deck = poker_deck(6)
    for _ in range(150):
        dealt = r.sample(deck, 5 + len(lay.letters))
        own, vele = dealt[:5], dict(zip(lay.letters, dealt[5:], strict=True))
        value, five, used = best_hand(own, lay, vele, lay.letters, "5")
        groups = [list(c) for c in lay.combinations] or [[]]
        brute = max(
            evaluator.evaluate(c5, "5") for g in groups for c5 in combinations(own + [vele[x] for x in g], 5)
        )
        assert evaluator.evaluate(five, "5") == value
        assert any(set(used) <= set(g) for g in groups)
        assert set(five) - set(own) == {vele[x] for x in used}
        if evaluator.category(brute) != evaluator.SCALA_REALE:
            assert value == brute
        else:
            assert evaluator.category(value) == evaluator.SCALA_REALE


def test_vele_of_two_combinations_never_mix():
    # Croce {A,E,B} / {C,E,D}: A and C would give a colore di cuori, but they are in different combinations.
    lay = LAYOUTS["croce"]
    vele = {"A": "Ah", "C": "Kh", "E": "9c", "B": "5s", "D": "6d"}
    own = ["Qh", "Jh", "8h", "9s", "7c"]
    value, _five, used = best_hand(own, lay, vele, lay.letters, "5")
    assert evaluator.category(value) == evaluator.COPPIA  # 9c with 9s
    assert used == ["A", "E"]  # the pair of 9 with the ace of A as a kicker, combination {A,E,B}
    # with the two hearts in one combination the colore is there
    vele2 = {**vele, "B": "Kh", "C": "5s"}
    value2, _, used2 = best_hand(own, lay, vele2, lay.letters, "5")
    assert evaluator.category_name(value2) == "colore" and set(used2) == {"A", "B"}


def test_any_number_of_vele_of_the_combination_from_none_to_all():
    lay = LAYOUTS["ascensore"]
    vele = dict(zip("ABCDEFGHI", ["5c", "5d", "6c", "6d", "7c", "7d", "8c", "8d", "9c"], strict=True))
    own = ["Ah", "Ad", "As", "Ac", "Kh"]  # poker d'assi with no vela at all
    value, _five, used = best_hand(own, lay, vele, lay.letters, "5")
    assert used == [] and evaluator.category_name(value) == "poker"


def test_only_revealed_vele_count_during_the_hand():
    lay = LAYOUTS["ascensore"]
    vele = dict(zip("ABCDEFGHI", ["Ah", "Kd", "Qc", "Js", "Th", "9d", "8c", "7s", "6h"], strict=True))
    own = ["Ad", "As", "Kc", "Qd", "9c"]  # Js (D) and Th (I) would make a scala, but not together
    before = ViewOfVele(lay, vele, ["D", "I"], "5").value(own)
    after = ViewOfVele(lay, vele, ["D", "I", "A", "F"], "5").value(own)
    assert evaluator.category_name(before) == "coppia"
    assert evaluator.category_name(after) == "tris"  # A (Ah) with the two aces, combination {A,E,I}


def test_a_ninth_layout_is_one_entry(monkeypatch):
    quattro = Layout(
        "quadrato",
        "Quadrato",
        {"A": (0, 0), "B": (0, 1), "C": (1, 0), "D": (1, 1)},
        (("A", "B"), ("C", "D"), ("A", "C"), ("B", "D")),
        (("A", "D"), ("B", "C")),
    )
    monkeypatch.setitem(LAYOUTS, "quadrato", quattro)
    t = Table(3, layout="quadrato")
    t.play_checks()
    assert [list(ev["vele"]) for ev in t.events if ev["type"] == "girata"] == [["A", "D"], ["B", "C"]]
    assert t.e.view(t.st, None)["vele"]["combinations"] == [["A", "B"], ["C", "D"], ["A", "C"], ["B", "D"]]


def test_the_hand_showing_takes_revealed_vele_of_one_combination_only():
    # Croce, first girata: A (Kh) and C (9h) are revealed, in different combinations. Seat 1's up
    # cards pair with each of them but may not use both: it shows a pair of K, not two pairs K and 9,
    # so seat 2's two pairs Q and J (and the Kh as fifth card) speak first.
    hands = {1: "As Kc 9d Th Jc", 2: "Tc Qs Qh Js Jh"}
    t = Table(2, hands=hands, vele={"A": "Kh", "C": "9h"}, layout="croce")
    while t.st["girate"] == 0:
        t.do(t.turn, "busso")
    view = t.e.view(t.st, None)
    assert view["showing"] == {"1": "Coppia di K", "2": "Doppia coppia di Q e J"}
    assert view["leader"] == 2 and t.turn == 2
