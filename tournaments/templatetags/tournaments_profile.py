"""The player's own tournaments on his profile page (the core's page loads this tag; no import back)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import rankings, selectors

register = template.Library()


@register.inclusion_tag("tournaments/_my_tournaments.html")
def my_tournaments(user: Any) -> dict[str, Any]:
    """His latest tournaments with their state, his placing and prize."""
    return {"rows": selectors.my_tournaments(user_id=user.pk) if user.is_authenticated else []}


@register.inclusion_tag("tournaments/_my_rankings.html")
def my_rankings(user: Any) -> dict[str, Any]:
    """His Punti Torneo in each leaderboard's period and section, and his skill level per game."""
    if not user.is_authenticated:
        return {"points": None, "levels": []}
    return {"points": rankings.my_points(user_id=user.pk), "levels": rankings.my_levels(user_id=user.pk)}
