"""The game registry: one engine per game name.

Each game package (``games/<name>/``) registers its engine when imported; ``load_all`` imports
every subpackage, so adding a game needs no edit here.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TypeVar

from games.engine import Engine

_ENGINES: dict[str, Engine] = {}
E = TypeVar("E", bound=type[Engine])


class UnknownGame(KeyError):
    """No engine is registered under that name."""


def register(cls: E) -> E:
    """Class decorator: register one instance of the engine under ``cls.name``."""
    existing = _ENGINES.get(cls.name)
    if existing is not None and type(existing) is not cls:
        raise ValueError(f"game {cls.name!r} is registered twice")
    _ENGINES[cls.name] = cls()
    return cls


def load_all() -> dict[str, Engine]:
    """Import every game package so that each registers its engine; return the registry."""
    import games

    for info in pkgutil.iter_modules(games.__path__):
        if info.ispkg:
            importlib.import_module(f"games.{info.name}")
    return dict(_ENGINES)


def get(name: str) -> Engine:
    """Return the engine registered under ``name``."""
    if name not in _ENGINES:
        load_all()
    try:
        return _ENGINES[name]
    except KeyError:
        raise UnknownGame(name) from None


def names() -> list[str]:
    """Return the registered game names, sorted."""
    return sorted(load_all())
