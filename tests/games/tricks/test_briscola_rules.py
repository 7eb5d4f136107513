"""Briscola golden tests: every example and rule of the chapter (rules 004; RULINGS I6, C1)."""

from __future__ import annotations

import copy

import pytest

from games.briscola.deal import CARD_POINTS, DEAL, card_points
from games.cards import italian_deck
from games.engine import ConfigError
from games.partite import cash_settlement
from games.registry import get
from games.rng import SeededRng

from .trick_helpers import deck_for, play_out, rigged, seats_for

E = get("briscola")


def seeded_match(seed: int, **config: object) -> dict:
    rng = SeededRng(seed)
    st = E.new({"format": "testa_a_testa", **config}, seats_for("testa_a_testa"), rng)
    play_out(E, st, rng)
    return st


def test_card_points_table_adds_up_to_120() -> None:
    assert CARD_POINTS == {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
    assert card_points(["7d", "6d", "5d", "4d", "2d"]) == 0
    assert card_points(italian_deck()) == 120  # 4·11 + 4·10 + 4·4 + 4·3 + 4·2


def test_61_wins_the_smazzata_and_60_60_is_a_tie() -> None:
    d = DEAL.new(order=[0, 1], dealer=0, lines=[[0], [1]], deck=italian_deck())
    sixty = ["As", "3s", "Ah", "3h", "Ks", "Qs", "Js", "Kh", "Qh", "Jh"]
    assert card_points(sixty) == 60
    d["taken"] = {"0": sixty, "1": [c for c in italian_deck() if c not in sixty]}
    d["hands"] = {"0": [], "1": []}
    d["stock"] = []
    assert DEAL.result(d)["points"] == [60, 60]
    assert DEAL.result(d)["winner"] is None
    d["taken"]["0"].append("Jd")
    d["taken"]["1"].remove("Jd")
    assert DEAL.result(d)["winner"] == 0


def test_cash_difference_93_27_is_7() -> None:
    # "Giocatore A totalizza 93 punti, B 27: 66 / 10 = 6,6 → 7" (seeded match, replayed).
    st = seeded_match(198)
    out = E.outcome(st)
    assert out["points"] == [93, 27]
    assert out["cash"]["differenza_effettiva"] == 66
    assert out["cash"]["differenza_punti"] == 7
    pay = cash_settlement(out, posta_partita=1000, posta_unitaria=100, perdita_massima=2000, rake_bp=0)
    assert pay["amount"] == 1000 + 7 * 100


def test_cash_difference_six_and_a_half_rounds_down() -> None:
    # "Se la differenza punti effettiva fosse stata di 6,50 punti … = 6": a vinco subito at 65–0.
    st = seeded_match(705, vinco_subito=True)
    out = E.outcome(st)
    assert out["points"] == [0, 65]
    assert out["cash"]["differenza_punti"] == 6


def test_a_60_60_smazzata_decides_nothing_the_next_one_does() -> None:
    # RULINGS I6: partite a punti = first past 60 in a smazzata; the match totals add smazzate.
    st = seeded_match(131, vinco_subito=True)
    assert [h["points"] for h in st["history"]] == [[60, 60], [62, 34]]
    assert st["history"][1]["detail"]["ended_by"] == "vinco_subito"
    assert E.outcome(st)["winner"] == 0


def test_deal_turned_briscola_and_drawing_order_two_players() -> None:
    st = rigged(E, {"format": "testa_a_testa"}, italian_deck())
    deal = st["deal"]
    deck = st["deck_log"][-1]
    assert deal["hands"] == {"1": deck[0:6:2], "0": deck[1:6:2]}  # from the dealer's right
    assert deal["briscola"] == deck[6] and deal["trump"] == deck[6][1]
    assert deal["stock"][-1] == deck[6]  # under the stock: the last card drawn
    spectator = E.view(st, None)["deal"]
    assert spectator["briscola"] == deck[6] and spectator["hands"] == {}
    draws_per_trick = []
    while not E.is_over(st) and st["deal_no"] == 1:
        seat = E.to_act(st)[0]
        action = E.rules.auto_action(st, st["deal"]["turn"])  # type: ignore[attr-defined]  # registry.get gives the base Engine; this one has rules
        events = E.apply(st, seat, action, SeededRng(1))
        took = [e for e in events if e["type"] == "presa"]
        if took:
            draws = [e for e in events if e["type"] == "pesca" and ("to" in e or e.get("card") == deck[6])]
            draws_per_trick.append(
                (took[0]["seat"], [e["seat"] for e in draws], [e.get("card") for e in draws])
            )
    assert len(draws_per_trick) == 20
    for winner, drawers, _ in draws_per_trick[:17]:
        assert drawers[0] == winner and len(drawers) == 2  # the winner draws first
    assert draws_per_trick[16][2][1] == deck[6]  # the loser of the 17th trick gets the briscola
    assert all(d[1] == [] for d in draws_per_trick[17:])  # the last three tricks: no drawing


def test_four_players_seven_rounds_of_draws_then_three_tricks() -> None:
    st = rigged(E, {"format": "coppie"}, italian_deck())
    assert [len(h) for h in st["deal"]["hands"].values()] == [3, 3, 3, 3]
    assert len(st["deal"]["stock"]) == 28
    tricks = 0
    while st["deal_no"] == 1 and not E.is_over(st):
        seat = E.to_act(st)[0]
        before = len(st["deal"]["stock"])
        events = E.apply(st, seat, E.rules.auto_action(st, st["deal"]["turn"]), SeededRng(1))  # type: ignore[attr-defined]  # registry.get gives the base Engine; this one has rules
        if any(e["type"] == "presa" for e in events):
            tricks += 1
            if st["deal_no"] == 1 and not E.is_over(st):
                assert before - len(st["deal"]["stock"]) == (4 if tricks <= 7 else 0)
    assert tricks == 10


def test_free_play_every_card_is_legal() -> None:
    st = rigged(E, {"format": "testa_a_testa"}, italian_deck())
    seat = E.to_act(st)[0]
    pos = st["deal"]["turn"]
    E.apply(st, seat, {"type": "gioca", "card": st["deal"]["hands"][str(pos)][0]}, SeededRng(1))
    other = E.to_act(st)[0]
    hand = st["deal"]["hands"][str(st["deal"]["turn"])]
    assert sorted(a["card"] for a in E.legal_actions(st, other) if a["type"] == "gioca") == sorted(hand)


def test_vinco_subito_ends_the_smazzata_at_61() -> None:
    for seed in range(40):
        st = seeded_match(seed, vinco_subito=True)
        for rec in st["history"]:
            det = rec["detail"]
            if det["ended_by"] == "vinco_subito":
                assert max(det["points"]) >= 61
                assert sum(det["points"]) < 120 or det["points"][det["winner"]] >= 61


def test_vinco_subito_in_partite_a_smazzate_is_a_game_option() -> None:
    with pytest.raises(ConfigError):
        E.validate_config({"mode": "smazzate", "deals": 3, "vinco_subito": True})
    st = E.new(
        {"mode": "smazzate", "deals": 3, "vinco_subito_smazzata": True},
        seats_for("testa_a_testa"),
        SeededRng(3),
    )
    play_out(E, st, SeededRng(3))
    assert any(h["detail"]["ended_by"] == "vinco_subito" for h in st["history"])


def test_partite_a_smazzate_best_of_an_odd_number() -> None:
    with pytest.raises(ConfigError):
        E.validate_config({"mode": "smazzate", "deals": 2})
    with pytest.raises(ConfigError):
        E.validate_config({"mode": "smazzate", "deals": 3, "count": "punti"})
    with pytest.raises(ConfigError):
        E.validate_config({"mode": "punti", "target": 21})
    for seed in range(30):
        st = E.new({"mode": "smazzate", "deals": 3}, seats_for("testa_a_testa"), SeededRng(seed))
        play_out(E, st, SeededRng(seed))
        out = E.outcome(st)
        won = out["deals_won"]
        assert out["deals"] <= 3
        if max(won) == 2:  # "in una partita a tre smazzate vince chi se ne aggiudica due"
            assert out["winner"] == won.index(2)
            assert out["deals"] == 2 + (min(won) > 0 or sum(won) < out["deals"])


def test_ko_third_spareggio_the_last_taker_loses() -> None:
    cfg = E.validate_config({"ko": True})
    assert cfg["decider"] == "loses" and cfg["spareggi"] == 3


def test_timeout_penalty_up_to_20_points() -> None:
    st = rigged(E, {"format": "testa_a_testa"}, italian_deck())
    offender = E.to_act(st)[0]
    E.apply(st, offender, {"type": "tempo_scaduto"}, SeededRng(1))
    out = E.outcome(st)
    assert out["forfeit"]["penalty"] == 20  # 120 unassigned, capped at 20
    assert sorted(out["points"]) == [0, 20]
    assert out["cash"]["differenza_punti"] == 2
    assert out["vp"][out["winner"]] >= 14 and out["vp"][1 - out["winner"]] == 0


def test_timeout_when_ahead_leaves_a_zero_difference() -> None:
    st = E.new({"format": "testa_a_testa"}, seats_for("testa_a_testa"), SeededRng(11))
    rng = SeededRng(11)
    while True:
        seat = E.to_act(st)[0]
        E.apply(st, seat, E.sample_action(st, seat, rng), rng)
        pts = E.rules.deal.running_points(st["deal"])  # type: ignore[attr-defined]  # registry.get gives the base Engine; this one has rules
        if abs(pts[0] - pts[1]) > 30 and st["deal"]["trick"] == []:
            break
    leader_line = 0 if pts[0] > pts[1] else 1
    offender_seat = st["seats"][leader_line]
    E.apply(st, offender_seat, {"type": "abbandona"}, rng)
    out = E.outcome(st)
    assert out["winner"] == 1 - leader_line
    assert out["cash"]["differenza_effettiva"] == 0  # "la differenza punti è uguale a zero"


def test_carte_viste_and_carte_scoperte_views() -> None:
    st = rigged(E, {"format": "testa_a_testa", "carte_viste": True}, italian_deck())
    rng = SeededRng(2)
    while st["deal"]["stock"]:
        seat = E.to_act(st)[0]
        E.apply(st, seat, E.sample_action(st, seat, rng), rng)
    v = E.view(st, 1)["deal"]
    assert len(v["tricks_seen"]) == v["tricks_played"] == 17
    assert set(v["hands"]) == {"0", "1"}  # the last hand is played face up
    assert E.view(st, None)["deal"]["hands"] == {}
    st2 = rigged(E, {"format": "coppie", "carte_scoperte": True}, italian_deck())
    v2 = E.view(st2, st2["seats"][0])["deal"]
    assert set(v2["hands"]) == {"0", "2"}  # partner yes, opponents never
    plain = rigged(
        E, {"format": "testa_a_testa"}, deck_for({0: ["Ad", "2d", "3d"], 1: ["Ac", "2c", "3c"]}, size=3)
    )
    for _ in range(6):
        seat = E.to_act(plain)[0]
        E.apply(plain, seat, E.sample_action(plain, seat, rng), rng)
    v3 = E.view(plain, plain["seats"][0])["deal"]
    assert set(v3["hands"]) == {"0"}
    assert v3["tricks_played"] == 3 and len(v3["tricks_seen"]) == 1  # without carte viste: the last


def test_illegal_card_changes_nothing() -> None:
    st = rigged(E, {"format": "testa_a_testa"}, italian_deck())
    seat = E.to_act(st)[0]
    other = next(s for s in st["seats"] if s != seat)
    before = copy.deepcopy(st)
    for bad_seat, action in (
        (seat, {"type": "gioca", "card": "Kd" if "Kd" not in str(st["deal"]["hands"]) else "7s"}),
        (other, {"type": "gioca", "card": st["deal"]["hands"][str(st["seats"].index(other))][0]}),
        (seat, {"type": "accuso", "combo": "tre:3"}),
        (seat, {"type": "gioca"}),
    ):
        with pytest.raises(Exception) as info:
            E.apply(st, bad_seat, action, SeededRng(1))
        assert getattr(info.value, "code", None)
        assert st == before
