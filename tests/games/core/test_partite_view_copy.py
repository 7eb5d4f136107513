"""A gioco a partite's view copies the match's data without ``copy.deepcopy`` (every seat, every
version: deepcopy would be a visible share of the Daphne processes' CPU), and shares nothing
mutable with the state."""

import copy
import json
from unittest import mock

from games import partite
from games.registry import get
from games.rng import SeededRng
from lobby.bots import bot_action
from tests.games.capture.helpers import TWO


def played(game: str, deals: int = 2):
    """A match ``deals`` smazzate in (its history and totals filled), played by the bots."""
    eng = get(game)
    state = eng.new({"format": "testa_a_testa"}, TWO, SeededRng(1))
    rng = SeededRng(2)
    while len(state["history"]) < deals and not eng.is_over(state):
        seat = eng.to_act(state)[0]
        eng.apply(state, seat, bot_action(eng, state, seat, rng), rng)
    assert state["history"]
    return eng, state


def mutate_everything(value):
    if isinstance(value, dict):
        for v in value.values():
            mutate_everything(v)
        value["mutated"] = True
    elif isinstance(value, list):
        for v in value:
            mutate_everything(v)
        value.append("mutated")


def test_a_view_is_what_deepcopy_gave_and_shares_nothing_with_the_state():
    for game in ("scopa", "briscola"):
        eng, state = played(game)
        before = json.dumps(state, sort_keys=True, default=str)
        with mock.patch.object(partite, "copied", copy.deepcopy):
            expected = [eng.view(state, seat) for seat in (None, 1, 2)]
        with mock.patch.object(partite.copy, "deepcopy", wraps=copy.deepcopy) as deep:
            views = [eng.view(state, seat) for seat in (None, 1, 2)]
        assert views == expected
        assert deep.call_count == 0, game  # JSON-like data: no deepcopy at all
        for view in views:
            mutate_everything(view)
        assert json.dumps(state, sort_keys=True, default=str) == before  # nothing shared


def test_copied_keeps_scalars_copies_containers_and_deep_copies_the_rest():
    inner = {"a": [1, 2, (3, [4])]}
    out = partite.copied(inner)
    assert out == inner and out is not inner and out["a"] is not inner["a"]
    assert out["a"][2] == (3, [4]) and out["a"][2][1] is not inner["a"][2][1]
    odd = {"s": {1, 2}}
    assert partite.copied(odd)["s"] == {1, 2} and partite.copied(odd)["s"] is not odd["s"]
