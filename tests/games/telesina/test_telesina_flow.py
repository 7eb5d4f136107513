"""Scenario tests of a Telesina hand: deal, speaking order (T4), distributions (T5), deal-out (T6),
showdown and pots (P11, P4, G1, P12), sitout and timeouts (P14), the dealer's panel."""

from __future__ import annotations

import pytest

from games import evaluator
from games.engine import IllegalAction, NotYourTurn, dumps
from games.telesina import best_hand, partial_key
from games.telesina.vele import LAYOUTS, Layout

from .telesina_support import E, Table

# 3 players: deck 8–A. Up cards by round (T4):
#   seat 1: Kc | Kc 9d | Kc 9d Jd | Kc 9d Jd Th
#   seat 2: Ad | Ad 9h | Ad 9h 9s (coppia di 9) | Ad 9h 9s Jc
#   seat 3: Qs | Qs Qh (coppia di Q) | Qs Qh Tc | Qs Qh Tc Ts (doppia coppia)
HANDS3 = {1: "8c Kc 9d Jd Th", 2: "8d Ad 9h 9s Jc", 3: "8h Qs Qh Tc Ts"}


def test_the_deal_mai_first_card_covered_the_rest_up():
    t = Table(3, hands=HANDS3, layout="una", vele={"A": "9c"})
    st = t.st
    assert t.phase == "puntata" and st["street"] == 1
    assert st["cards"]["1"] == ["8c", "Kc"] and st["covered"]["1"] == ["8c"]
    v2 = E.view(st, 2)
    assert v2["hands"]["1"] == {"up": ["Kc"], "covered": 1}
    assert v2["hands"]["2"]["cards"] == ["8d", "Ad"] and v2["hands"]["2"]["covered_cards"] == ["8d"]
    assert "8c" not in dumps(v2) and "9c" not in dumps(E.view(st, None))  # covered card, unturned vela
    assert v2["vele_cards"] == {"A": None}


def test_speaking_order_best_hand_showing_with_vele():
    t = Table(3, hands=HANDS3, layout="una", vele={"A": "9c"})
    t.play_checks()
    # A high, then the pair of Q, Q-pair vs 9-pair, two pairs; after the girata 9c gives seat 2 a tris.
    assert t.firsts() == [2, 3, 3, 3, 2]
    showing = [ev["punto"] for ev in t.events if ev["type"] == "parola"]
    assert showing == ["Coppia di Q", "Coppia di Q", "Doppia coppia di Q e 10", "Tris di 9"]


def test_the_first_to_speak_after_the_best_showing_when_it_is_all_in():
    t = Table(3, hands=HANDS3, layout="una", vele={"A": "9c"}, chips={1: 1000, 2: 30, 3: 1000})
    assert t.turn == 2
    t.do(2, "punto", 20)  # RESTO
    assert t.events[-1].get("resto") is True
    t.do(3, "vedo", 20)
    t.do(1, "vedo", 20)
    t.play_checks()
    assert t.firsts()[-1] == 2  # the tris of 9 shows best…
    parola = [ev for ev in t.events if ev["type"] == "parola"][-1]
    assert parola["first"] == 3  # …but seat 2 is all-in: the word goes clockwise from it


def test_partial_hands_count_only_pairs_trips_and_quads():
    assert partial_key(["9h", "9s"]) > partial_key(["Ah", "Kh"])
    assert partial_key(["Ah", "Kh", "Qh", "Jh"]) < partial_key(
        ["7c", "7d", "8s", "9s"]
    )  # no colore, no scala
    assert partial_key(["Kh", "9c"]) > partial_key(["Kd", "9s"])  # suits from the highest card down
    assert partial_key(["Kd", "Ts"]) > partial_key(["Kh", "9s"])  # ranks before suits
    assert partial_key(["Qh", "Qd", "Ts", "Tc"]) > partial_key(["Ah", "Ad", "Ks", "Qc"])
    assert partial_key(["9h", "9d", "9s", "5c"]) > partial_key(["Ah", "Ad", "Ks", "Kc"])
    assert partial_key(["9h", "9d", "9s", "9c"]) > partial_key(["Ah", "Ad", "As", "Kc"])
    assert partial_key(["Js", "Jc", "Ad"]) > partial_key(["Jh", "Jd", "Ac"])  # the kicker's suit first
    assert partial_key(["Jh", "Jc", "Ad"]) > partial_key(["Jd", "Js", "Ac"])


# ---------------------------------------------------------------------- distributions (T5)


def test_solo_al_primo_giro_both_first_cards_covered_and_a_simultaneous_choice():
    t = Table(3, hands=HANDS3, layout="nessuna", dist="primo_giro")
    st = t.st
    assert t.phase == "scopri" and E.to_act(st) == [1, 2, 3]
    assert st["covered"]["1"] == ["8c", "Kc"]
    assert [s["card"] for s in t.specs(1)] == ["8c", "Kc"] and t.labels(1) == ["CONFERMA", "CONFERMA"]
    t.do(2, "scopro", card="8d")  # seat 2 keeps the ace covered
    assert E.to_act(st) == [1, 3]
    assert E.view(st, 2)["hands"]["2"]["choice"] == "8d"
    assert "8d" not in dumps(E.view(st, 1)) and "8d" not in dumps(E.view(st, None))
    assert [ev for ev in t.events if ev["type"] == "scelto"] == [{"type": "scelto", "seat": 2, "auto": False}]
    with pytest.raises(NotYourTurn):
        t.do(2, "scopro", card="Ad")
    t.do(3, "scopro", card="Qs")
    t.timeout(1)  # T5: on timeout the newest card is turned up, and no sitout outside betting
    assert st["sitout"]["1"] is False
    reveal = next(ev for ev in t.events if ev["type"] == "scoperte")
    assert reveal["cards"] == {"2": "8d", "3": "Qs", "1": "Kc"}
    assert t.phase == "puntata" and st["leader"] == 1  # Kc shows best (8d, Qs)
    t.play_checks()
    assert len([ev for ev in t.events if ev["type"] == "scoperte"]) == 1
    assert all(len(st["covered"][k]) == 1 for k in "123")  # later rounds come up


def test_sempre_every_card_comes_covered_and_a_choice_after_each_round():
    t = Table(2, layout="due", dist="sempre", hands={1: "Ah Kh Qh Jh Th", 2: "As Ks Qs Js Ts"})
    st = t.st
    rounds = 0
    while t.phase == "scopri":
        rounds += 1
        assert E.to_act(st) == [1, 2]
        for s in (1, 2):
            assert len(st["covered"][str(s)]) == 2
        t.do(1, "scopro", card=st["covered"]["1"][0])  # keep the newest covered
        t.timeout(2)  # the newest is turned up
        t.check_round()
    assert rounds == 4
    assert st["covered"]["1"] == ["Th"]  # seat 1 always kept the newest card covered
    assert st["covered"]["2"] == ["As"]  # seat 2 always kept its first card covered
    assert st["sitout"] == {"1": False, "2": False}


def test_mai_never_asks():
    t = Table(2, layout="tre", dist="mai")
    t.play_checks()
    assert not [ev for ev in t.events if ev["type"] in ("scoperte", "scelto")]


def test_libera_the_dealer_chooses_vele_and_distribution_in_one_panel():
    t = Table(3, layout="libera", dist="libera", dealer=2)
    st = t.st
    assert t.phase == "scelta" and E.to_act(st) == [2]
    specs = t.specs(2)
    assert len(specs) == 8 * 3 and {s["label"] for s in specs} == {"CONFERMA"}
    assert {(s["vele"], s["distribuzione"]) for s in specs} >= {("ascensore", "sempre"), ("nessuna", "mai")}
    with pytest.raises(IllegalAction):
        t.do(2, "scelta", vele="libera", distribuzione="mai")
    t.do(2, "scelta", vele="piramide", distribuzione="primo_giro")
    assert st["vele"] == "piramide" and st["distribuzione"] == "primo_giro"
    assert t.phase == "scopri" and len(st["vele_cards"]) == 7


def test_libera_only_one_part_and_the_dealers_preferences():
    t = Table(3, layout="croce", dist="libera", dealer=1)
    assert [(s["vele"], s["distribuzione"]) for s in t.specs(1)] == [
        ("croce", "mai"),
        ("croce", "primo_giro"),
        ("croce", "sempre"),
    ]
    pref = {"vele_preferite": "h", "usa_sempre_vele": True}
    t = Table(3, layout="libera", dist="libera", dealer=1, prefs={1: pref})
    assert {s["vele"] for s in t.specs(1)} == {"h"}
    both = {**pref, "distribuzione_preferita": "sempre", "usa_sempre_distribuzione": True}
    t = Table(3, layout="libera", dist="libera", dealer=1, prefs={1: both})
    assert t.st["vele"] == "h" and t.st["distribuzione"] == "sempre" and t.phase == "scopri"
    # preferred but not "usa sempre": asked, and the preference is the timeout choice
    t = Table(3, layout="libera", dist="libera", dealer=1, prefs={1: {"vele_preferite": "tre"}})
    assert t.phase == "scelta"
    t.timeout(1)
    assert (t.st["vele"], t.st["distribuzione"]) == ("tre", "mai") and t.st["sitout"]["1"] is False


def test_a_sitout_dealer_gets_the_default_choice():
    t = Table(3, layout="libera", dist="libera", dealer=3, sitout=(3,))
    assert (t.st["vele"], t.st["distribuzione"]) == ("nessuna", "mai")
    assert t.st["players"] == [1, 2]


# ---------------------------------------------------------------------- showdown and pots


def show_all(t: Table) -> None:
    while t.phase == "mostra":
        t.do(t.turn, "mostro")


# 2 players: deck 9–A. Croce {A,E,B} / {C,E,D}.
NB1_HANDS = {1: "As Ks Qs 9h Th", 2: "Ad 9d Td Jd Qd"}
NB1_VELE = {"A": "Js", "B": "Ts", "C": "Jh", "D": "Qh", "E": "Kh"}


def test_nb1_a_player_with_two_scale_reali_plays_the_higher_suit():
    lay = LAYOUTS["croce"]
    own = NB1_HANDS[1].split()
    value, _five, used = best_hand(own, lay, NB1_VELE, lay.letters, "9")
    # massima di picche (A, B) and media al K di cuori (C, E, D): NB.1 plays the cuori one
    assert evaluator.describe(value) == "Scala reale media al K di cuori"
    assert set(used) == {"C", "D", "E"}
    minima = evaluator.evaluate(NB1_HANDS[2].split(), "9")
    assert evaluator.straight_flush_kind(minima) == "minima"
    assert evaluator.pot_winners([value, minima]) == [0]  # P4: with a media the ordinary order applies


@pytest.mark.parametrize(("vela_d", "winner"), [("Qh", 1), ("Qc", 2)])
def test_nb1_then_p4_between_players_at_the_table(vela_d, winner):
    t = Table(2, hands=NB1_HANDS, vele={**NB1_VELE, "D": vela_d}, layout="croce")
    t.play_checks()
    show_all(t)
    assert [p["winners"] for p in t.st["result"]["pots"]] == [[winner]]
    if winner == 2:
        # only the massima di picche left: the minima di quadri beats it (P4, NB.2)
        assert t.st["best"]["1"]["punto"] == "Scala reale massima di picche"


def _layout(key: str, letters: str, turns: tuple[str, ...]) -> Layout:
    return Layout(
        key,
        key.title(),
        {x: (0, i) for i, x in enumerate(letters)},
        (tuple(letters),),
        tuple(tuple(t) for t in turns),
    )


def test_exact_tie_on_shared_vele_splits_with_the_odd_chip_from_the_dealers_left(monkeypatch):
    # No layout of T3 has five vele in one combination (every hand there holds an own card, so two
    # hands are never identical); identical hands need a ninth layout, which is one entry.
    monkeypatch.setitem(LAYOUTS, "cinque", _layout("cinque", "ABCDE", ("AB", "CD", "E")))
    vele = dict(zip("ABCDE", ["Ah", "Kh", "Qh", "Jh", "Th"], strict=True))
    hands = {1: "9c 9d Tc Jc Qs", 2: "9s Ts Js Qc Kc", 3: "Ks Kd Ad Qd Jd"}
    t = Table(3, hands=hands, vele=vele, layout="cinque", invito=15, dealer=3)
    t.play_checks()
    show_all(t)
    (pot,) = t.st["result"]["pots"]
    assert pot["amount"] == 45 and pot["winners"] == [1, 2, 3]
    assert pot["shares"] == {"1": 15, "2": 15, "3": 15}
    # two winners: the odd chip goes to the first of them after the dealer (G1)
    t = Table(3, hands=hands, vele=vele, layout="cinque", invito=15, dealer=1)  # order 2, 3, 1
    assert t.turn == 3  # Kd shows best
    t.do(3, "punto", 15)
    t.do(1, "passo")
    t.do(2, "vedo", 15)
    t.play_checks()
    show_all(t)
    (pot,) = t.st["result"]["pots"]
    assert pot["amount"] == 75 and pot["winners"] == [2, 3]
    assert pot["shares"] == {"2": 38, "3": 37}


def test_shared_vele_equal_up_to_the_suits_the_suit_of_the_fifth_card_decides(monkeypatch):
    # Doppia coppia A A K K from four shared vele; the fifth card Q♥ against Q♦ (P2).
    monkeypatch.setitem(LAYOUTS, "quattro", _layout("quattro", "ABCD", ("AB", "CD")))
    vele = dict(zip("ABCD", ["Ah", "Ad", "Kh", "Kd"], strict=True))
    hands = {1: "Qh 9c 9d Tc Td", 2: "Qd 9h 9s Th Ts"}
    t = Table(2, hands=hands, vele=vele, layout="quattro")
    t.play_checks()
    show_all(t)
    assert t.st["best"]["1"]["punto"] == t.st["best"]["2"]["punto"] == "Doppia coppia di A e K"
    assert t.st["result"]["pots"][0]["winners"] == [1]
    # the same with the Piramide's four vele {A,B,C,D}, the other combination harmless
    lay = LAYOUTS["piramide"]
    pv = {**vele, "E": "5c", "F": "6d", "G": "7s"}
    v1, _f1, u1 = best_hand(hands[1].split(), lay, pv, lay.letters, "5")
    v2, _f2, u2 = best_hand(hands[2].split(), lay, pv, lay.letters, "5")
    assert u1 == u2 == ["A", "B", "C", "D"] and v1 > v2
    assert evaluator.pot_winners([v1, v2]) == [0]
