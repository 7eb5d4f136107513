"""Template tags of the site frame (base.html): ``{% load site_ui %}{% header_money as money %}``."""

from __future__ import annotations

from typing import Any

from django import template

from wallet import selectors as wallet_selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def site_role(context: dict[str, Any]) -> str | None:
    """The header's kind of user: "player", "moderator" (no conto: moderators never see money), "staff".

    A player costs no query (``is_staff`` is false); moderators and staff one or two on their groups.
    """
    from piattaforma import roles

    user = context.get("user")
    if user is None or not user.is_authenticated:
        return None
    if roles.has_staff_role(user):
        return "staff"
    return "moderator" if roles.can_moderate(user) else "player"


@register.simple_tag(takes_context=True)
def header_money(context: dict[str, Any]) -> dict[str, Any] | None:
    """What the header shows of the logged-in player's money (None for a visitor): at a play-money
    table (a page whose context says ``money_realm = "play"``) his gettoni, elsewhere the conto's
    available euro. ``{"realm": "real" | "play", "amount": cents}``; one query."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return None
    balance = wallet_selectors.balance_get(user=user)
    if context.get("money_realm") == "play":
        return {"realm": "play", "amount": balance["play"]}
    return {"realm": "real", "amount": balance["available"]}


@register.inclusion_tag("includes/site_notices.html", takes_context=True)
def site_notices(context: dict[str, Any]) -> dict[str, Any]:
    """The game notices in force (rules 004, "Avvisi di gioco") and, for a player, the live socket's URL
    (not for a staff session still waiting for its second factor: its sockets are refused)."""
    from piattaforma import siteops, twofa

    user = context.get("user")
    live = bool(user is not None and user.is_authenticated)
    if live and twofa.required(user):
        verified = getattr(user, "is_verified", None)
        live = bool(verified is not None and verified())
    return {"notices": siteops.notices_in_force(), "live": live}
