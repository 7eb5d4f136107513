"""Sette e mezzo: every example of the rules' chapter, and seeded sessions replayed to a fixed result."""

from __future__ import annotations

import copy
import hashlib

import pytest

from games.engine import (
    ConfigError,
    IllegalAction,
    InvalidAmount,
    NotYourTurn,
    UnknownAction,
    action_from_spec,
    dumps,
)
from games.registry import get
from games.rng import SeededRng
from games.settemezzo.banco import punta_caps, rake_of
from games.settemezzo.engine import elimination_ranking, points, punta_wins
from tests.games.banking.settemezzo_support import deck_rng, play, random_session

ENGINE = get("settemezzo")
CASH = {"variant": "piatto", "mode": "cash", "min_bet": 100, "min_bank": 1000, "rake_bp": 500}
TOURNAMENT = {"variant": "piatto", "mode": "tournament", "min_bet": 100, "min_bank": 1000}
CLASSICA = {"variant": "classica", "mode": "cash", "min_bet": 100, "min_bank": 500, "rake_bp": 500}


def seats(*chips: int, sitout: tuple[int, ...] = (), prefs: dict[int, dict[str, int]] | None = None):
    """Seats 1, 3, 5, … with these credits."""
    return [
        {
            "seat": 2 * i + 1,
            "chips": c,
            "sitout": 2 * i + 1 in sitout,
            "prefs": (prefs or {}).get(2 * i + 1, {}),
        }
        for i, c in enumerate(chips)
    ]


def after(banker: int, order: list[int]) -> dict:
    """A carry that makes the seat at ``banker``'s right the next banker (everyone has already bet)."""
    return {"banker": banker, "seats": order, "played": order}


# -- card values (rules: "Il valore delle carte") --------------------------------------------------


def test_card_values_in_half_points():
    assert points(["Jh"]) == points(["Qc"]) == points(["Ks"]) == 1  # figures ½
    assert points(["Ah"]) == 2 and points(["7c"]) == 14  # face value
    assert points(["Jh", "Qs", "Kc"]) == 3
    assert points(["7h", "Jc"]) == 15  # sette e mezzo


def test_matta_takes_the_best_value_and_alone_counts_half():
    assert points(["Kd"]) == 1  # RULINGS B1: "se si sta con la matta il suo valore è ½"
    assert points(["Kd", "7d"]) == 15  # 7 + ½
    assert points(["Kd", "3c"]) == 14  # the matta as 4: 7
    assert points(["Kd", "3c", "Jh"]) == 15  # the matta as 4: 7½
    assert points(["Kd", "Jh"]) == 15  # the matta as 7
    assert points(["Kd", "7c", "Jh"]) == 16  # even at ½ it is over: sballato


def test_ties_go_to_the_banker_without_exception():
    # "anche se queste due carte sono la matta e il sette di denari e il banco realizza un Sette e
    # Mezzo con più carte"
    assert not punta_wins(["Kd", "7d"], ["3h", "4c", "Jh"])
    assert punta_wins(["7h"], ["3h", "4c", "7s"])  # banker sballato
    assert not punta_wins(["7h", "5c"], ["3h", "4c", "7s"])  # punta sballato first


def test_rake_examples():
    assert rake_of(1000, 500) == 100  # (€ 10 × 2) × 0,05 = € 1 (punta, and banco in the piatto variant)
    assert rake_of(2000, 500) == 200  # classica: saldo € 20 → € 2
    assert rake_of(-500, 500) == 0  # negative balance: nothing


# -- the banker ---------------------------------------------------------------------------------------


def test_first_banker_is_who_receives_the_matta():
    rng = deck_rng(["4h", "2c", "Kd"], ["5c"], start=1)  # the deal starts from seat 3
    state = ENGINE.new(CASH, seats(5000, 5000, 5000), rng)
    assert state["designation"]["dealt"] == [[3, "4h"], [5, "2c"], [1, "Kd"]]
    assert ENGINE.to_act(state) == [1]
    assert len(state["deck_log"]) == 1  # the deck of the designation is kept for audit


def test_banco_rotates_to_the_right_skipping_newcomers():
    carry = {"banker": 1, "seats": [1, 3, 5], "played": [1, 5]}  # seat 3 has never bet
    state = ENGINE.new(TOURNAMENT, seats(5000, 5000, 5000), deck_rng(), carry)
    assert ENGINE.to_act(state) == [5]
    state = ENGINE.new(TOURNAMENT, seats(5000, 5000, 5000), deck_rng(), after(1, [1, 3, 5]))
    assert ENGINE.to_act(state) == [3]
    # the banker of last hand left: the banco goes to the first seat after his place
    state = ENGINE.new(TOURNAMENT, seats(5000, 5000), deck_rng(), after(5, [1, 3, 5]))
    assert ENGINE.to_act(state) == [1]


def test_resumed_game_gives_the_banco_to_the_first_of_those_present():
    carry = {"banker": 1, "seats": [1, 5], "played": [1, 3, 5], "resumed": True}
    state = ENGINE.new(CASH, seats(5000, 5000, 5000), deck_rng(), carry)
    assert ENGINE.to_act(state) == [5]
    carry = {"banker": 1, "seats": [7, 9], "played": [7, 9], "resumed": True}
    state = ENGINE.new(CASH, seats(5000, 5000, 5000), deck_rng(["Kd"], start=0), carry)
    assert state["designation"]["seat"] == 1  # nobody of then is here: deal for the matta


def test_cash_refusal_is_free_and_passes_the_banco_right():
    state = ENGINE.new(CASH, seats(5000, 5000, 5000), deck_rng(), after(5, [1, 3, 5]))
    play(ENGINE, state, None, (1, {"type": "rifiuto"}))
    assert ENGINE.to_act(state) == [3] and state["chips"] == {"1": 5000, "3": 5000, "5": 5000}
    assert state["skipped"] == [1]
    specs = ENGINE.legal_actions(state, 3)
    assert [s["label"] for s in specs] == ["ACCETTO", "RIFIUTO", "SITOUT"]
    assert specs[0]["amount"] == {"min": 1000, "max": 5000}
    play(ENGINE, state, None, (3, {"type": "rifiuto"}), (5, {"type": "rifiuto"}))
    out = ENGINE.outcome(state)  # nobody took the banco: the hand is over, nothing moved
    assert out["banker"] is None and out["skipped"] == [1, 3, 5] and out["missed"] == [1, 3, 5]
    assert out["delta"] == {"1": 0, "3": 0, "5": 0} and ENGINE.carry(state)["banker"] == 5


def test_accepting_short_of_the_minimum_piatto_is_all_in():
    state = ENGINE.new(CASH, seats(700, 5000), deck_rng(), after(3, [1, 3]))
    assert ENGINE.legal_actions(state, 1)[0]["amount"] == {"min": 700, "max": 700}


def test_tournament_banker_in_sitout_loses_half_the_minimum_piatto_split_among_the_others():
    # RULINGS G1: the odd cent to the first seat at his right
    state = ENGINE.new(TOURNAMENT, seats(301, 5000, 5000, sitout=(1,)), deck_rng(), after(5, [1, 3, 5]))
    assert state["penalties"][0] == {"seat": 1, "amount": 301, "to": {"3": 151, "5": 150}, "as": "banco"}
    assert ENGINE.to_act(state) == [3]
    assert [s["type"] for s in ENGINE.legal_actions(state, 3)] == ["accetto", "sitout"]  # no refusal
    play(ENGINE, state, None, (3, ENGINE.timeout_action(state, 3)))
    # split among everybody seated, the one in sitout too
    assert state["penalties"][1] == {"seat": 3, "amount": 500, "to": {"5": 250, "1": 250}, "as": "banco"}
    assert state["sitout"]["3"] and ENGINE.to_act(state) == [5]


def test_tournament_newcomer_passed_over_after_a_veteran_in_sitout():
    # the banco would go to 1 (in sitout: he pays, RULINGS L1), then to 3, who has just sat down
    # and not bet yet: it passes to 5, who has ("non ha ancora effettuato almeno una puntata")
    table = seats(5000, 5000, 5000, 5000, sitout=(1,))
    carry = {"banker": 7, "seats": [1, 3, 5, 7], "played": [1, 5, 7]}
    state = ENGINE.new(TOURNAMENT, table, deck_rng(), carry)
    assert state["penalties"][0]["seat"] == 1 and ENGINE.to_act(state) == [5]
    # with no veteran able to take it, the newcomer does
    table = seats(5000, 5000, 5000, sitout=(1,))
    state = ENGINE.new(TOURNAMENT, table, deck_rng(), {"banker": 5, "seats": [1, 3, 5], "played": [1, 5]})
    assert ENGINE.to_act(state) == [5]
    play(ENGINE, state, None, (5, ENGINE.timeout_action(state, 5)))
    assert ENGINE.to_act(state) == [3]


# -- piatto variant ---------------------------------------------------------------------------------


def test_punta_wins_takes_from_the_piatto_less_rake():
    rng = deck_rng(["7h", "5c", "Jh"])
    state = ENGINE.new(CASH, seats(10000, 5000), rng, after(3, [1, 3]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}))
    assert ENGINE.view(state, 3)["hands"]["3"]["down"] == ["7h"]
    assert ENGINE.view(state, 1)["hands"]["3"]["down"] == ["??"]
    assert ENGINE.view(state, 3)["bank"]["down"] == ["??"]
    play(ENGINE, state, rng, (3, {"type": "sto", "amount": 1000}))
    assert ENGINE.view(state, 3)["bank"]["down"] == ["5c"]  # the banker turns his card up
    play(ENGINE, state, rng, (1, {"type": "tiro"}), (1, {"type": "sto"}))
    assert state["results"][0]["winner"] == "punta" and state["results"][0]["rake"] == 100
    out = ENGINE.outcome(state)
    assert out["chips"] == {"1": 9000, "3": 5900} and out["rake"] == 100  # € 10 won, € 1 rake
    assert ENGINE.carry(state) == {"banker": 1, "seats": [1, 3], "played": [1, 3]}


def test_bust_loses_at_once_and_the_stake_goes_into_the_piatto_less_rake():
    rng = deck_rng(["7h", "5c", "3s"])
    state = ENGINE.new(CASH, seats(10000, 5000), rng, after(3, [1, 3]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}), (3, {"type": "tiro", "amount": 1000}))
    assert ENGINE.is_over(state)  # the banker did not have to play
    assert state["results"][0]["winner"] == "banco" and state["results"][0]["rake"] == 100
    assert ENGINE.outcome(state)["chips"] == {"1": 10900, "3": 4000}


def test_tie_with_matta_and_seven_of_denari_goes_to_the_banker_and_the_matta_reshuffles():
    rng = deck_rng(["Kd", "3h", "7d", "4c", "Jh"], ["2c", "6s"])
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}))
    play(ENGINE, state, rng, (3, {"type": "tiro", "amount": 500}), (3, {"type": "sto"}))
    assert ENGINE.view(state, 1)["hands"]["3"]["up"] == ["7d"]  # the banker sees the up cards only
    play(ENGINE, state, rng, (1, {"type": "tiro"}), (1, {"type": "tiro"}), (1, {"type": "sto"}))
    r = state["results"][0]
    assert r["punta_points"] == r["banco_points"] == 15 and r["winner"] == "banco"
    # the matta came out: the cards were shuffled at the end of the coup
    assert len(state["deck_log"]) == 2 and ENGINE.view(state, 5)["hands"]["5"]["down"] == ["2c"]
    assert state["piatto"] == 5000 + 500 - 50


def test_no_reshuffle_without_the_matta():
    rng = deck_rng(["7h", "3h", "2c", "6s"])
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}), (3, {"type": "sto", "amount": 500}))
    play(ENGINE, state, rng, (1, {"type": "sto"}))  # 7 vs 3: punta wins
    assert len(state["deck_log"]) == 1 and state["hands"]["5"]["down"] == ["2c"]


def test_the_banco_ends_when_a_punta_wins_the_whole_piatto():
    rng = deck_rng(["7h", "3h"])
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}))
    assert ENGINE.legal_actions(state, 3)[0]["amount"] == {"min": 100, "max": 1000}
    play(ENGINE, state, rng, (3, {"type": "sto", "amount": 1000}), (1, {"type": "sto"}))
    assert ENGINE.is_over(state) and state["hands"]["5"]["status"] == "wait"
    assert ENGINE.outcome(state)["chips"] == {"1": 9000, "3": 5900, "5": 5000}


def test_tournament_punta_in_sitout_loses_half_the_minimum_bet_to_the_banco():
    rng = deck_rng(["7h", "3h"])
    state = ENGINE.new(TOURNAMENT, seats(10000, 5000, 5000, sitout=(3,)), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}))
    assert state["penalties"] == [{"seat": 3, "amount": 50, "as": "punta"}] and state["piatto"] == 1050
    assert ENGINE.to_act(state) == [5] and state["hands"]["5"]["down"] == ["7h"]
    assert [s["type"] for s in ENGINE.legal_actions(state, 5)] == ["sto", "tiro", "sitout"]


def test_cash_punta_going_sitout_when_asked_does_not_play():
    rng = deck_rng(["7h", "3h", "2c", "6s"])
    state = ENGINE.new(CASH, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}), (3, {"type": "sitout"}))
    assert state["sitout"]["3"] and state["chips"]["3"] == 5000 and ENGINE.to_act(state) == [5]
    assert state["hands"]["5"]["down"] == ["2c"]


def test_automatic_play_with_the_thresholds():
    # punta stands from 6 (12 half points); banker, after a punta who drew, stands once he beats
    # the seen cards (3 + 1 = 4) by ½
    prefs = {3: {"sette_mezzo_soglia_punta": 12}}
    rng = deck_rng(["2h", "2c", "3c", "Ah", "2s", "Jd"])
    state = ENGINE.new(CASH, seats(10000, 5000, prefs=prefs), rng, after(3, [1, 3]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}), (3, {"type": "tiro", "amount": 200}))
    play(ENGINE, state, rng, (3, {"type": "sitout"}))  # 2 + 3 = 5 < 6: draws the ace, 6: stands
    assert state["hands"]["3"]["up"] == ["3c", "Ah"] and ENGINE.to_act(state) == [1]
    play(ENGINE, state, rng, (1, {"type": "sitout"}))  # 2, 2 + 2 = 4, 4½ > 4: stands
    r = state["results"][0]
    assert r["banco_cards"] == ["2c", "2s", "Jd"] and r["banco_points"] == 9 and r["winner"] == "punta"


def test_automatic_banker_against_a_punta_who_stood_uses_his_threshold():
    prefs = {1: {"sette_mezzo_soglia_banco": 10}}
    rng = deck_rng(["7h", "2c", "Jd", "Qd", "Kc", "Ah", "Ac"])
    state = ENGINE.new(CASH, seats(10000, 5000, prefs=prefs), rng, after(3, [1, 3]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 5000}), (3, {"type": "sto", "amount": 200}))
    play(ENGINE, state, rng, (1, {"type": "sitout"}))
    # 2, 2½, 3, 3½, 4½ are below 5: draws; 5½: stands
    assert state["results"][0]["banco_cards"] == ["2c", "Jd", "Qd", "Kc", "Ah", "Ac"]


def test_bad_thresholds_are_refused():
    with pytest.raises(ConfigError):
        ENGINE.new(CASH, seats(1000, 1000, prefs={1: {"sette_mezzo_soglia_punta": 7}}), deck_rng())
    with pytest.raises(ConfigError):
        ENGINE.new({**CLASSICA, "mode": "tournament", "rake_bp": 0}, seats(1000, 1000), deck_rng())
    with pytest.raises(ConfigError):
        ENGINE.new({**CASH, "rake_bp": 1100}, seats(1000, 1000), deck_rng())


# -- classica ---------------------------------------------------------------------------------------


def test_classica_banker_balance_pays_rake_only_when_positive():
    rng = deck_rng(["7h", "7c", "6s", "3h"])  # punte 3 and 5 get 7h, 7c; banker 6s; then 3h
    state = ENGINE.new(CLASSICA, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    spec = ENGINE.legal_actions(state, 1)[0]
    assert spec["amount"] == {"min": 500, "max": 5000}  # the risk is punte × maximum bet
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 2000}))
    assert state["piatto"] == 4000 and state["caps"] == {"3": 2000, "5": 2000}
    play(ENGINE, state, rng, (3, {"type": "sto", "amount": 1000}), (5, {"type": "sto", "amount": 1000}))
    play(ENGINE, state, rng, (1, {"type": "tiro"}))  # 6 + 3 = 9: sballato
    assert ENGINE.outcome(state)["chips"] == {"1": 8000, "3": 5900, "5": 5900}
    rng = deck_rng(["5h", "4c", "6s"])
    state = ENGINE.new(CLASSICA, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 2000}))
    play(ENGINE, state, rng, (3, {"type": "sto", "amount": 1000}), (5, {"type": "sto", "amount": 1000}))
    play(ENGINE, state, rng, (1, {"type": "sto"}))
    out = ENGINE.outcome(state)  # saldo € 20, rake 5 %: € 2
    assert out["rake"] == 200 and out["chips"] == {"1": 11800, "3": 4000, "5": 4000}
    assert state["bank_result"]["saldo"] == 2000 and len(state["deck_log"]) == 1


def test_classica_all_in_banker_splits_his_credit_remainder_on_the_first_punta():
    state = ENGINE.new(CLASSICA, seats(999, 5000, 5000), deck_rng(), after(5, [1, 3, 5]))  # < 2 × 500
    assert ENGINE.legal_actions(state, 1)[0] == {"type": "all_in", "label": "ACCETTO (ALL IN)"}
    play(ENGINE, state, deck_rng(), (1, {"type": "all_in"}))
    assert state["caps"] == {"3": 500, "5": 499} and state["chips"]["1"] == 0
    assert ENGINE.legal_actions(state, 3)[0]["amount"] == {"min": 100, "max": 500}
    # below the minimum bet each: the first punte play the minimum until the credit is covered
    assert punta_caps(250, [3, 5, 7], 100, None) == {"3": 100, "5": 100, "7": 50}


def test_classica_punte_play_then_the_banker_once():
    rng = deck_rng(["2h", "3c", "4s", "Jh", "6d"])
    state = ENGINE.new(CLASSICA, seats(10000, 5000, 5000), rng, after(5, [1, 3, 5]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}))
    play(ENGINE, state, rng, (3, {"type": "tiro", "amount": 1000}), (3, {"type": "sto"}))  # 2 + ½
    play(ENGINE, state, rng, (5, {"type": "tiro", "amount": 100}))  # 3 + 6 = 9: sballato
    assert ENGINE.to_act(state) == [1] and ENGINE.view(state, None)["bank"]["down"] == ["4s"]
    play(ENGINE, state, rng, (1, {"type": "sto"}))
    # losses 1000 + 100: saldo € 11, rake € 1,10
    assert ENGINE.outcome(state)["chips"] == {"1": 10990, "3": 4000, "5": 4900}


# -- tournaments ------------------------------------------------------------------------------------


def test_elimination_tie_break_more_chips_before_ranks_first():
    assert elimination_ranking(
        [
            {"seat": 3, "chips_before": 800},
            {"seat": 5, "chips_before": 1200},
            {"seat": 7, "chips_before": 800},
        ]
    ) == [[5], [3, 7]]


def test_outcome_lists_the_eliminated_with_their_chips_before():
    rng = deck_rng(["7h", "5c", "3s"])
    state = ENGINE.new(TOURNAMENT, seats(10000, 500), rng, after(3, [1, 3]))
    play(ENGINE, state, rng, (1, {"type": "accetto", "amount": 1000}), (3, {"type": "tiro", "amount": 500}))
    assert ENGINE.outcome(state)["eliminated"] == [{"seat": 3, "chips_before": 500, "banker": False}]


# -- refusals ----------------------------------------------------------------------------------------


def test_illegal_actions_leave_the_state_unchanged():
    rng = deck_rng(["7h", "5c"])
    state = ENGINE.new(CASH, seats(10000, 5000), rng, after(3, [1, 3]))
    before = copy.deepcopy(state)
    for seat, action, error in [
        (3, {"type": "accetto", "amount": 1000}, NotYourTurn),
        (1, {"type": "accetto", "amount": 999}, InvalidAmount),
        (1, {"type": "accetto", "amount": 1000.0}, InvalidAmount),
        (1, {"type": "banco"}, UnknownAction),
        (1, {"type": "rifiuto", "why": 1}, IllegalAction),
    ]:
        with pytest.raises(error):
            ENGINE.apply(state, seat, action, rng)
        assert state == before


# -- seeded sessions replayed to a fixed result --------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "digest"),
    [(CASH, "CASH"), (TOURNAMENT, "TOURNAMENT"), (CLASSICA, "CLASSICA")],
)
def test_seeded_sessions_replay_to_a_fixed_result(config, digest):
    outcomes = random_session(ENGINE, config, seed=2029, hands=6, check="none")
    again = random_session(ENGINE, config, seed=2029, hands=6, check="none")
    assert outcomes == again
    text = hashlib.sha256(
        dumps({"o": [[o["banker"], o["chips"], o["rake"]] for o in outcomes]}).encode()
    ).hexdigest()[:16]
    assert text == PINNED_SESSION_DIGESTS[digest], text
    assert (outcomes[-1]["chips"], sum(o["rake"] for o in outcomes)) == LAST_HAND[digest]


# Regression pins (recomputed when the engine changes on purpose), not results from the rules.
PINNED_SESSION_DIGESTS = {
    "CASH": "f495a66e782be876",
    "TOURNAMENT": "dbbb33b198f62c9d",
    "CLASSICA": "7fccb24a0230c7a5",
}
LAST_HAND = {
    "CASH": ({"1": 168, "3": 2612, "5": 912, "7": 7240, "13": 6474}, 1422),
    "TOURNAMENT": ({"1": 142, "3": 2824, "7": 4120, "9": 737, "13": 11005}, 0),
    "CLASSICA": ({"1": 1635, "3": 2437, "5": 1616, "7": 2674, "9": 2517, "11": 2195, "13": 5055}, 699),
}


# -- Premove ("il giocatore potrà impostare la sua decisione ancor prima che tocchi a lui") ---------


def _waiting_for_a_turn(seed: int):
    """A cash banco of three in which some seat waits for its turn (it may set a Premove)."""
    rng = SeededRng(f"premove-{seed}")
    state = ENGINE.new(CASH, seats(20_000, 20_000, 20_000), rng)
    for _ in range(60):
        if ENGINE.is_over(state):
            break
        waiting = [
            s for s in state["order"] if s not in ENGINE.to_act(state) and ENGINE.legal_actions(state, s)
        ]
        if waiting:
            return state, waiting[0], rng
        actor = ENGINE.to_act(state)[0]
        specs = [s for s in ENGINE.legal_actions(state, actor) if s["type"] != "sitout"]
        ENGINE.apply(state, actor, action_from_spec(specs[0], rng), rng)
    return None


def test_premove_is_set_privately_and_played_when_the_turn_comes():
    played = 0
    for seed in range(30):
        found = _waiting_for_a_turn(seed)
        if found is None:
            continue
        state, seat, rng = found
        specs = ENGINE.legal_actions(state, seat)
        assert {s["type"] for s in specs} == {"premove"} and {s["decision"] for s in specs} == {"sto", "tiro"}
        sto = next(s for s in specs if s["decision"] == "sto")
        action = {"type": "premove", "decision": "sto"}
        if "amount" in sto:
            action["amount"] = sto["amount"]["min"]
        events = ENGINE.apply(state, seat, action, rng)
        assert events == [{"type": "premove", "seat": seat, "decision": "sto", "to": [seat]}]  # private
        assert ENGINE.view(state, seat)["premove"]["decision"] == "sto"
        assert all("premove" not in ENGINE.view(state, s) for s in [None, *state["order"]] if s != seat)
        assert any(s["decision"] is None for s in ENGINE.legal_actions(state, seat))  # may be cancelled
        while not ENGINE.is_over(state) and seat not in ENGINE.to_act(state):
            if state.get("premoves", {}).get(str(seat)) is None:
                break
            actor = ENGINE.to_act(state)[0]
            specs = [s for s in ENGINE.legal_actions(state, actor) if s["type"] != "sitout"]
            events = ENGINE.apply(state, actor, action_from_spec(specs[-1], rng), rng)
            if any(e["type"] == "premove" and e.get("played") and e["seat"] == seat for e in events):
                played += 1
                assert str(seat) not in state["premoves"]
                assert any(e["type"] == "sto" and e["seat"] == seat for e in events)
                break
    assert played > 0


def test_premove_refused_to_the_seat_to_act_and_for_other_decisions():
    found = _waiting_for_a_turn(1)
    assert found is not None
    state, seat, rng = found
    actor = ENGINE.to_act(state)[0]
    for who, action in [
        (actor, {"type": "premove", "decision": "sto"}),  # his turn: he decides now
        (seat, {"type": "premove", "decision": "sitout"}),
        (seat, {"type": "premove", "decision": "sto", "amount": -1}),
        (seat, {"type": "premove", "decision": None}),  # nothing set to cancel
    ]:
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, who, action, rng)
        assert state == before
