"""Tresette golden tests: every example and option of the chapter (rules 004; RULINGS I5, I7)."""

from __future__ import annotations

import copy

import pytest

from games.cards import italian_deck
from games.engine import ConfigError, IllegalAction
from games.registry import get
from games.rng import SeededRng
from games.tresette.deal import DEAL, combo_points, combos, declaration_text, thirds

from .trick_helpers import deck_for, play_out, rigged, seats_for

E = get("tresette")
MANUAL = {"accuso_automatico": False, "dichiarazione_automatica": False, "chiamata_fuori_automatica": False}


def play_card(st: dict, card: str) -> list[dict]:
    pos = st["deal"]["turn"]
    return E.apply(st, st["seats"][pos], {"type": "gioca", "card": card}, SeededRng(1))


def ended_deal(taken0: list[str], last_winner: int, **opts: object) -> dict:
    d = DEAL.new(order=[0, 1], dealer=0, lines=[[0], [1]], deck=italian_deck(), opts=opts)
    d["hands"] = {"0": [], "1": []}
    d["stock"] = []
    d["taken"] = {"0": list(taken0), "1": [c for c in italian_deck() if c not in taken0]}
    d["history"] = [{"leader": 0, "plays": [], "winner": last_winner}]
    d["over"] = True
    d["ended_by"] = "fine_carte"
    return d


def test_points_in_thirds_rounded_down_seven_and_a_third_is_seven() -> None:
    # "un giocatore avesse totalizzato 7 punti + 1/3 di punto il suo punteggio sarebbe di 7 punti"
    taken = ["Ad", "Ac", "Ah", "As", "3d", "3c", "3h", "3s", "2d", "2c", "2h", "2s", "Kd", "Kc"]
    assert thirds(taken) == 22  # 7 + 1/3
    d = ended_deal(taken, last_winner=1)
    res = DEAL.result(d)
    assert res["card_points"] == [7, 4]  # the other line: 10 thirds = 3, plus the last trick
    assert sum(res["card_points"]) == 11  # "Il totale dei punti di una smazzata è pari a 11"


def test_the_ace_scores_most_but_the_three_and_two_take_it() -> None:
    assert thirds(["Ad"]) == 3 and thirds(["3d"]) == thirds(["2d"]) == thirds(["Jd"]) == 1
    assert thirds(["7d", "6d", "5d", "4d"]) == 0
    st = rigged(E, {"format": "testa_a_testa"}, deck_for({0: ["2d"], 1: ["Ad"]}))
    assert play_card(st, "Ad")[-1]["type"] == "gioca"
    events = play_card(st, "2d")
    assert next(e for e in events if e["type"] == "presa")["seat"] == st["seats"][0]


def test_follow_suit_is_enforced_and_a_refusal_changes_nothing() -> None:
    hands = {
        1: ["Kd", "4c", "5c", "6c", "7c", "Jc", "Qc", "Kc", "Ac", "2c"],
        0: ["7d", *[r + "h" for r in "A234567JQ"]],
    }
    st = rigged(E, {"format": "testa_a_testa"}, deck_for(hands))
    play_card(st, "Kd")
    before = copy.deepcopy(st)
    with pytest.raises(IllegalAction) as info:
        play_card(st, "Ah")
    assert info.value.code == "must_follow_suit"
    assert st == before
    assert [a["card"] for a in E.legal_actions(st, st["seats"][0]) if a["type"] == "gioca"] == ["7d"]


def test_spizzichino_draws_winner_first_and_shown_to_both() -> None:
    st = rigged(E, {"format": "testa_a_testa"}, italian_deck())
    deal = st["deal"]
    assert [len(h) for h in deal["hands"].values()] == [10, 10] and len(deal["stock"]) == 20
    top = list(deal["stock"][:2])
    first = st["seats"][deal["turn"]]
    events = play_card(st, E.rules.auto_action(st, deal["turn"])["card"])  # type: ignore[attr-defined]  # registry.get gives the base Engine; this one has rules
    events += play_card(st, E.rules.auto_action(st, st["deal"]["turn"])["card"])  # type: ignore[attr-defined]  # registry.get gives the base Engine; this one has rules
    winner = next(e for e in events if e["type"] == "presa")["seat"]
    draws = [e for e in events if e["type"] == "pesca"]
    assert [e["seat"] for e in draws] == [winner, next(s for s in st["seats"] if s != winner)]
    assert [e["card"] for e in draws] == top and all("to" not in e for e in draws)
    for viewer in (None, first, *st["seats"]):
        shown = E.view(st, viewer)["deal"]["shown"]
        assert sorted(c for cards in shown.values() for c in cards) == sorted(top)


def test_spizzichino_a_carte_viste_hands_face_up_after_the_draws() -> None:
    st = rigged(E, {"format": "testa_a_testa", "carte_viste": True}, italian_deck())
    rng = SeededRng(4)
    while st["deal"]["stock"]:
        seat = E.to_act(st)[0]
        E.apply(st, seat, E.sample_action(st, seat, rng), rng)
    assert set(E.view(st, st["seats"][0])["deal"]["hands"]) == {"0", "1"}
    assert E.view(st, None)["deal"]["hands"] == {}


def test_accusi_napoletana_three_and_four_of_a_kind() -> None:
    assert combos(["3d", "2d", "Ad", "3c", "3h", "Kc"]) == ["napoletana:d", "tre:3"]
    assert combos(["Ad", "Ac", "Ah", "As", "2d"]) == ["quattro:A"]
    assert [combo_points(c) for c in ("napoletana:s", "tre:2", "quattro:3")] == [3, 3, 4]
    hands = {
        1: ["3d", "2d", "Ad", "3c", "3h", "4s", "5s", "6s", "7s", "Js"],
        2: ["Ac", "Ah", "As", "4d", "5d", "6d", "7d", "Jd", "Qd", "Kd"],
        3: ["2c", "2h", "2s", "4c", "5c", "6c", "7c", "Jc", "Qc", "Kc"],
        0: ["3s", "4h", "5h", "6h", "7h", "Jh", "Qh", "Kh", "Qs", "Ks"],
    }
    st = rigged(E, {"format": "coppie", "accuso": True}, deck_for(hands))
    events = play_card(st, "4s")  # automatic accuso, before the card (multiple accuso: sum)
    accusi = [e for e in events if e["type"] == "accuso"]
    assert [(e["combo"], e["points"]) for e in accusi] == [("napoletana:d", 3), ("tre:3", 3)]
    assert E.rules.deal.accuso_points(st["deal"]) == [0, 6]  # type: ignore[attr-defined]  # registry.get gives the base Engine; this one has rules
    events = play_card(st, "As")
    assert [e["combo"] for e in events if e["type"] == "accuso"] == ["tre:A"]
    assert E.rules.deal.accuso_points(st["deal"]) == [3, 6]  # type: ignore[attr-defined]  # pos 2: line 0


def test_manual_accuso_only_in_the_first_trick_before_playing() -> None:
    hands = {1: ["3d", "2d", "Ad", "4s", "5s", "6s", "7s", "Js", "Qs", "Ks"], 0: []}
    st = rigged(E, {"format": "testa_a_testa", "accuso": True}, deck_for(hands), MANUAL)
    seat = E.to_act(st)[0]
    specs = [a for a in E.legal_actions(st, seat) if a["type"] == "accuso"]
    assert [a["combo"] for a in specs] == ["napoletana:d"]
    before = copy.deepcopy(st)
    with pytest.raises(IllegalAction):
        E.apply(st, seat, {"type": "accuso", "combo": "tre:3"}, SeededRng(1))
    assert st == before
    events = E.apply(st, seat, {"type": "accuso", "combo": "napoletana:d"}, SeededRng(1))
    assert events[0]["cards"] == ["3d", "2d", "Ad"]
    assert not [a for a in E.legal_actions(st, seat) if a["type"] == "accuso"]
    assert E.view(st, None)["deal"]["accusi"] == {"1": ["napoletana:d"]}


def test_without_the_option_or_a_perdere_there_is_no_accuso() -> None:
    hands = {1: ["3d", "2d", "Ad", "4s", "5s", "6s", "7s", "Js", "Qs", "Ks"], 0: []}
    st = rigged(E, {"format": "testa_a_testa"}, deck_for(hands), MANUAL)
    assert not [a for a in E.legal_actions(st, E.to_act(st)[0]) if a["type"] == "accuso"]
    with pytest.raises(ConfigError):
        E.validate_config({"a_perdere": True, "accuso": True})
    with pytest.raises(ConfigError):
        E.validate_config({"a_perdere": True, "vinco_subito": True})


def test_cappotto_voids_the_other_lines_accuso_and_is_an_extra_posta() -> None:
    everything = [c for c in italian_deck() if c[0] in "A32KQJ"]
    d = ended_deal(everything, last_winner=0, cappotto=True)
    d["accusi"]["1"] = ["tre:3"]
    res = DEAL.result(d)
    assert res["card_points"] == [11, 0] and res["cappotto"] == 0 and res["accusi"] == [0, 0]
    assert res["points"] == [11, 0]
    d["opts"]["cappotto"] = False
    assert DEAL.result(d)["accusi"] == [0, 3]
    with pytest.raises(ConfigError):
        E.validate_config({"cappotto": True, "torneo": True})  # "mai applicato nei tornei"


def test_declaration_texts_from_the_rules() -> None:
    assert declaration_text(True, False, False, ["3"], 4) == "Ho il 3 quarto"
    assert declaration_text(True, False, False, ["2", "A"], 4) == "Ho il 2 e l'asso quarti"
    assert declaration_text(True, False, False, ["2"], 3) == "Ho il 2 terzo"  # see declaration_text
    assert declaration_text(True, False, False, [], 5) == "Ho 5 carte"
    assert declaration_text(True, False, False, [], 3) == "Ho 3 carte"
    assert declaration_text(True, False, False, [], 1) == "Ho 1 carta"
    assert declaration_text(True, False, True, ["3", "2"], 5) == "Ho per te e ho il 3 e il 2 quinti"
    assert declaration_text(False, True, False, [], 0) == "Busso"
    assert declaration_text(False, False, True, [], 0) == "Ho per te"


FOUR = {
    1: ["3d", "2d", "5d", "6d", "4s", "5s", "6s", "7s", "Js", "Qs"],
    2: ["Ac", "Ah", "As", "4d", "7d", "Jd", "Qd", "Kd", "Ks", "3s"],
    3: ["2c", "2h", "2s", "4c", "5c", "6c", "7c", "Jc", "Qc", "Kc"],
    0: ["Ad", "4h", "5h", "6h", "7h", "Jh", "Qh", "Kh", "3c", "3h"],
}


def test_automatic_ho_declaration_when_leading() -> None:
    st = rigged(E, {"format": "coppie", "dichiarazioni": True}, deck_for(FOUR))
    events = play_card(st, "5d")
    decl = next(e for e in events if e["type"] == "dichiarazione")
    assert decl["text"] == "Ho il 3 e il 2 quarti" and decl["honours"] == ["3d", "2d"]
    assert events.index(decl) < next(i for i, e in enumerate(events) if e["type"] == "gioca")


def test_manual_busso_and_ho_per_te_then_annulla() -> None:
    st = rigged(E, {"format": "coppie", "dichiarazioni": True}, deck_for(FOUR), MANUAL)
    seat = E.to_act(st)[0]
    kinds = {a["type"] for a in E.legal_actions(st, seat)}
    assert {"dichiara", "gioca"} <= kinds and "annulla_dichiarazione" not in kinds
    ev = E.apply(st, seat, {"type": "dichiara", "ho": False, "busso": True, "per_te": True}, SeededRng(1))
    assert ev[0]["to"] == [seat]  # private until the card is played
    assert E.view(st, None)["deal"].get("pending_declarations") is None
    with pytest.raises(IllegalAction):  # "Ho …" excludes "Busso"
        E.apply(st, seat, {"type": "dichiara", "ho": True, "busso": True, "per_te": False}, SeededRng(1))
    events = play_card(st, "4s")
    assert next(e for e in events if e["type"] == "dichiarazione")["text"] == "Ho per te e busso"
    # the next player is not leading: no declaration offered
    assert not [a for a in E.legal_actions(st, E.to_act(st)[0]) if a["type"] == "dichiara"]


def test_annulla_cancels_the_automatic_declaration() -> None:
    st = rigged(E, {"format": "coppie", "dichiarazioni": True}, deck_for(FOUR))
    seat = E.to_act(st)[0]
    E.apply(st, seat, {"type": "annulla_dichiarazione"}, SeededRng(1))
    assert not [e for e in play_card(st, "5d") if e["type"] == "dichiarazione"]


def test_chiamata_fuori_automatic_ends_the_match_at_the_target() -> None:
    for seed in range(20):
        rng = SeededRng(seed)
        st = E.new({"format": "coppie", "target": 5, "vinco_subito": True}, seats_for("coppie"), rng)
        play_out(E, st, rng)
        out = E.outcome(st)
        assert out["reason"] in ("vinco_subito", "punti")
        if out["reason"] == "vinco_subito":
            assert out["points"][out["winner"]] >= 5


def test_chiamata_fuori_manual_is_offered_to_the_taker() -> None:
    rng = SeededRng(7)
    st = E.new(
        {"format": "testa_a_testa", "target": 3, "vinco_subito": True},
        seats_for("testa_a_testa", MANUAL),
        rng,
    )
    while True:
        seat = E.to_act(st)[0]
        if any(a["type"] == "chiama_fuori" for a in E.legal_actions(st, seat)):
            break
        specs = [a for a in E.legal_actions(st, seat) if a["type"] == "gioca"]
        E.apply(st, seat, {"type": "gioca", "card": specs[rng.randbelow(len(specs))]["card"]}, rng)
        assert not E.is_over(st)  # nobody calls out for the players who turned the automatism off
    E.apply(st, seat, {"type": "chiama_fuori"}, rng)
    out = E.outcome(st)
    assert out["reason"] == "vinco_subito" and out["winner"] == st["seats"].index(seat) % 2


def test_a_perdere_fewer_points_win_ties_to_the_last_trick() -> None:
    cfg = E.validate_config({"a_perdere": True, "mode": "smazzate", "deals": 2})
    assert cfg["lower_wins"] and cfg["decider"] == "wins" and cfg["decider_always"]
    rng = SeededRng(5)
    st = E.new({"a_perdere": True, "mode": "smazzate", "deals": 2}, seats_for("testa_a_testa"), rng)
    play_out(E, st, rng)
    out = E.outcome(st)
    if out["points"][0] != out["points"][1]:
        assert out["points"][out["winner"]] < out["points"][1 - out["winner"]]


def test_ko_ties_a_smazzate_last_trick_wins_a_punti_three_spareggi() -> None:
    cfg = E.validate_config({"mode": "smazzate", "deals": 2, "ko": True})
    assert cfg["decider"] == "wins" and cfg["spareggi"] == 0
    cfg = E.validate_config({"mode": "punti", "ko": True})
    assert cfg["decider"] == "loses" and cfg["spareggi"] == 3


def test_timeout_penalty_up_to_6_points() -> None:
    st = rigged(E, {"format": "coppie"}, italian_deck())
    E.apply(st, st["seats"][1], {"type": "tempo_scaduto"}, SeededRng(1))
    out = E.outcome(st)
    assert out["forfeit"]["penalty"] == 6 and out["points"] == [6, 0] and out["winner"] == 0
    assert out["vp"] == [20, 0]


def test_seeded_matches_replay_to_a_fixed_result() -> None:
    results = []
    for seed, fmt in ((1, "coppie"), (2, "testa_a_testa"), (3, "4in2")):
        rng = SeededRng(seed)
        st = E.new({"format": fmt, "accuso": True}, seats_for(fmt), rng)
        play_out(E, st, rng)
        results.append((E.outcome(st)["points"], [h["points"] for h in st["history"]]))
    assert results == RESULTS


RESULTS = [
    ([29, 32], [[5, 6], [8, 6], [6, 5], [6, 8], [4, 7]]),
    ([22, 17], [[2, 9], [8, 3], [12, 5]]),  # 12: card points plus accusi
    ([14, 22], [[6, 5], [6, 8], [2, 9]]),
]


def test_carte_viste_show_declared_honours_and_accused_cards_still_in_hand() -> None:
    cfg = {"format": "coppie", "dichiarazioni": True, "accuso": True}
    plain = rigged(E, cfg, deck_for(FOUR))
    viste = rigged(E, {**cfg, "carte_viste": True}, deck_for(FOUR))
    for st in (plain, viste):
        play_card(st, "5d")  # "Ho il 3 e il 2 quarti"
    assert "shown" not in E.view(plain, None)["deal"]
    assert E.view(viste, None)["deal"]["shown"] == {"1": ["3d", "2d"]}
    assert E.view(viste, viste["seats"][2])["deal"]["shown"] == {"1": ["3d", "2d"]}


def test_the_stock_is_shown_only_where_the_deal_has_one() -> None:
    """In four every card is dealt (no tallone to show); testa a testa the stock counts down."""
    four = DEAL.new(order=[0, 1, 2, 3], dealer=3, lines=[[0, 2], [1, 3]], deck=italian_deck())
    assert "stock_count" not in DEAL.view(four, frozenset({0}), False)
    two = DEAL.new(order=[0, 1], dealer=1, lines=[[0], [1]], deck=italian_deck())
    assert DEAL.view(two, frozenset({0}), False)["stock_count"] == 20
    two["taken"]["0"], two["stock"] = two["stock"], []  # drawn to the last card: still a game with a stock
    assert DEAL.view(two, frozenset({0}), False)["stock_count"] == 0
