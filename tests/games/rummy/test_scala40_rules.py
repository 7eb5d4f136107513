"""Golden tests of Scala 40 (rules 004 "Regole della Scala 40", RULINGS R2, G2, C1) on rigged deals."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import rummy_deck, same_cards
from games.engine import IllegalAction, State
from games.melds import SCALA40, sequence_options, set_options
from games.partite import round_half_down
from games.registry import get
from games.rng import SeededRng

from .rummy_helpers import play_checked, refused_unchanged, seat_of, seats

ENGINE = get("scala40")


def rigged(n: int = 2, config: dict[str, Any] | None = None, **deal: Any) -> State:
    """A match whose smazzata is replaced by the given pieces (position 0 to move, after pesca)."""
    st = ENGINE.new({"mode": "punti", "target": 101, **(config or {})}, seats(n), SeededRng(0))
    d = st["deal"]
    d.update(
        {
            "hands": [["Kd", "Kd"] for _ in range(n)],
            "tallone": ["4c"] * 20,
            "scarti": ["Qs"],
            "melds": [],
            "next_id": 1,
            "turn": 0,
            "phase": "gioca",
            "turn_no": 5,
        }
    )
    d.update(deal)
    return st


def meld(
    owner: int, ident: int, cards: list[str], kind: str = "scala", jolly_suit: str | None = None
) -> dict[str, Any]:
    opts = (sequence_options if kind == "scala" else set_options)(cards, SCALA40)
    if jolly_suit is not None:
        opts = [o for o in opts if o["jolly_suit"] == jolly_suit]
    return {**opts[0], "id": ident, "owner": owner}


def refused(st: State, pos: int, action: dict[str, Any]) -> IllegalAction:
    return refused_unchanged(ENGINE, st, pos, action)


def play(st: State, pos: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    return play_checked(ENGINE, st, pos, action)


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_13_each_clockwise(n: int) -> None:
    st = ENGINE.new({}, seats(n), SeededRng(n))
    d = st["deal"]
    assert st["seats"] == sorted(st["seats"], reverse=True)  # clockwise: decreasing seat numbers
    assert [len(h) for h in d["hands"]] == [13] * n
    assert len(d["scarti"]) == 1 and len(d["tallone"]) == 108 - 13 * n - 1
    deck = st["deck_log"][0]
    assert same_cards(deck, rummy_deck())
    first = (st["dealer"] + 1) % n  # the dealer's left
    assert d["turn"] == first and d["hands"][first][:2] == [deck[0], deck[n]]
    assert d["scarti"] == [deck[13 * n]]


def test_the_table_sets_the_linee() -> None:
    from games.engine import ConfigError

    with pytest.raises(ConfigError):
        ENGINE.new({"linee": 3}, seats(2), SeededRng(0))
    with pytest.raises(ConfigError):
        ENGINE.new({}, seats(5), SeededRng(0))
    assert len(ENGINE.new({"linee": 4}, seats(4), SeededRng(0))["seats"]) == 4


# -- opening ---------------------------------------------------------------------------------------


def test_opening_57_accepted_37_refused() -> None:
    hand = ["9h", "9d", "9c", "Ts", "Js", "Qs", "4h", "4d", "4c", "3s", "4s", "5s", "6s", "7s", "Kd"]
    st = rigged(hands=[hand, ["Kd"] * 13])
    err = refused(
        st,
        0,
        {"type": "apri", "melds": [{"cards": ["4h", "4d", "4c"]}, {"cards": ["3s", "4s", "5s", "6s", "7s"]}]},
    )
    assert err.code == "invalid_opening" and err.details["value"] == 37
    events = play(
        st, 0, {"type": "apri", "melds": [{"cards": ["9h", "9d", "9c"]}, {"cards": ["Ts", "Js", "Qs"]}]}
    )
    assert events[0]["value"] == 57 and st["deal"]["opened"][0]


def test_jolly_takes_the_value_it_replaces_and_declares_its_suit() -> None:
    st = rigged(hands=[["Ah", "Ad", "X1", "Kh", "Kd", "Kc", "2s", "5c"], ["Kd"] * 13])
    play(
        st,
        0,
        {
            "type": "apri",
            "melds": [{"cards": ["Ah", "Ad", "X1"], "jolly_suit": "s"}, {"cards": ["Kh", "Kd", "Kc"]}],
        },
    )
    combo = st["deal"]["melds"][0]
    assert combo["jolly_suit"] == "s"  # 33 + 30 = 63


def test_cannot_meld_or_attach_before_opening() -> None:
    st = rigged(
        hands=[["5h", "6h", "7h", "8c", "Kd"], ["Kd"] * 13], melds=[meld(1, 1, ["8h", "9h", "Th"])], next_id=2
    )
    refused(st, 0, {"type": "cala", "cards": ["5h", "6h", "7h"]})
    refused(st, 0, {"type": "attacca", "meld": 1, "cards": ["7h"]})


def test_take_discard_only_to_open_with_it() -> None:
    hand = ["9h", "9d", "Ts", "Js", "Qs", "2c", "5d", "7s"]
    st = rigged(hands=[hand, ["Kd"] * 13], phase="pesca", scarti=["9c"])
    play(st, 0, {"type": "raccogli"})
    refused(st, 0, {"type": "scarta", "card": "2c"})  # the card taken must be used
    err = refused(
        st, 0, {"type": "apri", "melds": [{"cards": ["Ts", "Js", "Qs"]}, {"cards": ["9h", "9d", "2c"]}]}
    )
    assert err.code in ("invalid_meld", "invalid_opening")
    refused(st, 0, {"type": "apri", "melds": [{"cards": ["Ts", "Js", "Qs"]}]})
    play(st, 0, {"type": "apri", "melds": [{"cards": ["Ts", "Js", "Qs"]}, {"cards": ["9h", "9d", "9c"]}]})
    assert st["deal"]["opened"][0]


def test_rimetti_puts_the_taken_card_back() -> None:
    st = rigged(hands=[["2c", "5d", "7s"], ["Kd"] * 13], phase="pesca", scarti=["9c"])
    play(st, 0, {"type": "raccogli"})
    play(st, 0, {"type": "rimetti"})
    d = st["deal"]
    assert d["scarti"] == ["9c"] and d["phase"] == "pesca" and d["hands"][0] == ["2c", "5d", "7s"]
    refused(st, 0, {"type": "raccogli"})
    play(st, 0, {"type": "pesca"})


def test_opened_player_must_use_the_discard_taken() -> None:
    st = rigged(
        hands=[["2c", "5d", "7s"], ["Kd"] * 13],
        phase="pesca",
        scarti=["9c"],
        opened=[True, False],
        melds=[meld(1, 1, ["9h", "9d", "9s"], "tris")],
        next_id=2,
    )
    play(st, 0, {"type": "raccogli"})
    refused(st, 0, {"type": "scarta", "card": "2c"})
    play(st, 0, {"type": "attacca", "meld": 1, "cards": ["9c"]})  # anyone's meld, once opened
    play(st, 0, {"type": "scarta", "card": "2c"})


# -- combinations and sequences --------------------------------------------------------------------


def test_combination_of_distinct_suits_and_one_jolly() -> None:
    st = rigged(hands=[["9h", "9s", "9s", "X1", "X2", "Kd"], ["Kd"] * 13], opened=[True, False])
    refused(st, 0, {"type": "cala", "cards": ["9h", "9s", "9s"]})
    refused(st, 0, {"type": "cala", "cards": ["9h", "X1", "X2"]})
    play(st, 0, {"type": "cala", "cards": ["9h", "9s", "X1"], "jolly_suit": "d"})


def test_attach_then_substitute_the_jolly_and_use_it() -> None:
    st = rigged(
        hands=[["7h", "9c", "4s", "5s", "Kd"], ["Kd"] * 13],
        opened=[True, True],
        melds=[meld(1, 1, ["6h", "X1", "8h"]), meld(1, 2, ["Kh", "Ks", "Kc"], "tris")],
        next_id=3,
    )
    refused(st, 0, {"type": "attacca", "meld": 1, "cards": ["7h"]})  # the jolly's card: sostituzione
    refused(
        st,
        0,
        {"type": "sostituisci", "meld": 1, "card": "9c", "use": {"type": "attacca", "meld": 2, "cards": []}},
    )
    err = refused(st, 0, {"type": "sostituisci", "meld": 1, "card": "7h", "use": {"type": "scarta"}})
    assert "jolly" in err.message
    play(
        st,
        0,
        {"type": "sostituisci", "meld": 1, "card": "7h", "use": {"type": "cala", "cards": ["4s", "5s"]}},
    )
    d = st["deal"]
    assert d["melds"][0]["cards"] == ["6h", "7h", "8h"]
    assert d["melds"][-1]["cards"] in (["4s", "5s", "X1"], ["X1", "4s", "5s"])
    assert "X1" not in d["hands"][0]


def test_the_substituted_jolly_goes_to_another_meld_not_back_to_its_own() -> None:
    """Rules 004: the jolly taken back must be used "in una combinazione o sequenza ovvero
    attaccarlo ad altre sequenze o combinazioni" before discarding: not back onto its own run."""
    st = rigged(
        hands=[["7h", "Qs", "Kd", "3c"], ["Kd"] * 13],
        opened=[True, True],
        melds=[meld(1, 1, ["6h", "X1", "8h"]), meld(1, 2, ["Qh", "Qd", "Qc"], "tris")],
        next_id=3,
    )
    back = {
        "type": "sostituisci",
        "meld": 1,
        "card": "7h",
        "use": {"type": "attacca", "meld": 1, "cards": []},
    }
    err = refused(st, 0, {**back, "use": {**back["use"], "start": 5}})  # 5h-...: the jolly below 6h
    assert "altro gioco" in err.message
    assert st["deal"]["melds"][0]["cards"] == ["6h", "X1", "8h"] and "7h" in st["deal"]["hands"][0]
    play(st, 0, {**back, "use": {"type": "attacca", "meld": 2, "cards": [], "jolly_suit": "s"}})
    d = st["deal"]
    assert d["melds"][0]["cards"] == ["6h", "7h", "8h"]
    assert sorted(d["melds"][1]["cards"]) == ["Qc", "Qd", "Qh", "X1"]
    assert sorted(d["hands"][0]) == ["3c", "Kd", "Qs"]


# -- discards and closing --------------------------------------------------------------------------


def test_unopened_may_not_discard_a_card_that_attaches() -> None:
    st = rigged(hands=[["9h", "Kd", "3c"], ["Kd"] * 13], melds=[meld(1, 1, ["6h", "7h", "8h"])], next_id=2)
    err = refused(st, 0, {"type": "scarta", "card": "9h"})
    assert "attacca" in err.message
    play(st, 0, {"type": "scarta", "card": "3c"})


def test_no_closing_in_the_first_round_nor_with_a_jolly() -> None:
    mine = [meld(1, 1, ["9d", "Td", "Jd"])]
    st = rigged(hands=[["Qh", "Qd"], ["Kd"] * 13], opened=[True, True], turn_no=1, melds=mine, next_id=2)
    err = refused(st, 0, {"type": "attacca", "meld": 1, "cards": ["Qd"]})  # one card left to close with
    assert "scartare" in err.message
    st["deal"]["hands"][0] = ["Qh"]
    assert "primo giro" in refused(st, 0, {"type": "scarta", "card": "Qh"}).message
    st["deal"]["hands"][0] = ["Qh", "Qd"]
    st["deal"]["turn_no"] = 2  # every player has played once
    play(st, 0, {"type": "attacca", "meld": 1, "cards": ["Qd"]})
    st2 = rigged(hands=[["X1"], ["Kd"] * 13], opened=[True, True])
    assert "jolly" in refused(st2, 0, {"type": "scarta", "card": "X1"}).message


def test_closing_scores_and_never_opened_pays_100() -> None:
    st = rigged(n=3, hands=[["Qh"], ["Ah", "Kd", "7c"], ["2c"] * 13], opened=[True, True, False])
    events = play(st, 0, {"type": "scarta", "card": "Qh"})
    end = next(e for e in events if e["type"] == "fine_smazzata")
    assert end["points"] == [0, 1 + 10 + 7, 100] and not end["in_mano"]


def test_chiusura_in_mano_doubles() -> None:
    hand = ["9h", "9d", "9c", "Ts", "Js", "Qs", "3d", "4d", "5d", "6d", "Ah", "Ac", "As", "8c"]
    st = rigged(n=3, hands=[hand, ["Ac", "Ad", "7c"], ["2c"] * 13], opened=[False, True, False])
    play(
        st,
        0,
        {
            "type": "apri",
            "melds": [
                {"cards": ["9h", "9d", "9c"]},
                {"cards": ["Ts", "Js", "Qs"]},
                {"cards": ["3d", "4d", "5d", "6d"]},
                {"cards": ["Ah", "Ac", "As"]},
            ],
        },
    )
    events = play(st, 0, {"type": "scarta", "card": "8c"})
    end = next(e for e in events if e["type"] == "fine_smazzata")
    assert end["in_mano"] and end["points"] == [0, 2 * (11 + 11 + 7), 100]


def test_reshuffle_when_the_tallone_runs_out() -> None:
    st = rigged(hands=[["Qh", "5c"], ["Kd"] * 13], tallone=["Jc"], scarti=["2d", "3d", "4d"], phase="pesca")
    play(st, 0, {"type": "pesca"})
    events = play(st, 0, {"type": "scarta", "card": "Qh"})
    d = st["deal"]
    assert any(e["type"] == "rimescola" for e in events)
    assert d["scarti"] == ["Qh"] and sorted(d["tallone"]) == ["2d", "3d", "4d"]
    assert sorted(st["deck_log"][-1]) == ["2d", "3d", "4d"]


# -- the match -------------------------------------------------------------------------------------


def test_a_punti_players_reaching_the_target_are_out_r2() -> None:
    st = rigged(n=3, hands=[["Qh"], ["Kd"] * 13, ["5c"]], opened=[True, False, True])
    st["totals"] = [0, 10, 50]
    play(st, 0, {"type": "scarta", "card": "Qh"})
    assert st["out"] == [False, True, False] and not st["over"]  # 10 + 100 ≥ 101
    assert st["deal"]["active"] == [0, 2] and st["deal"]["hands"][1] == []
    d = st["deal"]
    closer = d["turn"]
    other = 2 - closer  # the other player still in
    d.update({"phase": "gioca", "turn_no": 5, "opened": [True, False, True]})
    d["hands"][closer], d["hands"][other] = ["Qh"], ["Kc", "Kh", "Ks"]
    d["opened"][other] = False  # never opened: pays 100, out
    play(st, closer, {"type": "scarta", "card": "Qh"})
    res = ENGINE.outcome(st)
    assert res["winner"] == closer and res["reason"] == "punti"
    assert sum(res["mp"]) == 0


def test_mp_conversion_and_cash() -> None:
    st = rigged(hands=[["Qh"], ["Kd", "Kd", "Kh", "Kc", "Ks", "Qd", "Qc"]], opened=[True, True])
    st["config"]["target"] = 70
    play(st, 0, {"type": "scarta", "card": "Qh"})
    res = ENGINE.outcome(st)
    assert res["points"] == [0, 70] and res["mp"] == [70, -70]  # "Giocatore A + 70, Giocatore B − 70"
    assert res["cash"]["differenza_punti"] == 7
    assert round_half_down(27, 10) == 3 and round_half_down(25, 10) == 2  # 27 MP → 3; 2,5 → 2


def test_a_smazzate_best_of_three() -> None:
    st = ENGINE.new({"mode": "smazzate", "deals": 3}, seats(2), SeededRng(0))
    for _ in range(2):
        d = st["deal"]
        d.update(
            {"hands": [["Qh"], ["Kd"]], "phase": "gioca", "turn_no": 5, "turn": 0, "opened": [True, True]}
        )
        play(st, 0, {"type": "scarta", "card": "Qh"})
    res = ENGINE.outcome(st)
    assert res["deals"] == 2 and sorted(res["deals_won"]) == [0, 2]


def test_timeout_penalty_50_plus_hand() -> None:
    st = rigged(hands=[["Kd", "7c"], ["Kd"] * 13])
    st["totals"] = [0, 0]
    ENGINE.apply(st, seat_of(st, 0), {"type": "tempo_scaduto"}, SeededRng(1))
    res = ENGINE.outcome(st)
    assert res["winner"] == 1 and res["points"] == [67, 0]
    assert res["cash"]["differenza_effettiva"] == 67 and res["cash"]["differenza_punti"] == 7
    # tournaments (RULINGS K6): 0 VP and at least 14, MP the VP's minimum, never the real score
    assert res["vp"] == [0, 20] and res["mp"] == [-1, 1]
    st2 = rigged(hands=[["Kd"], ["Kd"] * 13])
    st2["totals"] = [0, 90]
    ENGINE.apply(st2, seat_of(st2, 0), {"type": "abbandona"}, SeededRng(1))
    res2 = ENGINE.outcome(st2)
    assert res2["winner"] == 1 and res2["cash"]["differenza_punti"] == 0  # still ahead: difference 0


def test_views_show_only_own_hand_and_top_discard() -> None:
    st = ENGINE.new({}, seats(3), SeededRng(9))
    for seat in st["seats"]:
        v = ENGINE.view(st, seat)["deal"]
        pos = st["seats"].index(seat)
        assert all((h is not None) == (p == pos) for p, h in enumerate(v["hands"]))
        assert v["tallone"] == len(st["deal"]["tallone"]) and v["scarto"] == st["deal"]["scarti"][-1]
    assert ENGINE.view(st, None)["deal"]["hands"] == [None, None, None]


# -- a coppie, a carte scoperte, 4 in 2 (rules 004 "Regole opzionali – Partite a coppie a carte scoperte") --


def rigged_pairs(config: dict[str, Any] | None = None, **deal: Any) -> State:
    """A Scala 40 a coppie (seats 1-4) whose smazzata is replaced by the given pieces, all opened."""
    return rigged(4, {"format": "coppie", **(config or {})}, **{"opened": [True] * 4, **deal})


def test_pairs_sit_opposite_and_share_a_line() -> None:
    # "Due giocatori seduti di fronte ('nord' e 'sud') giocano contro altri due giocatori"
    st = ENGINE.new({"format": "coppie"}, seats(4), SeededRng(3))
    assert st["seats"] == [4, 3, 2, 1]  # clockwise; partners at positions p and p + 2
    assert [ENGINE.line_of(st, s) for s in (4, 2, 3, 1)] == ["0", "0", "1", "1"]  # one tempo partita
    assert st["totals"] == [0, 0] and st["out"] == [False, False]
    fixed = ENGINE.new({"format": "coppie", "partners": [[1, 3], [2, 4]]}, seats(4), SeededRng(3))
    assert {fixed["seats"][0], fixed["seats"][2]} in ({1, 3}, {2, 4})
    drawn = ENGINE.new({"format": "coppie", "pairs": "casuali"}, seats(4), SeededRng(5))
    assert sorted(drawn["seats"]) == [1, 2, 3, 4]
    four_in_two = ENGINE.new({"format": "4in2"}, seats(2), SeededRng(3))
    assert four_in_two["seats"] == [2, 1, 2, 1] and len(four_in_two["deal"]["hands"]) == 4


def test_the_closing_line_pays_nothing_the_other_pays_both_hands() -> None:
    # "Il giocatore o la linea che ha chiuso la partita avrà come punteggio 0"; the other line's
    # players pay their hands, and one who never opened 100 "indipendentemente dalla somma".
    st = rigged_pairs(
        hands=[["Qh"], ["5c", "5d"], ["Kd", "Kc"], ["2h", "3h", "9s"]],
        opened=[True, True, True, False],
    )
    play(st, 0, {"type": "scarta", "card": "Qh"})
    rec = st["history"][-1]
    assert rec["points"] == [0, 10 + 100]  # the partner's K K do not count
    assert st["totals"] == [0, 110] and st["out"] == [False, True]
    res = ENGINE.outcome(st)  # "il totale dei punti che ... una coppia deve raggiungere per uscire"
    assert res["winner"] == 0 and res["lines"] == [[2, 4], [1, 3]]
    assert res["mp"] == [110, -110] and res["cash"]["loser"] == 1 and res["cash"]["differenza_punti"] == 11
    assert res["per_seat"]["4"]["won"] and res["per_seat"]["2"]["won"] and not res["per_seat"]["1"]["won"]


def test_chiusura_in_mano_doubles_the_other_line() -> None:
    # position 0 lays Q Q Q K K K (60) and closes with the 5 in the same turn
    hand = ["Qh", "Qd", "Qc", "Kh", "Kd", "Kc", "5s"]
    st = rigged_pairs(
        hands=[hand, ["5c", "5d"], ["Kd"], ["9s"]],
        opened=[False, True, True, True],
        opened_at=[None, 1, 1, 1],
    )
    play(st, 0, {"type": "apri", "melds": [{"cards": hand[:3]}, {"cards": hand[3:6]}]})
    play(st, 0, {"type": "scarta", "card": "5s"})
    assert st["history"][-1]["in_mano"] and st["history"][-1]["points"] == [0, 2 * (10 + 9)]


def test_pairs_forfeit_the_line_pays_its_hands_plus_50() -> None:
    st = rigged_pairs(hands=[["Qh"], ["5c"], ["Kd", "7c"], ["9s"]])
    ENGINE.apply(st, seat_of(st, 2), {"type": "abbandona"}, SeededRng(1))  # the partner of position 0
    res = ENGINE.outcome(st)
    assert res["winner"] == 1 and res["points"] == [50 + 10 + 10 + 7, 0]
    assert res["forfeit"] == {
        "line": 0,
        "seats": [2, 4],
        "kind": "abbandona",
        "penalty": 77,
        "seat": seat_of(st, 2),
    }
    assert res["vp"] == [0, 20] and res["mp"] == [-1, 1]  # RULINGS K6
    assert res["cash"]["differenza_punti"] == 8


def test_carte_scoperte_partners_see_each_other_never_the_opponents() -> None:
    # "i compagni, senza essere visti dagli avversari, giocano a carte scoperte"
    st = rigged_pairs({"carte_scoperte": True}, hands=[["Qh"], ["5c"], ["Kd", "7c"], ["9s"]])
    hands = {s: ENGINE.view(st, s)["deal"]["hands"] for s in (4, 3, 2, 1)}
    assert hands[4] == [["Qh"], None, ["Kd", "7c"], None]  # position 0 (seat 4) and its partner
    assert hands[2] == [["Qh"], None, ["Kd", "7c"], None]
    assert hands[3] == [None, ["5c"], None, ["9s"]] == hands[1]
    assert ENGINE.view(st, None)["deal"]["hands"] == [None] * 4  # spectators see no hand
    plain = rigged_pairs(hands=[["Qh"], ["5c"], ["Kd", "7c"], ["9s"]])
    assert ENGINE.view(plain, 4)["deal"]["hands"] == [["Qh"], None, None, None]
    # the partner still cannot move for him
    refused(st, 2, {"type": "scarta", "card": "Kd"})


def test_four_in_two_moves_both_hands_of_its_line() -> None:
    st = ENGINE.new({"format": "4in2"}, seats(2), SeededRng(3))
    view = ENGINE.view(st, 2)["deal"]["hands"]
    assert view[0] is not None and view[2] is not None and view[1] is None and view[3] is None
    assert ENGINE.line_of(st, 2) == "0" and ENGINE.line_of(st, 1) == "1"


@pytest.mark.parametrize(
    ("config", "players"),
    [
        ({"format": "terzetti"}, 4),
        ({"carte_scoperte": True}, 4),  # only a coppie
        ({"format": "4in2", "carte_scoperte": True}, 2),
        ({"format": "coppie", "carte_scoperte": "sì"}, 4),
        ({"format": "coppie"}, 3),
        ({"format": "coppie", "linee": 4}, 4),
        ({"format": "4in2"}, 4),
        ({"format": "coppie", "pairs": "scelte"}, 4),
    ],
)
def test_pairs_configurations_refused(config: dict[str, Any], players: int) -> None:
    from games.engine import ConfigError

    with pytest.raises(ConfigError):
        ENGINE.new(config, seats(players), SeededRng(0))
