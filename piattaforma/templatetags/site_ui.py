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
