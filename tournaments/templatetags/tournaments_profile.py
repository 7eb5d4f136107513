"""The player's own tournaments on his profile page (the core's page loads this tag; no import back)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_my_tournaments.html")
def my_tournaments(user: Any) -> dict[str, Any]:
    """His latest tournaments with their state, his placing and prize."""
    return {"rows": selectors.my_tournaments(user_id=user.pk) if user.is_authenticated else []}
