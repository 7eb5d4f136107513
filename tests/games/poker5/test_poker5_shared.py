"""Poker 5 carte and Telesina share one implementation of the poker family's rules (games.poker_common)."""

import pytest

from games import betting
from games import poker_common as pc
from games.engine import ConfigError, InvalidAmount, InvalidCards, UnknownAction
from games.poker5 import Poker5
from games.poker5 import use_time_bank as poker_time_bank
from games.poker5.engine import Poker5Error
from games.rng import SeededRng
from games.telesina import Telesina
from games.telesina import use_time_bank as telesina_time_bank

SHARED = ("apply", "is_over", "timeout_action", "_award", "_win_uncontested", "_continue_showdown")


@pytest.mark.parametrize("engine", [Poker5, Telesina])
def test_both_engines_take_the_shared_frame_from_poker_table(engine):
    assert issubclass(engine, pc.PokerTable)
    for name in SHARED:
        assert name not in vars(engine), f"{engine.__name__} has its own {name}"


def test_one_time_bank_for_both_games():
    assert poker_time_bank is telesina_time_bank is pc.use_time_bank


def test_table_options_are_checked_once_for_both_games():
    config = {"limit": "PL", "invito": 20, "mode": "tournament", "rake_percent": 500}
    poker = Poker5().validate_config(config)
    telesina = Telesina().validate_config(config)
    assert {k: v for k, v in poker.items() if k != "giro_pazzo"} == {
        k: v for k, v in telesina.items() if k not in ("vele", "distribuzione")
    }
    assert poker["rake_percent"] == 0  # P12: no rake at a tournament table
    # the stored options keep poker's former key order (stored states stay byte for byte the same)
    assert list(poker) == [
        "limit",
        "invito",
        "mode",
        "rake_percent",
        "rake_cap",
        "giro_pazzo",
        "decision_seconds",
        "time_bank",
        "min_credit",
    ]
    with pytest.raises(ConfigError, match="giro_pazzo"):
        Poker5().validate_config({"giro_pazzo": 1})
    for engine in (Poker5(), Telesina()):
        with pytest.raises(ConfigError) as refused:
            engine.validate_config({"cash": False})  # one tournament switch: ``mode``
        assert refused.value.code == "unknown_config_key"
        with pytest.raises(ConfigError) as refused:
            engine.validate_config({"mode": "torneo"})
        assert refused.value.code == "invalid_config"


def test_match_spec_names_the_most_telling_error():
    specs = [
        {"type": "scopro", "card": "Ah", "label": "CONFERMA"},
        {"type": "punto", "label": "PUNTO", "amount": {"min": 10, "max": 20}},
        {"type": "passo", "label": "PASSO"},
    ]
    pc.match_spec(specs, {"type": "punto", "amount": 15}, Poker5Error)
    with pytest.raises(UnknownAction):
        pc.match_spec(specs, {"type": "vedo"}, Poker5Error)
    with pytest.raises(InvalidCards):
        pc.match_spec(specs, {"type": "scopro", "card": "Kd"}, Poker5Error)
    with pytest.raises(InvalidAmount):
        pc.match_spec(specs, {"type": "punto", "amount": 30}, Poker5Error)
    with pytest.raises(Poker5Error):
        pc.match_spec(specs, {"type": "passo", "x": 1}, Poker5Error)
    # poker checks its cambio cards itself: elsewhere a card key is refused by amount or as its error
    with pytest.raises(InvalidAmount):
        pc.match_spec(specs, {"type": "punto", "amount": 30, "cards": []}, Poker5Error, card_keys=())


def _needs_action_definition(b, start, inclusive):
    if len(betting.in_hand(b)) <= 1:
        return None
    return next((s for s in pc.ring(b["order"], start, inclusive) if betting.needs_action(b, s)), None)


def test_next_to_bet_agrees_with_the_needs_action_definition():
    engine, checked = Poker5(), 0
    for seed in range(40):
        rng = SeededRng(seed)
        prefs = {"invito_automatico": True}
        seats = [{"seat": s, "chips": 50 + 60 * s, "prefs": prefs} for s in range(2 + seed % 5)]
        state = engine.new({"limit": ("NL", "PL", "FL")[seed % 3], "invito": 10}, seats, rng)
        while not engine.is_over(state):
            b = state["b"]
            for start in b["order"]:
                for inclusive in (False, True):
                    expected = _needs_action_definition(b, start, inclusive)
                    assert pc.next_to_bet(b, start, inclusive) == expected
                    checked += 1
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
    assert checked > 1000
