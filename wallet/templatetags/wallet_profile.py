"""The player's regulator tickets on his profile page (the core's page loads this tag; no import back)."""

from __future__ import annotations

from typing import Any

from django import template

from wallet import selectors

register = template.Library()


@register.inclusion_tag("wallet/_my_tickets.html")
def my_tickets(user: Any) -> dict[str, Any]:
    """His latest cash-table buy-ins and rebuys with the regulator's ticket of each."""
    return {"rows": selectors.regulator_tickets(user=user) if user.is_authenticated else []}
