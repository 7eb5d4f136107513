"""Template tags of the site frame (base.html): ``{% load site_ui %}{% player_balance as cents %}``."""

from __future__ import annotations

from typing import Any

from django import template

from wallet import selectors as wallet_selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def player_balance(context: dict[str, Any]) -> int | None:
    """The logged-in player's available balance in cents (None for a visitor), for the header."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return None
    return wallet_selectors.balance_get(user=user)["available"]


@register.inclusion_tag("includes/site_notices.html", takes_context=True)
def site_notices(context: dict[str, Any]) -> dict[str, Any]:
    """The game notices in force (rules 004, "Avvisi di gioco") and, for a player, the live socket's URL."""
    from piattaforma import siteops

    user = context.get("user")
    return {
        "notices": [siteops.notice_payload(n) for n in siteops.notices_active()],
        "live": bool(user is not None and user.is_authenticated),
    }
