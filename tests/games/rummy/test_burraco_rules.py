"""Golden tests of Burraco (rules 004 "Regole del Burraco", RULINGS R1, I5, C1) on rigged deals."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import rummy_deck, same_cards
from games.engine import IllegalAction, State
from games.melds import BURRACO, sequence_options, set_options, sort_hand
from games.partite import cash_settlement, round_half_down
from games.registry import get
from games.rng import SeededRng

from .rummy_helpers import play_checked, refused_unchanged, seat_of, seats

ENGINE = get("burraco")


def rigged(fmt: str = "testa_a_testa", **deal: Any) -> State:
    """A match whose smazzata is replaced by the given pieces (position 0 to move, after pesca)."""
    n = 4 if fmt == "coppie" else 2
    st = ENGINE.new({"format": fmt, "target": 2005}, seats(n), SeededRng(0))
    d = st["deal"]
    d.update(
        {
            "hands": [[] for _ in range(len(st["seats"]))],
            "tallone": ["4c"] * 20,
            "scarti": ["Kd"],
            "pozzetti": [["5d"] * 11, ["6d"] * 11],
            "melds": [],
            "next_id": 1,
            "turn": 0,
            "phase": "gioca",
        }
    )
    d.update(deal)
    return st


def meld(line: int, ident: int, cards: list[str], kind: str = "scala") -> dict[str, Any]:
    layout = (sequence_options if kind == "scala" else set_options)(cards, BURRACO)[0]
    return {**layout, "id": ident, "line": line}


def refused(st: State, pos: int, action: dict[str, Any]) -> IllegalAction:
    return refused_unchanged(ENGINE, st, pos, action)


def play(st: State, pos: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    return play_checked(ENGINE, st, pos, action)


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "players", "tallone"), [("testa_a_testa", 2, 63), ("coppie", 4, 41)])
def test_deal(fmt: str, players: int, tallone: int) -> None:
    st = ENGINE.new({"format": fmt}, seats(players if fmt == "coppie" else 2), SeededRng(5))
    d = st["deal"]
    n = len(st["seats"])
    assert [len(h) for h in d["hands"]] == [11] * n
    assert [len(p) for p in d["pozzetti"]] == [11, 11]
    assert len(d["scarti"]) == 1 and len(d["tallone"]) == tallone
    deck = st["deck_log"][0]
    assert same_cards(deck, rummy_deck())
    # one at a time from the dealer's right (the next position), then the discard, then the
    # pozzetti one card at a time from the bottom of the deck
    first = (st["dealer"] + 1) % n
    assert d["hands"][first][0] == deck[0] and d["hands"][first][1] == deck[n]
    assert d["scarti"] == [deck[11 * n]]
    assert d["pozzetti"][0][:2] == [deck[-1], deck[-3]] and d["pozzetti"][1][:2] == [deck[-2], deck[-4]]
    assert d["turn"] == first and d["phase"] == "pesca"
    assert d["tallone"][-1] == deck[11 * n + 1]  # the top of the tallone is drawn first


# -- pescare / raccogliere -------------------------------------------------------------------------


def test_raccogli_takes_the_whole_pile() -> None:
    st = rigged(phase="pesca", hands=[["3h", "9s"], ["4d"]], scarti=["Kd", "7c", "7h"])
    play(st, 0, {"type": "raccogli"})
    assert st["deal"]["scarti"] == [] and st["deal"]["hands"][0] == ["3h", "9s", "Kd", "7c", "7h"]
    assert st["deal"]["raccolto"] is None  # more than one card: any may be discarded


def test_the_only_card_taken_may_not_be_discarded_unless_another_equal_is_in_hand() -> None:
    st = rigged(phase="pesca", hands=[["3h", "9s", "Qc"], ["4d"]], scarti=["7h"])
    play(st, 0, {"type": "raccogli"})
    err = refused(st, 0, {"type": "scarta", "card": "7h"})
    assert "unica carta raccolta" in err.message
    assert {"type": "scarta", "label": "Scarta", "card": "7h"} not in ENGINE.legal_actions(st, seat_of(st, 0))
    st2 = rigged(phase="pesca", hands=[["3h", "7h", "Qc"], ["4d"]], scarti=["7h"])
    play(st2, 0, {"type": "raccogli"})
    play(st2, 0, {"type": "scarta", "card": "7h"})  # "a meno di non averne l'altra uguale in mano"


def test_melds_need_pesca_first() -> None:
    st = rigged(phase="pesca", hands=[["3h", "4h", "5h", "9c"], ["4d"]])
    refused(st, 0, {"type": "cala", "cards": ["3h", "4h", "5h"]})


# -- aprire e allungare ----------------------------------------------------------------------------


def test_open_and_extend_only_own_line() -> None:
    st = rigged(
        hands=[["3h", "4h", "5h", "6h", "9c", "Ks"], ["4d"]],
        melds=[meld(1, 1, ["7c", "8c", "9c"])],
        next_id=2,
    )
    play(st, 0, {"type": "cala", "cards": ["3h", "4h", "5h"]})
    m = st["deal"]["melds"][-1]
    assert m["line"] == 0 and m["cards"] == ["3h", "4h", "5h"]
    refused(st, 0, {"type": "attacca", "meld": 1, "cards": ["9c"]})  # the other line's meld
    play(st, 0, {"type": "attacca", "meld": m["id"], "cards": ["6h"]})
    assert st["deal"]["melds"][-1]["cards"] == ["3h", "4h", "5h", "6h"]


def test_no_two_separate_combinations_of_one_rank() -> None:
    st = rigged(
        hands=[["9h", "9d", "9s", "Kc", "Ks"], ["4d"]],
        melds=[meld(0, 1, ["9c", "9c", "9d"], "tris")],
        next_id=2,
    )
    err = refused(st, 0, {"type": "cala", "cards": ["9h", "9d", "9s"]})
    assert "combinazione" in err.message
    play(st, 0, {"type": "attacca", "meld": 1, "cards": ["9h", "9d", "9s"]})  # it may be extended


def test_two_of_clubs_refused_and_matta_end_choice_r1() -> None:
    st = rigged(hands=[["2c", "4h", "Kc", "Ks"], ["4d"]], melds=[meld(0, 1, ["3h", "2h", "5h"])], next_id=2)
    refused(st, 0, {"type": "attacca", "meld": 1, "cards": ["2c"]})
    opts = ENGINE.options(st, seat_of(st, 0), {"type": "attacca", "meld": 1, "cards": ["4h"]})
    assert sorted(o["start"] for o in opts) == [2, 3]
    play(st, 0, {"type": "attacca", "meld": 1, "cards": ["4h"], "start": 3})
    assert st["deal"]["melds"][0]["cards"] == ["3h", "4h", "5h", "2h"]  # the player's chosen end


def test_structured_specs_offer_subsets_not_lists() -> None:
    st = rigged(
        hands=[["3h", "4h", "5h", "9c", "Kd"], ["4d"]], melds=[meld(0, 1, ["7c", "8c", "9c"])], next_id=2
    )
    specs = ENGINE.legal_actions(st, seat_of(st, 0))
    cala = next(s for s in specs if s["type"] == "cala")
    assert cala["cards"] == {"subset_of": ["3h", "4h", "5h", "9c", "Kd"], "min": 3}
    assert any(s["type"] == "attacca" and s["meld"] == 1 for s in specs)
    assert {s["card"] for s in specs if s["type"] == "scarta"} == {"3h", "4h", "5h", "9c", "Kd"}
    assert specs[-1]["type"] == "abbandona"


# -- pozzetto --------------------------------------------------------------------------------------


def test_pozzetto_in_diretta() -> None:
    st = rigged(hands=[["3h", "4h", "5h"], ["4d"]])
    events = play(st, 0, {"type": "cala", "cards": ["3h", "4h", "5h"]})
    d = st["deal"]
    assert d["hands"][0] == ["5d"] * 11 and d["pozzetto_line"][0] == 0 and d["pozzetto_mode"][0] == "diretta"
    assert d["turn"] == 0 and d["phase"] == "gioca"  # he plays it at once
    private = [e for e in events if e["type"] == "carte_pozzetto"]
    assert private and private[0]["to"] == [seat_of(st, 0)]
    assert all("cards" not in e for e in events if e["type"] == "pozzetto")


def test_pozzetto_con_scarto_and_one_per_line() -> None:
    st = rigged(hands=[["Qh"], ["4d", "8s"]], pozzetto_line=[None, 0], pozzetti=[[], ["6d"] * 11])
    play(st, 0, {"type": "scarta", "card": "Qh"})
    d = st["deal"]
    assert d["hands"][0] == ["6d"] * 11 and d["pozzetto_line"][0] == 1 and d["pozzetto_mode"][0] == "scarto"
    assert d["turn"] == 1 and d["phase"] == "pesca"
    # the other line already has its pozzetto: it may not empty its hand without closing
    st2 = rigged(hands=[["3h", "4h", "5h"], ["4d"]], pozzetto_line=[0, None])
    err = refused(st2, 0, {"type": "cala", "cards": ["3h", "4h", "5h"]})
    assert "scartare" in err.message


# -- chiusura --------------------------------------------------------------------------------------


PULITO = ["3h", "4h", "5h", "6h", "7h", "8h", "9h"]


def test_closing_needs_a_burraco() -> None:
    st = rigged(
        hands=[["Qh"], ["4d"]], pozzetto_line=[0, None], melds=[meld(0, 1, ["3s", "4s", "5s"])], next_id=2
    )
    err = refused(st, 0, {"type": "scarta", "card": "Qh"})
    assert "burraco" in err.message


def test_closing_discard_may_not_be_a_matta() -> None:
    for card in ("X1", "2c"):
        st = rigged(hands=[[card], ["4d"]], pozzetto_line=[0, None], melds=[meld(0, 1, PULITO)], next_id=2)
        err = refused(st, 0, {"type": "scarta", "card": card})
        assert "matta" in err.message
    # nor may a meld leave only a matta to close with
    st = rigged(hands=[["Th", "X1"], ["4d"]], pozzetto_line=[0, None], melds=[meld(0, 1, PULITO)], next_id=2)
    refused(st, 0, {"type": "attacca", "meld": 1, "cards": ["Th"]})


def test_closing_scores_exactly() -> None:
    st = rigged(
        hands=[["Qh"], ["4d", "X2", "Ac"]],
        pozzetto_line=[0, None],
        pozzetti=[[], ["6d"] * 11],
        melds=[
            meld(0, 1, PULITO),
            meld(0, 2, ["9c", "9d", "X1"], "tris"),
            meld(1, 3, ["Ks", "Kd", "Kc"], "tris"),
        ],
        next_id=4,
    )
    events = play(st, 0, {"type": "scarta", "card": "Qh"})
    end = next(e for e in events if e["type"] == "fine_smazzata")
    # line 0: cards 7×5... (3-7: 5 each, 8, 9: 10) = 45; 9 9 jolly = 50; pulito 200; chiusura 100
    assert end["detail"]["lines"][0] == {
        "carte_appoggiate": 95,
        "burrachi": 200,
        "puliti": 1,
        "semipuliti": 0,
        "sporchi": 0,
        "chiusura": 100,
        "carte_in_mano": 0,
        "pozzetto": 0,
        "totale": 395,
    }
    # line 1: kings 30; in hand 4 (5) + jolly (30) + ace (15) = 50; no pozzetto −100
    assert end["detail"]["lines"][1]["totale"] == 30 - 50 - 100
    assert end["points"] == [395, -120]
    assert st["deal_no"] == 2  # the next smazzata is dealt


def test_burraco_types_score() -> None:
    semi = meld(0, 1, [*PULITO, "X1"])
    sporco = meld(0, 2, ["3c", "4c", "X2", "6c", "7c", "8c", "9c"])
    st = rigged(hands=[["Qh"], ["4d"]], pozzetto_line=[0, 1], melds=[semi, sporco], next_id=3)
    events = play(st, 0, {"type": "scarta", "card": "Qh"})
    sheet = next(e for e in events if e["type"] == "fine_smazzata")["detail"]["lines"][0]
    assert (sheet["semipuliti"], sheet["sporchi"], sheet["burrachi"]) == (1, 1, 250)


def test_smazzata_ends_when_two_cards_remain_in_the_tallone() -> None:
    st = rigged(phase="pesca", hands=[["Qh", "3c"], ["4d", "8s"]], tallone=["Jc", "Jd", "Js"])
    play(st, 0, {"type": "pesca"})
    assert len(st["deal"]["tallone"]) == 2 and st["deal_no"] == 1
    events = play(st, 0, {"type": "scarta", "card": "Qh"})  # the last to play
    end = next(e for e in events if e["type"] == "fine_smazzata")
    assert end["detail"]["end"] == "tallone" and end["decider"] == 0  # last move: line 0
    assert end["points"] == [-100 - 15, -100 - 15]


# -- fine partita, penalità, cassa -----------------------------------------------------------------


def test_timeout_penalty_350_and_cash_difference() -> None:
    st = rigged()
    st["totals"] = [1885, 1860]
    ENGINE.apply(st, seat_of(st, 1), {"type": "tempo_scaduto"}, SeededRng(1))
    res = ENGINE.outcome(st)
    assert res["winner"] == 0 and res["points"] == [2235, 1860]
    assert res["cash"]["differenza_effettiva"] == 375
    assert res["cash"]["differenza_punti"] == 4  # 2235 − 1860 = 375 → 3,75 → 4
    assert res["vp"] == [20, 0]
    pay = cash_settlement(res, posta_partita=100, posta_unitaria=50, perdita_massima=10_000, rake_bp=500)
    assert pay["amount"] == 100 + 50 * 4
    assert round_half_down(350, 100) == 3  # "3,50 ... differenza punti = 3"
    # the offender still ahead after the penalty: he loses, the difference is 0
    st2 = rigged()
    st2["totals"] = [500, 0]
    ENGINE.apply(st2, seat_of(st2, 0), {"type": "abbandona"}, SeededRng(1))
    res2 = ENGINE.outcome(st2)
    assert res2["winner"] == 1 and res2["cash"]["differenza_punti"] == 0 and res2["vp"][1] >= 14


def test_ko_tie_the_last_mover_loses() -> None:
    st = ENGINE.new(
        {"format": "testa_a_testa", "mode": "smazzate", "deals": 1, "ko": True, "spareggi": 0},
        seats(2),
        SeededRng(0),
    )
    st["deal"].update(
        {
            "hands": [["Qh", "3c"], ["Qd", "3s"]],
            "tallone": ["Jc", "Jd", "Js"],
            "turn": 0,
            "phase": "pesca",
            "melds": [],
        }
    )
    ENGINE.apply(st, seat_of(st, 0), {"type": "pesca"}, SeededRng(1))
    ENGINE.apply(
        st,
        seat_of(st, 0),
        {"type": "scarta", "card": "Qh"},
        SeededRng(1),
    )
    res = ENGINE.outcome(st)
    assert res["points"][0] == res["points"][1]
    assert res["winner"] == 1 and res["reason"] == "ultima_presa"  # I5: the last move loses


def test_view_hides_hands_pozzetti_and_tallone() -> None:
    st = ENGINE.new({"format": "coppie", "carte_scoperte": True}, seats(4), SeededRng(3))
    d = st["deal"]
    v = ENGINE.view(st, seat_of(st, 0))["deal"]
    assert v["hands"][0] is not None and v["hands"][2] is not None  # partner, carte scoperte
    assert v["hands"][1] is None and v["hands"][3] is None
    assert v["pozzetti"] == [11, 11] and v["tallone"] == len(d["tallone"])
    spectator = ENGINE.view(st, None)["deal"]
    assert spectator["hands"] == [None] * 4 and spectator["scarti"] == d["scarti"]


def test_view_sorts_the_hand_by_preference() -> None:
    st = ENGINE.new(
        {"format": "testa_a_testa"},
        [{"seat": 1, "prefs": {"ordina_mano": "valore"}}, {"seat": 2}],
        SeededRng(3),
    )
    pos = st["seats"].index(1)
    hand = ENGINE.view(st, 1)["deal"]["hands"][pos]
    assert hand == sort_hand(st["deal"]["hands"][pos], "valore", BURRACO)


def test_partner_closes_after_the_other_took_the_pozzetto() -> None:
    st = rigged(
        "coppie",
        hands=[["Qh"], ["4d"], ["5s", "6s"], ["7c"]],
        pozzetto_line=[0, None],
        pozzetti=[[], ["6d"] * 11],
        melds=[meld(0, 1, PULITO)],
        next_id=2,
    )
    events = play(st, 0, {"type": "scarta", "card": "Qh"})
    end = next(e for e in events if e["type"] == "fine_smazzata")
    assert end["detail"]["closed_by"] == 0 and end["detail"]["lines"][0]["chiusura"] == 100
    assert end["detail"]["lines"][0]["carte_in_mano"] == -10  # the partner's 5♠ 6♠


def test_options_offer_the_matta_end_for_a_new_meld() -> None:
    st = rigged(hands=[["6c", "7c", "X1", "Kd"], ["4d"]])
    opts = ENGINE.options(st, seat_of(st, 0), {"type": "cala", "cards": ["6c", "7c", "X1"]})
    assert {o["start"]: o["cards"] for o in opts} == {5: ["X1", "6c", "7c"], 6: ["6c", "7c", "X1"]}
    play(st, 0, {"type": "cala", "cards": ["6c", "7c", "X1"], "start": 5})
    assert st["deal"]["melds"][0]["cards"] == ["X1", "6c", "7c"]
    st2 = rigged(hands=[["6c", "7c", "X1", "Kd"], ["4d"]])
    refused(st2, 0, {"type": "cala", "cards": ["6c", "7c", "X1"], "start": 9})
    refused(st2, 0, {"type": "cala", "cards": ["6c", "7c", "X1"], "start": "5"})
