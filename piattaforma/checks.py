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
