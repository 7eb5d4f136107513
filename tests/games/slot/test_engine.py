"""The slot engine: spins, credit, features, refusals and the end of time (RULINGS S1–S8)."""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import action_from_spec, dumps, loads
from games.rng import ReplayRng, SeededRng
from games.slot import engine, lines, table
from tests.games.slot.support import (
    quiet_stops,
    reel_draws,
    refused,
    scripted,
    spin_at,
    stop_with,
    stops_showing,
)


def maestra(level: int) -> list[int]:
    """The door draw that finds the Maestra at this level."""
    return [table.BONUS_DOORS, table.BONUS_PRESIDE[level]]


def preside() -> list[int]:
    return [table.BONUS_DOORS, 0]


# ---------------------------------------------------------------------------------- paid spins


def test_a_spin_costs_thirty_units_and_pays_its_line_wins_times_the_unit():
    state = engine.new(10_000)
    stops = [stop_with(table.STRIPS[i], "C", 1) for i in range(3)] + quiet_stops()[3:]
    win = lines.window(table.STRIPS, stops)
    expected = sum(w["pay"] for w in lines.line_wins(win)) * 7
    assert expected >= 45 * 7
    events = spin_at(state, stops, unit=7)
    assert state["credit"] == 10_000 - 210 + expected
    assert state["spin"]["line_win"] == expected == events[0]["win"]
    assert state["spin"]["stops"] == stops and state["spin"]["window"] == win
    assert state["phase"] == engine.SPIN and state["bet"] == 210 and state["won"] == expected


def test_a_losing_spin_only_costs_the_total_bet():
    state = engine.new(3_000)
    spin_at(state, quiet_stops(), unit=100)
    assert state["credit"] == 0 and state["spin"]["win"] == 0
    assert engine.legal_actions(state) == []  # no credit, no spin (S8)


def test_the_unit_bet_allowed_is_bounded_by_the_credit():
    state = engine.new(30 * 12 + 29)
    assert engine.legal_actions(state) == [{"type": "gira", "label": "GIRA", "amount": {"min": 1, "max": 12}}]
    refused(state, {"type": "gira", "amount": 13}, "insufficient_credit")
    assert engine.can_apply(state, {"type": "gira", "amount": 12})


@pytest.mark.parametrize("amount", [0, 101, -1, "5", 5.0, True, None])
def test_a_unit_bet_out_of_range_is_refused(amount):
    refused(engine.new(100_000), {"type": "gira", "amount": amount}, "bet_out_of_range")


def test_unknown_or_malformed_actions_are_refused():
    state = engine.new(100_000)
    refused(state, {"type": "punta"}, "unknown_action")
    refused(state, {"type": "gira"}, "unknown_action")
    refused(state, {"type": "gira", "amount": 1, "lines": 20}, "unknown_action")


def test_a_choice_when_none_is_pending_is_refused():
    state = engine.new(100_000)
    refused(state, {"type": "porta", "door": 0}, "no_choice_pending")
    refused(state, {"type": "lavagnetta", "slate": 0}, "no_choice_pending")
    refused(state, {"type": "ruota"}, "no_choice_pending")


def test_credit_never_goes_negative_in_random_play():
    rng = SeededRng(11)
    for credit in (29, 30, 59, 600, 3_000):
        state = engine.new(credit)
        while engine.legal_actions(state):
            specs = engine.legal_actions(state)
            engine.apply(state, action_from_spec(specs[rng.randbelow(len(specs))], rng), rng)
            assert state["credit"] >= 0
        assert state["phase"] == engine.SPIN and state["credit"] < 30


# ---------------------------------------------------------------------------------- bonus


def bonus_state(unit: int = 2):
    state = engine.new(100_000)
    stops = stops_showing(table.BONUS, {0, 1, 2})
    spin_at(state, stops, unit)
    assert state["phase"] == engine.BONUS and state["spin"]["bonus"]["level"] == 1
    return state


def test_three_bonus_symbols_on_reels_one_to_three_start_the_bonus():
    state = engine.new(100_000)
    spin_at(state, stops_showing(table.BONUS, {0, 1}))
    assert state["phase"] == engine.SPIN  # two are not enough
    assert engine.legal_actions(bonus_state()) == [{"type": "porta", "door": d} for d in range(6)]


def test_the_maestra_raises_the_level_up_to_six_which_ends_the_game():
    state = bonus_state(unit=2)
    credit = state["credit"]
    for level in range(1, 6):
        rng = scripted([maestra(level)])
        engine.apply(state, {"type": "porta", "door": level % 6}, rng)
        assert rng.exhausted
    bonus = state["spin"]["bonus"]
    assert bonus["level"] == 6 and bonus["over"] and state["phase"] == engine.SPIN
    assert bonus["win"] == 60 * table.BONUS_MULTIPLIERS[6]  # total bet × multiplier (S4)
    assert state["credit"] == credit + bonus["win"]


def test_the_preside_ends_the_game_at_the_level_reached():
    state = bonus_state(unit=3)
    credit = state["credit"]
    engine.apply(state, {"type": "porta", "door": 0}, scripted([maestra(1)]))
    engine.apply(state, {"type": "porta", "door": 5}, scripted([maestra(2)]))
    engine.apply(state, {"type": "porta", "door": 2}, scripted([preside()]))
    bonus = state["spin"]["bonus"]
    assert bonus["level"] == 3 and [d["found"] for d in bonus["doors"]] == ["maestra", "maestra", "preside"]
    assert state["credit"] == credit + 90 * table.BONUS_MULTIPLIERS[3]


@pytest.mark.parametrize("level", range(1, 6))
def test_a_door_hides_the_preside_with_the_tables_odds(level):
    found = []
    for draw in range(table.BONUS_DOORS):
        state = bonus_state()
        state["spin"]["bonus"]["level"] = level
        engine.apply(state, {"type": "porta", "door": 0}, scripted([[6, draw]]))
        found.append(state["spin"]["bonus"]["doors"][-1]["found"])
    assert found.count("preside") == table.BONUS_PRESIDE[level]


def test_bad_doors_and_spins_during_the_bonus_are_refused():
    state = bonus_state()
    refused(state, {"type": "porta", "door": 6}, "invalid_choice")
    refused(state, {"type": "porta", "door": "1"}, "invalid_choice")
    refused(state, {"type": "gira", "amount": 1}, "choice_pending")
    refused(state, {"type": "lavagnetta", "slate": 0}, "no_choice_pending")


# ---------------------------------------------------------------------------------- free spins


def slate_draw(state, content) -> list[int]:
    pool = state["spin"]["free"]["pool"]
    return [len(pool), pool.index(list(content))]


def free_state(reels=(0, 2, 4), unit: int = 2):
    state = engine.new(100_000)
    spin_at(state, stops_showing(table.FREE_SPIN, set(reels)), unit)
    assert state["phase"] == engine.SLATES
    return state


@pytest.mark.parametrize(("reels", "spins"), [((0, 1, 2), 8), ((0, 1, 2, 3), 12), ((0, 1, 2, 3, 4), 20)])
def test_three_four_five_free_spin_symbols_anywhere_give_the_tables_spins(reels, spins):
    state = free_state(reels)
    assert state["spin"]["free"]["awarded"] == table.FREE_SPINS_AWARDED[len(reels)] == spins
    assert state["spin"]["free"]["multiplier"] == 1


def test_slates_add_spins_and_multiplier_until_the_preside_then_the_spins_are_played():
    state = free_state(unit=2)
    credit = state["credit"]
    engine.apply(state, {"type": "lavagnetta", "slate": 4}, scripted([slate_draw(state, (5, 0))]))
    engine.apply(state, {"type": "lavagnetta", "slate": 0}, scripted([slate_draw(state, (2, 1))]))
    free = state["spin"]["free"]
    assert (free["awarded"], free["multiplier"]) == (8 + 5 + 2, 2)
    assert free["slates"][4] == [5, 0] and free["slates"][0] == [2, 1]
    refused(state, {"type": "lavagnetta", "slate": 4}, "invalid_choice")  # already turned
    refused(state, {"type": "lavagnetta", "slate": 12}, "invalid_choice")
    assert {s["slate"] for s in engine.legal_actions(state)} == set(range(12)) - {0, 4}
    spins = [quiet_stops(table.FREE_SPIN_STRIPS)] * 14 + [
        [stop_with(table.FREE_SPIN_STRIPS[i], "C") for i in range(3)] + [0, 0]
    ]
    rng = scripted(
        [slate_draw(state, table.PRESIDE_SLATE)], *(reel_draws(s, table.FREE_SPIN_STRIPS) for s in spins)
    )
    engine.apply(state, {"type": "lavagnetta", "slate": 7}, rng)
    assert rng.exhausted and free["over"] and state["phase"] == engine.SPIN
    assert len(free["spins"]) == 15
    last = lines.window(table.FREE_SPIN_STRIPS, spins[-1])
    expected = sum(w["pay"] for w in lines.line_wins(last)) * 2 * 2  # × unit × multiplier
    assert expected > 0 and free["win"] == expected and state["credit"] == credit + expected


def test_free_spins_show_wilds_instead_of_bonus_and_pierino():
    state = free_state()
    rng = SeededRng(5)
    while state["phase"] == engine.SLATES:
        engine.apply(state, engine.legal_actions(state)[0] | {}, rng)
    for played in state["spin"]["free"]["spins"]:
        shown = "".join(played["window"])
        assert table.BONUS not in shown and table.PIERINO not in shown
        assert played["window"] == lines.window(table.FREE_SPIN_STRIPS, played["stops"])


def test_retriggers_add_spins_at_the_same_multiplier_never_beyond_one_hundred():
    state = free_state(unit=1)
    engine.apply(state, {"type": "lavagnetta", "slate": 1}, scripted([slate_draw(state, (0, 1))]))
    five = stops_showing(table.FREE_SPIN, set(range(5)), table.FREE_SPIN_STRIPS)
    draws = [slate_draw(state, table.PRESIDE_SLATE)]
    draws += [d for _ in range(100) for d in reel_draws(five, table.FREE_SPIN_STRIPS)]
    rng = scripted(draws)
    engine.apply(state, {"type": "lavagnetta", "slate": 2}, rng)
    assert rng.exhausted  # exactly 100 free spins drawn: 8 + 20 × 4 = 88, + 12 of the fifth
    free = state["spin"]["free"]
    assert free["awarded"] == 100 and len(free["spins"]) == 100 and free["multiplier"] == 2
    assert [s["added"] for s in free["spins"][:6]] == [20, 20, 20, 20, 12, 0]


def test_slates_cannot_take_the_spins_beyond_one_hundred():
    state = free_state(reels=range(5))
    free = state["spin"]["free"]
    free["awarded"] = 98
    engine.apply(state, {"type": "lavagnetta", "slate": 3}, scripted([slate_draw(state, (5, 0))]))
    assert free["awarded"] == 100


# ---------------------------------------------------------------------------------- Pierino


def pierino_state(unit: int, reels=(0, 1, 2, 3)):
    state = engine.new(100_000)
    spin_at(state, stops_showing(table.PIERINO, set(reels)), unit)
    return state


def test_four_or_five_pierino_pay_fifty_times_the_total_bet_and_turn_the_wheel():
    for reels in ((0, 1, 2, 3), (0, 1, 2, 3, 4), (1, 2, 3, 4)):
        state = pierino_state(4, reels)
        assert state["spin"]["pierino_pay"] == 50 * 120 and state["phase"] == engine.WHEEL
        assert engine.legal_actions(state) == [{"type": "ruota", "label": "INIZIA"}]
    state = pierino_state(4, (0, 1, 2))
    assert state["spin"]["pierino_pay"] == 0 and state["phase"] == engine.SPIN


@pytest.mark.parametrize("unit", [1, 10, 37, 50, 99, 100])
def test_the_wheel_enters_the_mode_with_probability_unit_over_one_hundred(unit):
    entered = 0
    for draw in range(table.PIERINO_ENTRY_DENOMINATOR):
        state = pierino_state(unit)
        mode = [[8, 1]] * (5 * table.PIERINO_SPINS)  # every reel on a blank-led window
        rng = scripted([[100, draw]], mode if draw < unit else [])
        engine.apply(state, {"type": "ruota"}, rng)
        assert rng.exhausted and state["phase"] == engine.SPIN
        entered += state["spin"]["wheel"]["entered"]
    assert entered == unit


def test_the_modes_ten_spins_add_their_points_into_one_band():
    state = pierino_state(100)
    credit = state["credit"]
    star = [stop_with(strip, "A", 0) for strip in table.POINT_STRIPS[:3]] + [1, 1]
    blank = [1, 1, 1, 1, 1]
    spins = [star] * 2 + [blank] * 8
    rng = scripted([[100, 99]], *(reel_draws(s, table.POINT_STRIPS) for s in spins))
    engine.apply(state, {"type": "ruota"}, rng)
    wheel = state["spin"]["wheel"]
    per_spin = [lines.points(lines.window(table.POINT_STRIPS, s)) for s in spins]
    assert per_spin[0] >= 20 and per_spin[2] == 0
    assert wheel["points"] == sum(per_spin)
    assert wheel["prize"] == lines.band_prize(sum(per_spin))
    assert state["credit"] == credit + wheel["prize"]


def test_specials_pay_anywhere_adding_to_the_line_wins(monkeypatch):
    # Every reel shows Serratura over two Campanelle: the lines through rows 1–2 pay, and the three
    # bonus symbols of reels 1–3 start the bonus, whose win adds to them (S3).
    monkeypatch.setattr(table, "STRIPS", ("SCCR",) * 5)
    state = engine.new(100_000)
    spin_at(state, [0] * 5, unit=1)
    line_win = sum(w["pay"] for w in lines.line_wins(["SCC"] * 5))
    runs = [next((i for i, row in enumerate(line) if row == 0), 5) for line in table.PAYLINES]
    assert line_win == sum(table.PAYS["C"][run - 3] for run in runs if run >= 3) > 0
    assert state["spin"]["line_win"] == line_win and state["phase"] == engine.BONUS
    engine.apply(state, {"type": "porta", "door": 0}, scripted([preside()]))
    assert state["spin"]["win"] == line_win + 30 * table.BONUS_MULTIPLIERS[1]
    assert state["credit"] == 100_000 - 30 + state["spin"]["win"]


def test_features_of_one_spin_follow_in_order_bonus_free_spins_wheel(monkeypatch):
    monkeypatch.setattr(table, "STRIPS", ("SFPR",) * 5)
    state = engine.new(100_000)
    spin_at(state, [0] * 5, unit=100)
    assert state["spin"]["features"] == [engine.BONUS, engine.SLATES, engine.WHEEL]
    assert state["spin"]["pierino_pay"] == 50 * 3000
    engine.apply(state, {"type": "porta", "door": 0}, scripted([preside()]))
    assert state["phase"] == engine.SLATES and state["spin"]["free"]["awarded"] == 20
    quiet = quiet_stops(table.FREE_SPIN_STRIPS)
    rng = scripted([[12, 0]], *(reel_draws(quiet, table.FREE_SPIN_STRIPS) for _ in range(20)))
    engine.apply(state, {"type": "lavagnetta", "slate": 0}, rng)
    assert rng.exhausted and state["phase"] == engine.WHEEL
    engine.apply(state, {"type": "ruota"}, scripted([[100, 0]], [[8, 1]] * 50))
    assert state["phase"] == engine.SPIN
    spin = state["spin"]
    assert (
        spin["win"]
        == spin["pierino_pay"] + spin["bonus"]["win"] + spin["free"]["win"] + spin["wheel"]["prize"]
    )
    assert state["credit"] == 100_000 - 3000 + spin["win"]


# ---------------------------------------------------------------------------------- end of time


def test_expire_pays_the_bonus_level_reached():
    state = bonus_state(unit=1)
    engine.apply(state, {"type": "porta", "door": 0}, scripted([maestra(1)]))
    credit = state["credit"]
    rng = scripted([])
    engine.expire(state, rng)
    assert state["over"] and state["credit"] == credit + 30 * table.BONUS_MULTIPLIERS[2]
    refused(state, {"type": "gira", "amount": 1}, "session_over")
    assert engine.legal_actions(state) == []


def test_expire_plays_the_free_spins_at_the_multiplier_reached():
    state = free_state(unit=1)
    engine.apply(state, {"type": "lavagnetta", "slate": 1}, scripted([slate_draw(state, (0, 1))]))
    quiet = quiet_stops(table.FREE_SPIN_STRIPS)
    rng = scripted(*(reel_draws(quiet, table.FREE_SPIN_STRIPS) for _ in range(8)))
    engine.expire(state, rng)
    assert rng.exhausted and state["over"]
    assert len(state["spin"]["free"]["spins"]) == 8 and state["spin"]["free"]["multiplier"] == 2


def test_expire_turns_a_pending_wheel():
    state = pierino_state(10)
    rng = scripted([[100, 50]])
    engine.expire(state, rng)
    assert rng.exhausted and state["spin"]["wheel"]["entered"] is False and state["over"]


# ---------------------------------------------------------------------------------- state


def test_state_is_json_and_the_view_hides_the_journal_and_the_unturned_slates():
    state = free_state()
    assert loads(dumps(state)) == state
    view = engine.view(state)
    assert "journal" not in view and "pool" not in view["spin"]["free"]
    assert view["legal_actions"] == engine.legal_actions(state)
    json.dumps(view)
    before = copy.deepcopy(state)
    view["spin"]["free"]["slates"][0] = [5, 0]
    view["credit"] = 0
    assert state == before  # the view is a copy


def test_a_refused_action_leaves_the_journal_alone():
    state = bonus_state()
    journal = copy.deepcopy(state["journal"])
    with pytest.raises(engine.SlotError):
        engine.apply(state, {"type": "gira", "amount": 1}, ReplayRng([]))
    assert state["journal"] == journal and len(journal) == 1
