"""System checks of the platform core (stable ids)."""

from __future__ import annotations

from typing import Any

from django.core import checks

from games import options, registry


@checks.register()
def check_game_options(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """piattaforma.E001: every registered engine has its "opzioni di gioco" schema."""
    missing = sorted(set(registry.names()) - set(options.GAMES))
    return [
        checks.Error(
            f"Game {name!r} has an engine but no entry in games.options.GAMES.",
            id="piattaforma.E001",
        )
        for name in missing
    ]


@checks.register()
def check_game_options_timing(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """piattaforma.E003: each game says truly when a changed option reaches the table.

    A gioco a partite reads the options once a match ("match"), a gioco a puntate at every deal
    ("hand") or, as Sette e mezzo, once a sit-down ("join", ``lobby.actions.seating``).
    """
    allowed = {"partite": {"match"}, "puntate": {"hand", "join"}}
    errors = []
    for name, game in options.GAMES.items():
        family = registry.get(name).family if name in registry.names() else None
        if family is not None and game.applies_from not in allowed[family]:
            errors.append(
                checks.Error(
                    f"games.options.GAMES[{name!r}].applies_from is {game.applies_from!r}: a game of"
                    f" the {family!r} family takes one of {sorted(allowed[family])}.",
                    id="piattaforma.E003",
                )
            )
    return errors


@checks.register()
def check_metrics_allowed_ips(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """piattaforma.E002: every entry of ``METRICS_ALLOWED_IPS`` is an address or a network."""
    import ipaddress

    from django.conf import settings

    errors = []
    for entry in getattr(settings, "METRICS_ALLOWED_IPS", ()) or ():
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            errors.append(
                checks.Error(
                    f"METRICS_ALLOWED_IPS: {entry!r} is not an address or a network.", id="piattaforma.E002"
                )
            )
    return errors
