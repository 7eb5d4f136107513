"""Explicit extension points of the platform core (never Django signals for domain logic).

Apps that hold a player's live sessions register here, so the core can end them without
importing those apps (the lobby depends on the core, not the other way round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PlayerHandler = Callable[[Any], None]
_player_blocked: list[PlayerHandler] = []


def on_player_blocked(handler: PlayerHandler) -> PlayerHandler:
    """Register a handler called, inside the status change's transaction, when a player may no longer play."""
    if handler not in _player_blocked:
        _player_blocked.append(handler)
    return handler


def player_blocked(user: Any) -> None:
    """End the player's live sessions (suspension, self-exclusion)."""
    for handler in _player_blocked:
        handler(user)


SessionsProvider = Callable[[Any], set[str]]
_sessions_in_use: list[SessionsProvider] = []


def on_sessions_in_use(provider: SessionsProvider) -> SessionsProvider:
    """Register a provider of table sessions a blocked player still has in a running hand."""
    if provider not in _sessions_in_use:
        _sessions_in_use.append(provider)
    return provider


def sessions_in_use(user: Any) -> set[str]:
    """Return the table sessions that must stay open until their hand ends (then they close)."""
    out: set[str] = set()
    for provider in _sessions_in_use:
        out |= provider(user)
    return out


TablesCounter = Callable[[], dict[str, tuple[int, int]]]
_open_tables: list[TablesCounter] = []


def on_open_tables(counter: TablesCounter) -> TablesCounter:
    """Register a counter of open tables per game: ``{game: (tables, players seated)}``."""
    if counter not in _open_tables:
        _open_tables.append(counter)
    return counter


def open_tables() -> dict[str, tuple[int, int]]:
    """Open tables and the players seated at them, per game, over every app that runs tables."""
    out: dict[str, tuple[int, int]] = {}
    for counter in _open_tables:
        for game, (tables, seated) in counter().items():
            before = out.get(game, (0, 0))
            out[game] = (before[0] + tables, before[1] + seated)
    return out


MatchHandler = Callable[[dict[str, Any]], None]
_match_ended: list[MatchHandler] = []


def on_match_ended(handler: MatchHandler) -> MatchHandler:
    """Register a handler called, inside the ending hand's transaction, when a hand or match ends."""
    if handler not in _match_ended:
        _match_ended.append(handler)
    return handler


def match_ended(result: dict[str, Any]) -> None:
    """A hand or match ended at a live table: tell the apps that wait for it (tournaments).

    ``result``: ``table_id``, ``tournament_id`` (None at a cash table), ``hand_no``, ``game``,
    ``outcome`` (the engine's report) and ``seats`` (``seat``, ``user_id``, ``acted``: whether he
    made any move of his own, ``connected``: an open connection at the end).
    """
    for handler in _match_ended:
        handler(result)


ConductHandler = Callable[..., None]
_tournament_conduct: list[ConductHandler] = []


def on_tournament_conduct(handler: ConductHandler) -> ConductHandler:
    """Register a handler of a player's conduct in a tournament match (moderation's ammonizioni)."""
    if handler not in _tournament_conduct:
        _tournament_conduct.append(handler)
    return handler


def tournament_conduct(*, user_id: int, tournament_id: int, kind: str, training: bool, turn: int) -> None:
    """A player timed out, abandoned or was absent (``kind``: "timeout", "abandon", "absent")."""
    for handler in _tournament_conduct:
        handler(user_id=user_id, tournament_id=tournament_id, kind=kind, training=training, turn=turn)
