"""Chemin de fer: seeded sessions replayed to a fixed result, and coups replayed from their record."""

from __future__ import annotations

import copy
import hashlib

import pytest

from games.chemin.engine import ChemindeferEngine
from games.chemin.sim import pick, session
from games.engine import dumps
from games.rng import SeededRng

E = ChemindeferEngine()


def table():
    prefs = {"chemin_alla_regola": True}
    return [
        {"seat": s, "chips": 10_000, "sitout": False, "prefs": prefs if s == 3 else {}} for s in range(1, 6)
    ]


@pytest.mark.parametrize(
    ("seed", "mode", "chips", "banco", "pinned_digest"),
    [
        (
            2026,
            "cash",
            {"1": 17427, "2": 829, "3": 10000, "4": 1683, "5": 13778},
            None,
            "6cf1846c8555f72d",
        ),
        (
            8,
            "tournament",
            {"1": 38614, "2": 0, "3": 4474, "4": 0, "5": 6411},
            {"seat": 1, "posta": 501, "garage": 0},
            "7a42e92471d374ba",
        ),
    ],
)
def test_seeded_session_replays_to_its_pinned_result(seed, mode, chips, banco, pinned_digest):
    cfg = {"mode": mode, "min_posta": 1000, "min_bet": 200, "rake_bp": 500 if mode == "cash" else 0}
    state, results = session(cfg, table(), SeededRng(seed), 60)
    out = E.outcome(state)
    assert len(results) == 60
    assert out["chips"] == chips and out["banco"] == banco
    assert hashlib.sha256(dumps(results).encode()).hexdigest()[:16] == pinned_digest  # a regression pin


def test_a_coup_replays_from_its_carry_and_actions():
    """The record of a coup (its carry, seats and decisions) replays it exactly, whatever the RNG."""
    rng = SeededRng(11)
    seats = table()
    carry = None
    replayed = 0
    for _ in range(80):
        start = copy.deepcopy(carry)
        state = E.new({}, seats, rng, carry)
        record = []
        while not E.is_over(state):
            seat = E.to_act(state)[rng.randbelow(len(E.to_act(state)))]
            action = pick(state, seat, rng)
            record.append((seat, action))
            E.apply(state, seat, action, rng)
        if start is not None and not state["shuffled"]:  # no shuffle in this coup
            again = E.new({}, seats, SeededRng(999), start)
            for seat, action in record:
                E.apply(again, seat, action, SeededRng(999))
            assert again == state
            replayed += 1
        carry = E.carry(state)
        out = E.outcome(state)
        seats = [{**s, "chips": out["chips"][str(s["seat"])]} for s in seats]
        if sum(1 for s in seats if s["chips"] > 0) < 2:
            break
    assert replayed >= 20
