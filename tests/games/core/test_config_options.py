"""Every engine's table options (games.engine.Option): each documented value creates a game, an
unknown key or value is refused with a stable code, and a filled config validates again as is."""

from __future__ import annotations

from typing import Any

import pytest

from games import registry
from games.engine import ConfigError, Engine, Option, UnknownConfigKey, UnsupportedConfig
from games.rng import SeededRng

ENGINES = registry.names()


def seat_specs(n: int) -> list[dict[str, Any]]:
    return [{"seat": s, "chips": 50_000, "prefs": {}} for s in range(1, n + 1)]


def seat_counts(engine: Engine) -> range:
    return range(engine.min_seats, engine.max_seats + 1)


def creatable(engine: Engine, config: dict[str, Any]) -> list[int]:
    """The seat counts at which ``new`` accepts this config (a format fixes how many play)."""
    ok = []
    for n in seat_counts(engine):
        try:
            engine.new(config, seat_specs(n), SeededRng(f"{engine.name}-{n}"))
        except ConfigError:
            continue
        ok.append(n)
    return ok


def documented_cases() -> list[tuple[str, str, Any]]:
    cases = []
    for name in ENGINES:
        for option in registry.get(name).config_options():
            cases += [(name, option.key, value) for value in option.sample_values()]
    return cases


def test_every_engine_declares_its_options() -> None:
    for name in ENGINES:
        engine = registry.get(name)
        options = engine.config_options()
        keys = [o.key for o in options]
        assert options and len(keys) == len(set(keys)), name
        assert all(o.label and o.kind in ("bool", "choice", "int", "data") for o in options)
        filled = engine.validate_config({})
        # the filled config holds the declared options plus only the inert keys of its family
        assert set(filled) <= set(keys) | set(engine.inert_config()), (name, set(filled) - set(keys))
        for o in options:
            assert o.accepts(o.default), (name, o.key)


@pytest.mark.parametrize(("name", "key", "value"), documented_cases())
def test_every_documented_value_creates_a_game(name: str, key: str, value: Any) -> None:
    engine = registry.get(name)
    option = next(o for o in engine.config_options() if o.key == key)
    config = {**dict(option.requires), key: value}
    assert creatable(engine, config), (name, config)
    filled = engine.validate_config(config)
    assert engine.validate_config(filled) == filled  # a stored table validates again unchanged


@pytest.mark.parametrize("name", ENGINES)
def test_an_unknown_key_is_refused_with_its_code(name: str) -> None:
    engine = registry.get(name)
    for n in seat_counts(engine):
        with pytest.raises(UnknownConfigKey) as err:
            engine.new({"zz_opzione": True}, seat_specs(n), SeededRng(0))
        assert err.value.code == "unknown_config_key" and err.value.details == {"key": "zz_opzione"}
    with pytest.raises(UnknownConfigKey):
        engine.validate_config({**engine.validate_config({}), "zz_opzione": 1})


def bad_values(option: Option) -> list[Any]:
    if option.kind == "bool":
        return ["sì", 1, None]
    if option.kind == "choice":
        return ["zz_valore", 3.5, *([] if option.nullable else [None])]
    if option.kind == "int":
        out: list[Any] = ["10", 2.0, True]
        out += [option.min - 1] if option.min is not None else []
        out += [option.max + 1] if option.max is not None else []
        return out + ([] if option.nullable else [None])
    return []  # "data": checked by the engine's own rules


@pytest.mark.parametrize("name", ENGINES)
def test_an_unknown_value_is_refused(name: str) -> None:
    engine = registry.get(name)
    for option in engine.config_options():
        for value in bad_values(option):
            with pytest.raises(ConfigError) as err:
                engine.validate_config({**dict(option.requires), option.key: value})
            assert err.value.code == "invalid_config", (name, option.key, value)
            assert not creatable(engine, {option.key: value})


def test_an_option_of_the_family_the_game_does_not_implement_is_refused() -> None:
    burraco = registry.get("burraco")
    assert "carte_viste" not in {o.key for o in burraco.config_options()}
    assert burraco.validate_config({"carte_viste": False})["carte_viste"] is False  # inert value: kept
    with pytest.raises(UnsupportedConfig) as err:
        burraco.validate_config({"carte_viste": True})
    assert err.value.code == "unsupported_config"
    for name in ("scopa", "briscola", "cirulla", "asso"):
        with pytest.raises(UnsupportedConfig):
            registry.get(name).validate_config({"lower_wins": True})
    with pytest.raises(UnsupportedConfig):
        registry.get("scopa").validate_config({"vinco_subito": True})  # needs the points taken so far


def test_scala40_pairs_and_carte_scoperte_are_options_now() -> None:
    # options the engine acts on, not keys accepted silently and doing nothing
    engine = registry.get("scala40")
    assert creatable(engine, {"format": "coppie"}) == [4]
    assert creatable(engine, {"format": "coppie", "carte_scoperte": True}) == [4]
    assert creatable(engine, {"carte_scoperte": True}) == []  # individual: refused
