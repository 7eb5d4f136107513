"""Mazzetti: every example of the rules' chapter, the B2 decisions, and seeded sessions replayed."""

from __future__ import annotations

import copy
import hashlib

import pytest

from games.engine import IllegalAction, InvalidAmount, dumps
from games.mazzetti.engine import card_value, equal_sizes, punta_wins
from games.registry import get
from games.settemezzo.banco import rake_of
from tests.games.banking.settemezzo_support import deck_rng, placed, play, random_session

ENGINE = get("mazzetti")
CASH = {"mode": "cash", "min_bet": 100, "min_bank": 1000, "rake_bp": 500}
TOURNAMENT = {"mode": "tournament", "min_bet": 100, "min_bank": 400}


def seats(*chips: int, sitout: tuple[int, ...] = ()):
    """Seats 1, 3, 5, … with these credits."""
    return [{"seat": 2 * i + 1, "chips": c, "sitout": 2 * i + 1 in sitout} for i, c in enumerate(chips)]


def after(banker: int, order: list[int]) -> dict:
    """A carry that makes the seat at ``banker``'s right the next mattaro."""
    return {"banker": banker, "seats": order, "played": order}


def test_card_values_table():
    assert [card_value(c) for c in ["Kh", "Qh", "Jh", "7h", "6h", "5h", "4h", "3h", "2h", "Ah"]] == [
        10,
        9,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
    ]
    assert punta_wins("Kc", "Qd") and not punta_wins("Jc", "Jd")  # equal: the mattaro wins (B2)


def test_rake_examples():
    assert rake_of(1000, 500) == 100  # punta: vincita € 10, rake 5 % → € 1
    assert rake_of(2000, 500) == 200  # mattaro: saldo € 20 → € 2


def test_first_mattaro_is_who_receives_the_re_di_denari():
    state = ENGINE.new(CASH, seats(5000, 5000, 5000), deck_rng(["Ah", "Kd"], start=2))
    assert state["designation"]["dealt"] == [[5, "Ah"], [1, "Kd"]] and ENGINE.to_act(state) == [1]


def test_a_whole_mazzata_with_rake():
    rng = deck_rng(placed({9: "Kh", 29: "Jc", 39: "Jd"}))
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    assert ENGINE.legal_actions(state, 1) == [
        {"type": "accetto", "label": "ACCETTO", "amount": {"min": 1000, "max": 5000}},  # risk: 2 × max
        {"type": "rifiuto", "label": "RIFIUTO"},
        {"type": "sitout", "label": "SITOUT"},
    ]
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}))
    assert state["piatto"] == 2000 and state["count"] == 3
    assert ENGINE.legal_actions(state, 1)[0]["amount"] == {"min": 4, "max": 32}
    play(ENGINE, state, rng, (1, {"type": "mazzetto", "amount": 10}))
    assert ENGINE.legal_actions(state, 1)[0]["amount"] == {"min": 4, "max": 26}
    play(ENGINE, state, rng, (1, {"type": "mazzetto", "amount": 20}))  # the last one takes the rest
    view = ENGINE.view(state, 3)
    assert [m["size"] for m in view["mazzetti"]] == [10, 20, 10] and all(
        m["card"] is None for m in view["mazzetti"]
    )
    assert [s["mazzetto"] for s in ENGINE.legal_actions(state, 3) if s["type"] == "punto"] == [0, 1, 2]
    play(ENGINE, state, rng, (3, {"type": "punto", "mazzetto": 2, "amount": 1000}))
    with pytest.raises(IllegalAction):  # taken
        ENGINE.apply(state, 5, {"type": "punto", "mazzetto": 2, "amount": 1000}, rng)
    events = play(ENGINE, state, rng, (5, {"type": "punto", "mazzetto": 0, "amount": 1000}))
    turned = [(e["seat"], e["card"]) for e in events if e["type"] == "gira"]
    assert turned == [(1, "Jc"), (3, "Jd"), (5, "Kh")]  # mattaro first, then from his right
    out = ENGINE.outcome(state)
    assert [r["winner"] for r in state["results"]] == ["banco", "punta"]
    assert out["chips"] == {"1": 10000, "3": 4000, "5": 5900} and out["rake"] == 100  # saldo 0: no rake


def test_mattaro_pays_rake_on_a_positive_balance():
    rng = deck_rng(placed({9: "2h", 29: "Kc", 39: "3s"}))
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(
        ENGINE,
        state,
        rng,
        (1, {"type": "accetto", "amount": 1000}),
        (1, {"type": "mazzetto", "amount": 10}),
        (1, {"type": "mazzetto", "amount": 20}),
        (3, {"type": "punto", "mazzetto": 2, "amount": 1000}),
        (5, {"type": "punto", "mazzetto": 0, "amount": 1000}),
    )
    out = ENGINE.outcome(state)  # saldo € 20, rake 5 %: € 2
    assert out["rake"] == 200 and out["chips"] == {"1": 11800, "3": 4000, "5": 4000}
    assert state["bank_result"] == {"mazzetto": 1, "card": "Kc", "saldo": 2000, "rake": 200}


def test_timeout_while_building_splits_equally_and_the_mattaro_gets_the_last_free_one():
    assert equal_sizes(40, 3) == [14, 13, 13] and equal_sizes(40, 10) == [4] * 10
    rng = deck_rng(placed({9: "4h", 19: "5h", 29: "6h", 39: "7h"}))
    state = ENGINE.new(CASH, seats(10000, 5000, 5000, 5000), rng, after(7, [1, 3, 5, 7]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}), (1, ENGINE.timeout_action(state, 1)))
    assert [len(m["cards"]) for m in state["mazzetti"]] == [10, 10, 10, 10] and state["sitout"]["1"]
    play(
        ENGINE,
        state,
        rng,
        (3, {"type": "punto", "mazzetto": 3, "amount": 500}),
        (5, {"type": "sitout"}),  # cash: does not play this mazzata
        (7, {"type": "punto", "mazzetto": 0, "amount": 100}),
    )
    # free: 1 and 2; the mattaro gets the last one made among them
    assert state["bank_result"]["mazzetto"] == 2 and state["mazzetti"][1]["owner"] is None
    assert ENGINE.outcome(state)["chips"] == {"1": 9600, "3": 5450, "5": 5000, "7": 4900}
    assert ENGINE.view(state, None)["mazzetti"][1]["card"] is None  # never turned over


def test_tournament_mattaro_in_sitout_pays_twice_the_minimum_bet_to_the_others():
    state = ENGINE.new(TOURNAMENT, seats(5000, 5000, 5000, sitout=(1,)), deck_rng(), after(5, [1, 3, 5]))
    assert state["penalties"][0] == {"seat": 1, "amount": 200, "to": {"3": 100, "5": 100}, "as": "banco"}
    assert ENGINE.to_act(state) == [3] and "rifiuto" not in [
        s["type"] for s in ENGINE.legal_actions(state, 3)
    ]


def test_tournament_punte_in_sitout():
    rng = deck_rng(placed({3: "Kh", 7: "2c", 39: "Qs"}))
    state = ENGINE.new(TOURNAMENT, seats(5000, 5000, 5000, 5000, sitout=(5,)), rng, after(7, [1, 3, 5, 7]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 400}))
    assert state["count"] == 4  # every seated player, the one in sitout too
    play(ENGINE, state, rng, *[(1, {"type": "mazzetto", "amount": 4})] * 3)
    play(ENGINE, state, rng, (3, {"type": "punto", "mazzetto": 1, "amount": 400}))
    # seat 5 was in sitout when its turn came: half the minimum bet to the banco
    assert state["penalties"] == [{"seat": 5, "amount": 50, "as": "punta"}]
    # seat 7 times out after the obligatory bet: the first free mazzetto at the minimum
    play(ENGINE, state, rng, (7, ENGINE.timeout_action(state, 7)))
    assert state["results"][-1] == {
        "punta": 7,
        "bet": 100,
        "mazzetto": 0,
        "card": "Kh",
        "banco_card": "Qs",  # the last one made among the free ones (2 and 3): 3
        "winner": "punta",
        "rake": 0,
    }


def test_all_in_mattaro_splits_his_credit_among_the_punte():
    state = ENGINE.new(CASH, seats(1500, 5000, 5000), deck_rng(), after(5, [1, 3, 5]))
    assert ENGINE.legal_actions(state, 1)[0] == {"type": "all_in", "label": "ACCETTO (ALL IN)"}
    play(ENGINE, state, deck_rng(), (1, {"type": "all_in"}))
    assert state["caps"] == {"3": 750, "5": 750} and state["piatto"] == 1500


def test_refused_actions_change_nothing():
    rng = deck_rng()
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}))
    before = copy.deepcopy(state)
    for action, error in [
        ({"type": "mazzetto", "amount": 3}, InvalidAmount),  # at least 4 cards (B2)
        ({"type": "mazzetto", "amount": 33}, InvalidAmount),  # leaves fewer than 4 for one of the others
        ({"type": "punto", "mazzetto": 0, "amount": 100}, IllegalAction),
    ]:
        with pytest.raises(error):
            ENGINE.apply(state, 1, action, rng)
        assert state == before


def test_seeded_sessions_replay_to_a_fixed_result():
    outcomes = random_session(ENGINE, CASH, seed=2029, hands=6, check="none")
    assert outcomes == random_session(ENGINE, CASH, seed=2029, hands=6, check="none")
    digest = hashlib.sha256(
        dumps({"o": [[o["banker"], o["chips"], o["rake"]] for o in outcomes]}).encode()
    ).hexdigest()[:16]
    assert digest == "de2d97496c7c0b60", digest  # a regression pin (recomputed when the engine changes)
    assert sum(o["rake"] for o in outcomes) == 567
    assert outcomes[-1]["chips"] == {
        "1": 1393, "3": 2634, "5": 2988, "7": 3584, "9": 747, "11": 4033, "13": 2888, "15": 800, "17": 2490
    }  # fmt: skip


def test_cash_tables_make_no_mazzetto_for_who_was_in_sitout_before_the_hand():
    rng = deck_rng()
    state = ENGINE.new(CASH, seats(10000, 5000, 5000, 5000, sitout=(5,)), rng, after(7, [1, 3, 5, 7]))
    play(ENGINE, state, rng, (1, {"type": "rifiuto"}))  # free at cash tables: the right one is asked
    assert ENGINE.to_act(state) == [3] and state["skipped"] == [1]
    assert ENGINE.legal_actions(state, 3)[0]["amount"] == {"min": 1000, "max": 2500}  # punte: 7 and 1
    play(ENGINE, state, rng, (3, {"type": "accetto", "amount": 1000}))
    assert state["punte"] == [7, 1] and state["count"] == 3  # 5 was in sitout before the hand


def test_tournament_punte_bet_only_the_minimum_against_an_all_in_mattaro():
    """Rules 004, Mazzetti: with the banco all in "le prime punte sono obbligate a giocare la puntata
    minima fino a copertura totale … (non è possibile puntare una cifra maggiore della puntata
    minima)", even when the share of his credit is above the minimum (450 / 3 punte = 150)."""
    config = {**TOURNAMENT, "min_bank": 200}
    rng = deck_rng()
    state = ENGINE.new(config, seats(450, 5000, 5000, 5000), rng, after(7, [1, 3, 5, 7]))
    assert ENGINE.legal_actions(state, 1)[0] == {"type": "all_in", "label": "ACCETTO (ALL IN)"}
    play(ENGINE, state, rng, (1, {"type": "all_in"}))
    assert state["caps"] == {"3": 100, "5": 100, "7": 100} and state["piatto"] == 450
    play(ENGINE, state, rng, *[(1, {"type": "mazzetto", "amount": 4})] * 3)
    for seat, mazzetto in ((3, 0), (5, 1), (7, 2)):
        bets = [s["amount"] for s in ENGINE.legal_actions(state, seat) if s["type"] == "punto"]
        assert bets and all(b == {"min": 100, "max": 100} for b in bets)
        with pytest.raises(InvalidAmount):
            ENGINE.apply(state, seat, {"type": "punto", "mazzetto": mazzetto, "amount": 150}, rng)
        play(ENGINE, state, rng, (seat, {"type": "punto", "mazzetto": mazzetto, "amount": 100}))
    assert ENGINE.is_over(state)
    out = ENGINE.outcome(state)
    assert sum(out["chips"].values()) == 450 + 3 * 5000 and out["rake"] == 0  # the 150 not covered came back


def test_cash_punte_may_bet_the_all_in_mattaros_share():
    state = ENGINE.new(
        {**CASH, "min_bank": 200}, seats(450, 5000, 5000, 5000), deck_rng(), after(7, [1, 3, 5, 7])
    )
    play(ENGINE, state, deck_rng(), (1, {"type": "all_in"}))
    assert state["caps"] == {"3": 150, "5": 150, "7": 150}


def test_tournament_all_in_mattaro_short_of_the_minimums_covers_the_first_punte():
    state = ENGINE.new(TOURNAMENT, seats(250, 5000, 5000, 5000), deck_rng(), after(7, [1, 3, 5, 7]))
    play(ENGINE, state, deck_rng(), (1, {"type": "all_in"}))
    assert state["caps"] == {"3": 100, "5": 100, "7": 50}
