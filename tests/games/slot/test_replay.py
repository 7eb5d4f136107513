"""Every spin's stops and choices are journaled, and the journal rebuilds the session exactly (S8)."""

from __future__ import annotations

import copy

import pytest

from games.engine import action_from_spec, dumps, loads
from games.rng import ReplayError, SeededRng
from games.slot import engine


def played_session(seed: int, spins: int, credit: int = 10_000_000, until_wheel: bool = False):
    """Play random legal actions (``spins`` of them, or on until a Pierino wheel has turned), then
    leave the time to end, a bonus choice pending if one comes up first."""
    rng = SeededRng(seed)
    state = engine.new(credit)
    done = 0
    wheel = False
    while done < spins or (until_wheel and not wheel):
        specs = engine.legal_actions(state)
        action = action_from_spec(specs[rng.randbelow(len(specs))], rng)
        engine.apply(state, action, rng)
        wheel = wheel or action["type"] == "ruota"
        done += 1
    while state["phase"] != engine.SPIN:  # leave one choice pending for the end of time
        specs = engine.legal_actions(state)
        if state["phase"] == engine.BONUS:
            break
        engine.apply(state, action_from_spec(specs[0], rng), rng)
    engine.expire(state, rng)
    return state


def test_a_session_with_every_feature_replays_exactly_from_its_journal():
    state = played_session(3, 500, until_wheel=True)
    kinds = {entry["action"]["type"] for entry in state["journal"]}
    assert kinds == {"gira", "porta", "lavagnetta", "ruota", engine.EXPIRE}
    assert any(e["action"]["type"] == "gira" and e["action"]["amount"] > 1 for e in state["journal"])
    rebuilt = engine.replay(state["start_credit"], state["journal"])
    assert rebuilt == state
    assert loads(dumps(state)) == state  # plain JSON all along


def test_every_spin_journals_its_reel_stops():
    state = played_session(4, 300)
    spins = [e for e in state["journal"] if e["action"]["type"] == "gira"]
    assert len(spins) == state["spins"]
    assert all(len(e["draws"]) >= 5 and all(bound == 32 for bound, _ in e["draws"][:5]) for e in spins)
    assert spins[-1]["draws"][:5] == [[32, stop] for stop in state["spin"]["stops"]]


def test_a_tampered_journal_does_not_replay():
    state = played_session(5, 200)
    journal = copy.deepcopy(state["journal"])
    journal[10]["draws"][0] = [31, 0]
    with pytest.raises(ReplayError):
        engine.replay(state["start_credit"], journal)
    journal = copy.deepcopy(state["journal"])
    journal[10]["draws"].append([32, 0])
    with pytest.raises(ReplayError):
        engine.replay(state["start_credit"], journal)


def test_a_changed_stop_replays_to_a_different_session():
    state = played_session(6, 200)
    journal = copy.deepcopy(state["journal"])
    entry = next(e for e in journal if e["action"]["type"] == "gira")
    entry["draws"][0][1] = (entry["draws"][0][1] + 1) % 32
    try:
        rebuilt = engine.replay(state["start_credit"], journal)
    except ReplayError:  # the changed spin started a feature: the rest no longer fits
        return
    assert rebuilt != state
