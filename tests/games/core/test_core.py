"""The shared engine core: decks, shuffling, contract helpers."""

from collections import Counter

import pytest

from games import cards
from games.engine import action_from_spec, dumps, loads, private_to, spec_matches
from games.rng import SeededRng, shuffled


@pytest.mark.parametrize(
    ("players", "size", "lowest"), [(2, 24, "9"), (3, 28, "8"), (4, 32, "7"), (5, 36, "6"), (6, 40, "5")]
)
def test_poker_deck_depends_on_players(players, size, lowest):
    deck = cards.poker_deck(players)
    assert len(deck) == len(set(deck)) == size
    assert min(deck, key=lambda c: cards.RANK_INDEX[c[0]])[0] == lowest  # RULINGS P1
    assert "Ah" in deck


def test_other_decks():
    assert len(set(cards.italian_deck())) == 40
    assert {cards.rank(c) for c in cards.italian_deck()} == set("A234567JQK")
    rummy = cards.rummy_deck()
    assert len(rummy) == 108 and Counter(rummy)["Ah"] == 2 and sum(cards.is_joker(c) for c in rummy) == 4
    assert len(cards.shoe()) == 312


def test_labels():
    assert cards.label("Qd", "napoletane") == "cavallo di denari"
    assert cards.label("Qd") == "donna di quadri"
    assert cards.label("X1") == "jolly"


def test_shuffle_is_a_permutation_and_reproducible():
    deck = cards.italian_deck()
    a = shuffled(deck, SeededRng(7))
    assert sorted(a) == sorted(deck) and a != deck
    assert a == shuffled(deck, SeededRng(7))
    assert a != shuffled(deck, SeededRng(8))


def test_spec_helpers():
    spec = {"type": "punto", "label": "PUNTO", "amount": {"min": 20, "max": 160}}
    assert spec_matches(spec, {"type": "punto", "amount": 20})
    assert not spec_matches(spec, {"type": "punto", "amount": 161})
    assert not spec_matches(spec, {"type": "punto", "amount": 20.0})
    assert not spec_matches(spec, {"type": "punto", "amount": 30, "extra": 1})
    rng = SeededRng(1)
    for _ in range(50):
        assert spec_matches(spec, action_from_spec(spec, rng))
    assert spec_matches({"type": "gioca", "card": "7d", "label": "Gioca"}, {"type": "gioca", "card": "7d"})


def test_state_round_trip_and_privacy():
    state = {"a": [1, "Ah", None, True], "b": {"x": -3}}
    assert loads(dumps(state)) == state
    assert private_to({"type": "deal"}, None)
    assert private_to({"type": "deal", "to": [2]}, 2)
    assert not private_to({"type": "deal", "to": [2]}, 3)
    assert not private_to({"type": "deal", "to": [2]}, None)


def test_recorded_draws_replay_the_same_shuffle():
    from games.rng import RecordingRng, ReplayError, ReplayRng

    recording = RecordingRng(SeededRng(99))
    deck = shuffled(cards.italian_deck(), recording)
    replay = ReplayRng(recording.draws)
    assert shuffled(cards.italian_deck(), replay) == deck and replay.exhausted
    with pytest.raises(ReplayError):
        replay.randbelow(5)
    with pytest.raises(ReplayError):
        ReplayRng([[3, 1]]).randbelow(4)
