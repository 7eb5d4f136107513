"""Golden tests from the examples of the Scopa, Asso piglia tutto and Cirulla chapters."""

from __future__ import annotations

import copy
import gc
import itertools

import pytest

from games.asso import AssoDeal
from games.capture import (
    VALUE,
    captures,
    primiera_points,
    primiera_winner,
    score_base,
    sort_cards,
    subsets_summing,
)
from games.cirulla import CirullaDeal, dealer_accuso, hand_accusi
from games.engine import IllegalAction, InvalidCards
from games.rng import SeededRng
from games.scopa import ScopaDeal
from tests.games.capture.helpers import staged

SCOPA = ScopaDeal.capture_rules
ASSO = AssoDeal.capture_rules
CIRULLA = CirullaDeal.capture_rules


def as_sets(options):
    return sorted(sorted(o) for o in options)


# -- capture choices ------------------------------------------------------------------------------


def test_tre_cinque_fante_the_fante_takes_only_the_fante():
    # Rules: "un tre, un cinque e un fante: giocando un fante può prendere solo il fante" (I2).
    assert captures("Jc", ["3h", "5d", "Js"], SCOPA) == [["Js"]]
    assert captures("Jc", ["3h", "5d", "Js"], ASSO) == [["Js"]]


def test_asso_tre_quattro_cinque_cavallo_free_choice_among_sums():
    # "asso, tre, quattro e cinque: giocando un cavallo può prendere asso, tre e cinque oppure
    # quattro e cinque a suo piacimento".
    opts = captures("Qc", ["Ah", "3d", "4s", "5c"], SCOPA)
    assert as_sets(opts) == as_sets([["Ah", "3d", "5c"], ["4s", "5c"]])


def test_cinque_cinque_tre_due_re_three_distinct_captures():
    # The drag-and-drop example: 5, 5, 3, 2 and a 10 — which 5 is taken with 3 and 2 is a choice.
    opts = captures("Kc", ["5h", "5d", "3s", "2c"], SCOPA)
    assert as_sets(opts) == as_sets([["5h", "5d"], ["5h", "3s", "2c"], ["5d", "3s", "2c"]])


def test_cirulla_quattro_sette_due_conferma_presa_choice():
    # Cirulla: table 4, 7, 2, a 4 in hand: the 4 alone or 4 and 7 (15 with the played 4) (I3).
    assert captures("4c", ["4h", "7d", "2s"], CIRULLA) == [["4h"], ["4h", "7d"]]
    # Scopa on the same table: the equal card is compulsory.
    assert captures("4c", ["4h", "7d", "2s"], SCOPA) == [["4h"]]


def test_cirulla_fifteens_and_sums_together():
    # A 5 on 5, 3, 2, K: the 5 (equal), 3+2 (sum), K and 5+3+2 (fifteen with the played 5).
    assert as_sets(captures("5c", ["5h", "3d", "2s", "Kc"], CIRULLA)) == as_sets(
        [["5h"], ["3d", "2s"], ["Kc"], ["5h", "3d", "2s"]]
    )


def test_no_capture_means_the_card_is_laid():
    assert captures("Kc", ["Ah", "2d"], SCOPA) == []
    assert captures("Kc", [], CIRULLA) == []
    assert subsets_summing(["Ah", "2d", "3c"], 3, min_size=2) == [["Ah", "2d"]]


def test_aces_asso_piglia_tutto():
    # "se in tavola c'è un asso prende l'asso e fa scopa; se non ci sono assi prende tutte le carte".
    assert captures("Ac", ["Ah", "5d", "Kc"], ASSO) == [["Ah"]]
    assert captures("Ac", ["2h", "5d", "Kc"], ASSO) == [["2h", "5d", "Kc"]]
    assert captures("Ac", [], ASSO) == []
    # In Scopa the ace is an ordinary 1.
    assert captures("Ac", ["2h", "5d", "Kc"], SCOPA) == []
    # Cirulla: the ace never takes by sum or fifteen, only an ace or everything.
    assert captures("Ac", ["4h", "Kd"], CIRULLA) == [["4h", "Kd"]]


# -- scoring --------------------------------------------------------------------------------------


def test_primiera_values_and_missing_suit():
    assert primiera_points(["7h", "7d", "7c", "7s"]) == 84
    assert primiera_points(["6h", "Ad", "5c", "Ks", "2s"]) == 18 + 16 + 15 + 12  # 2 (12) beats re (10)
    assert primiera_points(["7h", "7d", "7c"]) is None
    # I4: a side lacking a suit cannot win it, even against a smaller total.
    assert primiera_winner([["7h", "7d", "7c"], ["2h", "2d", "2c", "2s"]]) == (1, [None, 48])
    # Equal totals: nobody scores it.
    assert primiera_winner([["7h", "6d", "Ac", "Ks"], ["7d", "6h", "As", "Kc"]])[0] is None


def test_carte_denari_ties_score_nothing():
    deck = [r + s for s in "hdcs" for r in "A234567JQK"]
    denari = [c for c in deck if c[1] == "d"]
    others = [c for c in deck if c[1] != "d"]
    a = denari[:5] + others[:15]
    b = denari[5:] + others[15:]
    _, detail = score_base([a, b], [0, 0])
    assert detail["carte"] == [20, 20] and detail["carte_punto"] is None
    assert detail["denari"] == [5, 5] and detail["denari_punto"] is None
    assert detail["settebello"] == 1  # 7d is the 7th denaro
    b2 = [*b, a.pop()]
    _, detail2 = score_base([a, b2], [2, 0])
    assert detail2["carte_punto"] == 1


def test_grande_and_piccola():
    deal = {
        "piles": [["Ad", "2d", "3d", "4d", "5d", "Jd", "Qd", "Kd"], ["7d"]],
        "scope": [0, 0],
        "accusi": [0, 0],
    }
    points, detail = CirullaDeal().score(deal)
    assert detail["piccola"] == 0 and detail["piccola_punti"] == 5  # "asso,2,3,4,5 ... vale 5 punti"
    assert detail["grande"] == 0
    assert points[1] == 1  # sette bello only


def test_redeal_rules():
    assert ScopaDeal().redeal_needed(["Kh", "Kd", "Kc", "2s"])
    assert not ScopaDeal().redeal_needed(["Kh", "Kd", "Qc", "2s"])
    assert CirullaDeal().redeal_needed(["Ah", "Ad", "Kc", "2s"])
    assert not CirullaDeal().redeal_needed(["Ah", "2d", "Kc", "2s"])


@pytest.mark.parametrize(("game", "check"), [("scopa", lambda t: sum(c[0] == "K" for c in t) >= 3)])
def test_redeal_recorded_in_deck_log(game, check):
    from games.registry import get

    eng = get(game)
    for seed in range(3000):
        st = eng.new({}, [{"seat": 1}, {"seat": 2}], SeededRng(seed))
        if len(st["deck_log"]) > 1:
            first = st["deck_log"][0]
            assert check(first[6:10])
            assert st["deal"]["table"] == st["deck_log"][-1][6:10]
            return
    pytest.fail("no redeal found")


def test_cirulla_redeal_on_two_aces_recorded():
    from games.registry import get

    eng = get("cirulla")
    for seed in range(500):
        st = eng.new({}, [{"seat": 1}, {"seat": 2}], SeededRng(seed))
        if len(st["deck_log"]) > 1:
            assert sum(c[0] == "A" for c in st["deck_log"][0][6:10]) >= 2
            return
    pytest.fail("no redeal found")


# -- play -----------------------------------------------------------------------------------------


def test_must_capture_when_possible_and_refusal_changes_nothing():
    eng, st = staged("scopa", [["5c", "Kh"], ["2d", "3d"]], ["5h", "Ac"], stock=[])
    before = copy.deepcopy(st)
    with pytest.raises(InvalidCards):
        eng.apply(st, 1, {"type": "gioca", "card": "5c", "take": []}, SeededRng(0))
    with pytest.raises(InvalidCards):
        eng.apply(st, 1, {"type": "gioca", "card": "5c", "take": ["5h", "Ac"]}, SeededRng(0))
    with pytest.raises(IllegalAction):
        eng.apply(st, 2, {"type": "gioca", "card": "2d", "take": []}, SeededRng(0))
    assert st == before
    labels = {
        (s["card"], tuple(s["take"]), s["label"]) for s in eng.legal_actions(st, 1) if s["type"] == "gioca"
    }
    assert ("5c", ("5h",), "Conferma presa") in labels and ("Kh", (), "Scarta") in labels


def test_scopa_counts_but_not_on_the_last_play_and_rest_to_last_taker():
    # Seat 1 sweeps with a 5 (scopa); later the very last play sweeps again: no scopa (I1).
    eng, st = staged("scopa", [["5c", "3c"], ["2d", "Kd"]], ["5h"], stock=[])
    rng = SeededRng(0)
    eng.apply(st, 1, {"type": "gioca", "card": "5c", "take": ["5h"]}, rng)
    assert st["deal"]["scope"] == [1, 0]
    eng.apply(st, 2, {"type": "gioca", "card": "2d", "take": []}, rng)
    eng.apply(st, 1, {"type": "gioca", "card": "3c", "take": []}, rng)
    eng.apply(st, 2, {"type": "gioca", "card": "Kd", "take": []}, rng)
    # The table (2d, 3c, Kd) goes to the last line that captured (line 0), not as a scopa.
    hist = st["history"][-1]
    assert hist["detail"]["scope"] == [1, 0] and hist["decider"] == 0
    assert hist["detail"]["carte"] == [40, 0]


def test_sweep_on_the_very_last_play_is_not_a_scopa():
    eng, st = staged("scopa", [["5c"], ["2d"]], ["3h"], stock=[], turn=1)
    rng = SeededRng(0)
    eng.apply(st, 2, {"type": "gioca", "card": "2d", "take": []}, rng)
    eng.apply(st, 1, {"type": "gioca", "card": "5c", "take": ["2d", "3h"]}, rng)
    assert st["history"][-1]["detail"]["scope"] == [0, 0]


def test_asso_ace_on_ace_is_scopa_and_sweep_is_not():
    eng, st = staged("asso", [["Ac", "As"], ["4d", "Kd"]], ["Ah", "5d", "Kc"], stock=["2h", "2c", "2s", "2d"])
    rng = SeededRng(0)
    eng.apply(st, 1, {"type": "gioca", "card": "Ac", "take": ["Ah"]}, rng)
    assert st["deal"]["scope"] == [1, 0] and st["deal"]["table"] == ["5d", "Kc"]
    eng.apply(st, 2, {"type": "gioca", "card": "4d", "take": []}, rng)
    eng.apply(st, 1, {"type": "gioca", "card": "As", "take": ["4d", "5d", "Kc"]}, rng)
    assert st["deal"]["scope"] == [1, 0] and st["deal"]["table"] == []


def test_cirulla_ace_sweep_is_a_scopa():
    eng, st = staged("cirulla", [["Ac", "2c"], ["4d", "Kd"]], ["5h", "3d"], stock=["2h", "2s", "3s", "3c"])
    eng.apply(st, 1, {"type": "gioca", "card": "Ac", "take": ["5h", "3d"]}, SeededRng(0))
    assert st["deal"]["scope"] == [1, 0]


# -- cirulla accusi -----------------------------------------------------------------------------


def test_dealer_accuso_fifteen_thirty_and_matta():
    assert dealer_accuso(["5h", "5d", "3c", "2s"]) == 1
    assert dealer_accuso(["Kh", "Kd", "Qc", "As"]) == 2
    assert dealer_accuso(["7h", "Kd", "2c", "As"]) == 1  # the 7 of cuori becomes a 2
    assert dealer_accuso(["7h", "Kd", "Qc", "Js"]) == 2  # rest 27: the 7 of cuori becomes a 3
    assert dealer_accuso(["7d", "Kd", "Qc", "Js"]) == 0  # 34
    assert dealer_accuso(["7d", "Kd", "2c", "As"]) == 0


def test_hand_accusi_with_the_matta():
    assert hand_accusi(["Ah", "2d", "3c"]) == {"cirulla": None}
    assert hand_accusi(["7h", "Ad", "2c"]) == {"cirulla": 1}  # 7 as an ace: 1+1+2 ≤ 9
    assert hand_accusi(["5h", "5d", "5c"]) == {"decino": None}
    assert hand_accusi(["7h", "Kd", "Kc"]) == {"decino": 10}
    assert hand_accusi(["7h", "Ad", "Ac"]) == {"cirulla": 1, "decino": 1}
    assert hand_accusi(["7h", "Kd", "Qc"]) == {}
    assert hand_accusi(["4h", "3d", "2c"]) == {"cirulla": None}  # 9 is enough
    assert hand_accusi(["4h", "3d", "3c"]) == {}


def test_dealer_accuso_in_play_takes_the_table():
    from games.registry import get

    eng = get("cirulla")
    for seed in range(400):
        st = eng.new({}, [{"seat": 1}, {"seat": 2}], SeededRng(seed))
        table = st["deck_log"][-1][6:10]
        pts = dealer_accuso(table)
        if pts:
            line = st["dealer"] % 2
            assert st["deal"]["accusi"][line] >= pts and st["deal"]["table"] == []
            assert set(table) <= set(st["deal"]["piles"][line])
            return
    pytest.fail("no dealer accuso found")


def test_automatic_accuso_and_manual_button():
    hands = [["7h", "Ad", "2c"], ["4d", "Kd", "Qs"]]
    eng, st = staged("cirulla", hands, ["5h", "3d"], stock=["2h", "2s", "3s", "3c", "4c", "5c"])
    # Staged deals skip the hook: trigger it as a new turn would.
    events: list = []
    eng.rules.before_turn(st, st["deal"], events)
    assert events[0]["kind"] == "cirulla" and st["deal"]["accusi"] == [3, 0]
    assert eng.view(st, 2)["deal"]["shown"][0] == ["7h", "Ad", "2c"]  # the accused hand is shown
    # The matta now plays as an ace: no ace on the table, it takes everything (a scopa).
    assert eng.rules.options(st["deal"], 0, "7h") == [["5h", "3d"]]

    eng2, st2 = staged(
        "cirulla",
        hands,
        ["5h", "3d"],
        stock=["2h", "2s", "3s", "3c", "4c", "5c"],
        seats=[{"seat": 1, "prefs": {"accuso_automatico": False}}, {"seat": 2}],
    )
    eng2.rules.before_turn(st2, st2["deal"], [])
    assert st2["deal"]["accusi"] == [0, 0]
    specs = eng2.legal_actions(st2, 1)
    assert {"type": "accuso", "kind": "cirulla", "label": "Accuso: Cirulla"} in specs
    # Without the accuso the 7 is a 7: 7 + 5 + 3 = 15 takes both.
    assert eng2.rules.options(st2["deal"], 0, "7h") == [["5h", "3d"]]
    before = copy.deepcopy(st2)
    with pytest.raises(IllegalAction):
        eng2.apply(st2, 1, {"type": "accuso", "kind": "decino"}, SeededRng(0))
    assert st2 == before
    eng2.apply(st2, 1, {"type": "accuso", "kind": "cirulla"}, SeededRng(0))
    assert st2["deal"]["accusi"] == [3, 0] and not any(
        s["type"] == "accuso" for s in eng2.legal_actions(st2, 1)
    )
    eng2.apply(st2, 1, {"type": "gioca", "card": "2c", "take": []}, SeededRng(0))
    assert st2["deal"]["shown"][0] == ["7h", "Ad"]


def test_decino_matta_takes_the_value_and_reverts_on_the_table():
    hands = [["7h", "Kd", "Kc"], ["7s", "2d", "Qs"]]
    eng, st = staged("cirulla", hands, ["3h"], stock=["2h", "2s", "3s", "3c", "4c", "5c"])
    eng.rules.before_turn(st, st["deal"], [])
    assert st["deal"]["accusi"] == [10, 0] and st["deal"]["matta"][0] == 10
    # As a 10 the matta takes nothing on a lone 3 (3 + 10 ≠ 15): it is laid, and is a 7 again.
    eng.apply(st, 1, {"type": "gioca", "card": "7h", "take": []}, SeededRng(0))
    assert st["deal"]["matta"][0] is None
    assert ["7h"] in eng.rules.options(st["deal"], 1, "7s")  # on the table it is a 7 again


def test_cappotto_ends_the_match():
    stock = ["5c", "6c", "7c", "Jc", "Qc", "Kc"]
    eng, st = staged("cirulla", [["2c", "3s"], ["Kh", "5h"]], ["Qd", "4s"], stock=stock)
    deal = st["deal"]
    rest = deal["piles"][0]
    deal["piles"] = [[c for c in rest if c[1] == "d"], [c for c in rest if c[1] != "d"]]
    assert len(deal["piles"][0]) == 9  # every denaro but the cavallo
    # 2 + 9 + 4 = 15: the 2 takes the cavallo of denari, the tenth: cappotto, the match is over.
    events = eng.apply(st, 1, {"type": "gioca", "card": "2c", "take": ["Qd", "4s"]}, SeededRng(0))
    assert any(e["type"] == "cappotto" for e in events)
    out = eng.outcome(st)
    assert out["reason"] == "cappotto" and out["winner"] == 0 and out["cash"]["cappotto"]
    assert out["vp"] == [20, 0]


# -- forfeits -------------------------------------------------------------------------------------


def test_scopa_forfeit_gives_unassigned_points_plus_a_scopa():
    from games.registry import get

    eng = get("scopa")
    rng = SeededRng(11)
    st = eng.new({"target": 21}, [{"seat": 1}, {"seat": 2}], rng)
    st["deal"]["piles"] = [[], []]  # nothing taken yet in this smazzata
    eng.apply(st, 2, {"type": "abbandona"}, rng)
    out = eng.outcome(st)
    # Sette bello, carte, denari, primiera still unassigned, plus one scopa = 5.
    assert out["forfeit"]["penalty"] == 5 and out["points"] == [5, 0] and out["winner"] == 0


def test_cirulla_forfeit_penalty_capped_at_six():
    from games.registry import get

    eng = get("cirulla")
    rng = SeededRng(12)
    st = eng.new({}, [{"seat": 1}, {"seat": 2}], rng)
    eng.apply(st, 1, {"type": "tempo_scaduto"}, rng)
    out = eng.outcome(st)
    assert out["forfeit"]["penalty"] == 6 and out["winner"] == 1 and out["vp"] == [0, 20]


def test_subsets_summing_gives_every_subset_and_leaves_nothing_for_the_collector():
    """Every set of table cards summing to the target, each in the canonical order; and no
    reference cycle left behind (a game's legal moves call it at every view)."""
    rng = SeededRng(7)
    tables = []
    for _ in range(300):
        deck = list(VALUE)
        rng.shuffle(deck)
        tables.append((deck[: rng.randbelow(10)], 1 + rng.randbelow(20)))
    for table, target in tables:
        cards = sort_cards(table)
        expected = [
            list(combo)
            for size in range(1, len(cards) + 1)
            for combo in itertools.combinations(cards, size)
            if sum(VALUE[c] for c in combo) == target
        ]
        assert sorted(subsets_summing(table, target)) == sorted(expected)
    gc.collect()
    gc.disable()
    try:
        for table, target in tables:
            subsets_summing(table, target)
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
